"""Spider solitaire's tableau drawing: the lettered table, card tiles and the columns' layout."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.canvas import (
    GRID_LINE,
    INK,
    PALETTE,
    WHITE,
    blend_mask,
    draw_text,
    new_frame,
    outline_rect,
    stamp,
    text_layer,
    text_mask,
)
from gymv_envs.core.cells import LETTERS
from gymv_envs.rules.cards import GLYPHS, Card, card_name

BACK = (45, 85, 160)
TABLE = (40, 120, 70)
SMALL = 128 * 128  # frames of at most this many pixels copy a cached table with its letters

@functools.lru_cache(maxsize=16)
def empty_table(H: int, W: int, n: int, w: int, gap: int, top: int) -> np.ndarray | None:
    """The empty table with the column letters (read-only; for small frames, where copying it is cheaper
    than drawing the letters), or None where a letter reaches down to the cards (then `draw_tableau`
    stamps each letter before its column, as it would anyway)."""
    img = new_frame(H, W, TABLE)
    xs = (W - n * w - (n - 1) * gap) // 2
    for j in range(n):
        box = draw_text(img, LETTERS[j], (xs + j * (w + gap) + w / 2, top / 2), max(4, int(top * 0.7)), WHITE, bold=True)
        if box[3] > top + max(1, top // 8):
            return None
    img.setflags(write=False)
    return img


@functools.lru_cache(maxsize=4096)
def card_tile(w: int, h: int, strip: int, card: Card | None) -> np.ndarray:
    """A card (``None``: face down) as a ``h x w`` tile: box, outline and rank + suit in the top ``strip`` pixels."""
    line = max(1, w // 30)
    tile = new_frame(h, w, WHITE if card else BACK)
    outline_rect(tile, 0, 0, w, h, INK, line)
    if card is None:
        for k in range(2, 8, 2):
            outline_rect(tile, w * k / 20, h * k / 28, w - w * k / 20, h - h * k / 28, (120, 150, 210), line)
    elif w >= 10:
        col = PALETTE["red"] if card[1] in (1, 2) else INK
        size = max(5, int(min(strip * 0.8, w * 0.4)))
        mask = text_mask(card_name(card), size, True)
        blend_mask(tile, mask[: h - 2, : w - 2 * line], line + max(1, w // 14), line + 1, col)
        big = text_mask(GLYPHS[card[1]], max(5, int(w * 0.55)))
        blend_mask(tile, big, (w - big.shape[1]) // 2, min(h - big.shape[0] - line, int(h * 0.45)), col)
    tile.setflags(write=False)
    return tile


def geometry(obs_size: tuple[int, int], ncols: int, max_down: int, up: list) -> tuple[int, int, int, int, int, int]:
    H, W = obs_size
    n = ncols
    w = max(2, min(int(W / (n + (n + 1) * 0.2)), W // n))
    gap = max(0, int((W - n * w) / (n + 1)))
    top = max(4, int(H * 0.07))
    h = max(5, min(int(w * 1.4), int((H - top) / 3)))
    downs = max(max_down, 1)
    ups = max(len(c) for c in up) - 1
    avail = H - top - h - max(2, H // 50)
    ds = max(2, int(h * 0.14))
    us = max(3, min(int(h * 0.42), (avail - downs * ds) // max(1, ups)))
    return w, h, gap, top, ds, us


def draw_tableau(obs_size: tuple[int, int], ncols: int, max_down: int, down: list[int], up: list) -> np.ndarray:
    H, W = obs_size
    w, h, gap, top, ds, us = geometry(obs_size, ncols, max_down, up)
    table = empty_table(H, W, ncols, w, gap, top) if H * W <= SMALL else None
    img = new_frame(H, W, TABLE) if table is None else table.copy()
    xs = (W - ncols * w - (ncols - 1) * gap) // 2
    for j in range(ncols):
        x = xs + j * (w + gap)  # the letter: a cached tile where its box is all table (`draw_text`'s pixels)
        if table is None:
            stamp(img, [text_layer(LETTERS[j], (x + w / 2, top / 2), max(4, int(top * 0.7)), WHITE, bold=True)], TABLE)
        y = top + max(1, top // 8)
        if not up[j] and not down[j]:
            outline_rect(img, x, y, x + w, y + h, GRID_LINE, max(1, w // 30))
            continue
        cards = [None] * down[j] + list(up[j])
        for card in cards:
            tile = card_tile(w, h, us, card)
            t = tile[: max(0, min(h, H - y))]
            img[y:y + t.shape[0], x:x + w] = t
            y += ds if card is None else us
    return img
