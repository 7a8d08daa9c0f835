"""The agent interface and the two built-in baselines."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import gymnasium as gym


@runtime_checkable
class Agent(Protocol):
    """What the benchmark runner needs from an agent."""

    def reset(self, instruction: str, info: dict[str, Any]) -> None: ...

    def act(self, observation: Any, info: dict[str, Any]) -> Any: ...


class RandomAgent:
    """Samples uniformly from the action space (seeded for reproducible runs)."""

    def __init__(self, env: gym.Env, seed: int = 0) -> None:
        self.space = env.action_space
        self.space.seed(seed)

    def reset(self, instruction: str, info: dict[str, Any]) -> None:
        pass

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        return self.space.sample()


class OracleAgent:
    """Asks the env's planner/solver (``env.unwrapped.oracle_action()``) for every action."""

    def __init__(self, env: gym.Env) -> None:
        self.env = env.unwrapped

    def reset(self, instruction: str, info: dict[str, Any]) -> None:
        pass

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        return self.env.oracle_action()
