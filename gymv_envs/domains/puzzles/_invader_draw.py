"""InvaderShot's field drawing: the empty grid with its walls, the column and row labels and the drift arrow (cached)."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    blend_mask,
    draw_text,
    fill_rect,
    new_frame,
    pil_draw,
)
from gymv_envs.core.cells import LETTERS

FIELD_BG = (20, 22, 40)
FIELD_LINE = (44, 48, 78)


@functools.lru_cache(maxsize=16)
def field_base(obs_size: tuple[int, int], x0: int, y0: int, cs: int, width: int, height: int) -> np.ndarray:
    img = new_frame(*obs_size, BACKGROUND)
    fill_rect(img, x0, y0, x0 + width * cs, y0 + height * cs, FIELD_BG)
    line = max(1, cs // 16)
    for k in range(width + 1):
        fill_rect(img, x0 + k * cs, y0, x0 + k * cs + line, y0 + height * cs, FIELD_LINE)
    for k in range(height + 1):
        fill_rect(img, x0, y0 + k * cs, x0 + width * cs, y0 + k * cs + line, FIELD_LINE)
    wall = max(2, cs // 6)
    fill_rect(img, x0 - wall, y0, x0, y0 + height * cs, (160, 160, 170))
    fill_rect(img, x0 + width * cs, y0, x0 + width * cs + wall, y0 + height * cs, (160, 160, 170))
    img.setflags(write=False)
    return img


def draw_marks(img: np.ndarray, x0: int, y0: int, cs: int, rows: int, cols: int, top: int, left: int,
               direction: int) -> list[tuple[int, int, int, int]]:
    """Draw the column letters, the row numbers and the arrow; their boxes (x0, y0, x1, y1) in that order."""
    fs, light = max(4, int(cs * 0.5)), (235, 235, 235)
    boxes = [draw_text(img, LETTERS[c], (x0 + (left + c + 0.5) * cs, y0 + (top - 0.5) * cs), fs, light, bold=True)
             for c in range(cols)]
    boxes += [draw_text(img, str(r + 1), (x0 + (left - 0.5) * cs, y0 + (top + r + 0.5) * cs), fs,
                        INK if left == 0 else light, bold=True) for r in range(rows)]
    arrow = _arrow_mask(max(4, int(cs * 1.6)), max(3, int(cs * 0.7)), direction)
    ax, ay = int(x0 + (left + cols / 2) * cs - arrow.shape[1] / 2), int(y0 - cs * 1.1)
    blend_mask(img, arrow, ax, ay, INK)
    return boxes + [(ax, ay, ax + arrow.shape[1], ay + arrow.shape[0])]


@functools.lru_cache(maxsize=256)
def label_tiles(obs_size: tuple[int, int], width: int, height: int, x0: int, y0: int, cs: int, rows: int, cols: int,
                top: int, left: int, direction: int) -> tuple[tuple[int, int, np.ndarray], ...] | None:
    """`draw_marks` on the empty field as (x, y, pixels) boxes to paste after the sprites (read-only); None unless no
    sprite can be under one: each label within a cell (the one by the formation it is centred on), the arrow above."""
    img = field_base(obs_size, x0, y0, cs, width, height).copy()
    boxes = draw_marks(img, x0, y0, cs, rows, cols, top, left, direction)
    if boxes[-1][3] > y0 or top + rows >= height or any(b[2] - b[0] >= cs or b[3] - b[1] >= cs for b in boxes[:-1]):
        return None
    out = tuple((max(bx0, 0), max(by0, 0), img[max(by0, 0):by1, max(bx0, 0):bx1].copy()) for bx0, by0, bx1, by1 in boxes)
    for _, _, pixels in out:
        pixels.setflags(write=False)
    return out


@functools.lru_cache(maxsize=32)
def _arrow_mask(w: int, h: int, direction: int) -> np.ndarray:
    """A horizontal arrow pointing right (``direction`` 1) or left (-1), as a read-only mask."""
    img = np.zeros((h, w, 3), dtype=np.uint8)
    with pil_draw(img) as d:
        d.polygon([(0, h * 0.35), (w * 0.6, h * 0.35), (w * 0.6, h * 0.65), (0, h * 0.65)], fill=(255, 255, 255))
        d.polygon([(w * 0.55, 0), (w - 1, h / 2), (w * 0.55, h - 1)], fill=(255, 255, 255))
    mask = np.ascontiguousarray(img[..., 0] if direction > 0 else img[:, ::-1, 0])
    mask.setflags(write=False)
    return mask
