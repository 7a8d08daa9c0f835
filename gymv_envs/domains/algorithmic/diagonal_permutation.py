"""Diagonal permutation: reorder the rows of a 0/1 matrix so that the diagonal (or both diagonals) holds only 1s."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.algorithmic._board import DARK, blank, fill_cells
from gymv_envs.domains.algorithmic._common import AlgoEnv, Numbers, board_text

QUESTIONS = ("main", "both")
LEVELS = {0: 4, 1: 6, 2: 8}


def allowed(m: np.ndarray, both: bool) -> np.ndarray:
    """ok[r, i]: original row r may go to position i (it has a 1 in column i, and in column n-1-i if ``both``)."""
    ok = m.astype(bool)
    return ok & ok[:, ::-1] if both else ok


def matching(ok: np.ndarray) -> list[int] | None:
    """A perfect matching of positions to rows (``rows[i]`` = the row at position i) by augmenting paths."""
    n = ok.shape[0]
    options = [np.flatnonzero(ok[:, i]).tolist() for i in range(n)]
    row_at: list[int] = [-1] * n
    pos_of: list[int] = [-1] * n

    def augment(i: int, seen: list[bool]) -> bool:
        for r in options[i]:
            if not seen[r]:
                seen[r] = True
                if pos_of[r] < 0 or augment(pos_of[r], seen):
                    row_at[i], pos_of[r] = r, i
                    return True
        return False

    for i in range(n):
        if not augment(i, [False] * n):
            return None
    return row_at


class DiagonalPermutation(AlgoEnv):
    """Give an order of the rows of a drawn 0/1 matrix that puts 1s on the main diagonal (or on both).

    ## Description
    An ``n x n`` matrix of 0s (white) and 1s (dark) is drawn with row numbers 1..n on the left.
    The rows may be reordered (columns stay). ``question`` picks the goal: ``"main"``, every cell
    of the main diagonal (top-left to bottom-right) holds 1; ``"both"``, every cell of both
    diagonals holds 1. The answer lists the original row numbers from the new top row to the new
    bottom row; any order that reaches the goal is accepted (the verifier applies it).
    The solver is a bipartite matching of rows to positions.

    ## Action Space
    ``answer_format="open"``: `Text`, n row numbers such as ``3 1 4 2``. ``"mcq"``: `Discrete(k)`;
    wrong options keep the order, reverse it, give the inverse permutation (where each row goes
    instead of which row comes), swap two rows of a valid order, or are random orders that fail.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled matrix.

    ## Rewards
    1.0 for a permutation of 1..n that puts 1s on every required cell, else 0.0.

    ## Starting State
    A hidden valid order's required cells are set to 1, 30-45% of the others too, then the rows
    are shuffled; levels where the drawn order already works are redrawn.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"main"``, ``"both"``); ``difficulty`` (0: 4x4, 1: 6x6, 2: 8x8),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    questions = QUESTIONS

    def _configure(self) -> None:
        self.n = LEVELS[self.difficulty]
        self.kind = Numbers(self.n, "the original row numbers from the new top row to the new bottom row, separated by spaces")

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n, both = self.n, self.question == "both"
        while True:
            m = (rng.random((n, n)) < rng.uniform(0.3, 0.45)).astype(np.int64)
            idx = np.arange(n)
            m[idx, idx] = 1
            if both:
                m[idx, n - 1 - idx] = 1
            m = m[rng.permutation(n)]
            if not self._valid(m, tuple(range(1, n + 1))):
                self.matrix = m
                self.order = tuple(r + 1 for r in matching(allowed(m, both)))
                return

    def _valid(self, m: np.ndarray, order) -> bool:
        n = self.n
        if sorted(order) != list(range(1, n + 1)):
            return False
        p = m[[r - 1 for r in order]]
        idx = np.arange(n)
        return bool(p[idx, idx].all() and (self.question == "main" or p[idx, n - 1 - idx].all()))

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.n, self.n)
        fill_cells(img, g, self.matrix, DARK)
        return img

    def _task_text(self) -> str:
        goal = ("every cell of the main diagonal (from the top-left to the bottom-right corner) holds 1"
                if self.question == "main" else
                "every cell of both diagonals (top-left to bottom-right and top-right to bottom-left) holds 1")
        return (f"The image shows a {self.n}x{self.n} matrix; dark cells hold 1 and white cells hold 0, and the rows are "
                f"numbered 1 to {self.n} on the left. Reorder the rows (the columns stay as they are) so that {goal}. "
                "Give the new order as the original row numbers from the new top row to the new bottom row.")

    def _level_text(self) -> str:
        return board_text(self.matrix)

    # -- verify
    def _check(self, answer) -> bool:
        return self._valid(self.matrix, answer)

    def _similar(self, rng: np.random.Generator) -> list:
        n, order = self.n, self.order
        inverse = [0] * n
        for pos, r in enumerate(order):
            inverse[r - 1] = pos + 1
        ones = sorted(range(1, n + 1), key=lambda r: (-int(self.matrix[r - 1].sum()), r))
        shuffled = [tuple(int(v) + 1 for v in rng.permutation(n)) for _ in range(60)]
        return [tuple(range(1, n + 1)), tuple(range(n, 0, -1)), tuple(inverse), tuple(ones), *shuffled]

    # -- oracle
    def _solve(self) -> tuple[int, ...]:
        return self.order


SPECS = tuple(
    TaskSpec(name=name, entry_point=DiagonalPermutation, max_episode_steps=1, kwargs={"question": q},
             tags=("matching", "permutation", "matrix"))
    for name, q in (("DiagonalRowOrder", "main"), ("BothDiagonalsRowOrder", "both"))
)
