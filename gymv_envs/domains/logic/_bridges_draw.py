"""Bridges' drawing: the sea and island colours, and each numbered island's layers and cached tile."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.board import cell_centre, labelled_base, labelled_layout
from gymv_envs.core.canvas import INK, base_is_uniform, layers_tile, shape_layer, text_layer

SEA = (236, 242, 248)
ISLAND = (255, 236, 170)


@functools.lru_cache(maxsize=1024)
def island(h: int, w: int, n: int, r: int, c: int, k: int) -> tuple[list, tuple[int, int, int, int], np.ndarray | None]:
    """Island (r, c) numbered k on an (h, w) frame: its layers (ring, disc, number), the box they span, and the
    tile `draw_layers` pastes there when that box is all sea on the empty board (else None)."""
    layout = labelled_layout((h, w), n, n)
    size = max(4, int(layout[2] * 0.86))
    inner = max(2, size - 2 * max(1, size // 14))
    x, y = cell_centre(layout, r, c)
    layers = [shape_layer("circle", x, y, size, INK), shape_layer("circle", x, y, inner, ISLAND),
              text_layer(str(k), (x, y), max(5, int(layout[2] * 0.48)), INK, bold=True)]
    box = (min(x for _, x, _, _ in layers), min(y for _, _, y, _ in layers),
           max(x + m.shape[1] for m, x, _, _ in layers), max(y + m.shape[0] for m, _, y, _ in layers))
    base = labelled_base(h, w, n, n, True, SEA)
    return layers, box, layers_tile(layers, *box, SEA) if base_is_uniform(base, *box, SEA) else None
