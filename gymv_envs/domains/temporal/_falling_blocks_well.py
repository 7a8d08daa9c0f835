"""The falling-blocks well: its size, where a piece fits and lands, and Dellacherie's placement score."""

from __future__ import annotations

import numpy as np

COLS, ROWS = 10, 20                             # the well (cells)


def fits(board: np.ndarray, cells, row: int, col: int) -> bool:
    """Whether a piece's cells at (row, col) are inside the well and on empty cells (rows above 0 are free)."""
    for r, c in cells:
        rr, cc = row + r, col + c
        if not 0 <= cc < COLS or rr >= ROWS or (rr >= 0 and board[rr, cc]):
            return False
    return True


def drop_row(board: np.ndarray, cells, row: int, col: int) -> int:
    """The row a piece at (row, col) comes to rest on when it falls straight down."""
    while fits(board, cells, row + 1, col):
        row += 1
    return row


def evaluate(board: np.ndarray, cells, row: int, col: int) -> float:
    """Dellacherie's placement score (landing height, eroded cells, row and column transitions, holes, wells)."""
    b = board != 0  # a new array
    for r, c in cells:
        if r + row < 0:
            return -1e9
        b[row + r, col + c] = True
    full = b.all(axis=1)
    eroded = int(full.sum()) * sum(1 for r, _ in cells if full[row + r])
    b = np.vstack([np.zeros((int(full.sum()), COLS), bool), b[~full]])
    height = ROWS - (row + np.mean([r for r, _ in cells]))
    padded = np.hstack([np.ones((ROWS, 1), bool), b, np.ones((ROWS, 1), bool)])
    row_t = int((padded[:, 1:] != padded[:, :-1]).sum())
    col_t = int((b[1:] != b[:-1]).sum() + (~b[-1]).sum())
    holes = int((np.maximum.accumulate(b, axis=0) & ~b).sum())
    wells = 0
    for c in range(COLS):
        depth = 0
        for r in range(ROWS):
            if not b[r, c] and padded[r, c] and padded[r, c + 2]:
                depth += 1
                wells += depth
            else:
                depth = 0 if b[r, c] else depth
    return -4.5 * height + 3.4 * eroded - 3.2 * row_t - 9.3 * col_t - 7.9 * holes - 3.4 * wells
