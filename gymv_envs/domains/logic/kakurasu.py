"""Kakurasu: shade cells so that the weighted counts of every row and column match the clues."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import Geom, blank_board, cell_text
from gymv_envs.core.canvas import BACKGROUND
from gymv_envs.domains.logic._grid import (
    Budget,
    GridAnswerEnv,
    Table,
    cell_bits,
    decode_cells,
    table_search,
)

SIDES = {0: 4, 1: 5, 2: 7}
DENSITY = (0.4, 0.6)
BLUE = (38, 110, 220)
GREY = (130, 130, 140)


@functools.lru_cache(maxsize=8)
def subsets_by_sum(n: int) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Shadings of one line (0/1 per cell) grouped by the sum of the shaded cells' indices 1..n."""
    out: dict[int, list] = {}
    for p in itertools.product((0, 1), repeat=n):
        out.setdefault(sum(i + 1 for i, v in enumerate(p) if v), []).append(p)
    return {k: tuple(v) for k, v in out.items()}


@functools.lru_cache(maxsize=1024)
def line_table(n: int, line: int, total: int) -> Table:
    """Row ``line`` (< n) or column ``line - n`` as a table of `table_search` (cell value 0 or 1):
    the shadings of the line whose shaded cells' indices 1..n add up to ``total``."""
    cells = [line * n + k if line < n else k * n + line - n for k in range(n)]
    codes = tuple(sum(1 << (2 * cells[k] + v) for k, v in enumerate(p)) for p in subsets_by_sum(n).get(total, ()))
    return cell_bits(cells, 2), codes


@functools.lru_cache(maxsize=32)
def _numbered_board(obs_size: tuple[int, int], n: int) -> tuple[np.ndarray, Geom]:
    """The empty board with the grey line numbers above and left (read-only; drawn once per size)."""
    img, g = blank_board(obs_size, n, n, pad=(0.8, 0.9, 0.9, 0.8))
    for i in range(n):
        cell_text(img, g, -0.7, i, str(i + 1), scale=0.45, color=GREY, bg=BACKGROUND)
        cell_text(img, g, i, -0.7, str(i + 1), scale=0.45, color=GREY, bg=BACKGROUND)
    img.setflags(write=False)
    return img, g


def solve(n: int, row_sums: list[int], col_sums: list[int], limit: int = 2, budget: int = 20_000) -> list:
    """Shadings whose row r sums the column numbers of its shaded cells to row_sums[r], likewise for columns
    (each row and column a table of the shadings its clue allows; see `table_search`)."""
    tables = [line_table(n, i, t) for i, t in enumerate([*row_sums, *col_sums])]
    sols = table_search(tables, (1 << (2 * n * n)) - 1, limit, budget)
    return [tuple(tuple(row) for row in zip(*[iter(decode_cells(x, n * n, 2))] * n)) for x in sols]


class Kakurasu(GridAnswerEnv):
    """Shade cells of a Kakurasu grid so every row and column reaches its clue.

    ## Description
    An ``n x n`` grid has its column numbers 1..n printed above it and its row numbers 1..n
    to its left (grey). A shaded cell is worth its column number to its row and its row
    number to its column. The blue clue right of each row is the total of its shaded cells'
    column numbers; the blue clue below each column is the total of its shaded cells' row
    numbers. Find which cells are shaded. The solution is unique (checked by the solver).

    ## Action Space
    ``answer_format="open"``: `Text`, the grid row by row with ``#`` (or ``1``) for a shaded
    cell and ``.`` (or ``0``) for an empty one, ``/`` or newlines between rows.
    ``"mcq"``: `Discrete(k)` over shadings.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the empty grid, the index numbers and the clues.

    ## Rewards
    1.0 if every row and column total matches its clue, else 0.0.

    ## Starting State
    Random shadings (40-60% of cells) are drawn until one has a unique solution.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, 1: 5x5, 2: 7x7), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    cell_kind = "mask"

    def _configure(self) -> None:
        self.rows = self.cols = self.n = SIDES[self.difficulty]
        self.answer_hint = self._mask_hint("the shading", "shaded", "empty")

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        weights = np.arange(1, n + 1)  # the line numbers: a clue is the shading times them
        for _ in range(500):
            density = rng.uniform(*DENSITY)
            grid = (rng.random((n, n)) < density).astype(int)
            rs, cs = (grid @ weights).tolist(), (weights @ grid).tolist()
            try:
                sols = solve(n, rs, cs)
            except Budget:
                sols = []
            if len(sols) == 1:
                break
        self.row_sums, self.col_sums = rs, cs
        self.solution = sols[0] if len(sols) == 1 else None  # the solution, when the solver found it unique
        self.free = [(r, c) for r in range(n) for c in range(n)]

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        base, g = _numbered_board(tuple(self.obs_size), n)
        img = base.copy()
        for i in range(n):
            cell_text(img, g, i, n - 0.25 + 0.05, str(self.row_sums[i]), scale=0.5, color=BLUE, bg=BACKGROUND)
            cell_text(img, g, n - 0.25 + 0.05, i, str(self.col_sums[i]), scale=0.5, color=BLUE, bg=BACKGROUND)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Kakurasu puzzle. The grey numbers above the grid number the columns "
                f"1 to {n} and the grey numbers left of it number the rows 1 to {n}. Shade some cells: the blue clue "
                "right of a row is the sum of the column numbers of the shaded cells in that row, and the blue clue "
                "below a column is the sum of the row numbers of the shaded cells in that column. Which cells are "
                "shaded?")

    def _state_text(self) -> str:
        return (f"row clues (top to bottom): {' '.join(map(str, self.row_sums))}\n"
                f"column clues (left to right): {' '.join(map(str, self.col_sums))}")

    # -- verify
    def _check(self, answer) -> bool:
        n = self.n
        return (all(sum((c + 1) * answer[r][c] for c in range(n)) == self.row_sums[r] for r in range(n))
                and all(sum((r + 1) * answer[r][c] for r in range(n)) == self.col_sums[c] for c in range(n)))

    # -- oracle
    def _solve(self):
        if self.solution is not None:
            return self.solution
        return solve(self.n, self.row_sums, self.col_sums, limit=1, budget=10**7)[0]


SPECS = (
    TaskSpec(name="Kakurasu", entry_point=Kakurasu, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "arithmetic")),
)
