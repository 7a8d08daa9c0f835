"""Run one episode of an agent in an env and summarise it."""

from __future__ import annotations

import time
from typing import Any

import gymnasium as gym

import gymv_envs
from agents import make_agent
from benchmarks.scoring import episode_score


def run_episode(env_id: str, agent: str, seed: int, env_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
    """One episode under the registered budget; returns a JSON-able record."""
    desc = gymv_envs.describe(env_id)
    env = gym.make(env_id, **(env_kwargs or {}))
    try:
        bot = make_agent(agent, env)
        t0 = time.perf_counter()
        obs, info = env.reset(seed=seed)
        bot.reset(info["instruction"], info)
        total, steps, invalid = 0.0, 0, 0
        while True:
            obs, reward, terminated, truncated, info = env.step(bot.act(obs, info))
            total += reward
            steps += 1
            invalid += bool(info["invalid_action"])
            if terminated or truncated:
                break
        wall = time.perf_counter() - t0
    finally:
        env.close()
    return {
        "env_id": env_id,
        "domain": desc["domain"],
        "protocol": desc["protocol"],
        "seed": seed,
        "agent": agent,
        "return": total,
        "score": episode_score(desc["protocol"], total, desc["max_return"], bool(info["success"])),
        "success": bool(info["success"]),
        "progress": float(info["progress"]),
        "steps": steps,
        "invalid_rate": invalid / steps,
        "truncated": bool(truncated),
        "wall_s": wall,
    }
