"""`FrameHistory`: the last k observations, stacked for RL or as a sequence for VLM context."""

from __future__ import annotations

import copy
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.wrappers import FrameStackObservation

from gymv.wrappers._base_env import check_env_arg

OUTPUTS = ("stack", "channels", "sequence")


def check_count(name: str, value: object) -> int:
    """``value`` as an int >= 1 (a frame count), else the error naming what is valid."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int >= 1; got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"invalid {name}={value!r}; valid values: an int >= 1")
    return int(value)


class FrameHistory(FrameStackObservation):
    """The last ``k`` observations, oldest first, built on Gymnasium's `FrameStackObservation`.

    At reset the history is padded with the reset observation (Gymnasium's ``"reset"`` padding),
    so every observation holds exactly ``k`` frames. Three outputs:

    - ``"stack"``: one array of shape ``(k, *obs_shape)`` (Gymnasium's own stacking);
    - ``"channels"``: image frames ``(H, W, C)`` concatenated along channels into
      ``(H, W, k * C)``, the layout SB3's ``CnnPolicy`` takes (as SB3's ``VecFrameStack``);
    - ``"sequence"``: a tuple of ``k`` separate observations (a `Tuple` space), e.g. the frames a
      VLM is shown as context, one image each.

    Args:
        env: the env (any observation space for ``"stack"`` and ``"sequence"``; a
            ``(H, W, C)`` Box for ``"channels"``).
        k: how many observations to keep, an int >= 1.
        output: ``"stack"`` (default), ``"channels"`` or ``"sequence"``.

    Example:
        >>> import gymnasium as gym
        >>> import gymv_envs
        >>> from gymv.wrappers import FrameHistory
        >>> env = FrameHistory(gym.make("GymV/Breakout-v1", obs_size=(48, 48)), k=3)
        >>> env.reset(seed=0)[0].shape
        (3, 48, 48, 3)
        >>> FrameHistory(gym.make("GymV/Breakout-v1", obs_size=(48, 48)), k=3, output="channels").reset(seed=0)[0].shape
        (48, 48, 9)
        >>> frames = FrameHistory(gym.make("GymV/Breakout-v1", obs_size=(48, 48)), k=2, output="sequence").reset(seed=0)[0]
        >>> len(frames), frames[0].shape
        (2, (48, 48, 3))
        >>> FrameHistory(gym.make("GymV/Breakout-v1"), k=0)
        Traceback (most recent call last):
        ...
        ValueError: invalid k=0; valid values: an int >= 1
    """

    def __init__(self, env: gym.Env, k: int, output: str = "stack") -> None:
        gym.utils.RecordConstructorArgs.__init__(self, k=k, output=output)  # first call wins
        check_env_arg(env, "FrameHistory")
        k = check_count("k", k)
        if output not in OUTPUTS:
            raise ValueError(f"invalid output={output!r}; valid values: {', '.join(map(repr, OUTPUTS))}")
        inner = env.observation_space
        if output == "channels" and not (isinstance(inner, spaces.Box) and len(inner.shape) == 3):
            raise TypeError(f"output='channels' needs (H, W, C) image observations; got {inner}")
        super().__init__(env, int(k), padding_type="reset")
        self.k, self.output = int(k), output
        if output == "channels":
            low = np.concatenate([inner.low] * self.k, axis=-1)
            high = np.concatenate([inner.high] * self.k, axis=-1)
            self.observation_space = spaces.Box(low, high, dtype=inner.dtype)
        elif output == "sequence":
            self.observation_space = spaces.Tuple([inner] * self.k)

    def _convert(self, stacked: Any) -> Any:
        if self.output == "channels":
            return np.concatenate(list(stacked), axis=-1)
        if self.output == "sequence":
            return tuple(copy.deepcopy(frame) for frame in self.obs_queue)
        return stacked

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = super().reset(seed=seed, options=options)
        return self._convert(obs), info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = super().step(action)
        return self._convert(obs), reward, terminated, truncated, info
