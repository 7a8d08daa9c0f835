"""What the RiverCrossing / AsteroidField / MissileDefence / LunarLander games add to the arcade base.

- ``ArcadeEnvA._draw`` accepts ``self._dirty = True`` (what the speed benchmark sets before it times a
  full redraw, the web envs' convention) as "redraw the whole frame from the cached background";
- ``rotated_mask``: cached masks of the ships that turn (the asteroid ship's dart, the lunar lander).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from gymv_envs.domains.temporal._arcade import ArcadeEnv


@functools.lru_cache(maxsize=512)
def rotated_mask(kind: str, k: int, angles: int, w: int, h: int) -> np.ndarray:
    """A ``(h, w)`` read-only mask of a ``kind`` ("dart": nose up; "lander": a cabin on two legs)
    turned clockwise by ``k / angles`` of a full turn."""
    a = 2 * math.pi * k / angles
    x, y = np.meshgrid((np.arange(w) + 0.5) / w * 2 - 1, (np.arange(h) + 0.5) / h * 2 - 1)
    u, v = x * math.cos(a) + y * math.sin(a), -x * math.sin(a) + y * math.cos(a)  # the body's frame, nose at v = -1
    if kind == "dart":
        mask = (v >= -1) & (v <= 0.75) & (np.abs(u) <= (v + 1) * 0.45) & ~((v > 0.35) & (np.abs(u) < 0.25))
    else:
        cabin = (np.abs(u) < 0.55) & (v > -0.8) & (v < 0.25)
        mask = cabin | ((v >= 0.25) & (v < 0.9) & (np.abs(np.abs(u) - (0.55 + (v - 0.25) * 0.6)) < 0.18))
    if not mask.any():
        mask[h // 2, w // 2] = True
    mask.setflags(write=False)
    return mask


class ArcadeEnvA(ArcadeEnv):
    """`ArcadeEnv` whose frame can be marked wholly dirty (not registered)."""

    def _draw(self) -> np.ndarray:
        if getattr(self, "_dirty", None) is True:
            self._buf = None  # the next frame starts from a fresh copy of the background
        return super()._draw()
