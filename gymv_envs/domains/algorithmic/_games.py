"""Sprague-Grundy values of the impartial games of the algorithmic tasks (normal play: the player
who cannot move loses; a position is lost for the player to move exactly when its value is 0).

- queen coins (Wythoff): a coin at (r, c) slides any distance up, left or diagonally up-left;
- Kayles: a row of stones; a move removes one stone or two neighbouring ones;
- minima take-away: heaps; a move takes 1..m stones from one heap, m the smallest non-empty heap.

Sums of independent games XOR their values; the minima game is not a sum (its moves depend on
every heap), so it is solved on whole positions.
"""

from __future__ import annotations

import functools


def mex(values) -> int:
    """The smallest non-negative integer not in ``values``."""
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


@functools.lru_cache(maxsize=8)
def wythoff_table(n: int) -> tuple[tuple[int, ...], ...]:
    """g[r][c] for a single queen coin at row r, column c of an n x n board (r, c < n)."""
    g = [[0] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            opts = {g[r - k][c] for k in range(1, r + 1)} | {g[r][c - k] for k in range(1, c + 1)}
            opts |= {g[r - k][c - k] for k in range(1, min(r, c) + 1)}
            g[r][c] = mex(opts)
    return tuple(tuple(row) for row in g)


@functools.cache
def kayles(n: int) -> int:
    """The value of a run of n stones in Kayles."""
    if n <= 0:
        return 0
    opts = {kayles(a) ^ kayles(n - 1 - a) for a in range(n)}
    opts |= {kayles(a) ^ kayles(n - 2 - a) for a in range(n - 1)}
    return mex(opts)


def runs(line: list[int]) -> list[int]:
    """Lengths of the maximal runs of stones (1s) in a line."""
    out, k = [], 0
    for v in [*line, 0]:
        if v:
            k += 1
        elif k:
            out.append(k)
            k = 0
    return out


def minima_moves(heaps: tuple[int, ...]) -> list[tuple[int, int]]:
    """Every move (heap index, stones taken) of the minima take-away game."""
    live = [h for h in heaps if h > 0]
    if not live:
        return []
    m = min(live)
    return [(i, k) for i, h in enumerate(heaps) for k in range(1, min(m, h) + 1)]


@functools.cache
def _minima_sorted(heaps: tuple[int, ...]) -> int:
    return mex(minima_value(after(heaps, i, k)) for i, k in minima_moves(heaps))


def minima_value(heaps: tuple[int, ...]) -> int:
    """The value of a minima take-away position (order of the heaps does not matter)."""
    return _minima_sorted(tuple(sorted(heaps)))


def after(heaps: tuple[int, ...], i: int, k: int) -> tuple[int, ...]:
    return heaps[:i] + (heaps[i] - k,) + heaps[i + 1:]
