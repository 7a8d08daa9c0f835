"""Sudoku: solved grids drawn from a generator, the units of a grid, and a singles solver.

Grids are flat lists, row by row, of an ``n x n`` board with ``br x bc`` boxes (``n = br * bc``);
0 is an empty cell.
"""

from __future__ import annotations

import functools

import numpy as np


def solved_grid(rng: np.random.Generator, n: int, br: int, bc: int) -> list[int]:
    """A random solved grid: the pattern grid with its digits, rows within bands, bands, columns
    within stacks and stacks shuffled (in that order of draws: rows, columns, digits)."""
    rows = [b * br + int(r) for b in rng.permutation(n // br) for r in rng.permutation(br)]
    cols = [s * bc + int(c) for s in rng.permutation(n // bc) for c in rng.permutation(bc)]
    digits = rng.permutation(n) + 1
    return [int(digits[(bc * (r % br) + r // br + c) % n]) for r in rows for c in cols]


@functools.lru_cache(maxsize=8)
def units(n: int, br: int, bc: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """(every row, column and box as cell indices; the three units of each cell)."""
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    boxes = [tuple((R + r) * n + C + c for r in range(br) for c in range(bc))
             for R in range(0, n, br) for C in range(0, n, bc)]
    every = tuple(rows + cols + boxes)
    of = tuple(tuple(u for u in every if i in u) for i in range(n * n))
    return every, of


@functools.lru_cache(maxsize=8)
def peers(n: int, br: int, bc: int) -> tuple[tuple[int, ...], ...]:
    """Per cell, the other cells of its row, column and box (sorted)."""
    of = units(n, br, bc)[1]
    return tuple(tuple(sorted({j for u in of[i] for j in u} - {i})) for i in range(n * n))


def solve_singles(cells: list[int], n: int, br: int, bc: int) -> list[int] | None:
    """Fill ``cells`` (0 = open) by naked and hidden singles only; ``None`` if that does not finish.

    A grid these two rules complete has exactly one solution. Each round places every naked single
    (an open cell with one candidate left); when there is none, every hidden single of the first unit
    that has one (a digit only one of its open cells can take), digits in increasing order.
    """
    every, of = units(n, br, bc)
    near = peers(n, br, bc)
    full = (1 << (n + 1)) - 2
    g = list(cells)
    cand = [0] * (n * n)
    for i in range(n * n):
        if not g[i]:
            used = 0
            for j in near[i]:
                used |= 1 << g[j]
            cand[i] = full & ~used
    todo = sum(1 for v in g if not v)
    while todo:
        placed = []
        for i in range(n * n):
            if not g[i] and cand[i] & (cand[i] - 1) == 0:
                if not cand[i]:
                    return None
                placed.append((i, cand[i].bit_length() - 1))
        if not placed:
            for u in every:
                once = twice = 0  # digits open cells of the unit can take: at least once, at least twice
                for j in u:
                    if not g[j]:
                        c = cand[j]
                        twice |= once & c
                        once |= c
                single = once & ~twice
                while single:
                    bit = single & -single
                    single ^= bit
                    placed.append((next(j for j in u if not g[j] and cand[j] & bit), bit.bit_length() - 1))
                if placed:
                    break
        if not placed:
            return None
        for i, d in placed:
            if g[i]:
                if g[i] != d:
                    return None
                continue
            g[i], todo = d, todo - 1
            gone = ~(1 << d)
            cand[i] &= gone
            for j in near[i]:
                cand[j] &= gone
    return g


def solve_search(cells: list[int], n: int, br: int, bc: int) -> list[int]:
    """A solution of ``cells`` (0 = open) by backtracking, the most constrained open cell first
    (the first such cell in reading order on ties; ``cells`` unchanged where no solution exists)."""
    grid = list(cells)
    near = peers(n, br, bc)

    def search() -> bool:
        best, opts = None, None
        for i, v in enumerate(grid):
            if not v:
                used = {grid[j] for j in near[i]}
                o = [d for d in range(1, n + 1) if d not in used]
                if opts is None or len(o) < len(opts):
                    best, opts = i, o
                    if len(o) <= 1:
                        break
        if best is None:
            return True
        for d in opts:
            grid[best] = d
            if search():
                return True
        grid[best] = 0
        return False

    search()
    return grid
