"""Cached sprites for the cognition tasks: polygons rendered once with PIL, stamped with numpy.

A sprite is ``(rgb, mask)``: an ``(h, w, 3)`` picture and the ``(h, w)`` bool mask of its pixels,
both read-only. `stamp` copies it into a frame at a pixel position (clipped), which costs one
masked copy, so a frame of a few dozen shapes is drawn in well under a millisecond.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw

from gymv_envs.core.canvas import INK, PIXEL, Color

Sprite = tuple[np.ndarray, np.ndarray]
Poly = tuple[tuple[float, float], ...]

# unit outlines (centred on 0, radius about 1) of the glyphs the figure tasks draw; the last ones
# are chiral: a mirror image differs from every rotation
_STAR = tuple((math.cos(-math.pi / 2 + i * math.pi / 5) * (1 if i % 2 == 0 else 0.45),
               math.sin(-math.pi / 2 + i * math.pi / 5) * (1 if i % 2 == 0 else 0.45)) for i in range(10))
GLYPHS: dict[str, Poly] = {
    "triangle": ((0, -1), (0.87, 0.5), (-0.87, 0.5)),
    "square": ((-0.75, -0.75), (0.75, -0.75), (0.75, 0.75), (-0.75, 0.75)),
    "pentagon": tuple((math.sin(2 * math.pi * i / 5), -math.cos(2 * math.pi * i / 5)) for i in range(5)),
    "hexagon": tuple((math.sin(2 * math.pi * i / 6), -math.cos(2 * math.pi * i / 6)) for i in range(6)),
    "star": _STAR,
    "cross": ((-0.3, -1), (0.3, -1), (0.3, -0.3), (1, -0.3), (1, 0.3), (0.3, 0.3), (0.3, 1), (-0.3, 1),
              (-0.3, 0.3), (-1, 0.3), (-1, -0.3), (-0.3, -0.3)),
    "arrow": ((-0.9, -0.25), (0.2, -0.25), (0.2, -0.7), (0.95, 0), (0.2, 0.7), (0.2, 0.25), (-0.9, 0.25)),
    "flag": ((-0.6, -1), (0.8, -0.55), (-0.35, -0.1), (-0.35, 1), (-0.6, 1)),
    "L": ((-0.7, -1), (-0.2, -1), (-0.2, 0.5), (0.7, 0.5), (0.7, 1), (-0.7, 1)),
    "hook": ((-0.8, -1), (0.8, -1), (0.8, -0.5), (-0.3, -0.5), (-0.3, 1), (-0.8, 1)),
}
SIDES = {"triangle": 3, "square": 4, "pentagon": 5, "hexagon": 6}
CHIRAL = ("flag", "L", "hook")


def transform(poly: Poly, angle: float, mirror: bool) -> Poly:
    """The outline mirrored left-right (first, when ``mirror``) and turned ``angle`` degrees clockwise."""
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    return tuple(((-x if mirror else x) * ca - y * sa, (-x if mirror else x) * sa + y * ca) for x, y in poly)


def render(polys: Sequence[tuple[Poly, Color]], w: int, h: int, outline: Color | None = INK, width: int = 1) -> Sprite:
    """Polygons in pixel coordinates of a w x h box, filled and outlined, as a sprite."""
    img = Image.new("RGBA", (max(1, w), max(1, h)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    for pts, fill in polys:
        draw.polygon(list(pts), fill=(*fill, 255), outline=None if outline is None else (*outline, 255), width=width)
    arr = np.asarray(img)
    rgb, mask = np.ascontiguousarray(arr[..., :3]), arr[..., 3] > 127
    rgb.setflags(write=False)
    mask.setflags(write=False)
    return rgb, mask


@functools.lru_cache(maxsize=4096)
def _glyph_masks(kind: str, s: int, angle: float, mirror: bool, hollow: bool) -> tuple[np.ndarray, np.ndarray]:
    """A glyph without colour (one PIL render per shape, size and turn): per pixel 0 (outside), 1
    (outline) or 2 (fill), and the mask of its nonzero pixels (both read-only)."""
    img = Image.new("L", (s, s), 0)
    d = ImageDraw.Draw(img)
    if kind == "circle":
        d.ellipse((1, 1, s - 2, s - 2), fill=None if hollow else 2, outline=1, width=max(1, s // 8) if hollow else 1)
    else:
        r = (s - 2) / 2
        pts = [(s / 2 + x * r, s / 2 + y * r) for x, y in transform(GLYPHS[kind], angle, mirror)]
        d.polygon(pts, fill=None if hollow else 2, outline=1, width=max(1, s // 10) if hollow else 1)
    codes = np.array(img)
    mask = codes != 0
    codes.setflags(write=False)
    mask.setflags(write=False)
    return codes, mask


@functools.lru_cache(maxsize=8192)
def glyph(kind: str, size: int, colour: Color, angle: float = 0.0, mirror: bool = False, hollow: bool = False) -> Sprite:
    """A glyph of `GLYPHS` (or ``"circle"``) ``size`` pixels across, filled with ``colour`` and
    outlined in ink (a hollow polygon: outlined in ``colour``), cached."""
    codes, mask = _glyph_masks(kind, max(3, int(size)), float(angle), bool(mirror), bool(hollow))
    inks = bytes((0, 0, 0, *(colour if hollow and kind != "circle" else INK), *colour))
    rgb = np.frombuffer(inks, dtype=np.uint8).reshape(3, 3).take(codes, axis=0)  # each pixel's colour by its code
    rgb.setflags(write=False)
    return rgb, mask


_BLOCKS: dict[int, tuple[np.ndarray, list[tuple[int, int, int, int]]]] = {}


def blocks(mask: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The mask as rectangles (r0, r1, c0, c1): runs of each row, consecutive rows with the same
    runs merged (a large convex sprite is a few dozen slice copies). Cached for read-only masks."""
    hit = _BLOCKS.get(id(mask))
    if hit is not None and hit[0] is mask:
        return hit[1]
    out: list[tuple[int, int, int, int]] = []
    open_: dict[tuple[int, int], int] = {}
    prev: tuple = ()
    edges = np.diff(np.pad(mask.astype(np.int8), ((0, 0), (1, 1))), axis=1)  # +1 where a run starts, -1 past its end
    rows, starts = np.nonzero(edges == 1)
    ends = np.nonzero(edges == -1)[1]
    by_row: list[list[tuple[int, int]]] = [[] for _ in range(mask.shape[0] + 1)]  # the last: all False
    for r, a, c in zip(rows.tolist(), starts.tolist(), ends.tolist()):
        by_row[r].append((a, c))
    for r, row_runs in enumerate(by_row):
        runs = tuple(row_runs)
        if runs != prev:
            for run, start in open_.items():
                out.append((start, r, *run))
            open_ = {run: r for run in runs}
            prev = runs
    if not mask.flags.writeable:
        if len(_BLOCKS) > 4096:
            _BLOCKS.clear()
        _BLOCKS[id(mask)] = (mask, out)
    return out


def stamp(frame: np.ndarray, sprite: Sprite, x: int, y: int) -> None:
    """Copy the sprite's pixels into ``frame`` with its top-left corner at (x, y), clipped."""
    rgb, mask = sprite
    h, w = mask.shape
    H, W = frame.shape[:2]
    if h * w < 2500 and x >= 0 and y >= 0 and x + w <= W and y + h <= H and frame.flags.c_contiguous \
            and rgb.flags.c_contiguous:  # a small sprite wholly inside: one masked copy of 3-byte pixels
        np.copyto(frame.view(PIXEL).reshape(H, W)[y:y + h, x:x + w], rgb.view(PIXEL).reshape(h, w), where=mask)
        return
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
    if x0 >= x1 or y0 >= y1:
        return
    parts = blocks(mask) if h * w >= 2500 else None
    if parts is None or len(parts) * 400 > h * w:  # one masked copy
        sub = (slice(y0 - y, y1 - y), slice(x0 - x, x1 - x))
        if frame.flags.c_contiguous and rgb.flags.c_contiguous:  # as 3-byte pixels: one item each
            np.copyto(frame.view(PIXEL).reshape(H, W)[y0:y1, x0:x1], rgb.view(PIXEL).reshape(h, w)[sub],
                      where=mask[sub])
        else:
            np.copyto(frame[y0:y1, x0:x1], rgb[sub], where=mask[sub][..., None])
        return
    for r0, r1, c0, c1 in parts:  # a large sprite of few rectangles: slice copies
        a, b, c, d = max(r0, y0 - y), min(r1, y1 - y), max(c0, x0 - x), min(c1, x1 - x)
        if a < b and c < d:
            frame[y + a:y + b, x + c:x + d] = rgb[a:b, c:d]


def stamp_all(frame: np.ndarray, sprite: Sprite, corners: Sequence[tuple[int, int]]) -> None:
    """`stamp` the sprite at each top-left corner (x, y) in turn (later ones cover earlier ones):
    the pixel views made once, one masked copy per corner that lies wholly in the frame."""
    rgb, mask = sprite
    h, w = mask.shape
    H, W = frame.shape[:2]
    parts = blocks(mask) if h * w >= 2500 else None
    if (parts is not None and len(parts) * 400 <= h * w) or not (frame.flags.c_contiguous and rgb.flags.c_contiguous):
        for x, y in corners:  # a sprite of few rectangles (see `stamp`), or a frame not in one block
            stamp(frame, sprite, x, y)
        return
    pixels, src = frame.view(PIXEL).reshape(H, W), rgb.view(PIXEL).reshape(h, w)
    for x, y in corners:
        if x >= 0 and y >= 0 and x + w <= W and y + h <= H:
            np.copyto(pixels[y:y + h, x:x + w], src, where=mask)
        else:
            stamp(frame, sprite, x, y)


def stamp_centred(frame: np.ndarray, sprite: Sprite, cx: float, cy: float) -> None:
    h, w = sprite[1].shape
    stamp(frame, sprite, int(round(cx - w / 2)), int(round(cy - h / 2)))
