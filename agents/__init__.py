"""Agents that act in GymV envs through one small interface.

Every agent implements::

    agent.reset(instruction: str, info: dict) -> None    # start of an episode
    agent.act(observation, info: dict) -> action          # one action per step

and may implement ``agent.stats() -> dict`` (per-episode counts such as tokens and cost,
read by the benchmark runner after each episode). Agents are built by
``make_agent(name, env, **kwargs)``; the benchmark runner uses nothing else.

Names: ``random``, ``oracle``, ``vlm`` (`agents.vlm.VLMAgent`, an OpenAI-compatible
endpoint), ``human`` (`agents.human.HumanAgent`, keyboard), ``sb3:<checkpoint.zip>``
(`agents.sb3.SB3Agent`) and ``module:Class`` for your own.
"""

from __future__ import annotations

import importlib
from typing import Any

import gymnasium as gym

from agents.base import Agent, OracleAgent, RandomAgent

BUILTIN = {"random": RandomAgent, "oracle": OracleAgent}
# Agents with optional dependencies, imported when asked for.
LAZY = {"vlm": "agents.vlm:VLMAgent", "human": "agents.human:HumanAgent"}


def _load(target: str, name: str) -> Any:
    module, _, cls = target.partition(":")
    try:
        return getattr(importlib.import_module(module), cls)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load agent {name!r}: {exc}") from None


def make_agent(name: str, env: gym.Env, **kwargs: Any) -> Agent:
    """Build an agent by name (``random``, ``oracle``, ``vlm``, ``human``), ``sb3:<path>`` or ``module:Class``."""
    if name in BUILTIN:
        return BUILTIN[name](env, **kwargs)
    if name in LAZY:
        return _load(LAZY[name], name)(env, **kwargs)
    if name.startswith("sb3:"):
        return _load("agents.sb3:SB3Agent", name)(env, name[len("sb3:"):], **kwargs)
    if ":" in name:
        return _load(name, name)(env, **kwargs)
    valid = ", ".join([*BUILTIN, *LAZY, "sb3:<checkpoint path>"])
    raise ValueError(f"unknown agent {name!r}; valid: {valid}, or module:Class")


__all__ = ["Agent", "OracleAgent", "RandomAgent", "make_agent"]
