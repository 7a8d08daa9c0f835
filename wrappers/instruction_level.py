"""`InstructionLevel`: choose the instruction granularity (goal / step / visual) of an env."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

import gymv_envs
from gymv.wrappers._base_env import rebuild_base, vision_base


def ids_with_levels() -> list[str]:
    """Registered ids whose env offers instruction levels (read from the registry)."""
    return [i for i in gymv_envs.ids() if gymv_envs.describe(i)["instruction_levels"]]


class InstructionLevel(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Set how much guidance the instruction gives: ``"goal"``, ``"step"`` or ``"visual"``.

    ``goal`` states the goal only, ``step`` adds step-by-step directions and ``visual`` adds
    landmark-based visual guidance, on envs that list the level in ``instruction_levels``
    (e.g. GridNav); other envs raise `ValueError` naming the ids that have levels.

    The level is a constructor argument of the env (a level is a pure function of its
    configuration and seed), so the wrapper rebuilds the innermost env with the same arguments
    and the new level, and keeps the wrappers around it: the env's own ``__init__`` checks the
    level and anything the task derives from it stays consistent. Apply it before the first
    ``reset``. ``info["instruction_level"]`` is reported at reset.

    Args:
        env: a GymV env (or a stack over one).
        level: one of the env's ``instruction_levels``.

    Example:
        >>> import gymnasium as gym
        >>> import gymv_envs
        >>> from gymv.wrappers import InstructionLevel
        >>> env = InstructionLevel(gym.make("GymV/GridNav-v1", obs_size=(48, 48)), "step")
        >>> _, info = env.reset(seed=0)
        >>> info["instruction_level"], "Directions: go" in info["instruction"]
        ('step', True)
        >>> InstructionLevel(gym.make("GymV/GridNav-v1"), "detailed")
        Traceback (most recent call last):
        ...
        ValueError: invalid instruction_level='detailed'; valid values for GridNav: 'goal', 'step', 'visual'
    """

    def __init__(self, env: gym.Env, level: str) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, level=level)
        base = vision_base(env, "InstructionLevel")
        name = type(base).__name__
        if not base.instruction_levels:
            raise ValueError(f"{name} has no instruction levels; ids that have them: {', '.join(ids_with_levels())}")
        if level not in base.instruction_levels:
            raise ValueError(f"invalid instruction_level={level!r}; valid values for {name}: "
                             f"{', '.join(map(repr, base.instruction_levels))}")
        if base.instruction_level != level:
            env = rebuild_base(env, "InstructionLevel", instruction_level=level)
        gym.Wrapper.__init__(self, env)
        self.level = level

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        info["instruction_level"] = self.env.unwrapped.instruction_level
        return obs, info
