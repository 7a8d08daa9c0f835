"""Agents that act in GymV envs through one small interface (installed as ``gymv.agents``).

Every agent implements::

    agent.reset(instruction: str, info: dict) -> None    # start of an episode
    agent.act(observation, info: dict) -> action          # one action per step

and may implement ``agent.stats() -> dict`` (per-episode counts such as tokens and cost,
read after each episode). Agents are built by ``make_agent(name, env, **kwargs)``, and every
command (the benchmark runner, ``python -m gymv.agents.vlm``, the SB3 evaluation, human play)
plays them with the one episode loop, `gymv.benchmarks.rollout.rollout`.

Names (`AGENTS`, the one table of them): ``random``, ``oracle``, ``oracle:<eps>`` (a random action
with probability eps), ``vlm``
(`gymv.agents.vlm.VLMAgent`, an OpenAI-compatible endpoint), ``human``
(`gymv.agents.human.HumanAgent`, keyboard), ``sb3:<checkpoint.zip>``
(`gymv.agents.sb3.SB3Agent`) and ``module:Class`` for your own.
"""
from __future__ import annotations

import importlib
import inspect
from typing import Any

import gymnasium as gym

from gymv.agents.base import Agent, AgentUnavailable, NoisyOracleAgent, OracleAgent, RandomAgent

# Every agent name and the class it builds (imported only when asked for: vlm, human and sb3
# have optional dependencies). A name ending in ``:`` takes an argument after the colon
# (``sb3:<checkpoint>``), passed as the constructor's second positional argument.
AGENTS: dict[str, str] = {
    "random": "gymv.agents.base:RandomAgent",
    "oracle": "gymv.agents.base:OracleAgent",
    "oracle:": "gymv.agents.base:NoisyOracleAgent",
    "vlm": "gymv.agents.vlm:VLMAgent",
    "human": "gymv.agents.human:HumanAgent",
    "sb3:": "gymv.agents.sb3:SB3Agent",
}


def agent_names() -> str:
    """The valid spellings of ``--agent``, for messages."""
    arg = {"sb3:": "<checkpoint path>", "oracle:": "<eps>"}
    return ", ".join(n + arg.get(n, "<arg>") if n.endswith(":") else n for n in AGENTS) + ", or module:Class"


def _load(target: str, name: str) -> Any:
    module, _, cls = target.partition(":")
    try:
        return getattr(importlib.import_module(module), cls)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load agent {name!r}: {exc}") from None


def resolve_agent(name: str) -> tuple[Any, tuple[Any, ...]]:
    """The class (or factory) an agent name builds and the positional arguments after ``env``."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"invalid agent {name!r}; valid: {agent_names()}")
    if name in AGENTS and not name.endswith(":"):
        return _load(AGENTS[name], name), ()
    prefix, sep, arg = name.partition(":")
    if sep and prefix + ":" in AGENTS:
        return _load(AGENTS[prefix + ":"], name), (arg,)
    if sep and prefix and arg:
        return _load(name, name), ()
    raise ValueError(f"unknown agent {name!r}; valid: {agent_names()}")


def takes_seed(factory: Any) -> bool:
    """Whether ``factory`` accepts a ``seed`` keyword."""
    try:
        return "seed" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False


def make_agent(name: str, env: gym.Env, *, seed: int | None = None, **kwargs: Any) -> Agent:
    """Build an agent by name (see `AGENTS`), ``sb3:<path>`` or ``module:Class``.

    ``seed`` is passed on only to agents whose constructor takes one (random, vlm, ...).
    """
    factory, args = resolve_agent(name)
    if seed is not None and "seed" not in kwargs and takes_seed(factory):
        kwargs["seed"] = seed
    return factory(env, *args, **kwargs)


__all__ = ["AGENTS", "Agent", "AgentUnavailable", "NoisyOracleAgent", "OracleAgent", "RandomAgent", "agent_names", "make_agent", "resolve_agent"]


if __name__ == "agents":  # this folder imported by its path in a checkout, not as installed
    raise ImportError("GymV's agents are installed as gymv.agents: import gymv.agents (pip install -e . in a checkout); "
                      "a bare 'agents' is another package's name")
