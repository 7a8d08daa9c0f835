"""Lights Out on an ``n x n`` board as bit masks (bit ``r * n + c``): presses, and every solution
by Gauss-Jordan elimination over GF(2).

Pressing a cell toggles it and its orthogonal neighbours; presses commute and pressing twice
undoes a press, so a solution is a set of cells (a mask).
"""

from __future__ import annotations

import functools


@functools.cache
def press_masks(n: int) -> tuple[int, ...]:
    """Bit mask (bit r*n+c) of the cells each press toggles: itself and its orthogonal neighbours."""
    out = []
    for r in range(n):
        for c in range(n):
            m = 1 << (r * n + c)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < n and 0 <= cc < n:
                    m |= 1 << (rr * n + cc)
            out.append(m)
    return tuple(out)


@functools.cache
def elimination(n: int) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]]:
    """Gauss-Jordan over GF(2) of the press matrix (symmetric, so row i = press mask i).

    Returns (pivots, checks, null): x has bit p set when popcount(comb & board) is odd, for
    each (p, comb) in pivots; a board is solvable when every check has even parity with it;
    adding any combination of the null-space vectors gives every other solution.
    """
    size = n * n
    rows = [[m, 1 << i] for i, m in enumerate(press_masks(n))]
    pivot_cols, r = [], 0
    for col in range(size):
        piv = next((i for i in range(r, size) if rows[i][0] >> col & 1), None)
        if piv is None:
            continue
        rows[r], rows[piv] = rows[piv], rows[r]
        for i in range(size):
            if i != r and rows[i][0] >> col & 1:
                rows[i][0] ^= rows[r][0]
                rows[i][1] ^= rows[r][1]
        pivot_cols.append(col)
        r += 1
    null = []
    for f in (c for c in range(size) if c not in pivot_cols):
        v = 1 << f
        for i, p in enumerate(pivot_cols):
            if rows[i][0] >> f & 1:
                v |= 1 << p
        null.append(v)
    pivots = tuple((p, rows[i][1]) for i, p in enumerate(pivot_cols))
    return pivots, tuple(rows[i][1] for i in range(r, size)), tuple(null)


def all_solutions(n: int, board: int) -> list[int]:
    """Every press set (bit mask) that switches ``board`` off; empty when there is none."""
    pivots, checks, null = elimination(n)
    if any((c & board).bit_count() & 1 for c in checks):
        return []
    x = 0
    for p, comb in pivots:
        if (comb & board).bit_count() & 1:
            x |= 1 << p
    out = []
    for k in range(1 << len(null)):
        v = x
        for j, vec in enumerate(null):
            if k >> j & 1:
                v ^= vec
        out.append(v)
    return out


def fewest_presses(n: int, board: int, first_row_ties: bool = False) -> int:
    """The smallest press set (bit mask) that switches a solvable ``board`` off. Among ties: the
    lowest mask, or with ``first_row_ties`` the one whose presses in the first row form the lowest
    mask (the first that chasing the lights down row by row finds, trying first rows in order)."""
    low = (1 << n) - 1 if first_row_ties else -1
    return min(all_solutions(n, board), key=lambda v: (v.bit_count(), v & low))


def apply_presses(n: int, board: int, cells: tuple[tuple[int, int], ...]) -> int:
    """``board`` after pressing each of ``cells`` once."""
    masks = press_masks(n)
    for r, c in cells:
        board ^= masks[r * n + c]
    return board
