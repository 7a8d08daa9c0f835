"""KenKen's drawing: where the thick cage borders and the cage labels go on a frame, cached per size."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.board import board_base
from gymv_envs.core.canvas import INK, new_frame, rect_box


@functools.lru_cache(maxsize=32)
def edges(obs_size: tuple[int, int], n: int) -> tuple[list, list, int, np.ndarray]:
    """The pixel boxes of the thick line right of and below each cell (None: off the frame), its width,
    and a read-only block of ink as large as the frame (cached: 32 frames, 0.8 MB each at 512x512)."""
    img, g = board_base(obs_size, n, n)
    w = max(2, int(g.cell / 14))
    right, below = [], []
    for r in range(n):
        for c in range(n):
            x0, y0, x1, y1 = g.box(r, c)
            right.append(rect_box(img.shape, x1 - w / 2, y0 - w / 2, x1 + w / 2 + 1, y1 + w / 2 + 1))
            below.append(rect_box(img.shape, x0 - w / 2, y1 - w / 2, x1 + w / 2 + 1, y1 + w / 2 + 1))
    ink = new_frame(img.shape[0], img.shape[1], INK)
    ink.setflags(write=False)
    return right, below, w, ink


@functools.lru_cache(maxsize=4096)
def border(obs_size: tuple[int, int], n: int, line: int, on: int) -> tuple:
    """The pixel boxes that ink border ``line`` (0..n-2: right of that column; n-1..: below row line-n+1)
    where bit k of ``on`` marks a cage border at its k-th cell, each run of boxes that overlap end to end
    (the same span across the line) merged into one: the same pixels in fewer fills (cached: 4,096 short
    tuples, under 1 MB)."""
    right, below = edges(obs_size, n)[:2]
    boxes = [right[k * n + line] for k in range(n)] if line < n - 1 else [below[(line - n + 1) * n + k] for k in range(n)]
    out, cur = [], None
    for k, b in enumerate(boxes):
        if b is None or not on >> k & 1:
            continue
        if cur is not None and b[0] == cur[0] and b[2] == cur[2] and b[1] <= cur[3]:
            cur = (cur[0], cur[1], cur[2], max(cur[3], b[3]))
        elif cur is not None and b[1] == cur[1] and b[3] == cur[3] and b[0] <= cur[2]:
            cur = (cur[0], cur[1], max(cur[2], b[2]), cur[3])
        else:
            if cur is not None:
                out.append(cur)
            cur = b
    if cur is not None:
        out.append(cur)
    return tuple(out)


@functools.lru_cache(maxsize=256)
def label_at(obs_size: tuple[int, int], n: int, r: int, c: int) -> tuple[int, int, float, float, int]:
    """Where the label of a cage with top-left cell (r, c) goes: its top-left pixel, the right and bottom
    bounds its tile must keep within to stay on the white cell, and its font size (cached: 256 cells)."""
    g = board_base(obs_size, n, n)[1]
    w = edges(obs_size, n)[2]
    x, y = g.x0 + (c + 0.08) * g.cell + w, g.y0 + (r + 0.07) * g.cell + w
    return int(round(x)), int(round(y)), g.x0 + (c + 1) * g.cell - w, g.y0 + (r + 1) * g.cell - w, max(4, int(g.cell * 0.26))
