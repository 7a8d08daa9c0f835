"""`PanelChoiceEnv`: single-turn tasks answered by picking one of the candidate panels in the image.

The picture holds a *stem* (the question figures) above a row or two of candidate panels lettered
A, B, ... ; there are ``num_options`` candidates in either answer format. The subclass builds the
level in `_make(rng, k)`: it sets ``self.correct`` (the index of the one right candidate, drawn
uniformly so the letters are balanced) after checking every other candidate is wrong, and draws
with `_draw_stem` and `_draw_candidate`. In ``mcq`` format the lettered options are the panels
themselves, in the same order, so option ``C`` is panel C.
"""

from __future__ import annotations

import functools
import re
from typing import Any, ClassVar

import numpy as np

from gymv_envs.core import SingleTurnEnv
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    WHITE,
    draw_text,
    fill_rect,
    fit_text_size,
    new_frame,
    outline_rect,
)
from gymv_envs.core.parsing import LETTERS

Box = tuple[int, int, int, int]  # x0, y0, x1, y1
_LETTER = re.compile(r"^\s*(?:panel|option|figure|candidate|answer)?\s*[:\-]?\s*\(?([A-J])\)?\s*[.):]?\s*$", re.IGNORECASE)
PANEL_LINE = (120, 120, 130)


def grid_boxes(x0: float, y0: float, x1: float, y1: float, n: int, rows: int | None = None,
               fill: float = 0.88) -> list[Box]:
    """``n`` square boxes in ``rows`` rows (None: the rows that make them largest) centred in a
    region, with gaps between them."""
    if rows is None:
        rows = max(range(1, n + 1), key=lambda r: min((x1 - x0) / -(-n // r), (y1 - y0) / r))
    cols = -(-n // rows)
    side = min((x1 - x0) / cols, (y1 - y0) / rows) * fill
    gx, gy = ((x1 - x0) - cols * side) / (cols + 1), ((y1 - y0) - rows * side) / (rows + 1)
    out = []
    for i in range(n):
        r, c = divmod(i, cols)
        bx, by = x0 + gx + c * (side + gx), y0 + gy + r * (side + gy)
        out.append((int(bx), int(by), int(bx + side), int(by + side)))
    return out


@functools.lru_cache(maxsize=64)
def _layout(H: int, W: int, k: int, stem: float, cards: int, fill: float,
            question: bool = True) -> tuple[np.ndarray, tuple[Box, ...], tuple[Box, ...]]:
    """The empty board: candidate panels with their letters and, when ``cards``, that many white
    cards in the stem (the last one holding a '?'); the candidates' boxes and the stem cards' (or
    the whole stem's) boxes."""
    img = new_frame(H, W, BACKGROUND)
    split = int(H * stem)
    stem_boxes = tuple(grid_boxes(0, 0, W, split, cards, 1, fill)) if cards else ((0, 0, W, split),)
    for i, (a, b, c, d) in enumerate(stem_boxes if cards else ()):
        fill_rect(img, a, b, c, d, WHITE)
        outline_rect(img, a, b, c, d, PANEL_LINE, max(1, (c - a) // 60))
        if i == cards - 1 and question:
            draw_text(img, "?", ((a + c) / 2, (b + d) / 2), max(4, int((d - b) * 0.5)), INK, bold=True)
    fill_rect(img, 0, split, W, split + max(1, H // 200), PANEL_LINE)
    boxes = tuple(grid_boxes(0, split + H * 0.01, W, H, k))
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        fill_rect(img, x0, y0, x1, y1, WHITE)
        outline_rect(img, x0, y0, x1, y1, PANEL_LINE, max(1, (x1 - x0) // 60))
        s = max(4, int((x1 - x0) * 0.16))
        size = fit_text_size(LETTERS[i], s, s, bold=True)
        draw_text(img, LETTERS[i], (x0 + s * 0.7, y0 + s * 0.7), size, INK, bold=True)
    img.setflags(write=False)
    return img, boxes, stem_boxes


def panel_inner(box: Box) -> Box:
    """The part of a candidate panel a candidate is drawn in: clear of the panel's letter."""
    x0, y0, x1, y1 = box
    pad = max(1, int((x1 - x0) * 0.15))
    return x0 + pad, y0 + pad, x1 - pad, y1 - pad


class PanelChoiceEnv(SingleTurnEnv):
    """Base of the candidate-panel tasks (see the module docstring); not registered itself."""

    answer_hint = "the letter of the one correct candidate panel (for example `C`)"
    stem_fraction: ClassVar[float] = 0.45
    stem_cards: ClassVar[int] = 0  # white cards drawn in the stem, the last with a '?' (0: none)
    stem_fill: ClassVar[float] = 0.88  # of its slot a stem card fills (less leaves room for arrows)
    stem_question: ClassVar[bool] = True  # the last stem card shows a '?'

    correct: int = 0

    def _make(self, rng: np.random.Generator, k: int) -> None:
        raise NotImplementedError

    def _draw_stem(self, img: np.ndarray, boxes: tuple[Box, ...]) -> None:
        """Draw the question: into each stem card (``stem_cards``) or into the one stem box."""
        raise NotImplementedError

    def _draw_candidate(self, img: np.ndarray, i: int, box: Box) -> None:
        raise NotImplementedError

    def _generate(self, rng: np.random.Generator) -> None:
        self._make(rng, self.num_options)

    def _after_generate(self) -> None:
        self._new_level()
        self._solution = self.correct
        k = self.num_options
        self.options = [f"panel {LETTERS[i]}" for i in range(k)] if self.answer_format == "mcq" else []
        self._correct_index = self.correct if self.answer_format == "mcq" else -1

    def _empty_board(self, H: int, W: int) -> np.ndarray:
        """The board each frame starts from (read-only): `_layout`'s, unless a task adds what all its levels share."""
        return _layout(H, W, self.num_options, self.stem_fraction, self.stem_cards, self.stem_fill, self.stem_question)[0]

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        _, boxes, stem = _layout(H, W, self.num_options, self.stem_fraction, self.stem_cards, self.stem_fill,
                                 self.stem_question)
        img = self._empty_board(H, W).copy()
        self._draw_stem(img, stem)
        for i, box in enumerate(boxes):
            self._draw_candidate(img, i, panel_inner(box))
        return img

    def _parse_answer(self, text: str) -> int | None:
        m = _LETTER.match(text) if len(text) < 100 else None
        if m is None:
            return None
        i = LETTERS.index(m.group(1).upper())
        return i if i < self.num_options else None

    def _check(self, answer: Any) -> bool:
        return int(answer) == self.correct

    def _format(self, answer: Any) -> str:
        return LETTERS[int(answer)]

    def _solve(self) -> int:
        return self.correct

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        return [i for i in range(self.num_options) if i != self.correct]
