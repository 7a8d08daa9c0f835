"""`StateText`: the text-only ablation: the observation is the env's state as text."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from gymnasium import spaces

import gymv_envs
from gymv.wrappers._base_env import vision_base
from gymv_envs.core.env import STATE_TEXT_CHARSET, VisionEnv

MAX_STATE_TEXT = 16384


def provides_state_text(cls: type) -> bool:
    """Whether a GymV env class renders its state as text (overrides ``_state_text``)."""
    return cls._state_text is not VisionEnv._state_text


class StateText(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """Replace the observation by ``info["state_text"]``, the env's state written as text.

    For text-only ablations: the same task, rules, actions and rewards, with the picture
    replaced by a text rendering of the state where the env provides one (``_state_text``);
    an env that does not raises `ValueError` naming the ids that do. The observation space is
    `Text`; ``info`` is unchanged (``state_text`` stays in it).

    Args:
        env: a GymV env (or a stack over one).

    Example:
        >>> import gymnasium as gym
        >>> import gymv_envs
        >>> from gymv.wrappers import StateText
        >>> env = StateText(gym.make("GymV/SlidingPuzzle-v1", obs_size=(48, 48)))
        >>> obs, info = env.reset(seed=0)
        >>> obs == info["state_text"], isinstance(obs, str)
        (True, True)
    """

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        base = vision_base(env, "StateText")   # first: Gymnasium before 1.4 only asserts
        gym.ObservationWrapper.__init__(self, env)
        if not provides_state_text(type(base)):
            with_text = [i for i in gymv_envs.ids() if provides_state_text(gymv_envs.task_spec(i).entry_point)]
            raise ValueError(f"{type(base).__name__} does not provide state_text; ids that do: {', '.join(with_text)}")
        self.observation_space = spaces.Text(max_length=MAX_STATE_TEXT, min_length=0, charset=STATE_TEXT_CHARSET)

    def observation(self, observation: Any) -> str:
        text = self.env.unwrapped._state_text()
        return "" if text is None else str(text)[:MAX_STATE_TEXT]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        return info.get("state_text") or self.observation(obs), info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return info.get("state_text") or self.observation(obs), reward, terminated, truncated, info
