"""Slitherlink's generator steps: a random region whose boundary is one loop, and its one-cell changes."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.bits import beside4
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.logic._loop_solver import mask_loop_ok


@functools.lru_cache(maxsize=8)
def _around(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell ``r * n + c``: for it and each orthogonal neighbour, its bit and its neighbours' bits."""
    def bit(r: int, c: int) -> int:
        return 1 << (r * n + c) if 0 <= r < n and 0 <= c < n else 0

    def near(r: int, c: int) -> tuple[int, ...]:
        return tuple((r + dr, c + dc) for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)) if bit(r + dr, c + dc))

    return tuple(tuple((bit(*x), sum(bit(*y) for y in near(*x)[1:])) for x in near(r, c))
                 for r in range(n) for c in range(n))


RING = (0, 1, 2, 5, 8, 7, 6, 3)  # a 3x3 block's outer cells (bit 3 * row + column) in turn round its centre


@functools.lru_cache(maxsize=8)
def _blocks(n: int) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """Per cell, the cells of its 3x3 block that lie on the grid, as a mask over the block's 9 bits.
    Per block of inside cells round an outside centre beside them: whether adding the centre to an inside
    whose boundary is one loop leaves one loop (unless it fills the grid). That depends on the block alone:
    the inside cells of the ring round it must form one run (the inside is connected, so with two runs the
    centre closes a ring round outside cells; and one run holds a cell beside the centre, so no corner of
    the centre is crossed)."""
    on = []
    for r in range(n):
        for c in range(n):
            on.append(sum(1 << 3 * dr + dc for dr in range(3) for dc in range(3)
                          if 0 <= r + dr - 1 < n and 0 <= c + dc - 1 < n))
    joins = []
    for block in range(1 << 9):
        ring = [block >> b & 1 for b in RING]
        joins.append(sum(ring[i] and not ring[i - 1] for i in range(8)) == 1)  # one run
    return tuple(on), tuple(joins)


def grows_one_loop(inside: int, cell: int, n: int) -> bool:
    """Whether the region ``inside`` (its boundary one loop) with ``cell`` (one bit beside it) added still
    has one loop for its boundary: `mask_loop_ok(inside | cell, n)`, read from the cell's 3x3 block."""
    on, joins = _blocks(n)
    k, shifted = cell.bit_length() - 1, inside << n + 1  # the block's rows: bits k, k + n, k + 2n of shifted
    block = (shifted >> k & 7 | (shifted >> k + n & 7) << 3 | (shifted >> k + 2 * n & 7) << 6) & on[k]
    return joins[block] and inside | cell != (1 << n * n) - 1


def random_region(rng: np.random.Generator, n: int) -> int:
    """A random region grown cell by cell while its boundary stays one loop (bit ``r * n + c``: cell (r, c))."""
    with ScalarDraws(rng) as draws:  # the draws of `rng.integers` / `rng.random`, one by one at Python speed
        inside = 1 << draws.integers(n) * n + draws.integers(n)
        target = int(n * n * (0.35 + 0.25 * draws.random()))
        for _ in range(8 * n * n):
            if inside.bit_count() >= target:
                break
            frontier = beside4(inside, n, n) & ~inside
            for _ in range(draws.integers(frontier.bit_count())):  # the frontier's cells in order
                frontier &= frontier - 1
            cell = frontier & -frontier
            if grows_one_loop(inside, cell, n):
                inside |= cell
    return inside


def toggle_fits(inside: int, numbered: int, k: int, planes: tuple[int, int, int],
                fits: dict[int, bool], n: int) -> bool:
    """Whether the loop around ``inside`` with one cell at or beside cell ``k`` added or taken away
    is a loop that keeps every number but the one in cell ``k`` (then that number must stay).
    Such a change alters the count of each neighbour of the cell by one, and its own unless it is 2.
    ``numbered``: the cells with a number (bit ``r * n + c``); ``planes``: the loop's counts
    (`count_planes`); ``fits`` keeps, per cell bit, whether changing that cell leaves one loop."""
    p0, p1, p2 = planes
    other = numbered & ~(1 << k)  # the numbers to keep
    other_not_two = other & (p0 | p2 | ~p1)
    for j, beside in _around(n)[k]:
        if not (beside & other or j & other_not_two):
            ok = fits.get(j)
            if ok is None:
                ok = fits[j] = mask_loop_ok(inside ^ j, n)
            if ok:
                return True
    return False
