"""Stepped block terrains (no column taller than the ones behind it) and the cube-maze base env."""

from __future__ import annotations

import functools
import re

import numpy as np
from PIL import Image, ImageDraw

from gymv_envs.core import SingleTurnEnv
from gymv_envs.core.canvas import BACKGROUND, INK, PALETTE, font
from gymv_envs.domains.cognition import _iso

LEVEL_TOPS = {1: (170, 215, 160), 2: (240, 225, 140), 3: (245, 185, 130), 4: (230, 160, 190), 5: (180, 170, 230)}
SIDE = (150, 155, 170)
LADDER = (120, 70, 30)
FLOOR = (205, 205, 212)
_DROP_CDF = np.cumsum((0.58, 0.3, 0.12))
_DROP_CDF /= _DROP_CDF[-1]  # what Generator.choice(3, p=...) searches its uniform draws in


def stepped_heights(rng: np.random.Generator, n: int, top: int, low: int = 0) -> np.ndarray:
    """A random height map that never rises towards the viewer: h[x, y] <= h[x-1, y] and <= h[x, y-1]."""
    drops = _DROP_CDF.searchsorted(rng.random((n, n)), side="right").tolist()  # rng.choice(3, (n, n), p=...)
    h = [[0] * n for _ in range(n)]
    h[0][0] = int(rng.integers(top - 1, top + 1))
    for x in range(n):  # cap: the lower of the tops behind (x - 1, y) and (x, y - 1)
        row, back, drop = h[x], h[x - 1] if x else [top] * n, drops[x]
        for y in range(1 if x == 0 else 0, n):
            a, b = back[y], row[y - 1] if y else top
            row[y] = max(low, (a if a < b else b) - drop[y])
    return np.array(h, dtype=np.int64)


def _draw_flag(d: ImageDraw.ImageDraw, cx: float, cy: float, s: int, w: int, label: str, ink=INK) -> None:
    r = s * 0.36
    d.ellipse((cx - r, cy - r * 0.62, cx + r, cy + r * 0.62), fill=(255, 255, 255), outline=ink, width=w)
    d.text((cx, cy), label, fill=ink, font=font(max(6, int(s * 0.42)), bold=True), anchor="mm")


def _put_flag(img: np.ndarray, cx: float, cy: float, s: int, w: int, label: str) -> None:
    """Draw a flag on the frame ``img`` as `_draw_flag` draws it at that place. It is drawn once in a
    window of the frame around the flag, at the same place shifted by whole pixels (the same pixels):
    away from the frame's edges the window's drawing depends only on the fractional part of the
    place, so it is cached by that. The disc is opaque, so its pixels do not depend on the frame
    beneath; the letter's pixels off the disc are blended onto the frame as PIL blends text."""
    H, W = img.shape[:2]
    m = 2 * s + w + 4
    ix, iy = int(cx), int(cy)
    x0, y0 = max(0, ix - m), max(0, iy - m)
    x1, y1 = min(W, ix + m + 1), min(H, iy + m + 1)
    if x1 <= x0 or y1 <= y0:
        return
    if (x0, y0, x1, y1) == (ix - m, iy - m, ix + m + 1, iy + m + 1):  # unclipped: (cx - x0) == (cx - ix) + m
        disc, spill = _flag_window((2 * m + 1, 2 * m + 1), cx - ix + m, cy - iy + m, s, w, label)
    else:
        disc, spill = _flag_window((x1 - x0, y1 - y0), cx - x0, cy - y0, s, w, label)
    if disc is not None:
        pixels, mask, x, y = disc
        _iso.stamp_faces(img, [(pixels, mask, x + x0, y + y0)])
    if spill is not None:
        alpha, x, y = spill
        rows, cols = alpha.shape[:2]
        under = img[y + y0:y + y0 + rows, x + x0:x + x0 + cols]
        # PIL's text blend: DIV255(under * (255 - alpha) + ink * alpha), rounded as its DIV255 macro rounds
        t = under * (255 - alpha) + np.array(INK, dtype=np.uint16) * alpha + 128
        under[...] = ((t >> 8) + t) >> 8


@functools.lru_cache(maxsize=4096)
def _flag_window(size: tuple[int, int], lx: float, ly: float, s: int, w: int, label: str) -> tuple:
    """The flag drawn in a window of ``size`` at (lx, ly): its disc's pixels as an `_iso.cut` entry and
    the letter's coverage off the disc as ``(alpha, x, y)`` (uint16, (h, w, 1)); None where empty."""
    disc = Image.new("L", size, 0)
    letter = Image.new("L", size, 0)
    r = s * 0.36
    ImageDraw.Draw(disc).ellipse((lx - r, ly - r * 0.62, lx + r, ly + r * 0.62), fill=255, outline=255, width=w)
    ImageDraw.Draw(letter).text((lx, ly), label, fill=255, font=font(max(6, int(s * 0.42)), bold=True), anchor="mm")
    on, coverage = np.asarray(disc) > 0, np.asarray(letter)
    off = (coverage > 0) & ~on
    spill = None
    if off.any():  # the letter's coverage off the disc, in the box of those pixels
        ys, xs = np.nonzero(off)
        x0, y0, x1, y1 = int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1
        spill = np.where(on, 0, coverage)[y0:y1, x0:x1, None].astype(np.uint16), x0, y0
    picture = Image.new("RGB", size, BACKGROUND)
    _draw_flag(ImageDraw.Draw(picture), lx, ly, s, w, label)
    picture.putalpha(disc)  # opaque on the disc only
    return _iso.cut(picture, [(0, 0), size], pad=0), spill


def _ladder_ends(P, x: int, y: int, along_x: bool, z: int, s: int) -> list[tuple[float, float]]:
    """The ends, pair by pair, of a ladder's two rails and three rungs from height z to z + 1 on the
    side of the block (x, y) that faces +x (``along_x``) or +y; ``P`` projects (x, y, z) to the frame."""
    def side(u: float, v: float) -> tuple[float, float]:  # u across the side, at height v
        return P(x + 1, y + u, v) if along_x else P(x + u, y + 1, v)

    ends = []
    for t in (0.3, 0.7):  # the rails, ending a little above the top
        a, b = side(t, z), side(t, z + 1)
        ends += [a, (b[0], b[1] - s * 0.15)]
    for r in (0.25, 0.5, 0.75):  # the rungs
        ends += [side(0.3, z + r), side(0.7, z + r)]
    return ends


@functools.lru_cache(maxsize=4)
def _marks(H: int, W: int, n: int, top: int, s: int, ox: float, oy: float) -> tuple[dict, dict]:
    """The ladders and the ball of an n x n terrain up to ``top`` high in an H x W frame, each drawn
    once per size at its own place in a picture of the frame's size, as `_iso.cut` entries:
    ``ladders[(x, y), (x2, y2), z]`` on the side of the block (x, y) whose top is at z + 1, facing its
    neighbour (x2, y2) in +x or +y; ``balls[(x, y), h]`` on the top of (x, y) at height h."""
    scratch = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(scratch)
    P = lambda x, y, z: (ox + (x - y) * s * _iso.C30, oy + (x + y) * s / 2 - z * s)
    w = max(1, s // 14)
    ladders, balls = {}, {}
    for x in range(n):
        for y in range(n):
            for x2, y2 in ((x + 1, y), (x, y + 1)):
                if x2 == n or y2 == n:
                    continue
                for z in range(top):
                    ends = _ladder_ends(P, x, y, x2 > x, z, s)
                    for i in range(0, len(ends), 2):
                        d.line(ends[i:i + 2], fill=(*LADDER, 255), width=w)
                    ladders[(x, y), (x2, y2), z] = _iso.cut(scratch, ends, pad=w + 3)
            for h in range(1, top + 1):
                cx, cy = P(x + 0.5, y + 0.5, h)
                r = s * 0.28
                box = (cx - r, cy - r * 0.8 - s * 0.15, cx + r, cy + r * 0.8 - s * 0.15)
                d.ellipse(box, fill=(*PALETTE["red"], 255), outline=(*INK, 255))
                balls[(x, y), h] = _iso.cut(scratch, [box[:2], box[2:]])
    return ladders, balls


@functools.lru_cache(maxsize=16)
def _sides(n: int) -> tuple:
    """``_sides(n)[x][y]``: the side neighbours of (x, y) on an n x n grid, in the order +x, -x, +y, -y."""
    return tuple(tuple(tuple(c for c, ok in (((x + 1, y), x + 1 < n), ((x - 1, y), x > 0), ((x, y + 1), y + 1 < n),
                                             ((x, y - 1), y > 0)) if ok) for y in range(n)) for x in range(n))


class CubeMazeEnv(SingleTurnEnv):
    """Base of the cube-maze ids: a stepped terrain of blocks with ladders, a ball and flags."""

    LEVELS = {0: (4, 3, 0.35), 1: (5, 4, 0.35), 2: (6, 4, 0.3)}  # side, top height, ladder chance

    def _terrain(self, rng: np.random.Generator) -> None:
        n, top, p = self.LEVELS[self.difficulty]
        self.heights = stepped_heights(rng, n, top, low=1)
        h = self.heights.tolist()  # python ints: the same comparisons, without numpy scalar indexing
        steps = []  # the one-level drops to a side neighbour, cell by cell: +x first, then +y
        for x, row in enumerate(h):
            front = h[x + 1] if x + 1 < n else [None] * n
            for y in range(n):
                if front[y] == row[y] - 1:
                    steps.append(((x, y), (x + 1, y)))
                if y + 1 < n and row[y + 1] == row[y] - 1:
                    steps.append(((x, y), (x, y + 1)))
        # one uniform draw per one-level step, in order (the draws one rng.random() call each would give)
        self.ladders = [pair for pair, u in zip(steps, rng.random(len(steps)).tolist()) if u < p]
        self.start = (int(rng.integers(n)), int(rng.integers(n)))
        self.dist = self._distances(self.start)

    def _distances(self, src: tuple[int, int]) -> dict[tuple[int, int], int]:
        """Breadth-first step counts from ``src``; a cell's moves: the four side neighbours of equal height
        (+x, -x, +y, -y), then up its ladders, then down the ladders that end on it (list order)."""
        h = self.heights.tolist()
        sides = _sides(len(h))
        ladders: dict[tuple[int, int], list] = {}  # a cell's ladder moves: the up ones, then the down ones
        for a, b in self.ladders:
            ladders.setdefault(a, []).append(b)
        for a, b in self.ladders:
            ladders.setdefault(b, []).append(a)
        dist, queue = {src: 0}, [src]
        for c in queue:  # breadth first: the queue grows while it is read
            x, y = c
            hc, d1 = h[x][y], dist[c] + 1
            for nb in sides[x][y]:
                if h[nb[0]][nb[1]] == hc and nb not in dist:
                    dist[nb] = d1
                    queue.append(nb)
            for nb in ladders.get(c, ()):
                if nb not in dist:
                    dist[nb] = d1
                    queue.append(nb)
        return dist

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        n, top, _ = self.LEVELS[self.difficulty]
        s, ox, oy = _iso.fit(n, n, top, (0, 0, W, H))
        img = _iso.blank(H, W, BACKGROUND).copy()
        faces = _iso.face_sprites(H, W, n, n, s, ox, oy, top, SIDE, INK, tuple(LEVEL_TOPS.items()))
        _iso.stamp_faces(img, [face for face, _ in _iso.column_faces(self.heights, s, ox, oy, SIDE, table=faces)])
        h = self.heights.tolist()
        ladders, balls = _marks(H, W, n, top, s, ox, oy)
        _iso.stamp_faces(img, [ladders[a, b, h[a[0]][a[1]] - 1] for a, b in self.ladders])  # all one colour
        P = lambda x, y, z: (ox + (x - y) * s * _iso.C30, oy + (x + y) * s / 2 - z * s)
        for (x, y), label in self._markers():
            if label is None:
                _iso.stamp_faces(img, [balls[(x, y), h[x][y]]])
            else:  # a flag: a white disc with its letter, lying on the top
                _put_flag(img, *P(x + 0.5, y + 0.5, h[x][y]), s, max(1, s // 14), label)
        return img

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
