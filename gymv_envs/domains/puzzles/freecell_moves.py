"""FreeCell moves: count the legal single-card moves in a drawn FreeCell position."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.canvas import (
    BACKGROUND,
    GRID_LINE,
    INK,
    PALETTE,
    WHITE,
    blend_mask,
    draw_text,
    fill_rect,
    inside,
    new_frame,
    outline_rect,
    rect_box,
    text_layer,
)
from gymv_envs.rules.cards import GLYPHS, card_name

SUITS = "SHDC"          # spades, hearts, diamonds, clubs; hearts and diamonds are red
LEVELS = {0: (4, 10), 1: (6, 18), 2: (8, 30)}   # cascades, cards left in play


def _red(card) -> bool:
    return card[1] in (1, 2)


_CARD_TILES: dict[tuple, np.ndarray] = {}


@functools.lru_cache(maxsize=16384)
def _card_tile(shape: tuple[int, ...], x: float, y: float, w: float, h: float, card) -> tuple[slice, slice, np.ndarray] | None:
    """A face-up card as the pixels `FreeCellMoves._card` draws: its white box (which it paints over
    whole), outline and name, from a tile cached by the card and where those parts fall in the box.
    None when the box is cut by the frame or the name runs out of it (then the card is drawn)."""
    box = rect_box(shape, x, y, x + w, y + h)
    if box is None or box != (int(x), int(y), int(x + w), int(y + h)):
        return None
    a, b, c, d = box
    line = max(1, int(w / 30))
    edges = [rect_box(shape, *r) for r in ((x, y, x + w, y + line), (x, y + h - line, x + w, y + h),
                                            (x, y, x + line, y + h), (x + w - line, y, x + w, y + h))]
    col = PALETTE["red"] if _red(card) else INK
    if w >= 10:
        mark = text_layer(card_name(card), (x + w * 0.08, y + h * 0.02), max(5, int(h * 0.26)), col, anchor="lt", bold=True)
        if not inside([mark], box):
            return None
        parts = ("text", card_name(card), max(5, int(h * 0.26)), mark[1] - a, mark[2] - b)
    else:
        mark = rect_box(shape, x + w * 0.25, y + 1, x + w * 0.75, y + h * 0.3)
        parts = ("bar", None if mark is None else (mark[0] - a, mark[1] - b, mark[2] - a, mark[3] - b))
    rel = tuple(None if e is None else (e[0] - a, e[1] - b, e[2] - a, e[3] - b) for e in edges)
    key = (c - a, d - b, col, rel, parts)
    tile = _CARD_TILES.get(key)
    if tile is None:
        tile = new_frame(d - b, c - a, WHITE)
        for e in rel:
            if e is not None:
                fill_rect(tile, *e, INK)
        if parts[0] == "text":
            blend_mask(tile, mark[0], parts[3], parts[4], col)
        elif parts[1] is not None:
            fill_rect(tile, *parts[1], col)
        tile.setflags(write=False)
        if len(_CARD_TILES) > 4096:
            _CARD_TILES.clear()
        _CARD_TILES[key] = tile
    return slice(b, d), slice(a, c), tile


class FreeCellMoves(SingleTurnEnv):
    """Count the legal single-card moves of a FreeCell position.

    ## Description
    A FreeCell position: four free cells and four foundations on top, columns of cards below.
    A single-card move takes the last card of a column or a card in a free cell and puts it
    on its suit's foundation (next rank up), into an empty free cell (from a column only), on
    the last card of another column (one rank higher, opposite colour) or into an empty
    column (not counted for a card that is alone in its column). All empty free cells count
    as one destination, and all empty columns as one. The answer is the number of moves.

    ## Action Space
    ``"open"``: `Text`, a whole number. ``"mcq"``: `Discrete(k)` over counts.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the cards drawn as labelled rectangles.

    ## Rewards
    1.0 for the right count, else 0.0.

    ## Starting State
    Random foundation progress; the other cards dealt into 4 (difficulty 0), 6 (1) or 8 (2)
    columns with 10, 18 or 30 cards in play and 0-3 cards in free cells.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the number of legal moves (a whole number)"

    def _configure(self) -> None:
        self.ncols, self.ncards = LEVELS[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        found = [13, 13, 13, 13]
        while sum(found) > 52 - self.ncards:
            s = int(rng.integers(4))
            if found[s] > 0:
                found[s] -= 1
        self.found = found
        cards = [(r, s) for s in range(4) for r in range(found[s] + 1, 14)]
        cards = [cards[int(k)] for k in rng.permutation(len(cards))]
        nfree = int(rng.integers(0, 4))
        self.free = cards[:nfree] + [None] * (4 - nfree)
        self.free = [self.free[int(k)] for k in rng.permutation(4)]
        self.cols = [[] for _ in range(self.ncols)]
        empty = int(rng.integers(self.ncols)) if rng.random() < 0.3 else -1
        for card in cards[nfree:]:
            j = int(rng.integers(self.ncols))
            self.cols[j if j != empty else (j + 1) % self.ncols].append(card)
        self.count = len(self._moves())

    def _moves(self) -> list[tuple]:
        moves = []
        sources = [(card, "free") for card in self.free if card] + [(col[-1], ("col", j, len(col))) for j, col in enumerate(self.cols) if col]
        for card, src in sources:
            if self.found[card[1]] == card[0] - 1:
                moves.append((card, "foundation"))
            if src != "free" and None in self.free:
                moves.append((card, "freecell"))
            for j, col in enumerate(self.cols):
                if col and col[-1][0] == card[0] + 1 and _red(col[-1]) != _red(card):
                    moves.append((card, j))
            if any(not col for col in self.cols) and (src == "free" or src[2] > 1):
                moves.append((card, "empty column"))
        return moves

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        slots = max(8, self.ncols)
        w = W / (slots + 0.8)
        h = min(w * 1.35, H / 5.5)
        step = h * 0.3
        gap = (W - slots * w) / (slots + 1)
        img = new_frame(H, W, BACKGROUND)
        y_top, y_cols = h * 0.15, h * 1.5
        for k in range(8):  # free cells, then foundations
            x = gap + k * (w + gap)
            card = self.free[k] if k < 4 else ((self.found[k - 4], k - 4) if self.found[k - 4] else None)
            self._card(img, x, y_top, w, h, card, empty_label="" if k < 4 else GLYPHS[k - 4])
        xs = (W - self.ncols * w - (self.ncols - 1) * gap) / 2
        for j, col in enumerate(self.cols):
            x = xs + j * (w + gap)
            if not col:
                outline_rect(img, x, y_cols, x + w, y_cols + h, GRID_LINE, max(1, int(w / 30)))
            for i, card in enumerate(col):
                self._card(img, x, y_cols + i * step, w, h, card)
        return img

    @staticmethod
    def _card(img, x, y, w, h, card, empty_label: str = "") -> None:
        line = max(1, int(w / 30))
        if card is not None:
            tile = _card_tile(img.shape[:2], x, y, w, h, card)
            if tile is not None:
                rows, cols, pixels = tile
                img[rows, cols] = pixels
                return
        if card is None:
            outline_rect(img, x, y, x + w, y + h, GRID_LINE, line)
            if empty_label and w >= 10:
                draw_text(img, empty_label, (x + w / 2, y + h / 2), int(w * 0.5), GRID_LINE)
            return
        fill_rect(img, x, y, x + w, y + h, WHITE)
        outline_rect(img, x, y, x + w, y + h, INK, line)
        col = PALETTE["red"] if _red(card) else INK
        if w >= 10:
            draw_text(img, card_name(card), (x + w * 0.08, y + h * 0.02), max(5, int(h * 0.26)), col, anchor="lt", bold=True)
        else:
            fill_rect(img, x + w * 0.25, y + 1, x + w * 0.75, y + h * 0.3, col)

    def _task_text(self) -> str:
        return (f"The image shows a FreeCell position: four free cells (top left), four foundations (top right) "
                f"and {self.ncols} columns. A move takes one card (the last card of a column, or a card in a "
                "free cell) to: its suit's foundation if it is the next rank; an empty free cell (only from a "
                "column); the last card of another column if that card is one rank higher and of the opposite "
                "colour; or an empty column (not counted for a card alone in its column). All empty free cells "
                "count as one destination, and all empty columns as one. How many legal moves are there?")

    def _parse_answer(self, text: str) -> int | None:
        m = re.fullmatch(r"(\d{1,3})(?:\s*moves?)?", text.strip().strip(".`'\"").lower())
        return int(m.group(1)) if m else None

    def _check(self, answer: int) -> bool:
        return answer == self.count

    def _format(self, answer: int) -> str:
        return str(answer)

    def _solve(self) -> int:
        return self.count

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        out = [self.count + d for d in (1, -1, 2, -2, 3, -3, 4, 5) if self.count + d >= 0]
        return sorted(out, key=lambda k: (abs(k - self.count), rng.random()))

    def _state_text(self) -> str:
        free = " ".join(card_name(c) if c else "--" for c in self.free)
        found = " ".join(f"{SUITS[s]}:{self.found[s]}" for s in range(4))
        cols = "\n".join(" ".join(card_name(c) for c in col) or "(empty)" for col in self.cols)
        return f"free: {free}\nfoundations: {found}\n{cols}"


SPECS = (
    TaskSpec(name="FreeCellMoves", entry_point=FreeCellMoves, version=1, max_episode_steps=1,
             tags=("game", "cards", "counting")),
)
