"""Ultimate tic-tac-toe rules: nine 3x3 boards coded in base 3 (cell i = digit i; 1 X, 2 O), the small
boards' status (0 open; 1, 2 won; 3 full) and the sending rule. Pure code, used by the puzzles' and the
games' ids."""

from __future__ import annotations

import functools

import numpy as np

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
POW3 = tuple(3 ** i for i in range(9))   # the place value of cell i in a board's code
MASK_CELLS = tuple(tuple(i for i in range(9) if m >> i & 1) for m in range(512))   # the cells of a 9-bit mask


@functools.lru_cache(maxsize=1)
def board_digits() -> np.ndarray:
    """The cells of every 3x3 board coded in base 3: row ``code``, column i is digit i (0 empty, 1 X, 2 O); read-only,
    one array for the process."""
    v = (np.arange(3 ** 9)[:, None] // 3 ** np.arange(9)) % 3
    v.setflags(write=False)
    return v


@functools.lru_cache(maxsize=1)
def _small_boards() -> tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]:
    """Per 3x3 board coded in base 3 (cell i = digit i; 1 X, 2 O): (winner 0/1/2, X's winning cells,
    O's winning cells); one table for the process (3**9 boards, numpy)."""
    v = board_digits()
    winner = np.zeros(3 ** 9, dtype=np.int64)
    wins = np.zeros((2, 3 ** 9, 9), dtype=bool)
    for line in LINES:
        a, b, c = (v[:, k] for k in line)
        winner = np.where((winner == 0) & (a > 0) & (a == b) & (b == c), a, winner)
        for p in (1, 2):
            for k in range(3):
                others = [v[:, line[j]] == p for j in range(3) if j != k]
                wins[p - 1, :, line[k]] |= (v[:, line[k]] == 0) & others[0] & others[1]
    cells = [tuple(np.flatnonzero(row).tolist()) for row in wins.reshape(-1, 9)]
    n = 3 ** 9
    return tuple((int(w), cells[k], cells[n + k]) for k, w in enumerate(winner.tolist()))


@functools.lru_cache(maxsize=1)
def board_tables() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per 3x3 board coded in base 3, indexed by its code: its status (0 open; 1, 2 won; 3 full without a
    winner) and the mask of its empty cells (bit i for cell i); two tables for the process."""
    v = board_digits()
    winner = np.array([w for w, _, _ in _small_boards()])
    status = np.where(winner > 0, winner, np.where((v > 0).all(axis=1), 3, 0))
    empty = ((v == 0) << np.arange(9)).sum(axis=1)
    return tuple(status.tolist()), tuple(empty.tolist())


def small_board(code: int) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """(winner 0/1/2, X's winning cells, O's winning cells) of a 3x3 board coded in base 3."""
    return _small_boards()[code]


def line_won(status: list[int], p: int) -> bool:
    return any(status[a] == status[b] == status[c] == p for a, b, c in LINES)


def playable(status: list[int], last: tuple[int, int] | None) -> list[int]:
    """The small boards the player to move may play in: the one the last move (board, cell) sends to,
    or every open board when that one is closed (status 0 open; 1, 2 won; 3 full)."""
    if last is not None and status[last[1]] == 0:
        return [last[1]]
    return [b for b in range(9) if status[b] == 0]
