"""Drawing for PolyominoTiling: the region's numbered grid and the pieces as cached lettered squares."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    WHITE,
    color_block,
    draw_text,
    fill_rect,
    layers_tile,
    new_frame,
    rect_box,
    text_layer,
)

REGION, OUTSIDE, FAINT = (150, 152, 160), (236, 236, 230), (212, 212, 206)


@functools.lru_cache(maxsize=1024)
def _square(side: int, letter: str, size: int, ink: tuple, colour: tuple) -> np.ndarray:
    """A piece's square, ``side`` pixels wide, in its colour with its letter centred on it (read-only;
    at most 10 letters x 9 colours x 2 inks per size)."""
    text = [text_layer(letter, (side / 2, side / 2), size, ink, bold=True)]
    return layers_tile(text, 0, 0, side, side, colour)


@functools.lru_cache(maxsize=1024)
def extent(cells: frozenset) -> tuple[int, int]:
    """The rows and columns a shape at the origin spans (at most 17 shapes x 8 orientations)."""
    return max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1


@functools.lru_cache(maxsize=1024)
def _indices(cells: frozenset) -> tuple[np.ndarray, np.ndarray]:
    """A shape's rows and columns as index arrays (at most 17 shapes x 8 orientations)."""
    return np.array([r for r, _ in cells]), np.array([c for _, c in cells])


@functools.lru_cache(maxsize=64)
def _region_frame(H: int, W: int, rows: int, cols: int) -> tuple[np.ndarray, list]:
    """The frame with the region's grid, every cell filled as a region cell, its row and column numbers
    and the split line (read-only), and each cell's box. The numbers sit outside the cells, so
    filling the cells outside the region afterwards gives the frame the cells-then-numbers order would."""
    img = new_frame(H, W, BACKGROUND)
    split = H * 0.52
    cell = min((W * 0.92) / (cols + 0.6), (split * 0.94) / (rows + 0.6))
    x0 = (W - (cols + 0.6) * cell) / 2 + 0.6 * cell
    y0 = (split - (rows + 0.6) * cell) / 2 + 0.6 * cell
    gap = max(1, int(cell / 16))
    size = max(5, int(cell * 0.32))
    fill_rect(img, x0 - gap, y0 - gap, x0 + cols * cell + gap, y0 + rows * cell + gap, FAINT)
    for c in range(cols):
        draw_text(img, str(c + 1), (x0 + (c + 0.5) * cell, y0 - 0.32 * cell), size, INK)
    boxes = []
    for r in range(rows):
        draw_text(img, str(r + 1), (x0 - 0.32 * cell, y0 + (r + 0.5) * cell), size, INK)
        for c in range(cols):
            x, y = x0 + c * cell, y0 + r * cell
            boxes.append(rect_box((H, W), x + gap, y + gap, x + cell - gap, y + cell - gap))
            if boxes[-1] is not None:
                fill_rect(img, *boxes[-1], REGION)
    fill_rect(img, 0, split, W, split + max(1, H // 256), FAINT)
    img.setflags(write=False)
    return img, boxes


def draw_region(H: int, W: int, rows: int, cols: int, pattern: str) -> np.ndarray:
    """A new frame with the region's grid, its cells outside the region (``.`` in ``pattern``, row by
    row) in the outside colour."""
    base, boxes = _region_frame(H, W, rows, cols)
    img = base.copy()  # the grid with every cell a region cell, its numbers and the split line
    for ch, box in zip(pattern, boxes):  # both row by row
        if ch == "." and box is not None:
            a, b, e, f = box
            img[b:f, a:e] = color_block(f - b, e - a, OUTSIDE)
    return img


def draw_pieces(img: np.ndarray, top: float, bottom: float, pieces: list, letters: str, colours: list) -> None:
    """The pieces, in rows of up to four between ``top`` and ``bottom``: each cell a square in the
    piece's colour with its letter."""
    W = img.shape[1]
    k = len(pieces)
    per_row = min(k, 4)
    lines = -(-k // per_row)
    slot_w, slot_h = W / per_row, (bottom - top) / lines
    side = max(max(extent(p)) for p in pieces)
    cell = int(min(slot_w, slot_h) / (side + 0.6))  # whole pixels: every square is one cached tile
    gap = max(1, int(cell / 14))
    size = max(5, int(cell * 0.62))
    square = max(1, cell - 2 * gap)
    H = img.shape[0]
    for i, (piece, colour) in enumerate(zip(pieces, colours)):
        row, col = divmod(i, per_row)
        count = per_row if row < lines - 1 else k - per_row * (lines - 1)
        h, w = extent(piece)
        px = int(round((W - count * slot_w) / 2 + (col + 0.5) * slot_w - w * cell / 2)) + gap
        py = int(round(top + (row + 0.5) * slot_h - h * cell / 2)) + gap
        tile = _square(square, letters[i], size, INK if sum(colour) > 450 else WHITE, colour)
        if px >= 0 and py >= 0 and px + w * cell <= W and py + h * cell <= H:
            # the piece's box as (row, y, column, x) squares: all its squares in one assignment
            rs, cs = _indices(piece)
            img[py:py + h * cell, px:px + w * cell].reshape(h, cell, w, cell, 3)[rs, :square, cs, :square] = tile
            continue
        for r, c in piece:
            x, y = px + c * cell, py + r * cell
            if x >= 0 and y >= 0 and x + square <= W and y + square <= H:
                img[y:y + square, x:x + square] = tile
