"""GymV core: the env base classes, task specs, registry, parsing, drawing and seeding."""

from gymv_envs.core.env import MultiTurnEnv, Outcome, PaintedOnceEnv, SingleTurnEnv, VisionEnv
from gymv_envs.core.spec import TaskSpec

__all__ = ["MultiTurnEnv", "Outcome", "PaintedOnceEnv", "SingleTurnEnv", "TaskSpec", "VisionEnv"]
