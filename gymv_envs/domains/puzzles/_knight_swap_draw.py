"""Drawing for KnightSwap: the labelled board of light, dark and blocked squares, the knights and their stars."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.board import coordinate_frame
from gymv_envs.core.canvas import (
    INK,
    PALETTE,
    color_block,
    fill_rect,
    rect_box,
    shape_layer,
    stamp,
    text_layer,
)

LIGHT, DARK, BLOCK = (240, 217, 181), (181, 136, 99), (60, 60, 66)
WHITE_KNIGHT, BLACK_KNIGHT = (250, 250, 250), (20, 20, 24)
KNIGHT_COLOURS = ("red", "blue", "green")


@functools.lru_cache(maxsize=16)
def _board(H: int, W: int, n: int):
    """The labelled board with every square light or dark (read-only), its geometry and each square's box."""
    base, (x0, y0, cell) = coordinate_frame((H, W), n, n)
    img = base.copy()
    squares = []
    for r in range(n):
        for c in range(n):
            box = (x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + (r + 1) * cell)
            fill_rect(img, *box, LIGHT if (r + c) % 2 == 0 else DARK)
            squares.append(rect_box((H, W), *box))
    img.setflags(write=False)
    return img, (x0, y0, cell), squares


def draw_board(H: int, W: int, n: int, blocked: frozenset, start: tuple, goal: tuple, knights: int,
               move_list: bool) -> np.ndarray:
    """The board with its blocked squares and knights: the star (one knight) or a white and a black
    knight; for the move-list question, coloured knights and their stars."""
    base, (x0, y0, cell), squares = _board(H, W, n)
    img = base.copy()
    for r, c in blocked:  # the squares fill their boxes, which meet without overlapping
        box = squares[r * n + c]
        if box is not None:
            a, b, e, f = box
            img[b:f, a:e] = color_block(f - b, e - a, BLOCK)
    size = max(5, int(cell * 0.8))
    if move_list:
        return _draw_list(img, x0, y0, cell, size, start, goal)
    if knights == 1:
        (r, c), = goal
        stamp(img, [shape_layer("star", x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell, size, PALETTE["red"])],
              LIGHT if (r + c) % 2 == 0 else DARK)
    for (r, c), col in zip(start, (WHITE_KNIGHT, BLACK_KNIGHT)):
        cx, cy = x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell
        stamp(img, [shape_layer("circle", cx, cy, size, INK if col == WHITE_KNIGHT else (235, 235, 235)),
                    shape_layer("circle", cx, cy, int(size * 0.86), col),
                    text_layer("N", (cx, cy), max(5, int(size * 0.55)), INK if col == WHITE_KNIGHT else WHITE_KNIGHT, bold=True)],
              LIGHT if (r + c) % 2 == 0 else DARK)
    return img


def _draw_list(img: np.ndarray, x0: float, y0: float, cell: float, size: int, start: tuple, goal: tuple) -> np.ndarray:
    """The move-list question's stars and coloured knights."""
    def bg(r: int, c: int):
        return LIGHT if (r + c) % 2 == 0 else DARK
    for (r, c), name in zip(goal, KNIGHT_COLOURS):  # the stars, in the squares' top-left corners
        stamp(img, [shape_layer("star", x0 + (c + 0.24) * cell, y0 + (r + 0.24) * cell, max(3, int(cell * 0.42)),
                                PALETTE[name])], bg(r, c))
    for (r, c), name in zip(start, KNIGHT_COLOURS):
        cx, cy = x0 + (c + 0.55) * cell, y0 + (r + 0.55) * cell
        stamp(img, [shape_layer("circle", cx, cy, int(size * 0.8), INK),
                    shape_layer("circle", cx, cy, int(size * 0.7), PALETTE[name]),
                    text_layer("N", (cx, cy), max(5, int(size * 0.45)), WHITE_KNIGHT, bold=True)], bg(r, c))
    return img
