"""Nurikabe's level generator search: islands grown at random while the sea stays connected."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.bits import grow4
from gymv_envs.domains.logic._nurikabe_solver import _LOCAL, block_corners, cells_of, fill


@functools.cache  # one entry per board size (5, 6): a few KB
def _windows(n: int) -> tuple[tuple[tuple[int, int, int], ...], tuple[bool, ...], tuple[int, ...], int]:
    """Per cell, the shifts that read its 3x3 window from a sea mask shifted up by ``n + 1`` and the
    window's cells on the board; `_LOCAL`'s table; each cell with its neighbours; the 2x2 blocks'
    top-left cells."""
    local, ok = _LOCAL(n)
    spans = tuple((x + n, x + 2 * n, c[3]) for x, c in enumerate(local))
    return spans, ok, tuple(grow4(1 << x, n, n) for x in range(n * n)), block_corners(n)


def grow_islands(rng: np.random.Generator, n: int, largest: int) -> list[int] | None:
    """Islands (bit masks) of random sizes grown one at a time at random free cells while the sea
    stays connected (an island is cut back to the cells it can keep), until no 2x2 block is all sea
    or no free cell is left; then each 2x2 block still all sea gets a cell added to the one island
    it touches. None when some block cannot get one."""
    full = (1 << (n * n)) - 1
    picks = iter(rng.random(n * n * (largest + 1) + n * n).tolist())
    wide = n + 1
    spans, ok, balls, corners = _windows(n)  # corners: each 2x2 block by its top-left cell

    def keeps(sea: int, x: int) -> bool:  # `stays_connected` with the window read at once
        one, two, on = spans[x]
        s = sea << wide
        if ok[((s >> x & 7) | (s >> one & 7) << 3 | (s >> two & 7) << 6) & on]:
            return True
        rest = sea ^ (1 << x)  # (x is a sea cell)
        return bool(rest) and fill(rest & -rest, rest, n) == rest

    land = near = dead = 0
    islands: list[int] = []
    halos: list[int] = []  # each island with its neighbours
    while (sea := full ^ land) & (sea >> 1) & (sea >> n) & (sea >> wide) & corners:  # a block all sea
        free = cells_of(full ^ (near | dead))
        if not free:
            break
        seed = free[int(next(picks) * len(free))]
        if not keeps(sea, seed):
            dead |= 1 << seed
            continue
        island, size = 1 << seed, 1 + int(next(picks) * largest)
        halo, shut, rest = balls[seed], near | island, sea ^ island
        for _ in range(size - 1):
            beside = cells_of(halo & ~shut)
            if not beside:
                break
            q = beside[int(next(picks) * len(beside))]
            if not keeps(rest, q):
                break
            island |= 1 << q
            shut |= 1 << q
            rest ^= 1 << q
            halo |= balls[q]
        islands.append(island)
        halos.append(halo)
        land |= island
        near |= halo
    pools = sea & (sea >> 1) & (sea >> n) & (sea >> wide) & corners
    for b in cells_of(pools):
        block = 3 << b | 3 << (b + n)
        if land & block:
            continue
        adds = []
        for c in (b, b + 1, b + n, b + wide):
            touch = [i for i, h in enumerate(halos) if h >> c & 1]
            if len(touch) == 1 and islands[touch[0]].bit_count() < largest and keeps(full ^ land, c):
                adds.append((touch[0], c))
        if not adds:
            return None
        i, c = adds[int(next(picks) * len(adds))]
        islands[i] |= 1 << c
        halos[i] |= balls[c]
        land |= 1 << c
    return islands
