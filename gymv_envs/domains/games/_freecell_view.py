"""FreeCell's table drawing: card names and tiles, the table layout with its labels, one place painted."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.canvas import (
    INK,
    PALETTE,
    WHITE,
    draw_text,
    fill_rect,
    fit_text_size,
    new_frame,
    outline_rect,
    paste,
)
from gymv_envs.domains.games._freecell_solver import CASCADES, CELLS
from gymv_envs.rules import cards

FELT, FELT_LINE, LABEL = (28, 105, 60), (120, 175, 130), (235, 245, 235)


def card_name(card: int) -> str:
    """The name of a card code (rank << 2 | suit)."""
    return cards.card_name((card >> 2, card & 3))


@functools.lru_cache(maxsize=512)
def card_tile(card: int, w: int, h: int) -> np.ndarray:
    """A face-up card: rank and suit in the top-left corner, a big suit sign in the middle (cached)."""
    tile = new_frame(h, w, WHITE)
    outline_rect(tile, 0, 0, w, h, INK, max(1, w // 28))
    color = PALETTE["red"] if (card & 3) in (1, 2) else INK
    if w >= 14:
        size = fit_text_size("10" + cards.GLYPHS[0], int(w * 0.8), max(5, int(h * 0.2)), bold=True)
        draw_text(tile, card_name(card), (max(2, w * 0.07), max(1, h * 0.03)), size, color, anchor="lt", bold=True)
        draw_text(tile, cards.GLYPHS[card & 3], (w / 2, h * 0.62), int(h * 0.42), color)
    else:
        fill_rect(tile, 1, 1, w - 1, max(2, h // 5), color)   # too small for text: a red or black band
    tile.setflags(write=False)
    return tile


def table_layout(obs_size: tuple[int, int]) -> dict:
    H, W = obs_size
    gap = max(1, W // 64)
    cw = max(4, min((W - 9 * gap) // 8, int((H - 2 * gap) / 5 / 1.4)))
    ch = int(cw * 1.4)
    lab = max(5, int(cw * 0.3))
    x0 = (W - 8 * cw - 7 * gap) // 2
    xs = [x0 + k * (cw + gap) for k in range(8)]
    top = gap + lab
    col_y = top + ch + gap + lab
    base = new_frame(H, W, FELT)
    size = fit_text_size("FC4", int(cw * 0.9), lab, bold=True)
    labels = [f"FC{k + 1}" for k in range(CELLS)] + [f"F{cards.GLYPHS[s]}" for s in range(4)]
    for k, text in enumerate(labels):
        draw_text(base, text, (xs[k] + cw / 2, gap + lab / 2), size, LABEL, bold=True)
        outline_rect(base, xs[k], top, xs[k] + cw, top + ch, FELT_LINE, max(1, cw // 28))
        if k >= CELLS and cw >= 14:
            draw_text(base, cards.GLYPHS[k - CELLS], (xs[k] + cw / 2, top + ch / 2), int(ch * 0.45), FELT_LINE)
    for j in range(CASCADES):
        draw_text(base, f"C{j + 1}", (xs[j] + cw / 2, col_y - lab / 2), size, LABEL, bold=True)
        outline_rect(base, xs[j], col_y, xs[j] + cw, col_y + ch, FELT_LINE, max(1, cw // 28))
    return {"xs": xs, "cw": cw, "ch": ch, "top": top, "col_y": col_y, "base": base}


def paint(frame: np.ndarray, region: tuple, key, L: dict, H: int) -> None:
    kind, k = region
    cw, ch = L["cw"], L["ch"]
    x = L["xs"][k + CELLS if kind == "home" else k]
    y0, y1 = (L["col_y"], H) if kind == "col" else (L["top"], L["top"] + ch)
    frame[y0:y1, x:x + cw] = L["base"][y0:y1, x:x + cw]
    cards = key if kind == "col" else (key,) if kind == "cell" else ((key * 4 + k,) if key else ())
    if not cards or not cards[0]:
        return
    step = min(ch * 0.3, (H - y0 - ch - 2) / max(1, len(cards) - 1))
    for i, card in enumerate(cards):
        y = int(y0 + i * step)
        paste(frame, card_tile(card, cw, ch), x, y)
