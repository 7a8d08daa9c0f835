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


def _flag_patch(H: int, W: int, cx: float, cy: float, s: int, w: int, label: str) -> tuple | None:
    """A flag as `_draw_flag` draws it at that place in an H x W picture, as ``(patch, box, mask)``
    for ``img.im.paste`` (PIL cores): the disc is opaque, so when every pixel the letter touches lies on the disc
    the result there does not depend on the picture beneath (None when some does not).

    It is drawn in a window of the picture around the flag, at the same place shifted by whole
    pixels (the same pixels, a fraction of the work); away from the picture's edges the window's
    drawing depends only on the fractional part of the place, so it is cached by that."""
    m = 2 * s + w + 4
    ix, iy = int(cx), int(cy)
    x0, y0 = max(0, ix - m), max(0, iy - m)
    x1, y1 = min(W, ix + m + 1), min(H, iy + m + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    if (x0, y0, x1, y1) == (ix - m, iy - m, ix + m + 1, iy + m + 1):  # unclipped: (cx - x0) == (cx - ix) + m
        hit = _flag_window((2 * m + 1, 2 * m + 1), cx - ix + m, cy - iy + m, s, w, label)
    else:
        hit = _flag_window((x1 - x0, y1 - y0), cx - x0, cy - y0, s, w, label)
    if hit is None:
        return None
    patch, box, mask = hit
    return patch, (box[0] + x0, box[1] + y0, box[2] + x0, box[3] + y0), mask


@functools.lru_cache(maxsize=4096)
def _flag_window(size: tuple[int, int], lx: float, ly: float, s: int, w: int, label: str) -> tuple | None:
    """`_flag_patch` in a window of ``size`` with the flag at (lx, ly); the box is the window's."""
    disc = Image.new("L", size, 0)
    letter = Image.new("L", size, 0)
    r = s * 0.36
    ImageDraw.Draw(disc).ellipse((lx - r, ly - r * 0.62, lx + r, ly + r * 0.62), fill=255, outline=255, width=w)
    ImageDraw.Draw(letter).text((lx, ly), label, fill=255, font=font(max(6, int(s * 0.42)), bold=True), anchor="mm")
    on, touched = np.asarray(disc) > 0, np.asarray(letter) > 0
    if not on.any() or (touched & ~on).any():
        return None
    picture = Image.new("RGB", size, BACKGROUND)
    _draw_flag(ImageDraw.Draw(picture), lx, ly, s, w, label)
    box = disc.getbbox()
    return picture.crop(box).im, box, disc.crop(box).point(lambda v: 255 if v else 0, "1").im  # 0/255: copy or keep


@functools.lru_cache(maxsize=4)
def _face_sprites(H: int, W: int, n: int, top: int, s: int, ox: float, oy: float) -> tuple:
    """`_iso._face_table` of an n x n terrain up to ``top`` high in an H x W picture with each face
    pre-drawn as `_iso.outlined_polygons` draws it (fill, then ink outline): ``(picture, box, mask)``
    for ``img.im.paste``, mask the pixels the two draw calls touch (None: none). Drawn at their own
    places in a picture of the same size, they are the same pixels (mode 1 mask: copy or keep)."""
    scratch = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(scratch)

    def sprite(poly, fill):
        _iso.outlined_polygons(d, [(poly, (*fill, 255))], (*INK, 255))
        xs, ys = [x for x, _ in poly], [y for _, y in poly]  # it draws between the rounded corners
        x0, y0 = max(0, int(min(xs)) - 3), max(0, int(min(ys)) - 3)
        near = scratch.crop((x0, y0, max(x0, min(W, int(max(xs)) + 4)), max(y0, min(H, int(max(ys)) + 4))))
        box = near.getbbox()
        if box is None:
            return None
        box = (box[0] + x0, box[1] + y0, box[2] + x0, box[3] + y0)
        piece = scratch.crop(box)
        scratch.paste((0, 0, 0, 0), box)
        return piece.convert("RGB").im, box, piece.getchannel("A").convert("1", dither=Image.Dither.NONE).im

    rights, lefts, tops = _iso._face_table(n, n, s, ox, oy, top)
    return (tuple(tuple(sprite(p, _iso.shade(SIDE, _iso.RIGHT)) for p in cell) for cell in rights),
            tuple(tuple(sprite(p, _iso.shade(SIDE, _iso.LEFT)) for p in cell) for cell in lefts),
            tuple(tuple(sprite(p, LEVEL_TOPS.get(h, SIDE)) for h, p in enumerate(cell)) for cell in tops))


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
        img, d = _iso.canvas(H, W, BACKGROUND)
        table, paste = _face_sprites(H, W, n, top, s, ox, oy), img.im.paste
        for face, _ in _iso.column_faces(self.heights, s, ox, oy, SIDE, LEVEL_TOPS, table):
            if face is not None:
                paste(*face)
        P = lambda x, y, z: (ox + (x - y) * s * _iso.C30, oy + (x + y) * s / 2 - z * s)  # noqa: E731
        w = max(1, s // 14)
        line, ladder = d.draw.draw_lines, d._getink(LADDER)[0]  # what d.line(xy, fill=LADDER, width=w) calls
        for (x, y), (x2, _) in self.ladders:  # on the taller block's side facing the lower one
            z = int(self.heights[x, y]) - 1
            for t in (0.3, 0.7):
                a = P(x + 1, y + t, z) if x2 > x else P(x + t, y + 1, z)
                b = P(x + 1, y + t, z + 1) if x2 > x else P(x + t, y + 1, z + 1)
                line([a, (b[0], b[1] - s * 0.15)], ladder, w)
            for r in (0.25, 0.5, 0.75):
                a = P(x + 1, y + 0.3, z + r) if x2 > x else P(x + 0.3, y + 1, z + r)
                b = P(x + 1, y + 0.7, z + r) if x2 > x else P(x + 0.7, y + 1, z + r)
                line([a, b], ladder, w)
        for (x, y), label in self._markers():
            cx, cy = P(x + 0.5, y + 0.5, int(self.heights[x, y]))
            if label is None:
                r = s * 0.28
                d.ellipse((cx - r, cy - r * 0.8 - s * 0.15, cx + r, cy + r * 0.8 - s * 0.15), fill=PALETTE["red"], outline=INK)
            else:  # a flag: a white disc with its letter, lying on the top
                flag = _flag_patch(H, W, cx, cy, s, w, label)
                if flag is None:
                    _draw_flag(d, cx, cy, s, w, label)
                else:
                    paste(*flag)
        return _iso.frame(img)

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
