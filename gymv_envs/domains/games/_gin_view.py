"""Gin Rummy's table as one seat sees it, and the hand's news (the opponent's moves, the last result) as text."""

from __future__ import annotations

import numpy as np

from gymv_envs.core.canvas import draw_text, new_frame, paste
from gymv_envs.domains.games._gin_cards import TABLE, back_tile, card_row, card_tile
from gymv_envs.rules import gin_rummy as gr


def news(s: gr.GinState, seat: int) -> str:
    if s.history:
        mine = [h.split(":", 1)[1] for h in s.history[-2:] if not h.startswith(f"{seat}:")]
        if mine:
            return "Opponent " + ", ".join(mine)
    return result_text(s, seat)


def result_text(s: gr.GinState, seat: int) -> str:
    if not s.last:
        return ""
    kind, knocker, winner, points, dk, dd = s.last[:6]
    if kind == "draw":
        return "Last hand: a draw (the stock ran out)"
    who = "you" if knocker == seat else "the opponent"
    verb = {"gin": "went gin", "knock": "knocked", "undercut": "knocked, undercut"}[kind]
    won = "you won" if winner == seat else "the opponent won"
    return f"Last hand: {who} {verb} ({dk} vs {dd}); {won} {points}"


def draw_table(obs_size: tuple[int, int], s: gr.GinState, seat: int) -> np.ndarray:
    """The table as seat ``seat`` sees it: its own cards face up, the other's face down (up at the end)."""
    H, W = obs_size
    f = new_frame(H, W, TABLE)
    m = max(1, int(min(H, W) * 0.02))
    cw = max(3, int(min((W - 2 * m) / 11.5, H * 0.26 / 1.45)))
    ch, gap = int(cw * 1.45), max(1, cw // 12)
    ow, oh = max(3, int(cw * 0.7)), max(4, int(cw * 0.7 * 1.45))
    other = s.hands[1 - seat]
    shown = list(other) if s.phase == "over" else [None] * len(other)
    card_row(f, shown, m, m, ow, oh, gap)
    hand = list(s.hands[seat])
    lit = frozenset((s.drawn,)) if s.mover == seat and s.drawn >= 0 else frozenset()
    card_row(f, hand, m, H - m - ch, cw, ch, gap, lit)
    y = max(m * 2 + oh, (H - ch) // 2 - ch // 2)
    paste(f, back_tile(cw, ch), m, y)
    pile = s.discard[-8:]   # the pile fanned: its top card (the one you may take) is whole, on the right
    step, px = max(1, int(cw * 0.55)), m + int(cw * 1.8)
    for i, c in enumerate(pile):
        paste(f, card_tile(c, cw, ch), px + i * step, y)
    size = max(4, int(min(ch * 0.28, W / 40)))
    draw_text(f, f"stock {len(s.stock)}", (m, y - 2), size, (235, 235, 235), anchor="lb")
    draw_text(f, "discard pile", (px, y - 2), size, (235, 235, 235), anchor="lb")
    mine, theirs = s.chips[seat], s.chips[1 - seat]
    turn = ("Game over" if s.phase == "over" else
            (f"Your turn: {s.phase}" if s.mover == seat else "Opponent's turn"))
    lines = [f"Hand {s.hand_no + 1} of {len(s.decks)}   You {mine}   Opponent {theirs}", turn,
             news(s, seat) if s.history else "", result_text(s, seat)]
    ty = y + ch + int(size * 0.8)
    for i, line in enumerate(x for x in lines if x):
        draw_text(f, line, (m, ty + i * size * 1.5), size, (250, 250, 250), anchor="lt")
    return f
