"""Drawing for PacmanPath: the grid with its wall blocks, Pac-Man, the pellet, the ghosts and the chasing
ghost's heading."""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image, ImageDraw

from gymv_envs.core.board import Board
from gymv_envs.core.canvas import (
    INK,
    PALETTE,
    WHITE,
    color_block,
    is_uniform,
    rect_box,
    rect_layer,
    shape_layer,
    stamp,
)
from gymv_envs.domains.puzzles._pacman import MOVES

WALL = (40, 50, 110)


@functools.lru_cache(maxsize=16)
def _walls(H: int, W: int, n: int, labels: bool = False) -> tuple[np.ndarray, list | None]:
    """The empty board (read-only) and each cell's wall block as slices, when every block lies on white
    (clear of the grid lines `Board.paint` draws over it); None otherwise."""
    g = Board(H, W, n, n, labels=labels)
    base = g.base()
    pad = max(1, int(g.cell * 0.06))
    blocks = []
    for r in range(n):
        for c in range(n):
            x0, y0, x1, y1 = g.box(r, c)
            box = rect_box((H, W), x0 + pad, y0 + pad, x1 - pad, y1 - pad)
            if box is None or not is_uniform(base, *box, WHITE):
                return base, None
            blocks.append((slice(box[1], box[3]), slice(box[0], box[2])))
    return base, blocks


def draw_level(H: int, W: int, n: int, wall: np.ndarray, pac: tuple[int, int], pellet: tuple[int, int] | None,
               ghosts: list, heading: str | None) -> np.ndarray:
    """The level's frame; ``heading`` (the ghost question's) adds the grid labels and the triangle on the ghost."""
    labels = heading is not None
    g = Board(H, W, n, n, labels=labels)
    walls = [(r, c) for r in range(n) for c in range(n) if wall[r, c]]
    base, blocks = _walls(H, W, n, labels)
    if blocks is not None:  # wall blocks clear of the grid lines: copied onto the empty board
        img = base.copy()
        for r, c in walls:
            rows, cols = blocks[r * n + c]
            img[rows, cols] = color_block(rows.stop - rows.start, cols.stop - cols.start, WALL)
    else:
        img = g.paint(dict.fromkeys(walls, WALL))
    s = g.cell
    if pellet is not None:
        stamp(img, [shape_layer("circle", *g.center(*pellet), max(2, int(s * 0.3)), INK)], WHITE)
    stamp(img, [shape_layer("circle", *g.center(*pac), max(3, int(s * 0.8)), PALETTE["yellow"])], WHITE)
    for r, c in ghosts:
        cx, cy = g.center(r, c)
        body = rect_layer(img.shape, cx - s * 0.35, cy - s * 0.05, cx + s * 0.35, cy + s * 0.35, PALETTE["red"])
        parts = [shape_layer("circle", cx, cy - s * 0.08, max(3, int(s * 0.7)), PALETTE["red"]), body,
                 *(shape_layer("circle", cx + ex * s, cy - s * 0.1, max(2, int(s * 0.16)), (255, 255, 255)) for ex in (-0.14, 0.14))]
        stamp(img, [p for p in parts if p is not None], WHITE)
    if heading is not None:  # a black triangle at the ghost's edge, pointing where it heads
        (cx, cy), (dr, dc) = g.center(*ghosts[0]), MOVES[heading]
        tip, base_, half = s * 0.5, s * 0.22, s * 0.2
        pts = [(cx + dc * tip, cy + dr * tip), (cx + dc * base_ - dr * half, cy + dr * base_ + dc * half),
               (cx + dc * base_ + dr * half, cy + dr * base_ - dc * half)]
        # the polygon's pixels from a one-channel mask of the frame (the same pixels `pil_draw` fills,
        # without converting the whole RGB frame to PIL and back)
        mask = Image.new("L", (img.shape[1], img.shape[0]))
        ImageDraw.Draw(mask).polygon(pts, fill=255)
        box = mask.getbbox()
        if box is not None:
            x0, y0, x1, y1 = box
            img[y0:y1, x0:x1][np.asarray(mask.crop(box)) > 0] = INK
    return img
