"""TextActions: free-form replies parsed by the env; the three policies for unreadable replies."""

from __future__ import annotations

import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gymv_envs
from gymv.wrappers import StepBudget, TextActions
from tests.helpers import id_params

S = (48, 48)
WORLD3D = [i for i in gymv_envs.ids() if gymv_envs.describe(i)["domain"] == "world3d"][:1]
IDS = id_params(["GymV/MazePath-v1", "GymV/Sokoban-v1", "GymV/Artillery-v1", "GymV/RaycastMaze-v1", *WORLD3D])


def _reply(env) -> str:
    """A chatty model reply that asks for the oracle's action."""
    base = env.unwrapped
    action = base.oracle_action()
    if getattr(base, "answer_format", None) == "mcq":
        text = "ABCDEFGH"[int(action)]
    elif base.action_fields:
        text = ", ".join(f"{f[0]}={v:.6g}" for f, v in zip(base.action_fields, np.asarray(action, dtype=float)))
    elif base.action_names:
        text = base.action_names[int(action)]
    else:
        text = str(action)
    return f"<think>Let me look at the picture carefully.</think>\nI am fairly sure.\n{'Answer' if base.protocol == 'single_turn' else 'Action'}: {text}"


@pytest.mark.parametrize("env_id", IDS)
def test_replies_drive_the_oracle_to_success(env_id):
    env = TextActions(gym.make(env_id, obs_size=S))
    env.reset(seed=0)
    while True:
        reply = _reply(env)
        _, _, terminated, truncated, info = env.step(reply)
        assert info["parsed"] and info["raw_action"] == reply and not info["invalid_action"]
        if terminated or truncated:
            break
    assert info["success"]


@pytest.mark.parametrize("env_id", IDS)
def test_noop_counts_a_step_and_changes_nothing(env_id):
    env = StepBudget(gym.make(env_id, obs_size=S, max_episode_steps=-1), 5)
    env = TextActions(env, "noop")
    obs, _ = env.reset(seed=0)
    new, reward, terminated, truncated, info = env.step("I cannot decide, sorry.")
    assert not info["parsed"] and "action" not in info and info["invalid_action"]
    assert np.array_equal(new, obs) and reward == 0.0 and not terminated
    assert info["steps_used"] == 1 and env.unwrapped.action_prompt in info["feedback"]


def test_repeat_steps_the_last_action_again():
    env = TextActions(gym.make("GymV/RaycastMaze-v1", obs_size=S), "repeat")
    env.reset(seed=0)
    _, _, _, _, info = env.step("banana")  # nothing read yet: a noop
    assert "action" not in info and info["invalid_action"]
    first = env.step("Action: turn_left")[0]
    twice, _, _, _, info = env.step("banana")
    assert info["action"] == 2 and not info["parsed"] and "repeated your last action" in info["feedback"]
    raw = gym.make("GymV/RaycastMaze-v1", obs_size=S)
    raw.reset(seed=0)
    assert np.array_equal(raw.step(2)[0], first) and np.array_equal(raw.step(2)[0], twice)


def test_terminate_ends_the_episode_without_stepping():
    env = TextActions(gym.make("GymV/Sokoban-v1", obs_size=S), "terminate")
    obs, _ = env.reset(seed=0)
    new, reward, terminated, truncated, info = env.step("???")
    assert terminated and not truncated and reward == 0.0 and not info["success"]
    assert np.array_equal(new, obs) and new is not obs and env.unwrapped._elapsed == 0
    assert "episode ended" in info["feedback"]


def test_box_action_and_single_turn_open_answer():
    env = TextActions(gym.make("GymV/Artillery-v1", obs_size=S))
    env.reset(seed=0)
    _, _, _, _, info = env.step("angle=45, power=0.5")
    assert info["parsed"] and len(info["action"]) == 2
    env = TextActions(gym.make("GymV/MazePath-v1", obs_size=S))
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step("Answer: " + env.unwrapped.oracle_action())
    assert terminated and reward == 1.0 and info["parsed"]


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("policy", ["noop", "terminate"])
def test_check_env_and_pickle(env_id, policy):
    env = TextActions(gym.make(env_id, obs_size=S, max_episode_steps=-1), policy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    env.reset(seed=1)
    copy = pickle.loads(pickle.dumps(env))
    reply = _reply(env)
    a, b = env.step(reply), copy.step(reply)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[4].get("action"), b[4].get("action"))


def test_bad_policy():
    with pytest.raises(ValueError, match="'noop', 'repeat', 'terminate'"):
        TextActions(gym.make("GymV/Sokoban-v1", obs_size=S), on_unparseable="retry")


def test_async_vector_env():
    fn = lambda: TextActions(gym.make("GymV/GridNav-v1", obs_size=S))
    envs = gym.vector.AsyncVectorEnv([fn, fn])
    try:
        envs.reset(seed=[0, 1])
        _, _, _, _, info = envs.step(("Action: up", "no idea"))
        assert list(info["parsed"]) == [True, False]
    finally:
        envs.close()
