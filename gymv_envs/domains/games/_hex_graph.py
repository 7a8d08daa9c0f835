"""Hex board graph for Hex: cell adjacency, edges, reach, winning cells, connection and distance.

The searches run on bit masks of the board (bit ``r * n + c`` for cell ``(r, c)``): a set of cells
spreads to its six neighbours by shifts, so a flood fill is a few integer operations per step.
"""

from __future__ import annotations

import functools

from gymv_envs.core.bits import set_bits
from gymv_envs.domains.games._board import ME

STEPS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))


@functools.cache
def adjacency(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple((r + dr) * n + c + dc for dr, dc in STEPS if 0 <= r + dr < n and 0 <= c + dc < n)
                 for r, c in (divmod(i, n) for i in range(n * n)))


def edges(p: int, n: int) -> tuple[list[int], list[int]]:
    """The two edges ``p`` must join: red top and bottom rows, blue left and right columns."""
    if p == ME:
        return list(range(n)), list(range(n * (n - 1), n * n))
    return list(range(0, n * n, n)), list(range(n - 1, n * n, n))


@functools.cache
def geometry(n: int) -> tuple[int, int, int, dict[int, tuple[int, int]]]:
    """Bit masks of an n x n board: (all cells, all but column 0, all but the last column, each player's two edges)."""
    full = (1 << n * n) - 1
    col0 = sum(1 << (r * n) for r in range(n))
    last = col0 << (n - 1)
    sides = {p: tuple(sum(1 << i for i in e) for e in edges(p, n)) for p in (1, 2)}
    return full, full & ~col0, full & ~last, sides


def spread(x: int, n: int) -> int:
    """The cells next to some cell of ``x`` (hex neighbours: up, up-right, left, right, down-left, down)."""
    full, not0, notn, _ = geometry(n)
    a, b = x & not0, x & notn
    return ((x >> n) | (x << n) | (a >> 1) | (b << 1) | (b >> (n - 1)) | (a << (n - 1))) & full


def grow(x: int, own: int, n: int) -> int:
    """``x`` with every stone of ``own`` connected to it (through stones of ``own``)."""
    full, not0, notn, _ = geometry(n)
    m = n - 1
    while True:
        a, b = x & not0, x & notn
        y = x | (((x >> n) | (x << n) | (a >> 1) | (b << 1) | (b >> m) | (a << m)) & own)
        if y == x:
            return x
        x = y


def masks(b: tuple[int, ...], p: int) -> tuple[int, int]:
    """(stones of ``p``, empty cells) of board ``b`` as bit masks."""
    own = empty = 0
    for i, v in enumerate(b):
        if v == p:
            own |= 1 << i
        elif not v:
            empty |= 1 << i
    return own, empty


def joins(own: int, p: int, n: int) -> bool:
    """Whether the stones ``own`` of ``p`` join its two edges."""
    e1, e2 = geometry(n)[3][p]
    return bool(grow(e1 & own, own, n) & e2)


def winning_mask(own: int, empty: int, p: int, n: int) -> int:
    """The empty cells where one more stone of ``p`` joins its edges."""
    e1, e2 = geometry(n)[3][p]
    a, z = grow(e1 & own, own, n), grow(e2 & own, own, n)
    return ((e1 | spread(a, n)) & (e2 | spread(z, n))) & empty


def gap(own: int, empty: int, p: int, n: int) -> int:
    """Fewest empty cells ``p`` still needs to join its edges (``n * n`` if it cannot)."""
    e1, e2 = geometry(n)[3][p]
    reach, d = grow(e1 & own, own, n), 0   # the cells ``p`` reaches after filling ``d`` empty ones
    while not reach & e2:
        more = grow(reach | ((spread(reach, n) | e1) & empty), own, n)
        if more == reach:
            return n * n
        reach, d = more, d + 1
    return d


def winning_cells(b: tuple[int, ...], p: int, n: int) -> list[int]:
    """Empty cells where a stone of ``p`` would join its two edges."""
    return set_bits(winning_mask(*masks(b, p), p, n))


def connected(b: tuple[int, ...], p: int, n: int) -> bool:
    return joins(masks(b, p)[0], p, n)


def distance(b: tuple[int, ...], p: int, n: int) -> int:
    """Fewest empty cells ``p`` still needs to join its edges (its shortest path, empty cells costing 1)."""
    return gap(*masks(b, p), p, n)


def layers(own: int, empty: int, p: int, n: int, side: int) -> dict[int, int]:
    """For each cell ``p`` can reach from its edge ``side`` (0 or 1), the fewest empty cells filled to reach
    it, itself included (the layers of `gap`'s search)."""
    e = geometry(n)[3][p][side]
    reach = grow(e & own, own, n)
    out = dict.fromkeys(set_bits(reach), 0)
    d = 0
    while True:
        more = grow(reach | ((spread(reach, n) | e) & empty), own, n)
        if more == reach:
            return out
        d += 1
        out.update(dict.fromkeys(set_bits(more & ~reach), d))
        reach = more
