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


@functools.lru_cache(maxsize=8)
def _cell_units(n: int, br: int, bc: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """(every unit as in `units`; per cell, the indices of its row, column and box in that list)."""
    every = units(n, br, bc)[0]
    at: list[list[int]] = [[] for _ in range(n * n)]
    for u, cells in enumerate(every):
        for i in cells:
            at[i].append(u)
    return every, tuple(tuple(a) for a in at)


def solve_singles(cells: list[int], n: int, br: int, bc: int) -> list[int] | None:
    """Fill ``cells`` (0 = open) by naked and hidden singles only; ``None`` if that does not finish.

    A grid these two rules complete has exactly one solution. Each pass places every naked single
    (an open cell with one candidate left, found against the digits placed so far); a pass that
    places none places every hidden single (a digit only one open cell of a unit can take). On the
    givens of a solved grid every placement is that grid's digit, so the order of the placements
    does not change whether the rules finish; a returned grid never repeats a digit in a unit.
    """
    every, at = _cell_units(n, br, bc)
    full = (1 << (n + 1)) - 2
    g = list(cells)
    used = [0] * len(every)  # the digits placed in each unit, as bits
    todo = []
    for i, v in enumerate(g):
        if v:
            a, b, c = at[i]
            bit = 1 << v
            used[a] |= bit
            used[b] |= bit
            used[c] |= bit
        else:
            todo.append(i)
    cand = [0] * (n * n)
    while todo:
        rest, placed = [], False
        for i in todo:  # naked singles
            a, b, c = at[i]
            m = full & ~(used[a] | used[b] | used[c])
            if m & (m - 1):
                cand[i] = m
                rest.append(i)
            elif not m:
                return None
            else:
                g[i] = m.bit_length() - 1
                used[a] |= m
                used[b] |= m
                used[c] |= m
                placed = True
        todo = rest
        if placed:
            continue
        for u, members in enumerate(every):  # hidden singles (candidates as the pass above left them)
            once = twice = 0  # digits open cells of the unit can take: at least once, at least twice
            for j in members:
                if not g[j]:
                    m = cand[j]
                    twice |= once & m
                    once |= m
            single = once & ~twice & ~used[u]
            while single:
                bit = single & -single
                single ^= bit
                j = next(j for j in members if not g[j] and cand[j] & bit)
                a, b, c = at[j]
                if (used[a] | used[b] | used[c]) & bit:
                    return None
                g[j] = bit.bit_length() - 1
                used[a] |= bit
                used[b] |= bit
                used[c] |= bit
                placed = True
        if not placed:
            return None
        todo = [i for i in todo if not g[i]]
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
