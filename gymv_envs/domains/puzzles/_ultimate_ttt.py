"""Ultimate tic-tac-toe's cached grid drawing for the puzzles' ids (the rules live in `gymv_envs.rules.ultimate_ttt`)."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.board import text_tile
from gymv_envs.core.canvas import BACKGROUND, GRID_LINE, INK, WHITE, draw_text, fill_rect, new_frame


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


@functools.lru_cache(maxsize=16)
def cell_boxes(geom: tuple[int, int, int, int]) -> tuple[tuple[int, int, int, int], ...]:
    """The box (x0, y0, x1, y1) inside the lines of each cell of `grid_base`: cell i of small board b at 9 * b + i."""
    x0, y0, cs, thick = geom
    line, out = max(1, cs // 25), []
    for b in range(9):
        for i in range(9):
            R, C = (b // 3) * 3 + i // 3, (b % 3) * 3 + i % 3
            x, y = x0 + C * cs + (C // 3) * thick, y0 + R * cs + (R // 3) * thick
            out.append((x + line, y + line, x + cs, y + cs))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def stone_tile(cs: int, text: str, color: tuple[int, int, int], tint: tuple[int, int, int]) -> tuple[np.ndarray, int, int]:
    """``text`` (X or O) in ``color`` over ``tint``, cut to a box of `cell_boxes` (cell size ``cs``), and its
    offset (rows, columns) in the box."""
    side = cs - max(1, cs // 25)  # the box's width and height
    tile = text_tile(text, max(4, int(side * 0.7)), color, True, tint)
    th, tw = min(tile.shape[0], side), min(tile.shape[1], side)
    return tile[:th, :tw], (side - th) // 2, (side - tw) // 2
