"""The recommended stacks: for_sb3 (SB3 check_env, PPO learns) and for_vlm (replies in, images out)."""

from __future__ import annotations

import json
import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gymv_envs
from gymv.wrappers import (
    CameraViews,
    FrameHistory,
    InstructionLevel,
    PixelsOnly,
    ProgressShaping,
    RecordEpisode,
    RewardClip,
    StateText,
    StepBudget,
    TextActions,
    for_sb3,
    for_vlm,
    replay,
)
from tests.helpers import id_params

S = (48, 48)
WORLD3D = [i for i in gymv_envs.ids() if gymv_envs.describe(i)["domain"] == "world3d"][:1]
SB3_CASES = [pytest.param(*p.values, kw, id=p.id) for p, kw in zip(
    id_params(["GymV/MazePath-v1", "GymV/Sokoban-v1", "GymV/Artillery-v1", "GymV/RaycastMaze-v1", *WORLD3D]),
    [{"answer_format": "mcq"}, {}, {}, {}, {}])]


@pytest.mark.parametrize("env_id, kwargs", SB3_CASES)
def test_sb3_stack_passes_both_checkers(env_id, kwargs):
    sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
    env = for_sb3(gym.make(env_id, obs_size=(64, 64), max_episode_steps=-1, **kwargs), obs_size=(64, 64),
                  max_steps=8, frame_stack=3)
    assert env.observation_space.shape == (64, 64, 9) and env.unwrapped.text_in_image
    assert isinstance(env.action_space, gym.spaces.Discrete) or (env.action_space.low == -1).all()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb3.check_env(env)
        check_env(env, skip_render_check=True)
    env.reset(seed=0)
    copy = pickle.loads(pickle.dumps(env))
    action = env.action_space.sample()
    assert np.array_equal(env.step(action)[0], copy.step(action)[0])


def test_sb3_stack_resizes_grayscales_and_trains():
    ppo = pytest.importorskip("stable_baselines3").PPO
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)  # a tiny network: threads only contend
    env = for_sb3(gym.make("GymV/Sokoban-v1", obs_size=(96, 96)), obs_size=(48, 48), grayscale=True, frame_stack=2)
    assert env.observation_space.shape == (48, 48, 2)
    raw = gym.make("GymV/Sokoban-v1", obs_size=(96, 96))
    gray = np.asarray(raw.reset(seed=0)[0], dtype=float).mean(axis=2)[::2, ::2]
    first = env.reset(seed=0)[0]
    assert np.abs(first[..., 0] - gray).mean() < 25 and np.array_equal(first[..., 0], first[..., 1])
    restored = pickle.loads(pickle.dumps(env))
    assert np.array_equal(restored.step(0)[0], env.step(0)[0])
    fn = lambda: for_sb3("GymV/SlidingPuzzle-v1", obs_size=(48, 48))
    vec = gym.vector.AsyncVectorEnv([fn, fn])
    try:
        obs, _ = vec.reset(seed=[0, 1])
        assert obs.shape == (2, 48, 48, 12)
    finally:
        vec.close()
    model = ppo("CnnPolicy", env, n_steps=16, batch_size=16, n_epochs=1, verbose=0, device="cpu")
    model.learn(total_timesteps=16)
    action, _ = model.predict(env.reset(seed=0)[0])
    assert env.action_space.contains(int(action))


def test_multi_input_policy_trains_on_camera_views():
    ppo = pytest.importorskip("stable_baselines3").PPO
    pytest.importorskip("torch").set_num_threads(1)
    env = CameraViews(gym.make("GymV/RaycastMaze-v1", obs_size=S), views=("front", "left", "right"))
    model = ppo("MultiInputPolicy", env, n_steps=16, batch_size=16, n_epochs=1, verbose=0, device="cpu")
    model.learn(total_timesteps=16)


@pytest.mark.parametrize("bad, error, match", [
    ({"env": "GymV/MazePath-v1"}, TypeError, "answer_format='mcq'"),
    ({"frame_stack": 0}, ValueError, "int >= 1"),
    ({"frame_stack": "4"}, TypeError, "frame_stack must be an int >= 1; got str"),
    ({"max_steps": 0}, ValueError, "int >= 1"),
    ({"reward_clip": (1, 0)}, ValueError, "lo <= hi"),
])
def test_sb3_bad_input(bad, error, match):
    kwargs = {"env": "GymV/Sokoban-v1", "obs_size": S, **bad}
    with pytest.raises(error, match=match):
        for_sb3(kwargs.pop("env"), **kwargs)


def test_vlm_stack_plays_an_episode_from_replies(tmp_path):
    env = for_vlm("GymV/GridNav-v1", obs_size=S, history=2, instruction_level="step", record=tmp_path)
    frames, info = env.reset(seed=1)
    assert len(frames) == 2 and frames[0].shape == (48, 48, 3)
    assert "Directions: go" in info["instruction"] and info["steps_left"] == 80
    replies = 0
    while True:
        name = env.unwrapped.action_names[env.unwrapped.oracle_action()]
        reply = "garbage" if replies == 1 else f"<think>...</think> Action: {name}"
        frames, _, terminated, truncated, info = env.step(reply)
        replies += 1
        assert info["parsed"] is (replies != 2)
        if terminated or truncated:
            break
    assert info["success"] and info["steps_used"] == replies
    (path,) = sorted(tmp_path.glob("*.json"))
    assert json.loads(path.read_text())["actions"][1] is None
    replay(path)


def test_vlm_stack_views_and_checks():
    env = for_vlm("GymV/RaycastMaze-v1", obs_size=S, views=("left", "front", "right"), fov=90)
    assert env.unwrapped.fov == 90.0
    obs, _ = env.reset(seed=0)
    assert obs.shape == (12 + 48, 3 * 48 + 4, 3)
    copy = pickle.loads(pickle.dumps(env))
    a, b = env.step("Action: turn_right"), copy.step("Action: turn_right")
    assert np.array_equal(a[0], b[0]) and a[4]["steps_used"] == b[4]["steps_used"] == 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    fn = lambda: for_vlm("GymV/RaycastMaze-v1", obs_size=S, views=("front", "previous"), history=2)
    vec = gym.vector.AsyncVectorEnv([fn, fn])
    try:
        vec.reset(seed=[0, 1])
        obs, _, _, _, info = vec.step(("Action: turn_left", "hmm"))
        assert obs[1].shape == (2, 60, 98, 3) and list(info["parsed"]) == [True, False]
    finally:
        vec.close()


@pytest.mark.parametrize("bad, error, match", [
    ({"views": ("front", "up")}, ValueError, "supported views"),
    ({"history": 0}, ValueError, "int >= 1"),
    ({"history": "2"}, TypeError, "history must be an int >= 1; got str"),
    ({"on_unparseable": "skip"}, ValueError, "'noop', 'repeat', 'terminate'"),
    ({"instruction_level": "step"}, ValueError, "no instruction levels"),
    ({"fov": 90, "env": "GymV/Sokoban-v1"}, ValueError, "no camera setting"),
])
def test_vlm_bad_input(bad, error, match):
    kwargs = {"env": "GymV/RaycastMaze-v1", "obs_size": S, **bad}
    with pytest.raises(error, match=match):
        for_vlm(kwargs.pop("env"), **kwargs)


ONE_PER_DOMAIN = id_params([gymv_envs.ids(domain=d)[0] for d in gymv_envs.domain_names()])


@pytest.mark.parametrize("env_id", ONE_PER_DOMAIN)
def test_both_stacks_on_one_id_per_domain(env_id):
    views = ("previous", *gymv_envs.describe(env_id)["views"])
    env = for_vlm(env_id, obs_size=S, views=views, history=2, max_steps=1)
    frames, info = env.reset(seed=0)
    assert len(frames) == 2 and frames[0].shape == env.observation_space[0].shape and info["steps_left"] == 1
    frames, _, terminated, truncated, info = env.step("I am not sure what to do here.")
    assert not info["parsed"] and info["invalid_action"] and truncated and not terminated
    assert np.array_equal(frames[0], frames[1])  # a noop changes nothing
    env.close()
    kwargs = {"answer_format": "mcq"} if gymv_envs.describe(env_id)["protocol"] == "single_turn" else {}
    size = (64, 64)  # with the MCQ options drawn, the least that leaves a 32 px picture
    raw = gym.make(env_id, obs_size=size, **kwargs)
    if not isinstance(raw.action_space, (gym.spaces.Discrete, gym.spaces.Box)):
        with pytest.raises(TypeError, match="needs Discrete or Box actions"):
            for_sb3(raw)
        return raw.close()
    env = for_sb3(raw, obs_size=size, frame_stack=2)
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs) and env.unwrapped.text_in_image
    assert env.observation_space.contains(env.step(env.action_space.sample())[0])
    env.close()


@pytest.mark.parametrize("wrapper, kwargs", [
    (CameraViews, {}), (FrameHistory, {"k": 2}), (InstructionLevel, {"level": "full"}), (PixelsOnly, {}),
    (ProgressShaping, {}), (RecordEpisode, {"folder": "x"}), (RewardClip, {}), (StateText, {}), (StepBudget, {}),
    (TextActions, {})])
def test_a_wrapper_given_no_env_names_itself(wrapper, kwargs):
    # its own TypeError, before Gymnasium's check (an assert before Gymnasium 1.4, gone under python -O)
    with pytest.raises(TypeError, match=f"{wrapper.__name__} wraps a gymnasium.Env; got str"):
        wrapper("GymV/Sokoban-v1", **kwargs)
