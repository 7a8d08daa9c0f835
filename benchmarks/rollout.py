"""The one episode loop: every command that plays an agent in an env plays it here.

`rollout` resets the env with a seed, lets the agent act until the episode terminates or the
step budget truncates it, and returns the episode's record. The benchmark runner
(`gymv.benchmarks.episode.run_task`), ``python -m gymv.agents.vlm``, the SB3 evaluation
(`gymv.agents.sb3.evaluate`) and human play (`gymv.agents.human.play`) all call it, so they
score the same thing the same way.

The score is the protocol's (`gymv.benchmarks.scoring.episode_score`) over the env's *own*
return, `VisionEnv.episode_return`: a wrapper that clips or shapes rewards changes what the
agent sees, not the score (the sum of the rewards after the wrappers is kept as
``wrapped_return`` when it differs).

Record keys: ``env_id``, ``domain``, ``protocol``, ``difficulty``, ``seed``, ``return``,
``max_return``, ``score``, ``success``, ``progress``, ``steps``, ``invalid_actions``,
``invalid_rate``, ``terminated``, ``truncated``, ``wall_s``; ``parsed`` (single-turn: the
env accepted an answer and the agent did not fall back after failing to parse its own reply);
``agent_stats`` (the agent's ``stats()``, when it has one); ``wrapped_return`` (see above);
``_trajectory`` and ``_frames`` on request.

Deadlocks (envs whose ``info`` carries ``stuck``, ``deadlocks``, ``stuck_steps`` and
``recoveries``, the world3d physics worlds): the record gets ``deadlocks``, ``stuck_steps`` and
``recoveries`` from the last step, and ``deadlocks_noticed``: how many deadlocks the agent's own
words acknowledged while it was stuck (PokeGym's aware/unaware split), read by
``noticed_deadlock`` from the agent's ``last_reply`` (the VLM agent keeps its last reply there).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from gymv.benchmarks.scoring import episode_score
from gymv_envs.core.jsonable import jsonable
from gymv_envs.core.registry import spec_of


def episode_return(env: gym.Env) -> float:
    """The return of the current episode as the GymV env under ``env``'s wrappers counts it."""
    base = env.unwrapped
    if not hasattr(base, "episode_return"):
        raise TypeError(f"rollout needs a GymV env (gymv_envs VisionEnv) under the wrappers; got {type(base).__name__}")
    return float(base.episode_return)


DEADLOCK_KEYS = ("deadlocks", "stuck_steps", "recoveries")
_AWARE = re.compile(r"\b(stuck|blocked|trapped|wedged|snagged|jammed|can(?:no|')t (?:move|go|get)|not moving|"
                    r"(?:isn't|is not|am not|didn't|did not) (?:moving|move)|no progress|same (?:place|spot|view))\b",
                    re.IGNORECASE)


def noticed_deadlock(reply: str) -> bool:
    """Whether a reply written while stuck says so (the default awareness label; word list in `_AWARE`).

    >>> noticed_deadlock("I seem to be stuck behind the crate, backing up."), noticed_deadlock("Action: move_forward")
    (True, False)
    """
    return bool(_AWARE.search(reply or ""))


def rollout(env: gym.Env, agent: Any, seed: int | None = None, *, trajectory: bool = False, frames: bool = False,
            on_step: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play one episode of ``agent`` in ``env`` from ``env.reset(seed=seed)``; returns its record.

    ``env`` is a GymV env, usually from ``gym.make`` (which applies the id's step budget) and
    possibly wrapped; ``agent`` has ``reset(instruction, info)`` and ``act(obs, info)``.
    ``trajectory`` keeps every step's action, reward and info in ``record["_trajectory"]``,
    ``frames`` (with ``trajectory``) every observation in ``record["_frames"]``; ``on_step``
    is called with each step's entry (a progress display, a recorder).
    """
    spec = spec_of(env)
    base = env.unwrapped
    protocol = type(base).protocol
    steps_log: list[dict[str, Any]] = []
    kept: list[np.ndarray] = []
    t0 = time.perf_counter()
    obs, info = env.reset(seed=seed)
    agent.reset(info.get("instruction", ""), info)
    if trajectory and frames:
        kept.append(obs)
    total, steps, invalid = 0.0, 0, 0
    noticed: set[int] = set()
    terminated = truncated = False
    while not (terminated or truncated):
        action = agent.act(obs, info)
        obs, reward, terminated, truncated, info = env.step(action)
        if info.get("stuck") and noticed_deadlock(str(getattr(agent, "last_reply", "") or "")):
            noticed.add(int(info.get("deadlocks", 0)))
        total += float(reward)
        steps += 1
        invalid += bool(info.get("invalid_action", False))
        if trajectory or on_step is not None:
            entry = {"action": jsonable(action), "reward": float(reward), "terminated": bool(terminated),
                     "truncated": bool(truncated), "invalid_action": bool(info.get("invalid_action", False)),
                     "progress": float(info.get("progress", 0.0)), "feedback": info.get("feedback", "")}
            if trajectory:
                steps_log.append(entry)
                if frames:
                    kept.append(obs)
            if on_step is not None:
                on_step(entry)
    wall = time.perf_counter() - t0
    env_return = episode_return(env)
    stats = agent.stats() if callable(getattr(agent, "stats", None)) else None
    success = bool(info.get("success", False))
    record: dict[str, Any] = {
        "env_id": spec.id if spec is not None else type(base).__name__,
        "domain": spec.domain if spec is not None else None,
        "protocol": protocol,
        "difficulty": getattr(base, "difficulty", None),
        "seed": seed,
        "return": round(env_return, 9),
        "max_return": float(spec.max_return) if spec is not None else 1.0,
        "success": success,
        "progress": float(info.get("progress", 0.0)),
        "steps": steps,
        "invalid_actions": invalid,
        "invalid_rate": invalid / steps if steps else 0.0,
        "terminated": bool(terminated),
        "truncated": bool(truncated),
    }
    record["score"] = episode_score(protocol, env_return, record["max_return"], success)
    if all(k in info for k in DEADLOCK_KEYS):
        record.update({k: int(info[k]) for k in DEADLOCK_KEYS})
        record["deadlocks_noticed"] = len(noticed)
    if abs(total - env_return) > 1e-9:
        record["wrapped_return"] = round(total, 9)
    if protocol == "single_turn":
        record["parsed"] = bool(terminated) and not (stats or {}).get("parse_failures", 0)
    if stats is not None:
        record["agent_stats"] = jsonable(stats)
    record["wall_s"] = round(wall, 6)
    if trajectory:
        record["_trajectory"] = {"instruction": getattr(base, "instruction", ""), "steps": steps_log,
                                 "final_info": jsonable({k: v for k, v in info.items() if k != "state_text"})}
        if frames:
            record["_frames"] = np.stack(kept)
    return record


__all__ = ["episode_return", "rollout"]
