"""What the RiverCrossing / AsteroidField / MissileDefence / LunarLander games add to the arcade base.

- ``ArcadeEnvA._draw`` accepts ``self._dirty = True`` (what the speed benchmark sets before it times a
  full redraw, the web envs' convention) as "redraw the whole frame from the cached background";
- ``wrap`` folds a coordinate onto a torus side.
"""

from __future__ import annotations

import numpy as np

from gymv_envs.domains.temporal._arcade import ArcadeEnv


def wrap(v: float, size: float) -> float:
    """``v`` folded into [0, size)."""
    return v % size


class ArcadeEnvA(ArcadeEnv):
    """`ArcadeEnv` whose frame can be marked wholly dirty (not registered)."""

    def _draw(self) -> np.ndarray:
        if getattr(self, "_dirty", None) is True:
            self._buf = None  # the next frame starts from a fresh copy of the background
        return super()._draw()
