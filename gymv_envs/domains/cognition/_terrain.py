"""Stepped block terrains (no column taller than the ones behind it) and the cube-maze base env."""

from __future__ import annotations

import re
from collections import deque

import numpy as np

from gymv_envs.core import SingleTurnEnv
from gymv_envs.core.canvas import BACKGROUND, INK, PALETTE, font
from gymv_envs.domains.cognition import _iso

LEVEL_TOPS = {1: (170, 215, 160), 2: (240, 225, 140), 3: (245, 185, 130), 4: (230, 160, 190), 5: (180, 170, 230)}
SIDE = (150, 155, 170)
LADDER = (120, 70, 30)
FLOOR = (205, 205, 212)


def stepped_heights(rng: np.random.Generator, n: int, top: int, low: int = 0) -> np.ndarray:
    """A random height map that never rises towards the viewer: h[x, y] <= h[x-1, y] and <= h[x, y-1]."""
    h = np.zeros((n, n), dtype=np.int64)
    drops = rng.choice(3, size=(n, n), p=(0.58, 0.3, 0.12))
    for x in range(n):
        for y in range(n):
            cap = min(h[x - 1, y] if x else top, h[x, y - 1] if y else top)
            h[x, y] = max(low, cap - int(drops[x, y])) if (x or y) else int(rng.integers(top - 1, top + 1))
    return h


class CubeMazeEnv(SingleTurnEnv):
    """Base of the cube-maze ids: a stepped terrain of blocks with ladders, a ball and flags."""

    LEVELS = {0: (4, 3, 0.35), 1: (5, 4, 0.35), 2: (6, 4, 0.3)}  # side, top height, ladder chance

    def _terrain(self, rng: np.random.Generator) -> None:
        n, top, p = self.LEVELS[self.difficulty]
        self.heights = stepped_heights(rng, n, top, low=1)
        h = self.heights
        self.ladders = [((x, y), (x + dx, y + dy)) for x in range(n) for y in range(n) for dx, dy in ((1, 0), (0, 1))
                        if x + dx < n and y + dy < n and h[x, y] - h[x + dx, y + dy] == 1 and rng.random() < p]
        self.start = (int(rng.integers(n)), int(rng.integers(n)))
        self.dist = self._distances(self.start)

    def _neighbours(self, cell: tuple[int, int]) -> list[tuple[int, int]]:
        n = self.heights.shape[0]
        x, y = cell
        out = [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
               if 0 <= x + dx < n and 0 <= y + dy < n and self.heights[x + dx, y + dy] == self.heights[x, y]]
        out += [b for a, b in self.ladders if a == cell] + [a for a, b in self.ladders if b == cell]
        return out

    def _distances(self, src: tuple[int, int]) -> dict[tuple[int, int], int]:
        dist, queue = {src: 0}, deque([src])
        while queue:
            c = queue.popleft()
            for nb in self._neighbours(c):
                if nb not in dist:
                    dist[nb] = dist[c] + 1
                    queue.append(nb)
        return dist

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        n, top, _ = self.LEVELS[self.difficulty]
        s, ox, oy = _iso.fit(n, n, top, (0, 0, W, H))
        img, d = _iso.canvas(H, W, BACKGROUND)
        for poly, fill in _iso.column_faces(self.heights, s, ox, oy, SIDE, LEVEL_TOPS):
            d.polygon(poly, fill=fill, outline=INK)
        P = lambda x, y, z: (ox + (x - y) * s * _iso.C30, oy + (x + y) * s / 2 - z * s)  # noqa: E731
        w = max(1, s // 14)
        for (x, y), (x2, _) in self.ladders:  # on the taller block's side facing the lower one
            z = int(self.heights[x, y]) - 1
            for t in (0.3, 0.7):
                a = P(x + 1, y + t, z) if x2 > x else P(x + t, y + 1, z)
                b = P(x + 1, y + t, z + 1) if x2 > x else P(x + t, y + 1, z + 1)
                d.line([a, (b[0], b[1] - s * 0.15)], fill=LADDER, width=w)
            for r in (0.25, 0.5, 0.75):
                a = P(x + 1, y + 0.3, z + r) if x2 > x else P(x + 0.3, y + 1, z + r)
                b = P(x + 1, y + 0.7, z + r) if x2 > x else P(x + 0.7, y + 1, z + r)
                d.line([a, b], fill=LADDER, width=w)
        for (x, y), label in self._markers():
            cx, cy = P(x + 0.5, y + 0.5, int(self.heights[x, y]))
            if label is None:
                r = s * 0.28
                d.ellipse((cx - r, cy - r * 0.8 - s * 0.15, cx + r, cy + r * 0.8 - s * 0.15), fill=PALETTE["red"], outline=INK)
            else:  # a flag: a white disc with its letter, lying on the top
                r = s * 0.36
                d.ellipse((cx - r, cy - r * 0.62, cx + r, cy + r * 0.62), fill=(255, 255, 255), outline=INK, width=w)
                d.text((cx, cy), label, fill=INK, font=font(max(6, int(s * 0.42)), bold=True), anchor="mm")
        return np.asarray(img)

    def _markers(self) -> list[tuple[tuple[int, int], str | None]]:
        """(cell, flag letter or None for the ball), far to near."""
        raise NotImplementedError

    def _rules_text(self) -> str:
        return ("The image shows blocks of different heights on a square grid, seen from above at an angle (the "
                "colour of a block's top tells its height; no block is taller than the blocks behind it). A walker "
                "(the red ball) steps between neighbouring blocks (sharing a side) whose tops are at the same "
                "height, and climbs up or down one level only by a ladder (brown) drawn on the side of the taller "
                "block. Some tops carry a white disc with a letter (a flag).")

    def _state_text(self) -> str:
        heights = "/".join(" ".join(map(str, r)) for r in self.heights.tolist())
        return f"heights (rows x, back first) {heights}; ladders {self.ladders}; markers {self._markers()}"


_INT = re.compile(r"^\s*(\d{1,3})\s*(?:steps?|moves?)?\s*\.?\s*$", re.IGNORECASE)
_FLAG = re.compile(r"^\s*(?:flag\s*)?\(?([A-J])\)?\s*[.):]?\s*$", re.IGNORECASE)
