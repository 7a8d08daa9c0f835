"""Connect Four on a flat board: 6 rows (row 0 at the top) of 7 columns, cell ``r * COLS + c``.

A board is any flat sequence of 0 (empty), 1 and 2 (a tuple, a list or a numpy view).
"""

from __future__ import annotations

from collections.abc import Sequence

ROWS, COLS = 6, 7
DIRS = ((0, 1), (1, 0), (1, 1), (1, -1))  # across, down and the two diagonals
# every line of four cells on the board, as flat indices
WINDOWS = tuple(
    tuple((r + i * dr) * COLS + c + i * dc for i in range(4))
    for r in range(ROWS) for c in range(COLS) for dr, dc in DIRS
    if 0 <= r + 3 * dr < ROWS and 0 <= c + 3 * dc < COLS
)


def landing_row(board: Sequence[int], c: int) -> int:
    """The row where a disc dropped in column ``c`` comes to rest (the lowest empty hole), -1 if full."""
    for r in range(ROWS - 1, -1, -1):
        if not board[r * COLS + c]:
            return r
    return -1


def wins_at(board: Sequence[int], i: int) -> bool:
    """Whether the disc at index ``i`` completes four (or more) in a row of its colour."""
    p, r, c = board[i], i // COLS, i % COLS
    for dr, dc in DIRS:
        n = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < ROWS and 0 <= cc < COLS and board[rr * COLS + cc] == p:
                n, rr, cc = n + 1, rr + sign * dr, cc + sign * dc
        if n >= 4:
            return True
    return False
