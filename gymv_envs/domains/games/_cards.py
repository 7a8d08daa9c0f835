"""Playing cards drawn with our canvas: faces (rank and suit glyph) and backs, cached per size.

A card face is a white rounded rectangle with the rank in the top-left corner and a large suit
glyph in the middle, both in the suit's colour (hearts and diamonds red, clubs and spades black);
a hidden card is a blue patterned back. Suits are indexed 0..3 = clubs, diamonds, hearts, spades
(as in `gymv_envs.rules.poker`); ranks are given as text (``"A"``, ``"10"``, ``"K"``).
"""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.canvas import Color, draw_text, fit_text_size, new_frame, pil_draw

SUIT_GLYPHS = "\u2663\u2666\u2665\u2660"   # clubs, diamonds, hearts, spades
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_COLOURS: tuple[Color, ...] = ((25, 25, 30), (205, 30, 40), (205, 30, 40), (25, 25, 30))
FELT: Color = (30, 110, 65)
BACK: Color = (40, 70, 160)
EDGE: Color = (120, 120, 120)


def _rounded(tile: np.ndarray, fill: Color, outline: Color) -> None:
    h, w = tile.shape[:2]
    r = max(1, min(h, w) // 8)
    with pil_draw(tile) as d:
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=r, fill=fill, outline=outline, width=1 if min(h, w) < 40 else 2)


@functools.lru_cache(maxsize=1024)
def face(rank: str, suit: int, h: int, w: int, bg: Color = FELT) -> np.ndarray:
    """The face of a card ``h`` x ``w`` on background ``bg`` (read-only, cached)."""
    tile = new_frame(h, w, bg)
    _rounded(tile, (255, 255, 255), EDGE)
    colour = SUIT_COLOURS[suit]
    size = fit_text_size("10", max(4, int(w * 0.55)), max(4, int(h * 0.34)), bold=True)
    draw_text(tile, rank, (max(1, w * 0.08), max(1, h * 0.05)), size, colour, anchor="lt", bold=True)
    gsize = fit_text_size(SUIT_GLYPHS[suit], max(4, int(w * 0.7)), max(4, int(h * 0.5)))
    draw_text(tile, SUIT_GLYPHS[suit], (w * 0.55, h * 0.64), gsize, colour)
    tile.setflags(write=False)
    return tile


@functools.lru_cache(maxsize=64)
def back(h: int, w: int, bg: Color = FELT) -> np.ndarray:
    """The back of a card (read-only, cached): a blue panel with a light diamond lattice."""
    tile = new_frame(h, w, bg)
    _rounded(tile, (255, 255, 255), EDGE)
    m = max(2, min(h, w) // 10)
    inner = tile[m: h - m, m: w - m]
    ih, iw = inner.shape[:2]
    if ih > 1 and iw > 1:
        inner[...] = BACK
        step = max(4, min(h, w) // 4)
        with pil_draw(inner) as d:
            for k in range(-ih, iw + ih, step):
                d.line((k, 0, k + ih, ih), fill=(90, 120, 210), width=1)
                d.line((k, ih, k + ih, 0), fill=(90, 120, 210), width=1)
    tile.setflags(write=False)
    return tile


def draw_card(frame: np.ndarray, x: int, y: int, w: int, h: int, rank: str | None, suit: int = 0,
              bg: Color = FELT) -> None:
    """Draw a card with its top-left at (x, y), clipped to the frame; ``rank=None`` draws its back."""
    if w < 2 or h < 2:
        return
    tile = back(h, w, bg) if rank is None else face(rank, suit, h, w, bg)
    fh, fw = frame.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, fw), min(y + h, fh)
    if x0 < x1 and y0 < y1:
        frame[y0:y1, x0:x1] = tile[y0 - y: y1 - y, x0 - x: x1 - x]


def draw_slot(frame: np.ndarray, x: int, y: int, w: int, h: int, colour: Color = (50, 135, 85)) -> None:
    """An empty place for a card (a darker outline on the felt)."""
    if w < 2 or h < 2:
        return
    with pil_draw(frame[max(y, 0): y + h, max(x, 0): x + w]) as d:
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=max(1, min(h, w) // 8), outline=colour, width=1)
