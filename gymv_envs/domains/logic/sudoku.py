"""Sudoku: complete a 4x4, 6x6 or 9x9 grid so every row, column and box holds each digit once."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import blank_board
from gymv_envs.domains.logic._grid import HiddenCellsEnv, hide_cells, smallest_true
from gymv_envs.rules.sudoku import solve_singles, solved_grid, units

# difficulty -> (side, box rows, box cols, most cells left open)
LEVELS = {0: (4, 2, 2, 10), 1: (6, 2, 3, 22), 2: (9, 3, 3, 50)}


class Sudoku(HiddenCellsEnv):
    """Complete a Sudoku grid: every row, column and box holds each digit exactly once.

    ## Description
    An ``n x n`` grid (4x4 with 2x2 boxes, 6x6 with 2x3 boxes, 9x9 with 3x3 boxes, by
    difficulty) shows some digits; thick lines mark the boxes. Fill each empty cell with a
    digit 1..n so that every row, every column and every box contains each digit once.
    Every puzzle is solvable by naked and hidden singles alone, so its solution is unique.

    ## Action Space
    ``answer_format="open"``: `Text`, the full grid, row by row (digits, any separators,
    ``/`` or newlines between rows, JSON lists accepted). ``"mcq"``: `Discrete(k)` over
    complete grids, the wrong ones differing from the solution in one or two open cells.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid with the given digits.

    ## Rewards
    1.0 if the grid keeps the givens and satisfies every row, column and box rule, else 0.0.

    ## Starting State
    A random solved grid (a pattern grid with digits, rows within bands, bands, columns
    within stacks and stacks shuffled) loses cells in a random order while the singles
    solver still finishes it, up to the difficulty's cap of open cells.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, up to 10 open; 1: 6x6, up to 22 open; 2: 9x9, up to 50 open),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    cell_kind = "digit"

    def _configure(self) -> None:
        self.n, self.br, self.bc, self.max_open = LEVELS[self.difficulty]
        self.rows = self.cols = self.n
        self.answer_hint = self._grid_hint("the completed grid", "digits", " ".join("1" * self.n))

    def _values(self) -> range:
        return range(1, self.n + 1)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n, br, bc = self.n, self.br, self.bc
        full = solved_grid(rng, n, br, bc)
        order = [int(i) for i in rng.permutation(n * n)]
        k = smallest_true(0, self.max_open + 1, lambda k: solve_singles(hide_cells(full, order, k), n, br, bc) is None) - 1
        self._set_givens(hide_cells(full, order, k))
        self._full = full  # singles complete the givens, so this is their one solution

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank_board(self.obs_size, self.n, self.n, box=(self.br, self.bc))
        self._paint_givens(img, g, scale=0.62)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Sudoku; thick lines divide it into {self.br}x{self.bc} boxes. "
                f"Fill every empty cell with a digit from 1 to {n} so that each row, each column and each box "
                f"contains every digit from 1 to {n} exactly once. Keep the given digits.")

    # -- verify
    def _check(self, answer) -> bool:
        n = self.n
        flat = [v for row in answer for v in row]
        if not self._keeps_givens(flat):
            return False
        want = set(range(1, n + 1))
        return all({flat[i] for i in u} == want for u in units(n, self.br, self.bc)[0])

    # -- oracle
    def _solve(self):
        return self._unflatten(self._full)


SPECS = (
    TaskSpec(name="Sudoku", entry_point=Sudoku, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "latin-square")),
)
