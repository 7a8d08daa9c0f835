"""Connect Four on a flat board: 6 rows (row 0 at the top) of 7 columns, cell ``r * COLS + c``.

A board is any flat sequence of 0 (empty), 1 and 2 (a tuple, a list or a numpy view).

Searches use bit boards instead: one int per colour, bit ``7 * c + h`` for the disc in column ``c`` at
height ``h`` (0 at the bottom, so flat row ``r`` is height ``ROWS - 1 - r``), with a spare bit on top
of each column so that no line wraps from one column into the next.
"""

from __future__ import annotations

from collections.abc import Sequence

from gymv_envs.rules.lines import line_windows, makes_line

ROWS, COLS = 6, 7
WINDOWS = line_windows(ROWS, COLS, 4)  # every line of four cells, as flat indices
BOTTOM = sum(1 << 7 * c for c in range(COLS))  # bit boards: each column's lowest cell
BOARD = BOTTOM * ((1 << ROWS) - 1)  # every cell, the spare bits left out


def landing_row(board: Sequence[int], c: int) -> int:
    """The row where a disc dropped in column ``c`` comes to rest (the lowest empty hole), -1 if full."""
    for r in range(ROWS - 1, -1, -1):
        if not board[r * COLS + c]:
            return r
    return -1


def wins_at(board: Sequence[int], i: int) -> bool:
    """Whether the disc at index ``i`` completes four (or more) in a row of its colour."""
    return makes_line(board, i, ROWS, COLS, 4)


def has_four(bits: int) -> bool:
    """Whether the discs of one colour on a bit board hold four in a row in any direction."""
    m = bits & (bits >> 1)  # up a column
    if m & (m >> 2):
        return True
    m = bits & (bits >> 7)  # across
    if m & (m >> 14):
        return True
    m = bits & (bits >> 6)  # the two diagonals
    if m & (m >> 12):
        return True
    m = bits & (bits >> 8)
    return bool(m & (m >> 16))


def wins_now(bits: int, taken: int) -> int:
    """The landing cells (bit board; ``taken``: every disc) where one more disc of the colour ``bits``
    completes four in a row: three of its discs and the cell in one line of four."""
    out = (bits << 1) & (bits << 2) & (bits << 3)  # three below
    for step in (7, 6, 8):  # across and the two diagonals: the cell first, last, second or third
        two = (bits << step) & (bits << 2 * step)
        out |= two & ((bits << 3 * step) | (bits >> step))
        two = (bits >> step) & (bits >> 2 * step)
        out |= two & ((bits << step) | (bits >> 3 * step))
    return out & (taken + BOTTOM) & BOARD  # the lowest empty cell of each column
