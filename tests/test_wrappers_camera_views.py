"""CameraViews: front / previous / peripheral views as a Dict or one labelled tiled image."""

from __future__ import annotations

import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gymv_envs
from gymv.wrappers import CameraViews
from tests.helpers import id_params

S = (48, 64)
WORLD3D = [i for i in gymv_envs.ids() if gymv_envs.describe(i)["domain"] == "world3d"][:1]
CAMERA_IDS = id_params(["GymV/RaycastMaze-v1", *WORLD3D])  # envs with left/right cameras
IDS = id_params(["GymV/MazePath-v1", "GymV/Sokoban-v1", "GymV/Artillery-v1", "GymV/RaycastMaze-v1", *WORLD3D])


def _turn_left(env):
    return env.unwrapped.action_names.index("turn_left") if "turn_left" in env.unwrapped.action_names else 0


@pytest.mark.parametrize("env_id", CAMERA_IDS)
def test_views_match_the_env_cameras(env_id):
    env = CameraViews(gym.make(env_id, obs_size=S), views=("front", "previous", "left", "right"))
    obs, _ = env.reset(seed=0)
    base = env.unwrapped
    assert np.array_equal(obs["front"], base.render()) and np.array_equal(obs["previous"], obs["front"])
    assert np.array_equal(obs["left"], base.render_view("left")) and np.array_equal(obs["right"], base.render_view("right"))
    assert not np.array_equal(obs["left"], obs["front"])  # real peripheral cameras, not copies of the frame
    first = obs["front"]
    obs, *_ = env.step(_turn_left(env))
    assert np.array_equal(obs["previous"], first)
    if env_id == "GymV/RaycastMaze-v1":  # turning left 90 degrees: the new right view is the old front
        assert np.array_equal(obs["right"], first)
    assert env.observation_space.contains(obs)


@pytest.mark.parametrize("env_id", IDS)
def test_front_and_previous_on_every_kind(env_id):
    env = CameraViews(gym.make(env_id, obs_size=S, max_episode_steps=-1), views=("previous", "front"), layout="tiled")
    obs, _ = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape == (12 + 48, 2 * 64 + 2, 3)
    assert np.array_equal(obs[12:, :64], obs[12:, 66:])  # at reset, previous is the reset frame
    assert np.array_equal(obs[12:, 66:], env.unwrapped.render())
    assert obs[:12].std() > 0  # the label strip has text
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)


def test_tiled_layout_with_per_view_resolution():
    env = CameraViews(gym.make("GymV/RaycastMaze-v1", obs_size=S), views=("left", "front", "right"), layout="tiled",
                      resolution={"left": (24, 32), "right": (24, 32)})
    obs, _ = env.reset(seed=1)
    strip = 12
    assert obs.shape == (strip + 48, 32 + 64 + 32 + 4, 3)
    assert np.array_equal(obs[strip:, 34:98], env.unwrapped.render())
    left = np.asarray(obs[strip: strip + 24, :32], dtype=float)
    assert np.abs(left - env.unwrapped.render_view("left")[::2, ::2]).mean() < 40  # a resized left view
    dict_env = CameraViews(gym.make("GymV/RaycastMaze-v1", obs_size=S), views=("front", "left"), resolution=(32, 32))
    obs, _ = dict_env.reset(seed=1)
    assert obs["front"].shape == obs["left"].shape == (32, 32, 3)


@pytest.mark.parametrize("env_id", CAMERA_IDS)
def test_fov_rebuilds_the_camera(env_id):
    wide = CameraViews(gym.make(env_id, obs_size=S), views=("front", "left"), fov=100)
    assert wide.unwrapped.fov == 100.0 and wide.unwrapped.spec.kwargs["fov"] == 100
    narrow = CameraViews(gym.make(env_id, obs_size=S), views=("front", "left"), fov=50)
    a, _ = wide.reset(seed=0)
    b, _ = narrow.reset(seed=0)
    assert not np.array_equal(a["front"], b["front"]) and not np.array_equal(a["left"], b["left"])
    assert repr(wide).startswith("<CameraViews<TimeLimit<OrderEnforcing")  # the stack around the env is kept
    assert wide.unwrapped.spec.kwargs.items() >= gym.make(env_id).unwrapped.spec.kwargs.items() - {("fov", None)}


def test_pitch_and_bad_camera_values():
    tilted = CameraViews(gym.make("GymV/RaycastMaze-v1", obs_size=S), views=("front",), pitch=0.2)
    assert tilted.unwrapped.pitch == 0.2
    level = CameraViews(gym.make("GymV/RaycastMaze-v1", obs_size=S), views=("front",))
    assert not np.array_equal(tilted.reset(seed=0)[0]["front"], level.reset(seed=0)[0]["front"])
    with pytest.raises(ValueError, match="valid values: 30 to 120"):
        CameraViews(gym.make("GymV/RaycastMaze-v1", obs_size=S), fov=170)  # the env's own check


def test_pickle_and_dict_space_for_multi_input_policy():
    env = CameraViews(gym.make("GymV/RaycastMaze-v1", obs_size=S), views=("front", "left", "right", "previous"))
    env.reset(seed=3)
    copy = pickle.loads(pickle.dumps(env))
    a, b = env.step(0), copy.step(0)
    assert all(np.array_equal(a[0][k], b[0][k]) for k in a[0])
    sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb3.check_env(CameraViews(gym.make("GymV/RaycastMaze-v1", obs_size=S), views=("front", "left")))


@pytest.mark.parametrize("kwargs, error, match", [
    ({"views": ("front", "left")}, ValueError, "supported views: 'front', 'previous'$"),
    ({"views": ("top",)}, ValueError, "does not offer view 'top'"),
    ({"views": "front"}, TypeError, "sequence of view names"),
    ({"views": ()}, TypeError, "sequence of view names"),
    ({"views": ("front", "front")}, ValueError, "repeat"),
    ({"layout": "grid"}, ValueError, "'dict', 'tiled'"),
    ({"resolution": (0, 10)}, ValueError, r"\(height, width\)"),
    ({"resolution": {"left": (8, 8)}}, ValueError, "not among views"),
    ({"fov": 90}, ValueError, "no camera setting fov"),
])
def test_bad_input_on_an_env_without_cameras(kwargs, error, match):
    with pytest.raises(error, match=match):
        CameraViews(gym.make("GymV/Sokoban-v1", obs_size=S), **{"views": ("front",), **kwargs})


def test_unknown_view_names_the_supported_ones():
    with pytest.raises(ValueError, match="supported views: 'front', 'previous', 'left', 'right'"):
        CameraViews(gym.make("GymV/RaycastMaze-v1", obs_size=S), views=("front", "back"))


def test_async_vector_env():
    fn = lambda: CameraViews(gym.make("GymV/RaycastMaze-v1", obs_size=S), views=("front", "left", "right"))
    envs = gym.vector.AsyncVectorEnv([fn, fn])
    try:
        obs, _ = envs.reset(seed=[0, 1])
        assert obs["left"].shape == (2, 48, 64, 3)
        obs, *_ = envs.step(np.array([2, 3]))
        assert obs["right"].shape == (2, 48, 64, 3)
    finally:
        envs.close()
