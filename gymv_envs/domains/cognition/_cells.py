"""Coloured cell grids drawn with numpy (the symmetry and folding tasks)."""

from __future__ import annotations

import numpy as np

from gymv_envs.core.canvas import PALETTE, WHITE

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
    # written in place: each cell's pixel row (the grid line first) gathered into the grid's pixel
    # rows and broadcast down the cells, then the lines across (no full-size temporaries)
    strips = np.empty((len(colours), s, 3), dtype=np.uint8)
    strips[:] = np.asarray(colours, dtype=np.uint8)[:, None]
    strips[:, 0] = line
    view = img[y:y + h * s, x:x + w * s]
    view.reshape(h, s, w * s, 3)[:] = strips[grid].reshape(h, 1, w * s, 3)
    view[::s] = line
    img[y + h * s:y + h * s + 1, x:x + w * s + 1] = line
    img[y:y + h * s + 1, x + w * s:x + w * s + 1] = line
    return x, y, s
