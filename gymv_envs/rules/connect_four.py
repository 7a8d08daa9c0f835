"""Connect Four on a flat board: 6 rows (row 0 at the top) of 7 columns, cell ``r * COLS + c``.

A board is any flat sequence of 0 (empty), 1 and 2 (a tuple, a list or a numpy view).
"""

from __future__ import annotations

from collections.abc import Sequence

from gymv_envs.rules.lines import line_windows, makes_line

ROWS, COLS = 6, 7
WINDOWS = line_windows(ROWS, COLS, 4)  # every line of four cells, as flat indices


def landing_row(board: Sequence[int], c: int) -> int:
    """The row where a disc dropped in column ``c`` comes to rest (the lowest empty hole), -1 if full."""
    for r in range(ROWS - 1, -1, -1):
        if not board[r * COLS + c]:
            return r
    return -1


def wins_at(board: Sequence[int], i: int) -> bool:
    """Whether the disc at index ``i`` completes four (or more) in a row of its colour."""
    return makes_line(board, i, ROWS, COLS, 4)
