"""Near-miss tilings: the grids one swap of two differently lettered cells from a tiling."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from gymv_envs.core.rng import shuffled
from gymv_envs.domains.puzzles._polyomino import connected


def cell_swaps(rng: np.random.Generator, grid: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """The grids one swap of two cells of different pieces from ``grid``, in an order drawn from ``rng``: swaps
    that leave both pieces connected first."""
    at = {(r, c): ch for r, row in enumerate(grid) for c, ch in enumerate(row) if ch != "."}
    groups: dict[str, set[tuple[int, int]]] = {}
    for p, ch in at.items():
        groups.setdefault(ch, set()).add(p)

    beside = {(r, c): {at.get(n) for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))} for r, c in at}

    def swapped(p: tuple[int, int], q: tuple[int, int]) -> tuple[str, ...]:
        g = [list(row) for row in grid]
        g[p[0]][p[1]], g[q[0]][q[1]] = at[q], at[p]
        return tuple("".join(row) for row in g)

    cells = sorted(at)
    pairs = [(p, q) for i, p in enumerate(cells) for q in cells[i + 1:] if at[p] != at[q]]
    near, far = [], []
    for p, q in pairs:
        (near if at[p] in beside[q] and at[q] in beside[p] else far).append((p, q))
    for p, q in shuffled(rng, near):
        if connected(groups[at[p]] - {p} | {q}) and connected(groups[at[q]] - {q} | {p}):
            yield swapped(p, q)
        else:
            far.append((p, q))
    for p, q in shuffled(rng, far):
        yield swapped(p, q)
