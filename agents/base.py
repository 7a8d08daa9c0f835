"""The agent interface and the two built-in baselines."""

from __future__ import annotations

import sys
from typing import Any, Protocol, runtime_checkable

import gymnasium as gym


class AgentUnavailable(RuntimeError):
    """The agent cannot play any episode on: its model endpoint is down, refuses the key, does not know the
    model, keeps answering nothing. Raised from ``act``, it stops a benchmark run at once, saying why (the
    finished episodes stay saved), instead of every other episode failing the same way after its retries."""


# Off in the benchmark runner's worker processes: each would tell its own copy of a note (once per worker);
# the runner tells it once, from what the episode records carry (a VLM agent's request_changes).
TELL_NOTES = True


def tell_note(message: str) -> None:
    """Print ``note: <message>`` on stderr (not where `TELL_NOTES` is off)."""
    if TELL_NOTES:
        print(f"note: {message}", file=sys.stderr, flush=True)


def request_change_text(model: Any, field: str, change: str, where: str = "") -> str:
    """The note that ``model`` (at ``where``) refuses the request field ``field``, and what is sent instead."""
    at = f" at {where}" if where else ""
    return (f"model {str(model)!r}{at} refuses {field}: {change}, from now on (the agent's stats name it in "
            "request_changes)")


@runtime_checkable
class Agent(Protocol):
    """What the benchmark runner needs from an agent."""

    def reset(self, instruction: str, info: dict[str, Any]) -> None: ...

    def act(self, observation: Any, info: dict[str, Any]) -> Any: ...


def check_seed(seed: Any) -> int | None:
    """``seed`` if it is None or an integer >= 0 (not a bool), else a `ValueError` naming the valid values."""
    import numpy as np

    if seed is None or (isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)) and seed >= 0):
        return None if seed is None else int(seed)
    raise ValueError(f"invalid seed={seed!r}; valid values: an integer >= 0, or None for an unseeded agent")


class RandomAgent:
    """Samples uniformly from the action space (seeded for reproducible runs)."""

    def __init__(self, env: gym.Env, seed: int | None = 0) -> None:
        self.space = env.action_space
        self.space.seed(check_seed(seed))

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


class NoisyOracleAgent:
    """The oracle, except that with probability ``eps`` it takes a uniformly random action instead
    (``oracle:<eps>`` in `gymv.agents.make_agent`): a ladder of agents of known quality, eps 0 being
    the oracle and 1 the random agent."""

    def __init__(self, env: gym.Env, eps: str | float = 0.0, seed: int | None = 0) -> None:
        seed = check_seed(seed)
        try:
            self.eps = float(eps)
        except (TypeError, ValueError):
            raise ValueError(f"invalid eps {eps!r} for oracle:<eps>; valid values: a number from 0 to 1") from None
        if not 0.0 <= self.eps <= 1.0:
            raise ValueError(f"invalid eps {eps!r} for oracle:<eps>; valid values: a number from 0 to 1")
        self.env, self.space = env.unwrapped, env.action_space
        self.space.seed(seed)
        import numpy as np

        self.rng = np.random.default_rng(None if seed is None else [seed, 1])

    def reset(self, instruction: str, info: dict[str, Any]) -> None:
        pass

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        if self.rng.random() < self.eps:
            return self.space.sample()
        return self.env.oracle_action()
