"""ChessMate's drawing: the labelled empty board and every piece's tile, cached per frame size."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.board import Board
from gymv_envs.core.canvas import (
    INK,
    WHITE,
    base_is_uniform,
    blend_mask,
    layers_tile,
    shape_layer,
    text_layer,
)

LIGHT, DARK = (238, 220, 180), (180, 135, 95)


@functools.lru_cache(maxsize=16)
def empty_board(H: int, W: int) -> np.ndarray:
    """The labelled, chequered board without pieces (read-only)."""
    img = Board(H, W, 8, 8).paint({(r, c): LIGHT if (r + c) % 2 == 0 else DARK for r in range(8) for c in range(8)},
                                  bottom_up=True)
    img.setflags(write=False)
    return img


def piece_layers(H: int, W: int, sq: int, symbol: str) -> list:
    """The blends that draw a piece: a rimmed disc and its letter, centred on its square."""
    g = Board(H, W, 8, 8)
    cx, cy = g.center(7 - sq // 8, sq % 8)
    white = symbol.isupper()
    size = max(3, int(g.cell * 0.82))
    layers = [shape_layer("circle", cx, cy, size, INK),
              shape_layer("circle", cx, cy, max(2, size - max(2, size // 8)), WHITE if white else (40, 40, 45))]
    if g.cell >= 8:
        layers.append(text_layer(symbol.upper(), (cx, cy), max(5, int(g.cell * 0.5)), INK if white else WHITE,
                                 bold=True))
    return layers


@functools.lru_cache(maxsize=8)  # per frame size: 768 entries sharing ~50 tiles (~8 KB each at 512)
def piece_tiles(H: int, W: int) -> dict:
    """`_piece_tile` for every piece on every square of a frame size, made once."""
    return {(sq, symbol): _piece_tile(H, W, sq, symbol) for sq in range(64) for symbol in "KQRBNPkqrbnp"}


def _piece_tile(H: int, W: int, sq: int, symbol: str):
    """(x0, y0, x1, y1, pixels) of the box a piece's blends cover, drawn on the empty board (read-only),
    when that box lies inside the piece's square (so pieces never overlap and each tile can be copied
    in); None otherwise."""
    layers = piece_layers(H, W, sq, symbol)
    x0, y0 = min(x for _, x, _, _ in layers), min(y for _, _, y, _ in layers)
    x1 = max(x + m.shape[1] for m, x, _, _ in layers)
    y1 = max(y + m.shape[0] for m, _, y, _ in layers)
    bx0, by0, bx1, by1 = Board(H, W, 8, 8).box(7 - sq // 8, sq % 8)
    if x0 < bx0 or y0 < by0 or x1 > bx1 or y1 > by1:
        return None
    base = empty_board(H, W)
    bg = LIGHT if (sq // 8 + sq % 8) % 2 else DARK
    if base_is_uniform(base, x0, y0, x1, y1, bg):  # the usual case: a tile shared by squares alike
        return x0, y0, x1, y1, layers_tile(layers, x0, y0, x1, y1, bg)
    tile = base[y0:y1, x0:x1].copy()
    for m, x, y, color in layers:
        blend_mask(tile, m, x - x0, y - y0, color)
    tile.setflags(write=False)
    return x0, y0, x1, y1, tile
