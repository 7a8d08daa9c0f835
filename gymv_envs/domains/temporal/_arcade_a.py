"""What the RiverCrossing / AsteroidField / MissileDefence / LunarLander games add to the arcade base,
and the sprite stamps RoadRacer and GhostMaze share with them.

- ``ArcadeEnvA._draw`` accepts ``self._dirty = True`` (what the speed benchmark sets before it times a
  full redraw, the web envs' convention) as "redraw the whole frame from the cached background";
- ``rotated_mask``: cached masks of the ships that turn (the asteroid ship's dart, the lunar lander);
- ``tile`` and ``stamp``: a one-colour sprite cached as an image and a three-channel mask, pasted with
  ``np.copyto(..., where=...)`` (the same pixels as ``ArcadeEnv._mask_at``, at about half its cost).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

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


@functools.lru_cache(maxsize=1024)
def tile(shape: Callable[..., np.ndarray], args: tuple, color: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The mask ``shape(*args)`` (``sprite_mask``, ``disc_mask``, ``rotated_mask``) as a read-only ``(h, w, 3)``
    image of ``color`` and the ``(h, w, 3)`` mask it is pasted through (cached)."""
    mask = shape(*args)
    image = np.empty((*mask.shape, 3), np.uint8)
    image[:] = color
    mask3 = np.ascontiguousarray(np.broadcast_to(mask[:, :, None], image.shape))
    image.setflags(write=False)
    mask3.setflags(write=False)
    return image, mask3


def stamp(env: ArcadeEnv, frame: np.ndarray, sprite: tuple[np.ndarray, np.ndarray], x0: int, y0: int) -> None:
    """Paste a `tile` with its top-left at field pixel (x0, y0), clipped (a dirty box on the env's frame)."""
    image, mask = sprite
    h, w = image.shape[:2]
    box = env._box(frame, x0, y0, x0 + w, y0 + h)
    if box is not None:
        r0, r1, c0, c1 = box
        rows, cols = slice(r0 - env.hud - y0, r1 - env.hud - y0), slice(c0 - x0, c1 - x0)
        np.copyto(frame[r0:r1, c0:c1], image[rows, cols], where=mask[rows, cols])


class ArcadeEnvA(ArcadeEnv):
    """`ArcadeEnv` whose frame can be marked wholly dirty (not registered)."""

    def _draw(self) -> np.ndarray:
        if getattr(self, "_dirty", None) is True:
            self._buf = None  # the next frame starts from a fresh copy of the background
        return super()._draw()
