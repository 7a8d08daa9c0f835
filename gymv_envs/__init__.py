"""GymV: visual environments for agentic vision research.

Importing this package registers every id with Gymnasium::

    import gymnasium as gym
    import gymv_envs

    env = gym.make("GymV/Sokoban-v1")

It also raises glibc's malloc thresholds once (`gymv_envs.core.allocator`: fresh frames without
page faults; ``GYMV_MALLOC_TUNING=0`` turns that off).
"""

from gymv_envs.core.allocator import tune_allocator
from gymv_envs.core.registry import (
    describe,
    domain_names,
    extra_available,
    ids,
    register_all,
    task_spec,
)
from gymv_envs.core.spec import TaskSpec

__version__ = "0.1.0"
__all__ = ["TaskSpec", "describe", "domain_names", "extra_available", "ids", "task_spec"]

tune_allocator()
register_all()
