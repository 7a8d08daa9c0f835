"""KPaths' solver: K right/down paths covering the largest total, by dynamic programming over anti-diagonals."""

from __future__ import annotations

import functools
import itertools

import numpy as np


@functools.lru_cache(maxsize=16)
def _plan(R: int, C: int, k: int):
    """Per grid shape and K, everything of the dynamic program that does not depend on the numbers.

    A state is the tuple of the K paths' rows (flat index into R**k); after t moves path j sits at
    (i_j, t - i_j). Returns the moves (down or right per path), for each move the flat index of the
    state it came from (``R**k`` for none), whether each path's cell is new among the paths' cells, and
    per step (stacked) the flat cell index of each path's cell (``R*C`` off the board) and the valid
    states."""
    grids = np.indices((R,) * k).reshape(k, -1)
    size = grids.shape[1]
    moves = list(itertools.product((0, 1), repeat=k))
    weights = R ** np.arange(k - 1, -1, -1)
    src = []
    for b in moves:
        prev = grids - np.array(b)[:, None]
        ok = (prev >= 0).all(axis=0)
        src.append(np.where(ok, (prev * weights[:, None]).sum(axis=0), size))
    fresh = np.ones((k, size), dtype=bool)
    for j in range(1, k):
        for i in range(j):
            fresh[j] &= grids[j] != grids[i]
    cells, valid = [], []
    for t in range(R + C - 1):
        cols = t - grids
        on = (cols >= 0) & (cols < C)
        cells.append(np.where(on, grids * C + np.clip(cols, 0, C - 1), R * C))
        valid.append(on.all(axis=0))
    return moves, np.stack(src), fresh, np.stack(cells), np.stack(valid)


def best_paths(values: np.ndarray, k: int) -> tuple[int, list[str]]:
    """(largest covered total, K move strings) by dynamic programming over the K rows on each anti-diagonal
    (every path has the same number of moves, so the K paths advance one anti-diagonal at a time; a cell
    shared by several paths counts once). A tie goes to the earliest of `_plan`'s moves (right before down)."""
    if k == 1:
        return _best_path(values.tolist())
    R, C = values.shape
    moves, src, fresh, cells, valid = _plan(R, C, k)
    vals = np.append(values.reshape(-1).astype(float), 0.0)
    gains = np.where(valid, (vals[cells] * fresh).sum(axis=1), -np.inf)  # per step and state
    choices = []
    dp = np.append(gains[0], -np.inf)  # the last slot is "none" (``R**k`` in `_plan`): never reached
    for gain in gains[1:]:
        stack = dp[src]
        choices.append(stack.argmax(axis=0))
        dp[:-1] = stack.max(axis=0) + gain
    state = dp.size - 2  # every path on the bottom row
    total = int(dp[state])
    paths = [[] for _ in range(k)]
    for pick in reversed(choices):
        b = int(pick[state])
        for j in range(k):
            paths[j].append("D" if moves[b][j] else "R")
        state = int(src[b, state])
    return total, ["".join(reversed(p)) for p in paths]


def _best_path(values: list[list[int]]) -> tuple[int, list[str]]:
    """`best_paths` for one path, in plain Python (a few dozen cells: faster than the arrays); a tie goes
    to arriving from the left, as there."""
    R, C = len(values), len(values[0])
    best = [[0] * C for _ in range(R)]
    came = [[""] * C for _ in range(R)]  # the move into each cell: R from the left, D from above
    for r in range(R):
        for c in range(C):
            if r == 0 and c == 0:
                best[r][c] = values[r][c]
            elif r == 0 or (c > 0 and best[r][c - 1] >= best[r - 1][c]):
                best[r][c], came[r][c] = best[r][c - 1] + values[r][c], "R"
            else:
                best[r][c], came[r][c] = best[r - 1][c] + values[r][c], "D"
    moves, r, c = [], R - 1, C - 1
    while r or c:
        moves.append(came[r][c])
        r, c = (r, c - 1) if came[r][c] == "R" else (r - 1, c)
    return best[R - 1][C - 1], ["".join(reversed(moves))]
