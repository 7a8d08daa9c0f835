"""The 2048 oracle's search: a vectorised expectimax over row lookup tables.

A board is four packed rows: each row's four tile exponents are nibbles of one integer (the
leftmost cell lowest), so sliding a row, scoring a line or asking whether it can still move is
one table look-up, done for whole batches of boards at once with numpy. Columns are the rows of
the transposed board. The tables (65,536 entries each) are built once per process, on first use.

`best_move` expands every move, every spawn (a 2 with chance 0.9, a 4 with 0.1, on each empty
cell) and every reply, to a depth that grows as the board fills up, and scores the leaves with a
line heuristic in the spirit of the well-known expectimax players: empty cells and mergeable
neighbours count for a line, tiles out of order along it and big tiles count against it.
"""

from __future__ import annotations

import functools

import numpy as np

FOUR_CHANCE = 0.1
LOSS = -1e12
SHIFTS = np.array([0, 4, 8, 12], dtype=np.int32)


def search_depth(empty: int) -> int:
    """Replies searched after the first move and its spawn: deeper when few cells are free."""
    return 2 if empty <= 2 else 1


@functools.cache
def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """By packed row: the row slid towards its first cell, towards its last, its score, whether it can move."""
    cells = (np.arange(1 << 16, dtype=np.int32)[:, None] >> SHIFTS) & 15
    slid = np.zeros_like(cells)
    for i, line in enumerate(cells.tolist()):
        vals, out, k = [v for v in line if v], [], 0
        while k < len(vals):
            if k + 1 < len(vals) and vals[k] == vals[k + 1]:
                out.append(min(15, vals[k] + 1))
                k += 2
            else:
                out.append(vals[k])
                k += 1
        slid[i, :len(out)] = out
    first = (slid << SHIFTS).sum(1, dtype=np.int32)
    last = np.empty_like(first)
    last[(cells[:, ::-1] << SHIFTS).sum(1)] = (slid[:, ::-1] << SHIFTS).sum(1)  # mirror, slide, mirror back
    v = cells.astype(np.float64)
    pairs = (cells[:, :-1] == cells[:, 1:]) & (cells[:, :-1] > 0)
    p4 = v ** 4
    rising = np.clip(p4[:, 1:] - p4[:, :-1], 0, None).sum(1)
    falling = np.clip(p4[:, :-1] - p4[:, 1:], 0, None).sum(1)
    empty = (cells == 0).sum(1)
    score = 270.0 * empty + 700.0 * pairs.sum(1) - 47.0 * np.minimum(rising, falling) - 11.0 * (v ** 3.5).sum(1)
    return first, last, score, (empty > 0) | pairs.any(1)


def pack(board) -> np.ndarray:
    """A board of 16 exponents in reading order as a ``(1, 4)`` array of packed rows."""
    rows = np.asarray(board, dtype=np.int32).reshape(1, 4, 4)
    return (rows << SHIFTS).sum(2, dtype=np.int32)


def _transpose(rows: np.ndarray) -> np.ndarray:
    cols = np.empty_like(rows)
    for j in range(4):
        s = 4 * j
        cols[:, j] = ((rows[:, 0] >> s) & 15) | ((rows[:, 1] >> s) & 15) << 4 | \
            ((rows[:, 2] >> s) & 15) << 8 | ((rows[:, 3] >> s) & 15) << 12
    return cols


def moves(rows: np.ndarray) -> np.ndarray:
    """``(N, 4)`` boards -> ``(N, 4, 4)``: the boards after up, down, left and right."""
    first, last, _, _ = _tables()
    cols = _transpose(rows)
    out = np.empty((len(rows), 4, 4), dtype=np.int32)
    out[:, 0], out[:, 1] = _transpose(first[cols]), _transpose(last[cols])
    out[:, 2], out[:, 3] = first[rows], last[rows]
    return out


def heuristic(rows: np.ndarray) -> np.ndarray:
    """The line score summed over the rows and columns of each board; a board without a move is a loss."""
    _, _, score, movable = _tables()
    cols = _transpose(rows)
    alive = movable[rows].any(1) | movable[cols].any(1)
    return np.where(alive, score[rows].sum(1) + score[cols].sum(1), LOSS)


def _spawns(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every spawn on every board: (children, their parent's index, their probability given the parent)."""
    parent, r, c = np.nonzero(((rows[:, :, None] >> SHIFTS) & 15) == 0)
    count = np.bincount(parent, minlength=len(rows))[parent]
    kids = np.repeat(rows[parent], 2, axis=0)
    r2, bit = np.repeat(r, 2), np.repeat(4 * c, 2)
    kids[np.arange(len(kids)), r2] |= np.tile(np.array([1, 2], dtype=np.int32), len(parent)) << bit
    prob = np.tile(np.array([1 - FOUR_CHANCE, FOUR_CHANCE]), len(parent)) / np.repeat(count, 2)
    return kids, np.repeat(parent, 2), prob


def chance_value(rows: np.ndarray, depth: int) -> np.ndarray:
    """Expected value of each board (just moved, its spawn to come) with ``depth`` more moves searched."""
    kids, parent, prob = _spawns(rows)
    if depth == 0:
        leaf = heuristic(kids)
    else:
        after = moves(kids)                                  # (K, 4, 4)
        legal = (after != kids[:, None, :]).any(2)           # (K, 4)
        vals = np.full(legal.shape, LOSS)
        if legal.any():
            vals[legal] = chance_value(after[legal], depth - 1)
        leaf = vals.max(1)
    out = np.zeros(len(rows))
    np.add.at(out, parent, prob * leaf)
    return out   # a move that changes the board always leaves an empty cell, so every board has spawns


def best_move(board) -> int:
    """The move (0 up, 1 down, 2 left, 3 right) with the best expected score; 0 when none changes the board."""
    rows = pack(board)
    after = moves(rows)[0]
    legal = [a for a in range(4) if (after[a] != rows[0]).any()]
    if not legal:
        return 0
    values = chance_value(after[legal], search_depth(int(sum(v == 0 for v in board))))
    return legal[int(np.argmax(values))]
