"""Ultimate tic-tac-toe rules (a table of 3x3 boards) and its cached grid drawing, for the puzzles' ids."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.canvas import BACKGROUND, GRID_LINE, INK, WHITE, draw_text, fill_rect, new_frame

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


@functools.lru_cache(maxsize=1)
def _small_boards() -> tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]:
    """Per 3x3 board coded in base 3 (cell i = digit i; 1 X, 2 O): (winner 0/1/2, X's winning cells,
    O's winning cells); one table for the process (3**9 boards, numpy)."""
    v = (np.arange(3 ** 9)[:, None] // 3 ** np.arange(9)) % 3
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


@functools.lru_cache(maxsize=16)
def grid_base(obs_size: tuple[int, int], x0: int, y0: int, cs: int, thick: int) -> np.ndarray:
    """The empty 9x9 grid with labels (read-only)."""
    H, W = obs_size
    img = new_frame(H, W, BACKGROUND)
    side = 9 * cs + 2 * thick
    line = max(1, cs // 25)
    fill_rect(img, x0 - thick, y0 - thick, x0 + side + line + thick, y0 + side + line + thick, INK)
    for R in range(9):
        for C in range(9):
            x, y = x0 + C * cs + (C // 3) * thick, y0 + R * cs + (R // 3) * thick
            fill_rect(img, x, y, x + cs + line, y + cs + line, GRID_LINE)
            fill_rect(img, x + line, y + line, x + cs, y + cs, WHITE)
    size = max(4, int(cs * 0.5))
    for k in range(9):
        off = k * cs + (k // 3) * thick + cs / 2
        draw_text(img, "ABCDEFGHI"[k], (x0 + off, y0 - thick - cs * 0.4), size, INK, bold=True)
        draw_text(img, str(k + 1), (x0 - thick - cs * 0.4, y0 + off), size, INK, bold=True)
    img.setflags(write=False)
    return img


@functools.lru_cache(maxsize=64)
def board_tile(obs_size: tuple[int, int], geom: tuple[int, int, int, int], tint: tuple[int, int, int]) -> np.ndarray:
    """The top-left small board of `grid_base` (its cells and inner lines) with the cells filled with ``tint``."""
    x0, y0, cs, thick = geom
    line = max(1, cs // 25)
    tile = grid_base(obs_size, *geom)[y0:y0 + 3 * cs, x0:x0 + 3 * cs].copy()
    for r in range(3):
        for c in range(3):
            fill_rect(tile, c * cs + line, r * cs + line, (c + 1) * cs, (r + 1) * cs, tint)
    tile.setflags(write=False)
    return tile
