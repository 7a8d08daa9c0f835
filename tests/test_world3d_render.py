"""world3d frames do not depend on which world drew first in the process (shared GL contexts)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("mujoco")

import gymv_envs  # noqa: E402,F401 - registers the ids
from gymv_envs.domains.world3d import _render  # noqa: E402


def _first_frame(env_id: str, seed: int) -> np.ndarray:
    env = gym.make(env_id, obs_size=(40, 40))
    try:
        return env.reset(seed=seed)[0]
    finally:
        env.close()


def _fresh_contexts() -> None:
    # as in a new process: the next render makes its own contexts (the old ones stay alive, unused)
    _render._GLPool.contexts, _render._GLPool.owners, _render._GLPool.users = {}, {}, {}


@pytest.mark.parametrize("first", ["GymV/World3DTownErrand-v2", "GymV/World3DSignTrail-v1"])
def test_a_frame_is_the_same_whichever_world_drew_before_it(first):
    # a town's floor plane is 190 m across, a one-room world's far smaller: an MjrContext bakes its
    # maker's planes and material-to-texture table, so before contexts were keyed by them the room
    # came out wrong
    _fresh_contexts()
    alone = _first_frame("GymV/World3DOneRoom-v2", 0)
    _fresh_contexts()
    _first_frame(first, 5)
    after = _first_frame("GymV/World3DOneRoom-v2", 0)
    assert np.array_equal(alone, after)
