"""Pac-Man's rules on an ``n x n`` grid of wall cells: the moves, the arcade ghost's chase rule, and step
counts between two cells (bit-parallel) and from one cell to all."""

from __future__ import annotations

from collections import deque

import numpy as np

from gymv_envs.core.bits import beside4

MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
TIE_ORDER = "ULDR"  # the arcade's tie order: up, left, down, right
REVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}


def chase(wall: np.ndarray, ghost: tuple[int, int], heading: str, target: tuple[int, int], steps: int,
          reverse: bool = False, order: str = TIE_ORDER) -> list[tuple[int, int]] | None:
    """The cells a ghost visits in ``steps`` steps of the chase rule (the arcade's): it moves to the free
    neighbouring cell nearest ``target`` in a straight line (squared distance), never straight back
    unless nothing else is free, ties in ``order``. None when it reaches the target or cannot move.
    ``reverse=True`` lets it turn back (a near miss)."""
    n = len(wall)
    (r, c), h, out = ghost, heading, []
    for _ in range(steps):
        opts = [m for m in order if (reverse or m != REVERSE[h]) and 0 <= r + MOVES[m][0] < n
                and 0 <= c + MOVES[m][1] < n and not wall[r + MOVES[m][0], c + MOVES[m][1]]]
        if not opts and 0 <= r + MOVES[REVERSE[h]][0] < n and 0 <= c + MOVES[REVERSE[h]][1] < n \
                and not wall[r + MOVES[REVERSE[h]][0], c + MOVES[REVERSE[h]][1]]:
            opts = [REVERSE[h]]
        if not opts:
            return None
        h = min(opts, key=lambda m: (r + MOVES[m][0] - target[0]) ** 2 + (c + MOVES[m][1] - target[1]) ** 2)
        r, c = r + MOVES[h][0], c + MOVES[h][1]
        if (r, c) == target:
            return None
        out.append((r, c))
    return out


def cell_mask(grid: np.ndarray) -> int:
    """The set cells of an ``n x n`` boolean grid as a bit mask (bit ``r * n + c``)."""
    return int.from_bytes(np.packbits(grid.ravel(), bitorder="little").tobytes(), "little")


def steps_between(free: int, a: tuple[int, int], b: tuple[int, int], n: int) -> int:
    """Fewest moves from cell ``a`` to cell ``b`` through the ``free`` cells (a bit mask, `cell_mask`;
    -1: unreachable): a breadth-first search that grows the whole frontier a step at a time."""
    goal = 1 << (b[0] * n + b[1])
    seen = frontier = 1 << (a[0] * n + a[1])
    steps = 0
    while frontier:
        if frontier & goal:
            return steps
        frontier = beside4(frontier, n, n) & free & ~seen
        seen |= frontier
        steps += 1
    return -1


def distance_rows(src: tuple[int, int], block: list[list[bool]], n: int) -> list[list[int]]:
    """Breadth-first step counts from ``src`` around the ``block`` cells (-1: unreachable), as rows."""
    dist = [[-1] * n for _ in range(n)]
    dist[src[0]][src[1]] = 0
    queue = deque([src])
    while queue:
        r, c = queue.popleft()
        d = dist[r][c] + 1
        for dr, dc in MOVES.values():
            nr, nc = r + dr, c + dc
            if 0 <= nr < n and 0 <= nc < n and not block[nr][nc] and dist[nr][nc] < 0:
                dist[nr][nc] = d
                queue.append((nr, nc))
    return dist
