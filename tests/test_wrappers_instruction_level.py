"""InstructionLevel: goal / step / visual instructions on envs that have them; a clear error elsewhere."""

from __future__ import annotations

import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gymv_envs
from gymv.wrappers import InstructionLevel
from tests.helpers import id_params

S = (48, 48)
LEVEL_IDS = id_params([i for i in gymv_envs.ids() if gymv_envs.describe(i)["instruction_levels"]][:3])
NO_LEVEL_IDS = id_params(["GymV/MazePath-v1", "GymV/Sokoban-v1", "GymV/Artillery-v1", "GymV/RaycastMaze-v1"])


@pytest.mark.parametrize("env_id", LEVEL_IDS)
def test_each_level_changes_the_instruction_not_the_level(env_id):
    texts, frames = {}, {}
    for level in gymv_envs.describe(env_id)["instruction_levels"]:
        env = InstructionLevel(gym.make(env_id, obs_size=S), level)
        obs, info = env.reset(seed=0)
        assert info["instruction_level"] == env.unwrapped.instruction_level == level
        assert info["instruction"] == env.unwrapped.instruction
        texts[level], frames[level] = info["instruction"], obs
    assert len(set(texts.values())) == len(texts)  # every level words the task differently
    first = next(iter(frames.values()))
    assert all(np.array_equal(f, first) for f in frames.values())  # the same level (world) for one seed


def test_gridnav_levels_add_directions_and_landmarks():
    env = InstructionLevel(gym.make("GymV/GridNav-v1", obs_size=S, action_mode="joystick"), "step")
    _, info = env.reset(seed=3)
    assert "Directions: go" in info["instruction"] and env.unwrapped.action_mode == "joystick"  # other args kept
    env = InstructionLevel(gym.make("GymV/GridNav-v1", obs_size=S), "visual")
    assert "part of the grid" in env.reset(seed=3)[1]["instruction"]


@pytest.mark.parametrize("env_id", LEVEL_IDS)
def test_check_env_pickle_and_oracle(env_id):
    env = InstructionLevel(gym.make(env_id, obs_size=S), "step")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    env.reset(seed=0)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.unwrapped.instruction == env.unwrapped.instruction
    while True:
        *_, terminated, truncated, info = env.step(env.unwrapped.oracle_action())
        if terminated or truncated:
            break
    assert info["success"]


@pytest.mark.parametrize("env_id", NO_LEVEL_IDS)
def test_envs_without_levels_raise_naming_those_with_levels(env_id):
    with pytest.raises(ValueError, match="has no instruction levels; ids that have them: .*GymV/GridNav-v1"):
        InstructionLevel(gym.make(env_id, obs_size=S), "goal")


@pytest.mark.parametrize("level", ["detailed", "", None, 1])
def test_unknown_level(level):
    with pytest.raises(ValueError, match="valid values for GridNav: 'goal', 'step', 'visual'"):
        InstructionLevel(gym.make("GymV/GridNav-v1", obs_size=S), level)


def test_async_vector_env():
    fn = lambda: InstructionLevel(gym.make("GymV/GridNav-v1", obs_size=S), "visual")
    envs = gym.vector.AsyncVectorEnv([fn, fn])
    try:
        _, info = envs.reset(seed=[0, 1])
        assert list(info["instruction_level"]) == ["visual", "visual"]
        assert all("part of the grid" in text for text in info["instruction"])
    finally:
        envs.close()
