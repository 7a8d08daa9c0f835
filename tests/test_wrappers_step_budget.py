"""StepBudget: truncation at the budget, info keys, invalid actions counted, bad input."""

from __future__ import annotations

import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gymv_envs
from gymv.wrappers import StepBudget
from tests.helpers import id_params, invalid_action

S = (48, 48)
WORLD3D = [i for i in gymv_envs.ids() if gymv_envs.describe(i)["domain"] == "world3d"][:1]
IDS = id_params(["GymV/MazePath-v1", "GymV/Sokoban-v1", "GymV/Artillery-v1", "GymV/RaycastMaze-v1", *WORLD3D])


@pytest.mark.parametrize("env_id", IDS)
def test_truncates_at_budget_and_counts_invalid_actions(env_id):
    env = StepBudget(gym.make(env_id, obs_size=S, max_episode_steps=-1), 3)
    _, info = env.reset(seed=0)
    assert (info["budget"], info["steps_used"], info["steps_left"], info["budget_exhausted"]) == (3, 0, 3, False)
    bad = invalid_action(env.action_space)
    for i in range(1, 4):
        _, _, terminated, truncated, info = env.step(bad)
        assert info["invalid_action"] and not terminated
        assert (info["steps_used"], info["steps_left"]) == (i, 3 - i)
        assert truncated is (i == 3) and info["budget_exhausted"] is (i == 3)
    _, info = env.reset(seed=1)
    assert info["steps_used"] == 0 and info["steps_left"] == 3
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_default_is_the_registered_budget(env_id):
    env = StepBudget(gym.make(env_id, obs_size=S))
    assert env.max_steps == gymv_envs.describe(env_id)["max_episode_steps"] == gym.spec(env_id).max_episode_steps
    _, info = env.reset(seed=0)
    assert info["steps_left"] == env.max_steps
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_and_pickle(env_id):
    env = StepBudget(gym.make(env_id, obs_size=S, max_episode_steps=-1), 5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "wrapped env" and Box-normalisation advice
        check_env(env, skip_render_check=True)
    env.reset(seed=2)
    action = env.unwrapped.oracle_action()
    copy = pickle.loads(pickle.dumps(env))
    a = env.step(action)
    b = copy.step(action)
    assert np.array_equal(a[0], b[0]) and a[4]["steps_used"] == b[4]["steps_used"] == 1


def test_pokegym_budget_beyond_the_registered_one():
    with pytest.raises(ValueError, match="max_episode_steps=-1"):
        StepBudget(gym.make("GymV/RaycastMaze-v1", obs_size=S), 360)  # TimeLimit(300) would cut it
    env = StepBudget(gym.make("GymV/RaycastMaze-v1", obs_size=S, max_episode_steps=-1), 360)
    env.reset(seed=0)
    turn_left = env.unwrapped.action_names.index("turn_left")
    for i in range(1, 361):
        _, _, terminated, truncated, info = env.step(turn_left)
        assert not terminated and truncated is (i == 360)
    assert info["steps_used"] == 360 and info["budget_exhausted"]
    smaller = StepBudget(gym.make("GymV/RaycastMaze-v1", obs_size=S), 180)  # under the TimeLimit: fine
    assert smaller.max_steps == 180


def test_oracle_succeeds_within_a_single_turn_budget():
    env = StepBudget(gym.make("GymV/MazePath-v1", obs_size=S, answer_format="mcq"))
    env.reset(seed=4)
    _, reward, terminated, truncated, info = env.step(env.unwrapped.oracle_action())
    assert terminated and truncated and info["success"] and reward == 1.0 and info["steps_left"] == 0


@pytest.mark.parametrize("bad, error", [(0, ValueError), (-5, ValueError), (1.5, TypeError), ("10", TypeError),
                                        (True, TypeError)])
def test_bad_budget(bad, error):
    with pytest.raises(error, match="int >= 1"):
        StepBudget(gym.make("GymV/Sokoban-v1", obs_size=S), bad)


def test_env_without_registered_id_needs_a_budget():
    bare = gymv_envs.task_spec("GymV/Sokoban-v1").entry_point(obs_size=S)
    with pytest.raises(ValueError, match="pass max_steps"):
        StepBudget(bare)
    assert StepBudget(bare, 7).max_steps == 7
    with pytest.raises(TypeError, match="gymnasium.Env"):
        StepBudget("GymV/Sokoban-v1", 7)


def test_async_vector_env():
    fn = lambda: StepBudget(gym.make("GymV/Sokoban-v1", obs_size=S), 4)
    envs = gym.vector.AsyncVectorEnv([fn, fn])
    try:
        envs.reset(seed=[0, 1])
        for _ in range(4):
            _, _, _, truncated, info = envs.step(np.array([0, 1]))
        assert truncated.all() and info["budget_exhausted"].all() and (info["steps_used"] == 4).all()
    finally:
        envs.close()
