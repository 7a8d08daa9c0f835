"""`StepBudget`: truncate an episode after a fixed number of steps and report the budget."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.wrappers import TimeLimit

from gymv.wrappers._base_env import registered_id, vision_base


def registered_budget(env: gym.Env) -> int:
    """The step budget registered for the id ``env`` was made from."""
    env_id = registered_id(vision_base(env, "StepBudget"))
    budget = gym.spec(env_id).max_episode_steps if env_id else None
    if budget is None:
        raise ValueError("the env was not made from a registered id, so it has no registered budget; "
                         "pass max_steps (an int >= 1)")
    return int(budget)


class StepBudget(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Truncate the episode once ``max_steps`` steps have been taken, and report the budget.

    Every step counts, invalid actions included (the env leaves its state unchanged but the
    step is spent). ``info`` gains ``steps_used``, ``steps_left``, ``budget`` and
    ``budget_exhausted`` (True on the step that uses the last of the budget, which is then
    truncated, as Gymnasium's `TimeLimit` does; a step that also terminates keeps
    ``terminated=True``).

    ``gym.make`` already wraps every id in a `TimeLimit` at its registered budget. StepBudget
    works on top of it (the default budget is the registered one, and a smaller budget simply
    truncates first); a budget *larger* than an inner TimeLimit could never be reached, so it
    raises `ValueError`: make the env with ``gym.make(id, max_episode_steps=-1)`` (no TimeLimit)
    to give it a longer budget, e.g. PokeGym-style budgets of 180 to 360 steps.

    Args:
        env: a GymV env (any stack whose innermost env is a GymV env).
        max_steps: the budget, an int >= 1; ``None`` (default) uses the id's registered
            ``max_episode_steps``.

    Example:
        >>> import gymnasium as gym
        >>> import gymv_envs
        >>> from gymv.wrappers import StepBudget
        >>> env = StepBudget(gym.make("GymV/Sokoban-v1", obs_size=(48, 48)), max_steps=2)
        >>> _, info = env.reset(seed=0)
        >>> info["steps_left"]
        2
        >>> _, _, _, truncated, info = env.step(0)
        >>> truncated, info["steps_used"], info["steps_left"]
        (False, 1, 1)
        >>> _, _, _, truncated, info = env.step(0)
        >>> truncated, info["budget_exhausted"]
        (True, True)
        >>> StepBudget(gym.make("GymV/Sokoban-v1"), max_steps=0)
        Traceback (most recent call last):
        ...
        ValueError: invalid max_steps=0; valid values: an int >= 1, or None for the registered budget (120)
    """

    def __init__(self, env: gym.Env, max_steps: int | None = None) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, max_steps=max_steps)
        vision_base(env, "StepBudget")   # first: Gymnasium before 1.4 only asserts
        gym.Wrapper.__init__(self, env)
        if max_steps is None:
            max_steps = registered_budget(env)
        elif isinstance(max_steps, bool) or not isinstance(max_steps, (int, np.integer)):
            raise TypeError(f"max_steps must be an int >= 1 or None; got {type(max_steps).__name__}")
        elif max_steps < 1:
            try:
                hint = f" ({registered_budget(env)})"
            except ValueError:
                hint = ""
            raise ValueError(f"invalid max_steps={max_steps!r}; valid values: an int >= 1, "
                             f"or None for the registered budget{hint}")
        inner = env
        while isinstance(inner, gym.Wrapper):
            if isinstance(inner, TimeLimit) and inner._max_episode_steps < max_steps:
                raise ValueError(
                    f"max_steps={max_steps} exceeds the TimeLimit of {inner._max_episode_steps} steps already "
                    "around this env; make it with gym.make(id, max_episode_steps=-1) to use a longer budget")
            inner = inner.env
        self.max_steps = int(max_steps)
        self.steps_used = 0

    def _report(self, info: dict[str, Any]) -> dict[str, Any]:
        info["budget"] = self.max_steps
        info["steps_used"] = self.steps_used
        info["steps_left"] = max(0, self.max_steps - self.steps_used)
        info["budget_exhausted"] = self.steps_used >= self.max_steps
        return info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self.steps_used = 0
        obs, info = self.env.reset(seed=seed, options=options)
        return obs, self._report(info)

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.steps_used += 1
        info = self._report(info)
        return obs, reward, terminated, bool(truncated or info["budget_exhausted"]), info
