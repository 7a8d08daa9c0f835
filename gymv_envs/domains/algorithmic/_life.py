"""Conway's Game of Life on a bounded board (cells beyond the edge are dead), on bitboards.

A board of ``rows x cols`` is one Python int: cell (r, c) is bit ``r * (cols + 1) + c``; the spare
bit at the end of each row stays 0, so shifting a row sideways never reaches the next row. One
generation is a bit-sliced count of the eight neighbours (about forty integer operations), far
cheaper than numpy for the small boards of these tasks. ``step_array`` is the plain numpy rule,
used as the independent check in the tests and for the wrap-around (torus) variant.
"""

from __future__ import annotations

import functools

import numpy as np

RULES = ("Each step, every cell counts its eight neighbours (cells beyond the edge of the board are dead): "
         "a live cell with 2 or 3 live neighbours stays alive, a dead cell with exactly 3 becomes alive, "
         "and every other cell is dead in the next step.")


def random_soup(rng: np.random.Generator, side: int, density: tuple[float, float] = (0.3, 0.45)) -> np.ndarray:
    """A random board of live cells (at least one cell in from the edge on average)."""
    p = float(rng.uniform(*density))
    return (rng.random((side, side)) < p).astype(np.int64)


@functools.lru_cache(maxsize=64)
def _masks(rows: int, cols: int) -> tuple[int, int]:
    stride = cols + 1
    row = (1 << cols) - 1
    every = 0
    for r in range(rows):
        every |= row << (r * stride)
    return stride, every


def to_bits(grid: np.ndarray) -> int:
    rows, cols = grid.shape
    stride, _ = _masks(rows, cols)
    b = 0
    for r, c in zip(*np.nonzero(grid)):
        b |= 1 << (int(r) * stride + int(c))
    return b


def to_array(bits: int, rows: int, cols: int) -> np.ndarray:
    stride, _ = _masks(rows, cols)
    raw = np.frombuffer(bits.to_bytes((rows * stride + 7) // 8 + 1, "little"), dtype=np.uint8)
    flat = np.unpackbits(raw, bitorder="little")[: rows * stride]
    return flat.reshape(rows, stride)[:, :cols].astype(np.int64)


def step(bits: int, rows: int, cols: int) -> int:
    """One generation of B3/S23."""
    stride, every = _masks(rows, cols)
    s0 = s1 = s2 = s3 = 0
    for sh in (1, stride - 1, stride, stride + 1):
        for x in ((bits << sh) & every, bits >> sh):
            c0 = s0 & x
            s0 ^= x
            c1 = s1 & c0
            s1 ^= c0
            c2 = s2 & c1
            s2 ^= c1
            s3 |= c2
    return s1 & ~s2 & ~s3 & (s0 | bits) & every


def run(bits: int, rows: int, cols: int, steps: int) -> int:
    for _ in range(steps):
        bits = step(bits, rows, cols)
    return bits


def settle(bits: int, rows: int, cols: int, limit: int) -> tuple[int, int] | None:
    """(t, p): the board after t steps is the first that recurs, with period p; None past ``limit`` steps."""
    seen = {bits: 0}
    for t in range(1, limit + 2):
        bits = step(bits, rows, cols)
        if bits in seen:
            return seen[bits], t - seen[bits]
        seen[bits] = t
    return None


def step_array(grid: np.ndarray, wrap: bool = False) -> np.ndarray:
    """One generation with numpy, on a bounded board or (``wrap``) a torus."""
    g = np.asarray(grid, dtype=np.int64)
    if wrap:
        n = sum(np.roll(np.roll(g, dr, 0), dc, 1) for dr in (-1, 0, 1) for dc in (-1, 0, 1)) - g
    else:
        p = np.pad(g, 1)
        n = sum(p[1 + dr:p.shape[0] - 1 + dr, 1 + dc:p.shape[1] - 1 + dc]
                for dr in (-1, 0, 1) for dc in (-1, 0, 1)) - g
    return ((n == 3) | ((g == 1) & (n == 2))).astype(np.int64)
