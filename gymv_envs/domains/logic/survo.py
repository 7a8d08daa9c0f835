"""Survo: place the numbers 1..m·n in a grid so that every row and column has its given sum."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import blank_board, cell_text
from gymv_envs.core.canvas import BACKGROUND
from gymv_envs.domains.logic._grid import HiddenCellsEnv, counting_row, hide_cells
from gymv_envs.domains.logic._line_sums import fill_lines, most_open

# difficulty -> (rows, cols, fewest open cells wanted, most open cells)
LEVELS = {0: (3, 3, 4, 6), 1: (3, 4, 6, 9), 2: (4, 4, 8, 12)}
BLUE = (38, 110, 220)


@functools.lru_cache(maxsize=8)
def survo_lines(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Every row, then every column, as flat indices."""
    return (tuple(tuple(r * cols + c for c in range(cols)) for r in range(rows))
            + tuple(tuple(r * cols + c for r in range(rows)) for c in range(cols)))


def solve(rows: int, cols: int, cells: list[int], row_sums: list[int], col_sums: list[int],
          limit: int = 2, budget: int = 20_000) -> list[tuple[int, ...]]:
    return fill_lines(cells, survo_lines(rows, cols), [*row_sums, *col_sums], range(1, rows * cols + 1), limit, budget)


class Survo(HiddenCellsEnv):
    """Complete a Survo puzzle: 1..m·n once each, with the given row and column sums.

    ## Description
    An ``m x n`` grid shows some numbers; the blue number right of each row is the row's
    sum and the blue number below each column is the column's sum. Fill the empty cells so
    that every number from 1 to m·n appears exactly once and every sum holds. The solution
    is unique (checked by the solver at generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the full grid row by row (numbers separated by spaces
    or commas, ``/`` or newlines between rows, JSON lists accepted). ``"mcq"``: `Discrete(k)`
    over complete grids.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid, the given numbers and the sums.

    ## Rewards
    1.0 if the grid keeps the givens, uses 1..m·n once each and matches every sum, else 0.0.

    ## Starting State
    A random arrangement of 1..m·n; cells are hidden in a random order while the solution
    stays unique (the most the order allows, up to the difficulty's bound).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3x3 with 4-6 open cells; 1: 3x4 with 6-9; 2: 4x4 with 8-12),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    cell_kind = "number"

    def _configure(self) -> None:
        self.rows, self.cols, self.min_open, self.max_open = LEVELS[self.difficulty]
        self.answer_hint = self._grid_hint("the completed grid", "numbers separated by spaces", counting_row(self.cols))

    def _values(self) -> range:
        return range(1, self.rows * self.cols + 1)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        R, C = self.rows, self.cols
        full = [v + 1 for v in rng.permutation(R * C).tolist()]
        self.row_sums = [sum(full[r * C:(r + 1) * C]) for r in range(R)]
        self.col_sums = [sum(full[c::C]) for c in range(C)]
        order = rng.permutation(R * C).tolist()
        k = most_open(full, order, self.max_open, lambda cells: solve(R, C, cells, self.row_sums, self.col_sums))
        self._set_givens(hide_cells(full, order, k))
        self._full = full  # the givens have no second solution: this is theirs

    # -- draw
    def _draw(self) -> np.ndarray:
        R, C = self.rows, self.cols
        img, g = blank_board(self.obs_size, R, C, pad=(0, 1, 1, 0))
        self._paint_givens(img, g, scale=0.5)
        for r, s in enumerate(self.row_sums):
            cell_text(img, g, r, C + 0.05, str(s), scale=0.45, color=BLUE, bg=BACKGROUND)
        for c, s in enumerate(self.col_sums):
            cell_text(img, g, R + 0.05, c, str(s), scale=0.45, color=BLUE, bg=BACKGROUND)
        return img

    def _task_text(self) -> str:
        R, C = self.rows, self.cols
        return (f"The image shows a {R}x{C} Survo puzzle. Fill every empty cell so that each number from 1 to {R * C} "
                "appears exactly once in the grid. The blue number to the right of each row is the sum of that row, "
                "and the blue number below each column is the sum of that column. Keep the given numbers.")

    def _state_text(self) -> str:
        C, cells = self.cols, [str(v or ".") for v in self.givens]  # (`_given_text` of each cell)
        rows = [" ".join(cells[r * C:(r + 1) * C]) + f" | {s}" for r, s in enumerate(self.row_sums)]
        return "\n".join(rows + ["sums: " + " ".join(map(str, self.col_sums))])

    # -- verify
    def _check(self, answer) -> bool:
        R, C = self.rows, self.cols
        flat = [v for row in answer for v in row]
        return (sorted(flat) == list(range(1, R * C + 1))
                and self._keeps_givens(flat)
                and [sum(row) for row in answer] == self.row_sums
                and [sum(col) for col in zip(*answer, strict=True)] == self.col_sums)

    # -- oracle
    def _solve(self):
        return self._unflatten(self._full)


SPECS = (
    TaskSpec(name="Survo", entry_point=Survo, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "arithmetic")),
)
