"""Bit-mask helpers shared by the generators, solvers and opponents that keep a board as one int (bit ``i``: cell
``i``; on a grid of ``rows x cols`` cells, bit ``r * cols + c``): the set bits, and a grid's orthogonal
neighbours, growth and connected parts, bit-parallel."""

from __future__ import annotations

import functools


def set_bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first.

    >>> set_bits(0b101001)
    [0, 3, 5]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@functools.lru_cache(maxsize=64)
def edge_masks(rows: int, cols: int) -> tuple[int, int, int]:
    """(every cell, every cell not in the first column, every cell not in the last column) as bit masks."""
    full = (1 << (rows * cols)) - 1
    first = sum(1 << (r * cols) for r in range(rows))
    return full, full & ~first, full & ~(first << (cols - 1))


def grow4(cells: int, rows: int, cols: int) -> int:
    """``cells`` and their orthogonal neighbours (bit masks)."""
    return cells | beside4(cells, rows, cols)


def beside4(cells: int, rows: int, cols: int) -> int:
    """The orthogonal neighbours of ``cells`` (bit masks; a cell of ``cells`` is in only if it has one there)."""
    full, not_first, not_last = edge_masks(rows, cols)
    return ((cells << 1 & not_first) | (cells >> 1 & not_last) | (cells << cols) | (cells >> cols)) & full


def flood(seed: int, within: int, rows: int, cols: int) -> int:
    """The cells of ``within`` orthogonally connected (inside ``within``) to the cells of ``seed`` (bit-parallel fill)."""
    full, not_first, not_last = edge_masks(rows, cols)
    region = seed & within
    while True:
        grown = (region | (region << 1 & not_first) | (region >> 1 & not_last) | (region << cols) | (region >> cols)) & within
        if grown == region:
            return region
        region = grown


def is_connected(cells: int, rows: int, cols: int) -> bool:
    """Whether the cells of a bit mask form one non-empty orthogonally connected group."""
    return bool(cells) and flood(cells & -cells, cells, rows, cols) == cells
