"""Drawing for WordSearch: the letter grid on a labelled board, each letter a cached tile."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.board import coordinate_frame
from gymv_envs.core.canvas import (
    INK,
    WHITE,
    draw_text,
    fill_rect,
    is_uniform,
    layers_tile,
    text_layer,
)


@functools.lru_cache(maxsize=16)
def _board(H: int, W: int, n: int):
    """The labelled board with its white cells (read-only), and a function giving a letter's tile in a
    cell, ``(rows, cols, tile)``, or None when the letter would not lie inside its cell on white."""
    base, (x0, y0, cell) = coordinate_frame((H, W), n, n)
    base = base.copy()
    fill_rect(base, x0, y0, x0 + n * cell, y0 + n * cell, WHITE)
    base.setflags(write=False)
    size = max(5, int(cell * 0.6))

    @functools.lru_cache(maxsize=4096)
    def letter(r: int, c: int, ch: str):
        m, x, y, colour = text_layer(ch, (x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell), size, INK, bold=True, mono=True)
        h, w = m.shape
        if not (x >= x0 + c * cell and x + w <= x0 + (c + 1) * cell and y >= y0 + r * cell and y + h <= y0 + (r + 1) * cell
                and is_uniform(base, x, y, x + w, y + h, WHITE)):
            return None
        return slice(y, y + h), slice(x, x + w), layers_tile([(m, x, y, colour)], x, y, x + w, y + h, WHITE)

    return base, letter


def draw_grid(H: int, W: int, n: int, grid: list[str]) -> np.ndarray:
    """The ``n x n`` letter grid (rows of letters) with column letters and row numbers."""
    base, letter = _board(H, W, n)
    img = base.copy()
    tiles = [letter(r, c, ch) for r, row in enumerate(grid) for c, ch in enumerate(row)]
    if all(t is not None for t in tiles):  # each letter inside its own white cell: copy its tile
        for rows, cols, tile in tiles:
            img[rows, cols] = tile
        return img
    _, (x0, y0, cell) = coordinate_frame((H, W), n, n)
    size = max(5, int(cell * 0.6))
    for r in range(n):
        for c in range(n):
            draw_text(img, grid[r][c], (x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell), size, INK, bold=True, mono=True)
    return img
