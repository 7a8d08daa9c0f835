"""Nurikabe board tables, sea check and island-shape solver for Nurikabe."""

from __future__ import annotations

import functools

from gymv_envs.domains.logic._placement import NEIGHBOURS4, bits, flood, grow4, is_connected


def neighbours(i: int, n: int) -> tuple[int, ...]:
    return _NEIGHBOURS(n)[i]


@functools.cache
def BLOCKS(n: int) -> tuple[int, ...]:  # noqa: N802 - a cached table
    return tuple((0b11 << (r * n + c)) | (0b11 << ((r + 1) * n + c)) for r in range(n - 1) for c in range(n - 1))


@functools.cache
def _NEIGHBOURS(n: int) -> tuple[tuple[int, ...], ...]:  # noqa: N802 - a cached table
    return tuple(tuple((r + dr) * n + c + dc for dr, dc in NEIGHBOURS4 if 0 <= r + dr < n and 0 <= c + dc < n)
                 for r in range(n) for c in range(n))


def sea_ok(sea: int, n: int) -> bool:
    """The shaded cells (bit mask) are connected and hold no 2x2 block."""
    for block in BLOCKS(n):
        if sea & block == block:
            return False
    return not sea or is_connected(sea, n, n)


@functools.cache
def _polyominoes(n: int, cell: int, size: int) -> tuple[tuple[int, int], ...]:
    """Every connected set (bit mask) of ``size`` cells of the board holding ``cell``, with its halo
    (the set and its orthogonal neighbours)."""
    layer = {1 << cell}
    for _ in range(size - 1):
        layer = {s | 1 << k for s in layer for k in bits(grow4(s, n, n) & ~s)}
    return tuple((s, grow4(s, n, n)) for s in sorted(layer))


def nurikabe_solutions(n: int, numbers: dict[int, int], limit: int) -> list[int]:
    """Up to ``limit`` sea masks (shaded cells) that solve the puzzle.

    Places one island shape per number, islands never touching: next the island with the fewest
    shapes that fit beside those placed. A partial placement is dropped when an island has no shape
    left, when a 2x2 block can no longer get any land, or when the cells no shape left can cover
    (sure to be sea) cannot all be joined through cells that are not land.
    """
    full = (1 << (n * n)) - 1
    halo = {i: grow4(1 << i, n, n) for i in numbers}
    options = []
    for i, k in numbers.items():
        near = 0
        for j in numbers:
            if j != i:
                near |= halo[j]
        options.append([x for x in _polyominoes(n, i, k) if not x[0] & near])
    out: list[int] = []
    # top-left cells of the 2x2 blocks: a block is all sea when its top-left cell and the cells right,
    # below and right-below are sea
    corners = sum(1 << (r * n + c) for r in range(n - 1) for c in range(n - 1))
    wide = n + 1

    def dead(maybe: int, land: int) -> bool:
        """Whether a 2x2 block can get no land, or the sure sea cannot be joined through non-land."""
        sea = full & ~maybe
        if sea & (sea >> 1) & (sea >> n) & (sea >> wide) & corners:
            return True
        return bool(sea) and flood(sea & -sea, full & ~land, n, n) & sea != sea

    def search(opts: list, land: int, near: int) -> None:
        maybe = land
        for o in opts:
            for s, _ in o:
                maybe |= s
        if dead(maybe, land):
            return
        if not opts:
            out.append(full & ~maybe)
            return
        k = min(range(len(opts)), key=lambda i: len(opts[i]))
        rest = opts[:k] + opts[k + 1:]
        if not rest:  # the last island: each shape completes a placement
            for shape, _ in opts[k]:
                done = land | shape
                if not dead(done, done):
                    out.append(full & ~done)
                    if len(out) >= limit:
                        return
            return
        for shape, ring in opts[k]:
            around = near | ring
            sub = []
            for o in rest:
                fit = [x for x in o if not x[0] & around]
                if not fit:
                    break
                sub.append(fit)
            else:
                search(sub, land | shape, around)
                if len(out) >= limit:
                    return

    if all(options):
        search(options, 0, 0)
    return out
