"""Subset sum: pick the lettered cards whose numbers add up to the target."""

from __future__ import annotations

import functools
import itertools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    PALETTE,
    WHITE,
    draw_layers,
    draw_text,
    fill_rect,
    new_frame,
    outline_rect,
    rect_box,
    text_layer,
)

LEVELS = {0: (5, 2, 9), 1: (7, 3, 19), 2: (9, 4, 49)}  # cards, cards in the planted subset, max value
_SPLIT = re.compile(r"[\s,;+&/]+|\band\b", re.IGNORECASE)
Box = tuple[int, int, int, int]


def _apart(a: Box, b: Box) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def _box(layer: tuple) -> Box:
    m, x, y, _ = layer
    return x, y, x + m.shape[1], y + m.shape[0]


@functools.lru_cache(maxsize=32)
def _card_geometry(H: int, W: int, n: int) -> tuple[tuple[float, float, float, float, float, float], ...]:
    """Per card, its box (x0, y0, x1, y1), the card width step and the row height."""
    cols = min(n, 5)
    rows = (n + cols - 1) // cols
    cw = W / (cols + 0.5)
    ch = min(H * 0.6 / rows, cw * 1.3)
    out = []
    for i in range(n):
        r, c = divmod(i, cols)
        x0 = (W - cols * cw) / 2 + c * cw + cw * 0.08
        y0 = H * 0.32 + r * ch + ch * 0.05
        out.append((x0, y0, x0 + cw * 0.84, y0 + ch * 0.9, cw, ch))
    return tuple(out)


def _draw_card(img: np.ndarray, card: tuple[float, ...], letter: str) -> tuple[int, int, int, int]:
    """An empty card with its letter; returns the letter's box."""
    x0, y0, x1, y1, cw, ch = card
    fill_rect(img, x0, y0, x1, y1, WHITE)
    outline_rect(img, x0, y0, x1, y1, PALETTE["blue"], max(1, int(cw / 30)))
    return draw_text(img, letter, (x0 + cw * 0.12, y0 + ch * 0.14), max(5, int(ch * 0.16)), PALETTE["gray"], bold=True)


@functools.lru_cache(maxsize=32)
def _blank_cards(H: int, W: int, n: int, letters: str) -> tuple[np.ndarray, list[Box | None], list[Box] | None]:
    """The frame with the empty lettered cards (read-only), each card's pixel box, and each card's footprint
    (its box and its letter's) when the footprints are apart (else None): then every number inside its card's
    box and a target clear of the footprints can be drawn last, in any order, with the same pixels."""
    img = new_frame(H, W, BACKGROUND)
    boxes, feet = [], []
    for card, letter in zip(_card_geometry(H, W, n), letters):
        a, b, c, d = _draw_card(img, card, letter)
        box = rect_box(img.shape, *card[:4])
        boxes.append(box)
        feet.append((min(a, box[0]), min(b, box[1]), max(c, box[2]), max(d, box[3])) if box else (a, b, c, d))
    img.setflags(write=False)
    ok = all(boxes) and all(_apart(f, g) for i, f in enumerate(feet) for g in feet[i + 1:])
    return img, boxes, feet if ok else None


class SubsetSum(SingleTurnEnv):
    """Choose cards whose numbers add up exactly to the target.

    ## Description
    A row of lettered cards shows positive whole numbers, and a target number is drawn above
    them. The answer is a set of cards (each used at most once) whose numbers sum to the
    target. Several sets may work: any one is accepted.

    ## Action Space
    ``answer_format="open"``: `Text`, card letters such as ``A C D`` (any order or separators).
    ``"mcq"``: `Discrete(k)` over candidate sets, exactly one of which sums to the target.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the target and the cards.

    ## Rewards
    1.0 if the named cards are distinct and sum to the target, else 0.0.

    ## Starting State
    Card values are drawn from the seed and a hidden subset of them sets the target.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 cards up to 9; 1: 7 cards up to 19; 2: 9 cards up to 49),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the letters of the cards to pick, separated by spaces (for example `A C D`)"

    def _configure(self) -> None:
        self.n, self.k, self.top = LEVELS[self.difficulty]
        self.letters = "ABCDEFGHI"[: self.n]

    def _generate(self, rng: np.random.Generator) -> None:
        self.values = [int(v) for v in rng.integers(1, self.top + 1, size=self.n)]
        planted = sorted(int(i) for i in rng.choice(self.n, size=self.k, replace=False))
        self.target = sum(self.values[i] for i in planted)

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        target = text_layer(f"target {self.target}", (W / 2, H * 0.18), max(6, int(min(H, W) * 0.1)), INK, bold=True)
        cards = _card_geometry(H, W, self.n)
        numbers = [text_layer(str(v), ((x0 + x1) / 2, (y0 + y1) / 2 + ch * 0.05), max(6, int(ch * 0.4)), INK, bold=True)
                   for v, (x0, y0, x1, y1, _, ch) in zip(self.values, cards)]
        base, boxes, feet = _blank_cards(H, W, self.n, self.letters)
        if feet is not None and all(_apart(_box(target), f) for f in feet) and all(
                box[0] <= x and box[1] <= y and x + m.shape[1] <= box[2] and y + m.shape[0] <= box[3]
                for (m, x, y, _), box in zip(numbers, boxes)):
            # nothing else is drawn where the target or a number goes: they come last, as tiles where they can
            img = base.copy()
            draw_layers(img, [[target]], base, BACKGROUND)
            draw_layers(img, [[m] for m in numbers], base, WHITE)
            return img
        img = new_frame(H, W, BACKGROUND)  # each piece in turn
        draw_layers(img, [[target]])
        for card, letter, number in zip(cards, self.letters, numbers):
            _draw_card(img, card, letter)
            draw_layers(img, [[number]])
        return img

    def _task_text(self) -> str:
        return (f"The image shows a target number and {self.n} lettered cards, each with a number. "
                "Choose cards whose numbers add up exactly to the target; each card can be used at most once.")

    def _state_text(self) -> str:
        cards = ", ".join(f"{c}={v}" for c, v in zip(self.letters, self.values))
        return f"target={self.target}; {cards}"

    def _parse_answer(self, text: str) -> tuple[int, ...] | None:
        t = text.strip().strip("[](){}.").upper()
        if not t or len(t) > 200:
            return None
        picks = [tok for tok in _SPLIT.split(t) if tok]
        if not picks or any(len(p) != 1 or p not in self.letters for p in picks):
            return None
        return tuple(sorted(self.letters.index(p) for p in picks))

    def _check(self, answer: tuple[int, ...]) -> bool:
        return len(set(answer)) == len(answer) and sum(self.values[i] for i in answer) == self.target

    def _format(self, answer: tuple[int, ...]) -> str:
        return " ".join(self.letters[i] for i in sorted(answer))

    def _solve(self) -> tuple[int, ...]:
        for size in range(1, self.n + 1):  # the smallest set, first in letter order
            for combo in itertools.combinations(range(self.n), size):
                if sum(self.values[i] for i in combo) == self.target:
                    return combo
        raise RuntimeError("no subset reaches the target")  # cannot happen: one was planted

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[int, ...]]:
        sol = list(self._solution)
        rest = [i for i in range(self.n) if i not in sol]
        out = [tuple(sorted(sol[:j] + [r] + sol[j + 1:])) for j in range(len(sol)) for r in rest]  # one card swapped
        out += [tuple(sorted(sol + [r])) for r in rest]  # one card too many
        out += [tuple(s for s in sol if s != d) for d in sol if len(sol) > 1]  # one card short
        return [out[int(i)] for i in rng.permutation(len(out))]


SPECS = (
    TaskSpec(name="SubsetSum", entry_point=SubsetSum, version=1, max_episode_steps=1,
             tags=("arithmetic", "search")),
)
