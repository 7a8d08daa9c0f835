"""Sudoku: complete a 4x4, 6x6 or 9x9 grid so every row, column and box holds each digit once."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.logic._grid import HiddenCellsEnv, blank_board, hide_cells, smallest_true

# difficulty -> (side, box rows, box cols, most cells left open)
LEVELS = {0: (4, 2, 2, 10), 1: (6, 2, 3, 22), 2: (9, 3, 3, 50)}


@functools.lru_cache(maxsize=8)
def units(n: int, br: int, bc: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """(every row, column and box as cell indices; the three units of each cell)."""
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    boxes = [tuple((R + r) * n + C + c for r in range(br) for c in range(bc))
             for R in range(0, n, br) for C in range(0, n, bc)]
    every = tuple(rows + cols + boxes)
    of = tuple(tuple(u for u in every if i in u) for i in range(n * n))
    return every, of


def solve_singles(cells: list[int], n: int, br: int, bc: int) -> list[int] | None:
    """Fill ``cells`` (0 = open) by naked and hidden singles only; ``None`` if that does not finish.

    A grid these two rules complete has exactly one solution.
    """
    every, of = units(n, br, bc)
    full = (1 << (n + 1)) - 2
    g = list(cells)
    cand = [0] * (n * n)
    for i in range(n * n):
        if not g[i]:
            used = 0
            for u in of[i]:
                for j in u:
                    used |= 1 << g[j]
            cand[i] = full & ~used
    todo = sum(1 for v in g if not v)
    while todo:
        placed = []
        for i in range(n * n):
            if not g[i] and cand[i] & (cand[i] - 1) == 0:
                if not cand[i]:
                    return None
                placed.append((i, cand[i].bit_length() - 1))
        if not placed:
            for u in every:
                for d in range(1, n + 1):
                    bit, where, hits = 1 << d, -1, 0
                    for j in u:
                        if not g[j] and cand[j] & bit:
                            where, hits = j, hits + 1
                    if hits == 1:
                        placed.append((where, d))
                if placed:
                    break
        if not placed:
            return None
        for i, d in placed:
            if g[i]:
                if g[i] != d:
                    return None
                continue
            g[i], todo = d, todo - 1
            for u in of[i]:
                for j in u:
                    cand[j] &= ~(1 << d)
    return g


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
        rows = [b * br + int(r) for b in rng.permutation(n // br) for r in rng.permutation(br)]
        cols = [s * bc + int(c) for s in rng.permutation(n // bc) for c in rng.permutation(bc)]
        digits = rng.permutation(n) + 1
        full = [int(digits[(bc * (r % br) + r // br + c) % n]) for r in rows for c in cols]
        order = [int(i) for i in rng.permutation(n * n)]
        k = smallest_true(0, self.max_open + 1, lambda k: solve_singles(hide_cells(full, order, k), n, br, bc) is None) - 1
        self._set_givens(hide_cells(full, order, k))

    # -- draw
    def _paint(self) -> np.ndarray:
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
        return self._unflatten(solve_singles(self.givens, self.n, self.br, self.bc))


SPECS = (
    TaskSpec(name="Sudoku", entry_point=Sudoku, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "latin-square")),
)
