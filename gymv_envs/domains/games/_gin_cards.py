"""Playing cards for Gin Rummy, drawn with our canvas: faces, backs and a row of cards.

A face is a white rounded rectangle with the rank in the top-left corner and a suit glyph in
the suit's colour (hearts and diamonds red, clubs and spades black) drawn from polygons and
ellipses; a back is a blue rounded rectangle with a lattice. Tiles are cached per size and
table colour, so a frame is a handful of array copies.
"""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image, ImageDraw

from gymv_envs.core.canvas import draw_text, fit_text_size, paste

TABLE = (30, 110, 70)
RED, BLACK = (205, 30, 40), (25, 25, 30)
FACE, EDGE, BACK, LATTICE = (252, 252, 250), (120, 120, 120), (40, 70, 160), (120, 150, 220)
RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@functools.lru_cache(maxsize=64)
def suit_mask(suit: int, size: int) -> np.ndarray:
    """A ``size`` x ``size`` coverage mask of a suit glyph (0 clubs, 1 diamonds, 2 hearts, 3 spades)."""
    s = max(1, size) * 4
    img = Image.new("L", (s, s), 0)
    d = ImageDraw.Draw(img)
    if suit == 1:
        d.polygon([(0.5 * s, 0.02 * s), (0.88 * s, 0.5 * s), (0.5 * s, 0.98 * s), (0.12 * s, 0.5 * s)], fill=255)
    elif suit == 2:
        d.ellipse((0.04 * s, 0.1 * s, 0.54 * s, 0.6 * s), fill=255)
        d.ellipse((0.46 * s, 0.1 * s, 0.96 * s, 0.6 * s), fill=255)
        d.polygon([(0.07 * s, 0.47 * s), (0.93 * s, 0.47 * s), (0.5 * s, 0.95 * s)], fill=255)
    elif suit == 3:
        d.ellipse((0.04 * s, 0.36 * s, 0.54 * s, 0.8 * s), fill=255)
        d.ellipse((0.46 * s, 0.36 * s, 0.96 * s, 0.8 * s), fill=255)
        d.polygon([(0.07 * s, 0.5 * s), (0.93 * s, 0.5 * s), (0.5 * s, 0.02 * s)], fill=255)
        d.polygon([(0.5 * s, 0.6 * s), (0.7 * s, 0.98 * s), (0.3 * s, 0.98 * s)], fill=255)
    else:
        for box in ((0.29, 0.02, 0.71, 0.44), (0.03, 0.36, 0.45, 0.78), (0.55, 0.36, 0.97, 0.78)):
            d.ellipse(tuple(v * s for v in box), fill=255)
        d.polygon([(0.5 * s, 0.45 * s), (0.7 * s, 0.98 * s), (0.3 * s, 0.98 * s)], fill=255)
    out = np.asarray(img.resize((max(1, size),) * 2, Image.Resampling.LANCZOS))
    out.setflags(write=False)
    return out


def _blank(w: int, h: int, fill: tuple, bg: tuple) -> np.ndarray:
    img = Image.new("RGB", (w, h), bg)
    ImageDraw.Draw(img).rounded_rectangle((0, 0, w - 1, h - 1), radius=max(1, w // 8), fill=fill, outline=EDGE)
    return np.array(img)


@functools.lru_cache(maxsize=512)
def card_tile(card: int, w: int, h: int, lit: bool = False, bg: tuple = TABLE) -> np.ndarray:
    """The face of ``card`` (``suit * 13 + rank``) as a read-only ``h x w`` tile; ``lit`` tints it yellow."""
    tile = _blank(w, h, (255, 244, 170) if lit else FACE, bg)
    s, r = divmod(card, 13)
    color = RED if s in (1, 2) else BLACK
    size = fit_text_size(RANK_TEXT[r], int(w * 0.62), int(h * 0.3), bold=True)
    draw_text(tile, RANK_TEXT[r], (max(1, w * 0.08), max(1, h * 0.06)), size, color, anchor="lt", bold=True)
    g = max(1, int(min(w * 0.62, h * 0.5)))
    m = suit_mask(s, g)[..., None].astype(np.uint16)
    x, y = (w - g) // 2, min(h - g - 1, int(h * 0.42))
    if x >= 0 and y >= 0:
        reg = tile[y:y + g, x:x + g]
        reg[...] = ((reg.astype(np.uint16) * (255 - m) + np.asarray(color, np.uint16) * m + 127) // 255).astype(np.uint8)
    tile.setflags(write=False)
    return tile


@functools.lru_cache(maxsize=32)
def back_tile(w: int, h: int, bg: tuple = TABLE) -> np.ndarray:
    """The back of a card as a read-only ``h x w`` tile."""
    tile = _blank(w, h, BACK, bg)
    step = max(3, w // 5)
    inner = tile[2:h - 2, 2:w - 2]
    yy, xx = np.mgrid[0:inner.shape[0], 0:inner.shape[1]]
    inner[((xx + yy) % step == 0) | ((xx - yy) % step == 0)] = LATTICE
    tile.setflags(write=False)
    return tile


def card_row(frame: np.ndarray, cards: list[int | None], x0: int, y: int, w: int, h: int, gap: int,
             lit: frozenset = frozenset()) -> None:
    """Cards left to right from (x0, y), ``gap`` pixels apart; ``None`` is a card back."""
    for i, c in enumerate(cards):
        tile = back_tile(w, h) if c is None else card_tile(c, w, h, c in lit)
        paste(frame, tile, x0 + i * (w + gap), y)
