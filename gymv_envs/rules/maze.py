"""Mazes on an ``n x n`` grid of cells: the carver, extra openings, the block map, distances.

`carve_maze` is the one maze generator: a randomised depth-first search (the "recursive
backtracker"), so the passages form a spanning tree of the grid (a perfect maze: exactly one path
between any two cells). A maze is its list of passages, each a pair of neighbouring cells
``(a, b)`` in carving order; tasks turn it into their own representation (`block_map`: a wall grid
of blocks, as raycasters and 3D worlds walk on; or open sides per cell). `closed_walls` lists the
walls the tree leaves, for tasks that knock a few through to make loops.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Iterable, Sequence

import numpy as np

from gymv_envs.core.rng import ScalarDraws

Cell = tuple[int, int]
Passage = tuple[Cell, Cell]


def carve_maze(rng: np.random.Generator, n: int, steps: Sequence[Cell]) -> list[Passage]:
    """The passages of a perfect maze on ``n x n`` cells, in carving order.

    Draws the start cell (its row, then its column), then walks: from the cell on top of the stack
    to one unvisited neighbour drawn uniformly among those listed in ``steps`` order (each a
    ``(drow, dcol)``), backing up when there is none, until every cell is visited.
    """
    with ScalarDraws(rng) as d:  # the draws `rng.integers` would make, one by one, at Python speed
        start = d.integers(n) * n + d.integers(n)
        around, cells = _around(n, tuple(steps))  # on cell indices ``r * n + c``
        seen = [False] * (n * n)
        seen[start] = True
        stack, out, integers = [start], [], d.integers
        while stack:
            here = stack[-1]
            nxt = [j for j in around[here] if not seen[j]]
            if not nxt:
                stack.pop()
                continue
            cell = nxt[integers(len(nxt))]  # `choice`
            out.append((cells[here], cells[cell]))
            seen[cell] = True
            stack.append(cell)
    return out


@functools.cache
def _around(n: int, steps: tuple[Cell, ...]) -> tuple[tuple[tuple[int, ...], ...], tuple[Cell, ...]]:
    """Each cell's neighbours on the board in ``steps`` order, by cell index ``r * n + c``, and the
    cell of each index."""
    cells = tuple((r, c) for r in range(n) for c in range(n))
    return tuple(tuple((r + dr) * n + c + dc for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n)
                 for r, c in cells), cells


def closed_walls(n: int, passages: Iterable[Passage], sides: Sequence[Cell] = ((0, 1), (1, 0)),
                 by_row: bool = False) -> list[Passage]:
    """The walls between neighbouring cells that ``passages`` leaves standing, as pairs ``(a, b)``
    with ``b = a + side`` for a side in ``sides`` (the right and lower neighbours by default).

    Listed cell by cell in reading order, each cell's sides in ``sides`` order; with ``by_row``,
    row by row and within a row side by side, cell by cell (the reading order of the wall blocks
    of a `block_map` with the default sides).
    """
    open_ = {q for a, b in passages for q in ((a, b), (b, a))}
    return [w for w in _all_walls(n, tuple(sides), by_row) if w not in open_]


@functools.cache
def _all_walls(n: int, sides: tuple[Cell, ...], by_row: bool) -> tuple[Passage, ...]:
    """Every wall `closed_walls` can list, in its order."""
    def walls(r: int, c: int, side: Cell) -> list[Passage]:
        b = (r + side[0], c + side[1])
        return [((r, c), b)] if b[0] < n and b[1] < n else []

    if by_row:
        return tuple(w for r in range(n) for side in sides for c in range(n) for w in walls(r, c, side))
    return tuple(w for r in range(n) for c in range(n) for side in sides for w in walls(r, c, side))


def block_map(n: int, passages: Iterable[Passage], width: int = 1) -> np.ndarray:
    """The maze as a square wall grid (True for a wall) of ``n * (width + 1) + 1`` blocks a side:
    cell ``(r, c)`` is the ``width x width`` square at ``r * (width + 1) + 1``, one block of wall
    between cells and around the maze, and each passage a gap ``width`` blocks wide in that wall."""
    step = width + 1
    walls = np.ones((n * step + 1,) * 2, dtype=bool)
    for r in range(n):
        for c in range(n):
            walls[r * step + 1:r * step + 1 + width, c * step + 1:c * step + 1 + width] = False
    for a, b in passages:
        (r0, c0), (r1, c1) = min(a, b), max(a, b)
        if r0 == r1:
            walls[r0 * step + 1:r0 * step + 1 + width, c1 * step] = False
        else:
            walls[r1 * step, c0 * step + 1:c0 * step + 1 + width] = False
    return walls


def grid_distances(walls: np.ndarray, sources: Iterable[Cell], blocked: Iterable[Cell] = ()) -> np.ndarray:
    """Breadth-first step counts to the nearest of ``sources`` over the free cells of a wall grid
    enclosed by walls (``blocked`` holds extra solid cells); unreachable cells get 10**6."""
    blocked = set(blocked)
    dist = np.full(walls.shape, 10**6, dtype=np.int64)
    queue = deque()
    for src in sources:
        dist[src] = 0
        queue.append(src)
    while queue:
        r, c = queue.popleft()
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            nb = (r + dr, c + dc)
            if not walls[nb] and nb not in blocked and dist[nb] > dist[r, c] + 1:
                dist[nb] = dist[r, c] + 1
                queue.append(nb)
    return dist
