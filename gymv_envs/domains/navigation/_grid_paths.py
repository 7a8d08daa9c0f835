"""GridNav's shortest paths: breadth-first distances to a cell and the fewest-turn directions along them."""

from __future__ import annotations

import numpy as np

from gymv_envs.rules.maze import grid_distances

MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
DIRS = tuple(MOVES.values())


def distances(blocked: np.ndarray, src: tuple[int, int]) -> np.ndarray:
    """Breadth-first step counts from ``src`` to every cell, moving between free cells inside the grid;
    unreachable cells get 10**6 (`grid_distances` on the grid walled in)."""
    walled = np.pad(blocked, 1, constant_values=True)
    return grid_distances(walled, [(src[0] + 1, src[1] + 1)])[1:-1, 1:-1]


def directions(dist: np.ndarray, start: tuple[int, int], goal: tuple[int, int], start_dist: int) -> list[tuple[str, int]]:
    """Runs (direction, cells) of a shortest path from the start with the fewest turns."""
    rows, cols = dist.shape
    order = sorted((int(dist[r, c]), r, c) for r in range(rows) for c in range(cols)
                   if dist[r, c] <= start_dist)
    turns: dict[tuple[int, int], list[float]] = {}
    for d, r, c in order:  # turns[cell][k]: fewest turns to the goal after arriving by move k
        if d == 0:
            turns[(r, c)] = [0.0] * 4
            continue
        nexts = [(j, (r + dr, c + dc)) for j, (dr, dc) in enumerate(DIRS) if next_on_path(dist, r, c, dr, dc, d)]
        turns[(r, c)] = [min(turns[n][j] + (j != k) for j, n in nexts) for k in range(4)]
    runs: list[tuple[str, int]] = []
    (r, c), k = start, None
    while (r, c) != goal:
        d = int(dist[r, c])
        j = min((j for j, (dr, dc) in enumerate(DIRS) if next_on_path(dist, r, c, dr, dc, d)),
                key=lambda j: turns[(r + DIRS[j][0], c + DIRS[j][1])][j] + (k is not None and j != k))
        name = list(MOVES)[j]
        runs = runs[:-1] + [(name, runs[-1][1] + 1)] if runs and runs[-1][0] == name else runs + [(name, 1)]
        r, c, k = r + DIRS[j][0], c + DIRS[j][1], j
    return runs


def next_on_path(dist: np.ndarray, r: int, c: int, dr: int, dc: int, d: int) -> bool:
    nr, nc = r + dr, c + dc
    return 0 <= nr < dist.shape[0] and 0 <= nc < dist.shape[1] and dist[nr, nc] == d - 1
