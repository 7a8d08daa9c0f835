"""`ProgressShaping`: potential-based reward shaping from the env's own ``info["progress"]``."""

from __future__ import annotations

import math
from typing import Any

import gymnasium as gym

from gymv.wrappers._base_env import vision_base


class ProgressShaping(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Add ``coef * (gamma * progress' - progress)`` to every step reward, for training.

    Every multi-turn GymV env reports ``info["progress"]`` in [0, 1] (for GridNav ``1 - d / d0``
    with ``d`` the shortest-path distance to the goal). This wrapper uses it as the potential
    ``Phi`` of potential-based shaping (Ng, Harada and Russell, 1999): the shaping term is
    ``coef * (gamma * Phi(s') - Phi(s))``, with ``Phi = 0`` once the episode has terminated, so a
    policy that is optimal for the shaped rewards is optimal for the env's own. ``gamma`` should
    be the learner's discount. The observation, the termination and the env's own return are
    untouched: the benchmark scores an episode from ``env.unwrapped`` (`gymv.benchmarks.rollout`),
    so evaluating under this wrapper scores exactly as without it. It is a training aid: the
    policy still sees only pixels, and the dense signal is the env's, not a hand-written one.

    Args:
        env: a multi-turn GymV env (or a stack over one) that reports ``info["progress"]``.
        coef: weight of the shaping term (default 1.0; >= 0).
        gamma: the learner's discount (default 0.99; in (0, 1]).

    Example:
        >>> import gymnasium as gym
        >>> import gymv_envs
        >>> from gymv.wrappers import ProgressShaping
        >>> env = ProgressShaping(gym.make("GymV/GridNav-v1", difficulty=0, obs_size=(48, 48)), gamma=1.0)
        >>> _ = env.reset(seed=0)
        >>> _, reward, *_ , info = env.step(env.unwrapped.oracle_action())
        >>> round(reward, 4) == round(info["progress"], 4) > 0   # one step closer: + 1 / d0
        True
        >>> ProgressShaping(env.unwrapped, gamma=0.0)
        Traceback (most recent call last):
        ...
        ValueError: invalid gamma=0.0; valid values: a number in (0, 1]
    """

    def __init__(self, env: gym.Env, coef: float = 1.0, gamma: float = 0.99) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, coef=coef, gamma=gamma)
        base = vision_base(env, "ProgressShaping")   # first: Gymnasium before 1.4 only asserts
        gym.Wrapper.__init__(self, env)
        if base.protocol != "multi_turn":
            raise ValueError("ProgressShaping needs a multi-turn env (single-turn ids end after one answer)")
        for name, value, ok, valid in (("coef", coef, lambda v: v >= 0, "a number >= 0"),
                                       ("gamma", gamma, lambda v: 0 < v <= 1, "a number in (0, 1]")):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or not ok(value):
                raise ValueError(f"invalid {name}={value!r}; valid values: {valid}")
        self.coef, self.gamma = float(coef), float(gamma)
        self._phi = 0.0

    @staticmethod
    def _progress(info: dict[str, Any]) -> float:
        if "progress" not in info:
            raise KeyError("ProgressShaping needs info['progress'] from the env; this env does not report it")
        return float(info["progress"])

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        self._phi = self._progress(info)
        return obs, info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        phi = 0.0 if terminated else self._progress(info)
        bonus = self.coef * (self.gamma * phi - self._phi)
        self._phi = phi
        info["shaping"] = bonus
        return obs, float(reward) + bonus, terminated, truncated, info
