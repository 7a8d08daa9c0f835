"""Hitori rules and solver: the repeated numbers, and the shadings that leave no repeat, no two shaded cells
side by side and the unshaded cells connected (what a Hitori level must have exactly one of)."""

from __future__ import annotations

import functools

from gymv_envs.core.bits import beside4, edge_masks
from gymv_envs.domains.logic._grid import Budget
from gymv_envs.domains.logic._placement import bits


@functools.lru_cache(maxsize=16)  # a tuple of n * n ints per side
def neighbour_masks(n: int) -> tuple[int, ...]:
    """Per cell r * n + c, its orthogonal neighbours as a bit mask."""
    return tuple(beside4(1 << i, n, n) for i in range(n * n))


@functools.lru_cache(maxsize=16)  # n * n small tuples per side
def corner_joins(n: int) -> tuple[tuple[int, int], ...]:
    """Per cell r * n + c: the diagonal neighbours that join two of its orthogonal neighbours (a mask),
    and how many of those may be shaded with its orthogonal neighbours still joined around the cell (as
    many as they are less the joins the neighbours need to hang together: their count less one)."""
    out = []
    for r in range(n):
        for c in range(n):
            ring = [(r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)]  # clockwise; corner k joins k and k + 1
            inside = [0 <= a < n and 0 <= b < n for a, b in ring]
            joins = [1 << ((a + e - r) * n + (b + f - c))
                     for k, ((a, b), (e, f)) in enumerate(zip(ring, ring[1:] + ring[:1]))
                     if inside[k] and inside[(k + 1) % 4]]
            out.append((sum(joins), len(joins) - (sum(inside) - 1)))  # distinct cells: the sum is their mask
    return tuple(out)


def flood_reaches(seed: int, targets: int, within: int, n: int, not_first: int, not_last: int) -> bool:
    """Whether a flood from ``seed`` inside ``within`` reaches every cell of ``targets`` (stopping as
    soon as it has); ``not_first``, ``not_last``: `edge_masks` (the cells off the first, last column)."""
    region = seed
    while region & targets != targets:
        grown = (region | (region << 1 & not_first) | (region >> 1 & not_last) | (region << n) | (region >> n)) & within
        if grown == region:
            return False
        region = grown
    return True


@functools.lru_cache(maxsize=16)  # a tuple of n * n ints per side
def _lines(n: int) -> tuple[int, ...]:
    """Per cell r * n + c, the other cells of its row and column as a bit mask."""
    rows = [((1 << n) - 1) << (r * n) for r in range(n)]
    cols = [sum(1 << (k * n + c) for k in range(n)) for c in range(n)]
    return tuple((rows[i // n] | cols[i % n]) & ~(1 << i) for i in range(n * n))


def _where(grid) -> dict:
    """Each number's cells in the whole grid as a bit mask (cell r * n + c)."""
    where: dict = {}
    bit = 1
    for row in grid:
        for v in row:
            where[v] = where.get(v, 0) | bit
            bit <<= 1
    return where


def _peers(grid) -> list[int]:
    """Per cell r * n + c, the other cells with its number in its row or column, as a bit mask."""
    where = _where(grid)
    return [where[v] & m for v, m in zip([v for row in grid for v in row], _lines(len(grid)))]


def repeats(grid) -> list[int]:
    """The groups of two or more cells with one number in one row or column, as bit masks (cell r * n + c):
    together, the cells whose number repeats in their row or column."""
    n = len(grid)
    row, col = (1 << n) - 1, sum(1 << (k * n) for k in range(n))
    lines = [row << (r * n) for r in range(n)] + [col << c for c in range(n)]
    return [m for cells in _where(grid).values() for line in lines if (m := cells & line) & (m - 1)]


def shadings(grid, limit: int = 2, budget: int = 30_000) -> list[int]:
    """Shadings (bit masks, cell r * n + c) of repeated cells only, with no repeat among unshaded cells, no shaded neighbours and the
    unshaded cells connected.

    On bit masks (cell r * n + c): an unshaded cell shades every cell holding its number in its row
    and column, a shaded cell unshades its neighbours, and the cells not shaded must stay connected;
    after that settles, the search branches on the first undecided cell.
    """
    n = len(grid)
    full = (1 << (n * n)) - 1
    peers = _peers(grid)  # the other cells with the same number in the same row or column
    unshaded0 = full & ~functools.reduce(int.__or__, peers)  # cells with no peer (peers are mutual)
    out: list[int] = []
    nodes = [0]
    _, not_first, not_last = edge_masks(n, n)

    def rec(shaded: int, unshaded: int, done: int) -> None:
        while True:  # settle: `done` holds the unshaded cells whose peers are shaded already
            new = unshaded & ~done
            while new:
                low = new & -new
                new ^= low
                shaded |= peers[low.bit_length() - 1]
            done = unshaded
            if shaded & unshaded:
                return
            ring = ((shaded << 1 & not_first) | (shaded >> 1 & not_last) | (shaded << n) | (shaded >> n)) & full
            if ring & shaded:  # two shaded cells side by side
                return
            more = ring & ~unshaded
            if not more:
                break
            unshaded |= more
        free = full & ~shaded  # connected? (a flood from its first cell)
        region = free & -free
        while True:
            grown = (region | (region << 1 & not_first) | (region >> 1 & not_last) | (region << n) | (region >> n)) & free
            if grown == region:
                break
            region = grown
        if region != free:
            return
        open_ = full & ~shaded & ~unshaded
        if not open_:
            out.append(shaded)
            return
        cell = open_ & -open_
        for shade in (True, False):
            nodes[0] += 1
            if nodes[0] > budget:
                raise Budget
            if shade:
                rec(shaded | cell, unshaded, done)
            else:
                rec(shaded, unshaded | cell, done)
            if len(out) >= limit:
                return

    rec(0, unshaded0, 0)
    return out


def solve(grid, limit: int = 2, budget: int = 30_000) -> list[frozenset]:
    """`shadings` as sets of shaded cells (r, c)."""
    n = len(grid)
    return [frozenset(divmod(i, n) for i in bits(m)) for m in shadings(grid, limit, budget)]
