"""`RewardClip`: clip step rewards to [lo, hi], optionally the episodic return at zero."""

from __future__ import annotations

import math
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from gymv.wrappers._base_env import vision_base


def _bound(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number (or +-inf); got {type(value).__name__}")
    if math.isnan(value):
        raise ValueError(f"invalid {name}=nan; valid values: a number or +-inf")
    return float(value)


class RewardClip(gym.RewardWrapper, gym.utils.RecordConstructorArgs):
    """Clip every step reward to ``[lo, hi]``; optionally clip the episodic return at zero.

    With ``clip_return_at_zero=True`` the wrapper keeps the running return of the (clipped)
    rewards it has handed out; on the step that ends the episode (terminated or truncated) it
    raises that step's reward just enough for the episode's return to be ``max(0, return)``,
    which is how the multi-turn protocol scores an episode
    (``100 * clip(return / max_return, 0, 1)``); that last reward may then exceed ``hi``. ``info["episode_return"]`` is the return so far
    of the rewards this wrapper returned.

    Args:
        env: a GymV env (or a stack over one).
        lo: lower bound of a step reward (default -1.0; ``-math.inf`` for none).
        hi: upper bound of a step reward (default 1.0; ``math.inf`` for none); ``lo <= hi``.
        clip_return_at_zero: lift a negative episodic return to zero on the last step.

    Example:
        >>> import gymnasium as gym
        >>> import gymv_envs
        >>> from gymv.wrappers import RewardClip
        >>> env = RewardClip(gym.make("GymV/MazePath-v1", answer_format="mcq", obs_size=(48, 48)), lo=0.0, hi=0.5)
        >>> _ = env.reset(seed=0)
        >>> _, reward, terminated, _, info = env.step(env.unwrapped.oracle_action())
        >>> reward, terminated, info["episode_return"]
        (0.5, True, 0.5)
        >>> RewardClip(env, lo=1.0, hi=0.0)
        Traceback (most recent call last):
        ...
        ValueError: invalid bounds lo=1.0 > hi=0.0; valid values: lo <= hi
    """

    def __init__(self, env: gym.Env, lo: float = -1.0, hi: float = 1.0, clip_return_at_zero: bool = False) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, lo=lo, hi=hi, clip_return_at_zero=clip_return_at_zero)
        vision_base(env, "RewardClip")   # first: Gymnasium before 1.4 only asserts
        gym.RewardWrapper.__init__(self, env)
        self.lo, self.hi = _bound("lo", lo), _bound("hi", hi)
        if self.lo > self.hi:
            raise ValueError(f"invalid bounds lo={self.lo} > hi={self.hi}; valid values: lo <= hi")
        if not isinstance(clip_return_at_zero, (bool, np.bool_)):
            raise TypeError(f"clip_return_at_zero must be a bool; got {type(clip_return_at_zero).__name__}")
        self.clip_return_at_zero = bool(clip_return_at_zero)
        self.episode_return = 0.0

    def reward(self, reward: SupportsFloat) -> float:
        return float(min(self.hi, max(self.lo, float(reward))))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self.episode_return = 0.0
        obs, info = self.env.reset(seed=seed, options=options)
        info["episode_return"] = 0.0
        return obs, info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        reward = self.reward(reward)
        if self.clip_return_at_zero and (terminated or truncated) and self.episode_return + reward < 0:
            reward = -self.episode_return  # the episode's return becomes exactly zero
        self.episode_return += reward
        info["episode_return"] = self.episode_return
        return obs, reward, terminated, truncated, info
