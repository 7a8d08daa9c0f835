"""StateText: the text-only ablation."""

from __future__ import annotations

import pickle
import warnings

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import gymv_envs
from gymv.wrappers import StateText
from gymv_envs.core import MultiTurnEnv, Outcome
from gymv_envs.core.canvas import new_frame
from tests.helpers import id_params

S = (48, 48)
WORLD3D = [i for i in gymv_envs.ids() if gymv_envs.describe(i)["domain"] == "world3d"][:1]
IDS = id_params(["GymV/MazePath-v1", "GymV/Sokoban-v1", "GymV/Artillery-v1", "GymV/RaycastMaze-v1", *WORLD3D,
                 "GymV/FreeCell-v1", "GymV/KenKen-v2"])  # card suits, arithmetic signs


class Blank(MultiTurnEnv):
    """A real (tiny) GymV env that renders no state text: one action ends the episode."""

    action_names = ("done",)

    def _generate(self, rng):
        pass

    def _draw(self):
        return new_frame(*self.obs_size)

    def _task_text(self):
        return "Say done."

    def _apply(self, action):
        return Outcome(reward=1.0, terminated=True, success=True)

    def oracle_action(self):
        return 0


@pytest.mark.parametrize("env_id", IDS)
def test_observation_is_the_state_text(env_id):
    env = StateText(gym.make(env_id, obs_size=S))
    obs, info = env.reset(seed=0)
    assert isinstance(obs, str) and obs and obs == info["state_text"] == env.unwrapped._state_text()
    obs, _, _, _, info = env.step(env.unwrapped.oracle_action())
    assert obs == info["state_text"] and env.observation_space.contains(obs)


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_and_pickle(env_id):
    env = StateText(gym.make(env_id, obs_size=S, max_episode_steps=-1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    env.reset(seed=1)
    copy = pickle.loads(pickle.dumps(env))
    assert env.step(env.unwrapped.oracle_action())[0] == copy.step(copy.unwrapped.oracle_action())[0]


def test_state_changes_with_the_state():
    env = StateText(gym.make("GymV/RaycastMaze-v1", obs_size=S))
    first, _ = env.reset(seed=0)
    turned = env.step(env.unwrapped.action_names.index("turn_left"))[0]
    assert turned != first


def test_env_without_state_text_raises():
    with pytest.raises(ValueError, match="Blank does not provide state_text; ids that do: .*GymV/Sokoban-v1"):
        StateText(Blank(obs_size=S))


def test_async_vector_env():
    fn = lambda: StateText(gym.make("GymV/Sokoban-v1", obs_size=S))
    # Gymnasium 1.4's shared memory garbles Text observations (every string reads back "000..."),
    # so text observations go through pipes.
    envs = gym.vector.AsyncVectorEnv([fn, fn], shared_memory=False)
    try:
        obs, _ = envs.reset(seed=[0, 1])
        assert len(obs) == 2 and all(isinstance(o, str) and "#" in o for o in obs) and obs[0] != obs[1]
    finally:
        envs.close()
