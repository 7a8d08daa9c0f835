"""RewardClip: step rewards clipped to [lo, hi]; the episodic return clipped at zero."""

from __future__ import annotations

import math
import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gymv_envs
from gymv.wrappers import RewardClip
from tests.helpers import id_params

S = (48, 48)
WORLD3D = [i for i in gymv_envs.ids() if gymv_envs.describe(i)["domain"] == "world3d"][:1]
IDS = id_params(["GymV/MazePath-v1", "GymV/Sokoban-v1", "GymV/Artillery-v1", "GymV/RaycastMaze-v1", *WORLD3D])


LOSING_SEED = 6  # TicTacToe-v1, playing cells 0, 1, 2: the opponent wins after the third move


def _losing_game(env, seed=LOSING_SEED):
    """TicTacToe, playing cells 0, 1, 2, ...: X loses on the third move (reward -1)."""
    rewards, infos = [], []
    env.reset(seed=seed)
    for t in range(20):
        _, r, terminated, truncated, info = env.step(t % 9)
        rewards.append(r)
        infos.append(info)
        if terminated or truncated:
            return rewards, infos
    raise AssertionError("the game did not end")


def test_negative_return_is_clipped_at_zero_on_the_last_step():
    raw, _ = _losing_game(gym.make("GymV/TicTacToe-v1", obs_size=S, difficulty=0))
    assert raw[-1] == -1.0  # the real env: a loss
    clipped, infos = _losing_game(RewardClip(gym.make("GymV/TicTacToe-v1", obs_size=S, difficulty=0), -0.5, 0.5))
    assert clipped[-1] == -0.5 and infos[-1]["episode_return"] == -0.5
    zeroed, infos = _losing_game(RewardClip(gym.make("GymV/TicTacToe-v1", obs_size=S, difficulty=0), clip_return_at_zero=True))
    assert sum(zeroed) == 0.0 and zeroed[-1] == 0.0 and infos[-1]["episode_return"] == 0.0


@pytest.mark.parametrize("env_id", IDS)
def test_success_reward_clipped_to_hi(env_id):
    env = RewardClip(gym.make(env_id, obs_size=S), lo=0.0, hi=0.25, clip_return_at_zero=True)
    _, info = env.reset(seed=0)
    assert info["episode_return"] == 0.0
    rewards = []
    while True:
        _, r, terminated, truncated, info = env.step(env.unwrapped.oracle_action())
        rewards.append(r)
        assert 0.0 <= r <= 0.25
        if terminated or truncated:
            break
    assert info["success"] and rewards[-1] == 0.25 and math.isclose(info["episode_return"], sum(rewards))


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_and_pickle(env_id):
    env = RewardClip(gym.make(env_id, obs_size=S, max_episode_steps=-1), -1, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    env.reset(seed=0)
    copy = pickle.loads(pickle.dumps(env))
    a, b = env.step(env.unwrapped.oracle_action()), copy.step(copy.unwrapped.oracle_action())
    assert a[1] == b[1] and a[4]["episode_return"] == b[4]["episode_return"]


def test_unbounded_side():
    raw, _ = _losing_game(RewardClip(gym.make("GymV/TicTacToe-v1", obs_size=S, difficulty=0), lo=-math.inf, hi=0.0))
    assert raw[-1] == -1.0


@pytest.mark.parametrize("lo, hi, error, match", [
    (1.0, 0.0, ValueError, "lo <= hi"), (float("nan"), 1.0, ValueError, "valid values"),
    ("0", 1.0, TypeError, "real number"), (0.0, None, TypeError, "real number")])
def test_bad_bounds(lo, hi, error, match):
    with pytest.raises(error, match=match):
        RewardClip(gym.make("GymV/Sokoban-v1", obs_size=S), lo, hi)


def test_bad_flag():
    with pytest.raises(TypeError, match="bool"):
        RewardClip(gym.make("GymV/Sokoban-v1", obs_size=S), clip_return_at_zero="yes")


def test_async_vector_env():
    fn = lambda: RewardClip(gym.make("GymV/TicTacToe-v1", obs_size=S, difficulty=0), clip_return_at_zero=True)
    envs = gym.vector.AsyncVectorEnv([fn, fn])
    try:
        envs.reset(seed=[LOSING_SEED, LOSING_SEED])
        totals = np.zeros(2)
        for t in range(3):
            _, r, terminated, _, _ = envs.step(np.array([t, t]))
            totals += r
        assert terminated.all() and (totals == 0.0).all()  # the -1 of a loss is lifted to zero
    finally:
        envs.close()
