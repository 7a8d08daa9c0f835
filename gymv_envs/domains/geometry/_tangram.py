"""The seven tangram pieces on a grid and their quarter turns: shape keys, congruence by turning, and the
placement question's wrong pieces and turned copies."""

from __future__ import annotations

import functools

import numpy as np

# The seven pieces of a tangram square of side 4 (corners on grid points): two large triangles,
# a medium one, two small ones, a square and a parallelogram.
PIECES = (
    ("large triangle", ((0, 4), (4, 4), (2, 2))),
    ("large triangle", ((0, 0), (0, 4), (2, 2))),
    ("medium triangle", ((2, 0), (4, 0), (4, 2))),
    ("square", ((2, 2), (3, 1), (4, 2), (3, 3))),
    ("small triangle", ((3, 3), (4, 2), (4, 4))),
    ("parallelogram", ((0, 0), (2, 0), (3, 1), (1, 1))),
    ("small triangle", ((1, 1), (3, 1), (2, 2))),
)


def rotate(poly, quarter_turns: int) -> np.ndarray:
    """Turned clockwise by 90 degrees ``quarter_turns`` times about the origin (x, y) -> (y, -x)."""
    p = np.asarray(poly, dtype=np.int64)
    for _ in range(quarter_turns % 4):
        p = np.stack([p[:, 1], -p[:, 0]], 1)
    return p


@functools.lru_cache(maxsize=64)
def square_pieces(scale: int, turns: int, mirror: bool) -> tuple[tuple[str, np.ndarray], ...]:
    """The seven pieces of the square of side ``4 * scale`` at (1, 1), mirrored and turned (read-only)."""
    side = 4 * scale
    pieces = []
    for kind, poly in PIECES:
        p = np.asarray(poly, dtype=np.int64) * scale
        if mirror:
            p = np.stack([side - p[:, 0], p[:, 1]], 1)
        p = rotate(p, turns) - rotate([(0, 0), (side, side)], turns).min(axis=0) + 1  # onto [1, side + 1]^2
        p.setflags(write=False)
        pieces.append((kind, p))
    return tuple(pieces)


def shape_key(poly) -> frozenset:
    """The polygon's corners moved so the lowest x and y are 0: equal keys, same shape and turn."""
    return turn_keys(poly)[0]


def turn_keys(poly) -> tuple[frozenset, ...]:
    """`shape_key` of the polygon turned by 0, 1, 2 and 3 quarter turns (integer corners, in plain Python)."""
    return _turn_keys_of(np.ascontiguousarray(poly, dtype=np.int64).tobytes())


@functools.lru_cache(maxsize=1024)
def _turn_keys_of(corners: bytes) -> tuple[frozenset, ...]:
    """`turn_keys` of the int64 (k, 2) corners ``corners`` (bytes), cached."""
    pts = [(x, y) for x, y in np.frombuffer(corners, dtype=np.int64).reshape(-1, 2).tolist()]
    keys = []
    for _ in range(4):
        mx, my = min(x for x, _ in pts), min(y for _, y in pts)
        keys.append(frozenset((x - mx, y - my) for x, y in pts))
        pts = [(y, -x) for x, y in pts]
    return tuple(keys)


def congruent_by_turning(a, b) -> bool:
    """Whether ``b`` is ``a`` turned by some quarter turns (and moved)."""
    return turn_keys(b)[0] in turn_keys(a)


@functools.lru_cache(maxsize=256)
def wrong_pieces(scale: int, turns: int, mirror: bool, missing: int) -> tuple[np.ndarray, ...]:
    """The placement question's wrong loose pieces for the hole of piece ``missing``: one of each shape
    that no turn fits into it (the parallelogram's mirror image first, if it is the hole)."""
    pieces = square_pieces(scale, turns, mirror)
    hole = pieces[missing][1]
    flipped = [np.stack([-hole[:, 0], hole[:, 1]], 1)] if pieces[missing][0] == "parallelogram" else []
    distinct: list[np.ndarray] = []
    for p in flipped + [p for _, p in pieces if not congruent_by_turning(p, hole)]:
        if not any(congruent_by_turning(p, q) for q in distinct):
            distinct.append(p)
    return tuple(distinct)


@functools.lru_cache(maxsize=1024)
def turned_corners(corners: bytes, quarter_turns: int) -> tuple[np.ndarray, int, int]:
    """The int64 corners ``corners`` (bytes) turned, moved to lowest x and y 0 (read-only); width, height."""
    q = rotate(np.frombuffer(corners, dtype=np.int64).reshape(-1, 2), quarter_turns)
    q = q - q.min(axis=0)
    q.setflags(write=False)
    w, h = q.max(axis=0).tolist()
    return q, w, h
