"""RubikNet's net: where each face sits, the sticker colours, and the empty net drawn once per frame size."""

from __future__ import annotations

import functools

from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    fill_rect,
    inside,
    layers_tile,
    new_frame,
    rect_box,
    text_layer,
)
from gymv_envs.domains.puzzles._rubik_cube import ORDER

NET = {"U": (0, 1), "L": (1, 0), "F": (1, 1), "R": (1, 2), "B": (1, 3), "D": (2, 1)}  # (row, col) of 3x3 blocks
COLOURS = {"W": ("white", (250, 250, 250)), "Y": ("yellow", (250, 215, 0)), "G": ("green", (0, 155, 72)),
           "B": ("blue", (0, 70, 173)), "R": ("red", (200, 20, 30)), "O": ("orange", (255, 120, 0))}


@functools.lru_cache(maxsize=16)
def net_base(H: int, W: int):
    """The net's black face squares (read-only), each sticker's box per face, and per face a function
    giving the centre sticker with its letter as a tile, ``(rows, cols, tile)`` (None when the letter
    would leave the sticker)."""
    img = new_frame(H, W, BACKGROUND)
    s = min(W / 12.4, H / 9.4)
    x0, y0 = (W - 12 * s) / 2, (H - 9 * s) / 2
    gap = max(1, int(s / 12))
    boxes, centres = {}, {}
    for f in ORDER:
        br, bc = NET[f]
        fx, fy = x0 + bc * 3 * s, y0 + br * 3 * s
        fill_rect(img, fx, fy, fx + 3 * s, fy + 3 * s, INK)
        boxes[f] = [rect_box((H, W), fx + c * s + gap, fy + r * s + gap, fx + (c + 1) * s - gap, fy + (r + 1) * s - gap)
                    for r, c in (divmod(i, 3) for i in range(9))]
        centres[f] = (fx + 1.5 * s, fy + 1.5 * s)
    img.setflags(write=False)
    size = max(5, int(s * 0.6))

    @functools.lru_cache(maxsize=64)
    def centre(f: str, col: str):
        box = boxes[f][4]
        ink = INK if col in "WYO" else (255, 255, 255)
        text = [text_layer(f, centres[f], size, ink, bold=True)]
        if box is None or not inside(text, box):
            return None
        return slice(box[1], box[3]), slice(box[0], box[2]), layers_tile(text, *box, COLOURS[col][1])

    return img, boxes, centre
