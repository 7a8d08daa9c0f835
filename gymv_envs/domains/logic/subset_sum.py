"""Subset sum: pick the lettered cards whose numbers add up to the target."""

from __future__ import annotations

import itertools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    PALETTE,
    WHITE,
    draw_text,
    fill_rect,
    new_frame,
    outline_rect,
)

LEVELS = {0: (5, 2, 9), 1: (7, 3, 19), 2: (9, 4, 49)}  # cards, cards in the planted subset, max value
_SPLIT = re.compile(r"[\s,;+&/]+|\band\b", re.IGNORECASE)


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
        img = new_frame(H, W, BACKGROUND)
        draw_text(img, f"target {self.target}", (W / 2, H * 0.18), max(6, int(min(H, W) * 0.1)), INK, bold=True)
        cols = min(self.n, 5)
        rows = (self.n + cols - 1) // cols
        cw = W / (cols + 0.5)
        ch = min(H * 0.6 / rows, cw * 1.3)
        for i, v in enumerate(self.values):
            r, c = divmod(i, cols)
            x0 = (W - cols * cw) / 2 + c * cw + cw * 0.08
            y0 = H * 0.32 + r * ch + ch * 0.05
            x1, y1 = x0 + cw * 0.84, y0 + ch * 0.9
            fill_rect(img, x0, y0, x1, y1, WHITE)
            outline_rect(img, x0, y0, x1, y1, PALETTE["blue"], max(1, int(cw / 30)))
            draw_text(img, self.letters[i], (x0 + cw * 0.12, y0 + ch * 0.14), max(5, int(ch * 0.16)), PALETTE["gray"], bold=True)
            draw_text(img, str(v), ((x0 + x1) / 2, (y0 + y1) / 2 + ch * 0.05), max(6, int(ch * 0.4)), INK, bold=True)
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
