"""Abstract figures for the figure-reasoning tasks: glyphs placed in a panel, their transforms,
a canonical signature (two figures look the same iff their signatures are equal) and drawing."""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from gymv_envs.core.canvas import PALETTE
from gymv_envs.domains.cognition._sprites import (
    CHIRAL,
    GLYPHS,
    SIDES,
    glyph,
    stamp_centred,
    transform,
)

Figure = tuple["Item", ...]
# each polygon's two odd partners (another number of sides)
POLY_ODD = {"triangle": ("square", "pentagon"), "square": ("triangle", "hexagon"),
            "pentagon": ("square", "hexagon"), "hexagon": ("triangle", "pentagon")}
COLOURS = ("red", "blue", "green", "orange", "purple", "cyan", "pink", "brown")


class Item(NamedTuple):
    """One glyph: kind, colour name, centre (x, y in -1..1 across the panel, y down), size (fraction
    of the panel side), clockwise angle in degrees, mirrored left-right before turning."""

    kind: str
    colour: str
    x: float = 0.0
    y: float = 0.0
    size: float = 0.5
    angle: float = 0.0
    mirror: bool = False


def _item(*fields) -> Item:
    """An Item from its seven fields in order: what ``_replace`` builds, without its keyword handling."""
    return tuple.__new__(Item, fields)


@functools.lru_cache(maxsize=4096)
def outline_key(kind: str, angle: float, mirror: bool) -> tuple | None:
    """The glyph's outline as a set of rounded vertices: equal keys draw the same shape (cached)."""
    if kind == "circle":
        return None
    pts = transform(GLYPHS[kind], angle, mirror)
    return tuple(sorted((round(x, 2) + 0.0, round(y, 2) + 0.0) for x, y in pts))


def signature(fig: Figure) -> tuple:
    """What the figure looks like, independent of how it was built (cached per figure)."""
    return _signature(tuple(fig))


@functools.lru_cache(maxsize=16384)
def _signature(fig: Figure) -> tuple:
    return tuple(sorted((it.kind, it.colour, round(it.x, 2) + 0.0, round(it.y, 2) + 0.0, round(it.size, 2),
                         outline_key(it.kind, float(it.angle) % 360, bool(it.mirror))) for it in fig))


def rotate(fig: Figure, degrees: int) -> Figure:
    """The whole figure turned clockwise by a multiple of 90 degrees about the panel centre."""
    out = []
    turns = (degrees // 90) % 4
    for kind, colour, x, y, size, angle, mirrored in fig:  # Items built directly (as _replace would)
        for _ in range(turns):
            x, y = -y, x
        out.append(_item(kind, colour, x, y, size, (angle + degrees) % 360, mirrored))
    return tuple(out)


def mirror(fig: Figure) -> Figure:
    """The whole figure mirrored left-right."""
    return tuple(_item(k, c, -x, y, s, (-a) % 360, not m) for k, c, x, y, s, a, m in fig)


def recolour(fig: Figure, table: dict[str, str]) -> Figure:
    return tuple(_item(k, table.get(c, c), x, y, s, a, m) for k, c, x, y, s, a, m in fig)


def chirality(it: Item) -> bool | None:
    """For a chiral glyph, whether it is drawn mirrored (turns cannot change that); else None."""
    return it.mirror if it.kind in CHIRAL else None


def sides(it: Item) -> int:
    return SIDES.get(it.kind, 0)


def spread(rng: np.random.Generator, n: int, size: float) -> list[tuple[float, float]]:
    """``n`` glyph centres in the panel, kept apart (a jittered 3 x 3 lattice when crowded)."""
    if n == 1:
        return [(0.0, 0.0)]
    slots = [(-0.62 + 0.62 * (i % 3), -0.62 + 0.62 * (i // 3)) for i in range(9)] if n > 4 or size < 0.34 else \
        [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)]
    return [slots[int(i)] for i in rng.permutation(len(slots))[:n]]


def describe(fig: Figure) -> str:
    """A short text rendering (for ``state_text``)."""
    return ", ".join(f"{it.colour} {'mirrored ' if it.mirror else ''}{it.kind} at ({it.x:+.1f},{it.y:+.1f}) "
                     f"turned {int(it.angle) % 360}" for it in fig)


def draw(img: np.ndarray, fig: Figure, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    side = min(x1 - x0, y1 - y0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    for it in fig:
        px = max(3, int(it.size * side))
        spr = glyph(it.kind, px, PALETTE[it.colour], float(round(it.angle) % 360), bool(it.mirror))
        stamp_centred(img, spr, cx + it.x * side / 2, cy + it.y * side / 2)


def angle_step(rng: np.random.Generator, choices=(45, 90, 135)) -> int:
    return int(choices[int(rng.integers(len(choices)))]) * (1 if rng.random() < 0.5 else -1)

