"""FrameHistory: the last k frames, stacked (Gymnasium), channel-stacked (SB3) or as a sequence."""

from __future__ import annotations

import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gymv_envs
from gymv.wrappers import CameraViews, FrameHistory
from tests.helpers import id_params

S = (48, 48)
WORLD3D = [i for i in gymv_envs.ids() if gymv_envs.describe(i)["domain"] == "world3d"][:1]
IDS = id_params(["GymV/MazePath-v1", "GymV/Breakout-v1", "GymV/Artillery-v1", "GymV/RaycastMaze-v1", *WORLD3D])


def _frames(env_id, n, seed=0):
    """The first n observations of the raw env under the oracle."""
    env = gym.make(env_id, obs_size=S, max_episode_steps=-1)
    out = [env.reset(seed=seed)[0]]
    while len(out) < n:
        out.append(env.step(env.unwrapped.oracle_action())[0])
    return out


@pytest.mark.parametrize("output", ["stack", "channels", "sequence"])
def test_holds_the_last_k_frames_oldest_first(output):
    raw = _frames("GymV/Breakout-v1", 5)
    env = FrameHistory(gym.make("GymV/Breakout-v1", obs_size=S), 3, output=output)
    obs, _ = env.reset(seed=0)
    seen = [obs]
    for _ in range(4):
        seen.append(env.step(env.unwrapped.oracle_action())[0])
    for t, obs in enumerate(seen):
        assert env.observation_space.contains(obs)
        want = [raw[max(0, i)] for i in range(t - 2, t + 1)]  # padded with the reset frame
        got = {"stack": lambda o: list(o), "sequence": lambda o: list(o),
               "channels": lambda o: [o[..., 3 * i: 3 * i + 3] for i in range(3)]}[output](obs)
        assert all(np.array_equal(g, w) for g, w in zip(got, want))


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("output", ["stack", "channels", "sequence"])
def test_check_env_on_every_kind(env_id, output):
    env = FrameHistory(gym.make(env_id, obs_size=S, max_episode_steps=-1), 2, output=output)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)


def test_sequence_of_dict_views_and_pickle():
    env = FrameHistory(CameraViews(gym.make("GymV/RaycastMaze-v1", obs_size=S), views=("front", "left")), 2,
                       output="sequence")
    obs, _ = env.reset(seed=0)
    assert len(obs) == 2 and obs[0]["left"].shape == (48, 48, 3)
    copy = pickle.loads(pickle.dumps(env))
    a, b = env.step(2), copy.step(2)
    assert all(np.array_equal(x[k], y[k]) for x, y in zip(a[0], b[0]) for k in x)
    assert np.array_equal(a[0][0]["front"], obs[1]["front"])


def test_is_gymnasiums_frame_stacking():
    env = FrameHistory(gym.make("GymV/Breakout-v1", obs_size=S), 2)
    assert isinstance(env, gym.wrappers.FrameStackObservation)
    assert env.spec.additional_wrappers[-1].kwargs == {"k": 2, "output": "stack"}


@pytest.mark.parametrize("k, output, error, match", [
    (0, "stack", ValueError, "int >= 1"), (-1, "stack", ValueError, "int >= 1"), (2.0, "stack", TypeError, "int"),
    (2, "list", ValueError, "'stack', 'channels', 'sequence'")])
def test_bad_input(k, output, error, match):
    with pytest.raises(error, match=match):
        FrameHistory(gym.make("GymV/Breakout-v1", obs_size=S), k, output=output)


def test_channels_needs_images():
    env = CameraViews(gym.make("GymV/RaycastMaze-v1", obs_size=S), views=("front", "left"))
    with pytest.raises(TypeError, match="image observations"):
        FrameHistory(env, 2, output="channels")


def test_async_vector_env():
    fn = lambda: FrameHistory(gym.make("GymV/Breakout-v1", obs_size=S), 3, output="channels")
    envs = gym.vector.AsyncVectorEnv([fn, fn])
    try:
        obs, _ = envs.reset(seed=[0, 1])
        assert obs.shape == (2, 48, 48, 9)
        obs, *_ = envs.step(np.array([0, 1]))
        assert obs.shape == (2, 48, 48, 9)
    finally:
        envs.close()
