"""Helpers for the tests: building envs and running the oracle."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs


def all_ids() -> list[str]:
    return gymv_envs.ids()


def id_params(ids: list[str]) -> list:
    """pytest params over ids, skipping (with the reason) those whose extra is missing."""
    out = []
    for env_id in ids:
        d = gymv_envs.describe(env_id)
        marks = () if d["available"] else (pytest.mark.skip(reason=f"needs extras {d['extras']}"),)
        out.append(pytest.param(env_id, id=env_id.removeprefix("GymV/"), marks=marks))
    return out


def variants(env_id: str) -> list[dict]:
    """Constructor kwargs worth covering for an id: each answer format and action mode."""
    d = gymv_envs.describe(env_id)
    out = [{}]
    out += [{"answer_format": f} for f in d["answer_formats"][1:]]
    out += [{"action_mode": m} for m in d["action_modes"][1:]]
    return out


def run_oracle(env_id: str, seed: int, **kwargs) -> tuple[bool, int, float, list[dict]]:
    """Follow the oracle from reset(seed) under the registered budget."""
    env = gym.make(env_id, **kwargs)
    try:
        _, info = env.reset(seed=seed)
        infos, total, steps = [info], 0.0, 0
        while True:
            action = env.unwrapped.oracle_action()
            _, reward, terminated, truncated, info = env.step(action)
            infos.append(info)
            total += reward
            steps += 1
            if terminated or truncated:
                return bool(info["success"]), steps, total, infos
    finally:
        env.close()


def invalid_action(space: gym.Space):
    """An action outside the space that a careless agent could send."""
    if isinstance(space, gym.spaces.Discrete):
        return int(space.start + space.n)
    if isinstance(space, gym.spaces.Box):
        return np.full(space.shape, np.nan, dtype=np.float32)
    if isinstance(space, gym.spaces.Text):
        return "\x00\x01 ?? not an answer ??"
    return None
