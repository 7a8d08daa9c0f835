"""Nim move: name a winning move in a drawn game of Nim."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.canvas import BACKGROUND, INK, PALETTE, draw_text, fill_rect, new_frame
from gymv_envs.rules.nim import nim_sum, winning_moves

LEVELS = {0: (2, 5), 1: (3, 7), 2: (4, 9)}  # heaps, most sticks in a heap
_MOVE = re.compile(r"(?:TAKE\s+)?(\d+)\s*(?:STICKS?\s+)?(?:FROM\s+)?(?:HEAP\s+|ROW\s+)?([A-D])$|(?:HEAP\s+|ROW\s+)?([A-D])\s*[:\-=]?\s*(\d+)$")


class NimMove(SingleTurnEnv):
    """Name a move after which the opponent is in a lost Nim position.

    ## Description
    Rows of sticks labelled A, B, ... are drawn. Two players alternate; a move takes one or
    more sticks from a single row; whoever takes the last stick wins. It is your move, and a
    winning move exists (the rows' nim-sum is not zero). The answer is a move that leaves a
    position with nim-sum zero; any such move is accepted.

    ## Action Space
    ``answer_format="open"``: `Text`, e.g. ``take 2 from B`` (also ``B2`` or ``B: 2``).
    ``"mcq"``: `Discrete(k)` over candidate moves, exactly one winning.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled rows of sticks.

    ## Rewards
    1.0 for a legal move that leaves nim-sum zero, else 0.0.

    ## Starting State
    Row sizes are drawn from the seed until their nim-sum is not zero (and at least six sticks
    lie on the table, so that multiple choice has enough wrong moves).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 2 rows up to 5; 1: 3 rows up to 7; 2: 4 rows up to 9),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "a move as `take <number> from <row letter>` (for example `take 2 from B`)"

    def _configure(self) -> None:
        self.rows, self.most = LEVELS[self.difficulty]
        self.labels = "ABCD"[: self.rows]

    def _generate(self, rng: np.random.Generator) -> None:
        while True:
            self.heaps = [int(v) for v in rng.integers(1, self.most + 1, size=self.rows)]
            if nim_sum(self.heaps) and len(set(self.heaps)) > 1 and sum(self.heaps) >= 6:
                break

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        img = new_frame(H, W, BACKGROUND)
        row_h = H / (self.rows + 0.5)
        step = (W * 0.8) / (self.most + 1)
        for r, n in enumerate(self.heaps):
            y = row_h * (r + 0.75)
            draw_text(img, self.labels[r], (W * 0.08, y), max(6, int(row_h * 0.35)), INK, bold=True)
            for i in range(n):
                x = W * 0.18 + i * step
                fill_rect(img, x, y - row_h * 0.3, x + max(2, step * 0.3), y + row_h * 0.3, PALETTE["brown"])
        return img

    def _task_text(self) -> str:
        return (f"The image shows {self.rows} rows of sticks labelled {', '.join(self.labels)}. Two players take "
                "turns; a move takes one or more sticks from a single row; whoever takes the last stick wins. "
                "It is your move: name a move that guarantees you can win with best play.")

    def _state_text(self) -> str:
        return ", ".join(f"{c}={n}" for c, n in zip(self.labels, self.heaps))

    def _parse_answer(self, text: str) -> tuple[int, int] | None:
        m = _MOVE.search(text.strip().rstrip(".").upper())
        if m is None or len(text) > 100:
            return None
        count, row = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        if row not in self.labels:
            return None
        return self.labels.index(row), int(count)

    def _check(self, answer: tuple[int, int]) -> bool:
        row, count = answer
        if not 1 <= count <= self.heaps[row]:
            return False
        after = list(self.heaps)
        after[row] -= count
        return nim_sum(after) == 0

    def _format(self, answer: tuple[int, int]) -> str:
        return f"take {answer[1]} from {self.labels[answer[0]]}"

    def _solve(self) -> tuple[int, int]:
        return winning_moves(self.heaps)[0]

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[int, int]]:
        out = [(r, c) for r in range(self.rows) for c in range(1, self.heaps[r] + 1)]
        row, count = self._solution
        close = [(row, count - 1), (row, count + 1)] + [(r, count) for r in range(self.rows) if r != row]
        rest = [out[int(i)] for i in rng.permutation(len(out))]
        return [m for m in close if m[1] >= 1] + rest


SPECS = (
    TaskSpec(name="NimMove", entry_point=NimMove, version=1, max_episode_steps=1,
             tags=("game-theory", "arithmetic")),
)
