"""Agents that act in GymV envs through one small interface.

Every agent implements::

    agent.reset(instruction: str, info: dict) -> None    # start of an episode
    agent.act(observation, info: dict) -> action          # one action per step

and is built by ``make_agent(name, env)``; the benchmark runner uses nothing else.
"""

from __future__ import annotations

import importlib
from typing import Any

import gymnasium as gym

from agents.base import Agent, OracleAgent, RandomAgent

BUILTIN = {"random": RandomAgent, "oracle": OracleAgent}


def make_agent(name: str, env: gym.Env, **kwargs: Any) -> Agent:
    """Build an agent by name (``random``, ``oracle``) or ``module:Class``."""
    if name in BUILTIN:
        return BUILTIN[name](env, **kwargs)
    if ":" in name:
        module, _, cls = name.partition(":")
        try:
            factory = getattr(importlib.import_module(module), cls)
        except (ImportError, AttributeError) as exc:
            raise ValueError(f"cannot load agent {name!r}: {exc}") from None
        return factory(env, **kwargs)
    raise ValueError(f"unknown agent {name!r}; valid: {', '.join(BUILTIN)}, or module:Class")


__all__ = ["Agent", "OracleAgent", "RandomAgent", "make_agent"]
