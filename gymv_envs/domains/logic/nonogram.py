"""Nonogram: shade the cells whose runs in every row and column match the number clues."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import board_base, cell_text
from gymv_envs.core.canvas import BACKGROUND
from gymv_envs.domains.logic._grid import GridAnswerEnv
from gymv_envs.rules.nonogram import line_solve, runs

# difficulty -> (side, shaded share range)
LEVELS = {0: (5, (0.5, 0.7)), 1: (7, (0.5, 0.65)), 2: (10, (0.5, 0.62))}


class Nonogram(GridAnswerEnv):
    """Solve a Nonogram: shade cells so each row and column shows its runs.

    ## Description
    An ``n x n`` grid with a clue left of each row and above each column: the lengths, in
    order, of the runs of consecutive shaded cells in that line (runs are separated by at
    least one empty cell; an empty line shows ``0``). Find the shading. Every puzzle is
    solvable line by line, so its solution is unique.

    ## Action Space
    ``answer_format="open"``: `Text`, the grid row by row with ``#`` (or ``1``) for a shaded
    cell and ``.`` (or ``0``) for an empty one, ``/`` or newlines between rows.
    ``"mcq"``: `Discrete(k)` over shadings.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the empty grid and its clues.

    ## Rewards
    1.0 if every row and column has exactly the runs of its clue, else 0.0.

    ## Starting State
    Random shadings (50-70% of cells) are drawn until the line solver completes one.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5, 1: 7x7, 2: 10x10), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    cell_kind = "mask"

    def _configure(self) -> None:
        self.n, self.density = LEVELS[self.difficulty]
        self.rows = self.cols = self.n
        self.answer_hint = self._mask_hint("the shading", "shaded", "empty")

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        for _ in range(1000):
            grid = (rng.random((n, n)) < rng.uniform(*self.density)).astype(int).tolist()
            rows, cols = [runs(r) for r in grid], [runs(c) for c in zip(*grid, strict=True)]
            solution = line_solve(rows, cols, n)
            if solution is not None:
                break
        self.row_clues, self.col_clues = rows, cols
        self.solution = solution  # what `_solve` would find again
        self.free = [(r, c) for r in range(n) for c in range(n)]

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        left = max(len(c) or 1 for c in self.row_clues) * 0.6 + 0.5
        top = max(len(c) or 1 for c in self.col_clues) * 0.6 + 0.5
        base, g = board_base(tuple(self.obs_size), n, n, pad=(top, 0, 0, left), box=(5, 5) if n % 5 == 0 and n > 5 else None)
        img = base.copy()
        for i in range(n):
            rc = self.row_clues[i] or (0,)
            for j, v in enumerate(reversed(rc)):
                cell_text(img, g, i, -0.85 - 0.6 * j, str(v), scale=0.45, bg=BACKGROUND)
            cc = self.col_clues[i] or (0,)
            for j, v in enumerate(reversed(cc)):
                cell_text(img, g, -0.85 - 0.6 * j, i, str(v), scale=0.45, bg=BACKGROUND)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Nonogram. The numbers left of each row and above each column give, in "
                "order (left to right, top to bottom), the lengths of the runs of consecutive shaded cells in that "
                "line; runs are separated by at least one empty cell, and 0 means the line is empty. Which cells are "
                "shaded?")

    def _state_text(self) -> str:
        rows = " | ".join(" ".join(map(str, c or (0,))) for c in self.row_clues)
        cols = " | ".join(" ".join(map(str, c or (0,))) for c in self.col_clues)
        return f"row clues (top to bottom): {rows}\ncolumn clues (left to right): {cols}"

    # -- verify
    def _check(self, answer) -> bool:
        return ([runs(r) for r in answer] == self.row_clues
                and [runs(c) for c in zip(*answer, strict=True)] == self.col_clues)

    # -- oracle
    def _solve(self):
        return tuple(tuple(row) for row in self.solution)


SPECS = (
    TaskSpec(name="Nonogram", entry_point=Nonogram, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "picross")),
)
