"""Tetris pieces for the Tetris puzzles: their colours, a random stack, a straight drop, the drawing."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.board import Board
from gymv_envs.core.canvas import PALETTE, color_block, fill, fill_rect, rect_box
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.rules.tetromino import KINDS, TETROMINOES, rotate

PIECE_COLORS = {"I": "cyan", "O": "yellow", "T": "purple", "S": "green", "Z": "red", "J": "blue", "L": "orange"}
TETRIS_SIZES = {0: (8, 6), 1: (12, 8), 2: (16, 10)}  # rows, cols
STACK = (110, 110, 120)


def random_stack(d: ScalarDraws, rows: int, cols: int) -> list[list[bool]]:
    """A bottom stack of ragged columns with a few holes; no row is full. Rows of booleans, top first,
    drawn as ``rng.integers``/``rng.random`` calls would draw them (``d`` replays them in Python)."""
    filled = [[False] * cols for _ in range(rows)]
    h, most = d.integers(1, rows // 2), rows // 2 + 1
    for c in range(cols):
        h = min(max(h + d.integers(-2, 3), 0), most)
        if h:
            filled[rows - h][c] = True
            d.random()  # (the top cell's hole draw, unused: it is always filled)
            for r in range(rows - h + 1, rows):
                filled[r][c] = d.random() >= 0.15  # a hole with chance 0.15
    for row in filled:
        if all(row):
            row[d.integers(cols)] = False
    return filled


@functools.lru_cache(maxsize=64)
def _bottoms(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Per column of the piece, (column, its lowest cell's row): the only cells that can come to rest."""
    low: dict[int, int] = {}
    for r, c in cells:
        low[c] = max(r, low.get(c, r))
    return tuple(low.items())


def drop(filled, cells, col: int) -> list[tuple[int, int]] | None:
    """Cells of a piece dropped from above the board in column offset ``col``; None if it sticks out.
    ``filled``: rows of booleans, top first (lists or an array).

    Coming from above, a cell stops on its column's highest filled cell (or the floor)."""
    rows = len(filled)
    top = rows
    for c, r in _bottoms(tuple(cells)):
        c += col
        h = 0
        while h < rows and not filled[h][c]:
            h += 1
        top = min(top, h - 1 - r)
    return [(r + top, c + col) for r, c in cells] if top >= 0 else None


def random_drop(d: ScalarDraws, rows: int, cols: int):
    """A random stack (`random_stack`), piece, turn and column offset, drawn in that order, and the piece's
    width and landed cells there (`drop`; None when it sticks out): (filled, piece, cells, col, width, landed)."""
    filled = random_stack(d, rows, cols)
    piece = KINDS[d.integers(7)]
    cells = rotate(TETROMINOES[piece], d.integers(4))
    width = max(c for _, c in cells) + 1
    col = d.integers(cols - width + 1)
    return filled, piece, cells, col, width, drop(filled, cells, col)


@functools.lru_cache(maxsize=16)
def _well(H: int, W: int, rows: int, cols: int) -> tuple[Board, np.ndarray, list | None]:
    """The well's geometry, its empty frame (read-only) and per cell the slices of a stack cell's pixel
    box and a block of the stack colour to copy there, when filling that box on the empty frame gives
    what `Board.paint` draws for that cell alone (the grid lines and labels, painted after the cells,
    leave the box alone); else None for every cell."""
    g = Board(H, W, rows, cols, top_extra=2.4)
    base = g.base(bottom_up=True)
    pad = max(1, int(g.cell * 0.06))
    boxes = []
    for r in range(rows):
        for c in range(cols):
            x0, y0, x1, y1 = g.box(r, c)
            box = rect_box(base.shape, x0 + pad, y0 + pad, x1 - pad, y1 - pad)
            img = base.copy()
            if box is not None:
                fill(img[box[1]:box[3], box[0]:box[2]], STACK)
            if not np.array_equal(img, g.paint({(r, c): STACK}, bottom_up=True)):
                return g, base, None
            boxes.append(None if box is None else (slice(box[1], box[3]), slice(box[0], box[2]),
                                                   color_block(box[3] - box[1], box[2] - box[0], STACK)))
    return g, base, boxes


def draw_tetris(H: int, W: int, filled: np.ndarray, piece: str, cells, col: int, landed=None) -> np.ndarray:
    """The well (rows numbered from the bottom) with the piece hovering above column offset ``col``."""
    rows, cols = filled.shape
    g, base, boxes = _well(H, W, rows, cols)
    if boxes is None:
        img = g.paint({(r, c): STACK for r in range(rows) for c in range(cols) if filled[r, c]}, bottom_up=True)
    else:  # the empty well, then its stack cells
        img = base.copy()
        for i in np.flatnonzero(filled).tolist():
            box = boxes[i]
            if box is not None:
                img[box[0], box[1]] = box[2]
    pad = max(1, int(g.cell * 0.06))
    for r, c in cells:  # the falling piece, hovering above the board
        x0, y0, x1, y1 = g.box(r - 2.2, c + col)
        fill_rect(img, x0 + pad, y0 + pad, x1 - pad, y1 - pad, PALETTE[PIECE_COLORS[piece]])
    return img
