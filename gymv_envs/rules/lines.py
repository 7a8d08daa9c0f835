"""Lines of ``length`` stones in a row (across, down, either diagonal) on a flat ``rows x cols``
board (cell ``r * cols + c``, row 0 at the top): Connect Four's four, Gomoku's five."""

from __future__ import annotations

import functools
from collections.abc import Sequence

DIRS = ((0, 1), (1, 0), (1, 1), (1, -1))  # across, down and the two diagonals


@functools.cache
def line_windows(rows: int, cols: int, length: int) -> tuple[tuple[int, ...], ...]:
    """Every line of ``length`` cells on the board, as flat indices (by first cell, then direction)."""
    return tuple(
        tuple((r + i * dr) * cols + c + i * dc for i in range(length))
        for r in range(rows) for c in range(cols) for dr, dc in DIRS
        if 0 <= r + (length - 1) * dr < rows and 0 <= c + (length - 1) * dc < cols
    )


@functools.cache
def _rays(rows: int, cols: int, length: int) -> tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...]:
    """For each cell, per direction, the cells beyond it forwards and backwards (at most ``length - 1``
    each, nearest first): a line through the cell needs no more."""
    out = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        per = []
        for dr, dc in DIRS:
            sides = []
            for sign in (1, -1):
                ray, rr, cc = [], r + sign * dr, c + sign * dc
                while 0 <= rr < rows and 0 <= cc < cols and len(ray) < length - 1:
                    ray.append(rr * cols + cc)
                    rr, cc = rr + sign * dr, cc + sign * dc
                sides.append(tuple(ray))
            per.append((sides[0], sides[1]))
        out.append(tuple(per))
    return tuple(out)


def makes_line(board: Sequence[int], i: int, rows: int, cols: int, length: int) -> bool:
    """Whether the stone at index ``i`` lies on ``length`` or more stones of its colour in a row."""
    p = board[i]
    for ahead, behind in _rays(rows, cols, length)[i]:
        n = 1
        for j in ahead:
            if board[j] != p:
                break
            n += 1
        for j in behind:
            if board[j] != p:
                break
            n += 1
        if n >= length:
            return True
    return False
