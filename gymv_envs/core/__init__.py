"""GymV core: the env base classes, task specs, registry, parsing, drawing and seeding."""

from gymv_envs.core.env import MultiTurnEnv, Outcome, SingleTurnEnv, VisionEnv
from gymv_envs.core.spec import TaskSpec

__all__ = ["MultiTurnEnv", "Outcome", "SingleTurnEnv", "TaskSpec", "VisionEnv"]
