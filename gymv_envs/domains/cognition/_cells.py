"""Coloured cell grids drawn with numpy (the symmetry and folding tasks)."""

from __future__ import annotations

import numpy as np

from gymv_envs.core.canvas import PALETTE, WHITE, paste

CELL_COLOURS = np.array([WHITE, PALETTE["blue"], PALETTE["red"], PALETTE["yellow"], PALETTE["green"],
                         (40, 40, 48), PALETTE["purple"], PALETTE["orange"]], dtype=np.uint8)
LINE = (110, 110, 120)


def blit_cells(img: np.ndarray, grid: np.ndarray, box: tuple[int, int, int, int], colours: np.ndarray = CELL_COLOURS,
               line: tuple[int, int, int] = LINE) -> tuple[int, int, int]:
    """Draw ``grid`` (colour indices) as square cells centred in ``box`` with grid lines; returns
    (x, y, cell) of the drawing."""
    x0, y0, x1, y1 = box
    h, w = grid.shape
    s = max(2, int(min((x1 - x0) / w, (y1 - y0) / h)))
    x, y = int((x0 + x1 - w * s) / 2), int((y0 + y1 - h * s) / 2)
    H, W = img.shape[:2]
    if x < 0 or y < 0 or x + w * s + 1 > W or y + h * s + 1 > H:  # (cells of 2 px overflow a tiny frame)
        whole = np.empty((h * s + 1, w * s + 1, 3), dtype=np.uint8)
        _cells_at(whole, grid, 0, 0, s, colours, line)
        paste(img, whole, x, y)
    else:
        _cells_at(img, grid, x, y, s, colours, line)
    return x, y, s


def _cells_at(img: np.ndarray, grid: np.ndarray, x: int, y: int, s: int, colours: np.ndarray, line) -> None:
    """`blit_cells`' drawing with its top-left at (x, y), wholly inside ``img``: written in place, each cell's
    pixel row (the grid line first) gathered into the grid's pixel rows and broadcast down the cells, then the
    lines across (no full-size temporaries)."""
    h, w = grid.shape
    strips = np.empty((len(colours), s, 3), dtype=np.uint8)
    strips[:] = np.asarray(colours, dtype=np.uint8)[:, None]
    strips[:, 0] = line
    view = img[y:y + h * s, x:x + w * s]
    view.reshape(h, s, w * s, 3)[:] = strips[grid].reshape(h, 1, w * s, 3)
    view[::s] = line
    img[y + h * s:y + h * s + 1, x:x + w * s + 1] = line
    img[y:y + h * s + 1, x + w * s:x + w * s + 1] = line
