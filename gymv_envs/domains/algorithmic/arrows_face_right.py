"""Arrows face right: the fewest row and column flips that turn every arrow to face right."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import PALETTE
from gymv_envs.core.cells import LETTERS
from gymv_envs.domains.algorithmic._board import DARK, blank, cell_arrow
from gymv_envs.domains.algorithmic._common import AlgoEnv, Kind

LEVELS = {0: (3, 4), 1: (5, 5), 2: (6, 7)}  # rows, cols
_TOKEN = re.compile(r"(?i)^(?:row|r)?\s*(\d{1,2})$|^(?:column|col|c)?\s*([A-Z])$")
_SPLIT = re.compile(r"(?i)[\s,;/|]+|\band\b|&")


class Flips(Kind):
    """A list of flips: row numbers and column letters, such as ``2 4 B``."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.hint = "the rows (by number) and columns (by letter) to flip, separated by spaces"

    def parse(self, text: str) -> tuple[str, ...] | None:
        if not isinstance(text, str) or len(text) > 400:
            return None
        t = re.sub(r"(?i)\b(row|column|col)\s+", r"\1", text.strip().rstrip("."))
        out = []
        for tok in (x for x in _SPLIT.split(t) if x):
            m = _TOKEN.match(tok)
            if m is None:
                return None
            if m.group(1):
                if not 1 <= int(m.group(1)) <= self.rows:
                    return None
                out.append(str(int(m.group(1))))
            else:
                letter = m.group(2).upper()
                if LETTERS.index(letter) >= self.cols:
                    return None
                out.append(letter)
        return tuple(sorted(out, key=lambda x: (x.isalpha(), int(x) if x.isdigit() else 0, x))) or None

    def format(self, answer) -> str:
        return " ".join(answer)


class ArrowsFaceRight(AlgoEnv):
    """Turn every arrow of a drawn board to face right with the fewest row and column flips.

    ## Description
    A ``rows x cols`` board of arrows is drawn, each pointing left (red) or right (dark); rows are
    numbered and columns lettered. One operation flips a whole row or a whole column: every arrow
    in it turns to face the other way. Give the fewest operations that leave every arrow facing
    right. Flipping the same line twice undoes it, so an answer is a set of rows and columns; when
    two sets are equally short either is accepted (the verifier applies the flips and counts them).

    ## Action Space
    ``answer_format="open"``: `Text`, row numbers and column letters such as ``2 4 B``.
    ``"mcq"``: `Discrete(k)`; wrong options flip the complementary lines (all the others), one line
    more or less, or every row that holds a left arrow.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled board of arrows.

    ## Rewards
    1.0 for a set of flips that makes every arrow face right and is as short as possible, else 0.0.

    ## Starting State
    A board of right arrows with random rows and columns flipped (at least one arrow left).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3x4, 1: 5x5, 2: 6x7), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    def _configure(self) -> None:
        self.rows, self.cols = LEVELS[self.difficulty]
        self.kind = Flips(self.rows, self.cols)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        R, C = self.rows, self.cols
        while True:
            rf, cf = rng.random(R) < rng.uniform(0.2, 0.6), rng.random(C) < rng.uniform(0.2, 0.6)
            self.left = rf[:, None] ^ cf[None, :]
            if self.left.any():
                break
        flips = self._labels(rf, cf)
        other = self._labels(~rf, ~cf)
        self.best = min(len(flips), len(other))
        self.solution = flips if len(flips) <= len(other) else other
        self.other = other if self.solution is flips else flips

    def _labels(self, rf: np.ndarray, cf: np.ndarray) -> tuple[str, ...]:
        return tuple(str(r + 1) for r in np.flatnonzero(rf)) + tuple(LETTERS[c] for c in np.flatnonzero(cf))

    def _flip(self, flips) -> np.ndarray:
        left = self.left.copy()
        for f in flips:
            if f.isdigit():
                left[int(f) - 1] ^= True
            else:
                left[:, LETTERS.index(f)] ^= True
        return left

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.rows, self.cols)
        for r, row in enumerate(self.left.tolist()):
            for c, left in enumerate(row):
                cell_arrow(img, g, r, c, "L" if left else "R", PALETTE["red"] if left else DARK, 0.8)
        return img

    def _task_text(self) -> str:
        return (f"The image shows a board of arrows with {self.rows} numbered rows and {self.cols} lettered columns; each "
                "arrow points left (red) or right (dark). One operation flips a whole row or a whole column: every "
                "arrow in it turns to face the other way. Give the fewest operations that make every arrow face right.")

    def _level_text(self) -> str:
        return "\n".join("".join("<" if v else ">" for v in row) for row in self.left.tolist())

    # -- verify
    def _check(self, answer) -> bool:
        return len(answer) == self.best and not self._flip(answer).any()

    def _similar(self, rng: np.random.Generator) -> list:
        sol = list(self.solution)
        lines = [str(r + 1) for r in range(self.rows)] + list(LETTERS[: self.cols])
        out = [self.other, tuple(str(r + 1) for r in np.flatnonzero(self.left.any(axis=1)))]
        for i in rng.permutation(len(sol)):
            out.append(tuple(sol[:int(i)] + sol[int(i) + 1:]))
        for i in rng.permutation(len(lines)):
            if lines[int(i)] not in sol:
                out.append(tuple(sol + [lines[int(i)]]))
        return [self.kind.parse(" ".join(x)) for x in out if x]

    # -- oracle
    def _solve(self) -> tuple[str, ...]:
        return self.solution


SPECS = (
    TaskSpec(name="ArrowsFaceRight", entry_point=ArrowsFaceRight, max_episode_steps=1,
             tags=("parity", "optimisation", "grid")),
)
