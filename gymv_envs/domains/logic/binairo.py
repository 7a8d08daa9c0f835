"""Binairo (Takuzu): fill a grid with 0s and 1s under the balance, no-triple and distinct-lines rules."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import blank_board, cell_text
from gymv_envs.domains.logic._grid import (
    GridAnswerEnv,
    Table,
    cell_bits,
    decode_cells,
    fewest_clues,
    table_search,
)

SIDES = {0: 4, 1: 6, 2: 8}


@functools.lru_cache(maxsize=8)
def valid_lines(n: int) -> tuple[tuple[int, ...], ...]:
    """Every line of n cells with n/2 ones and no three equal cells in a row."""
    return tuple(p for p in itertools.product((0, 1), repeat=n)
                 if sum(p) == n // 2 and not any(p[i] == p[i + 1] == p[i + 2] for i in range(n - 2)))


def line_ok(line: list[int] | tuple[int, ...]) -> bool:
    return tuple(line) in valid_lines(len(line))


@functools.lru_cache(maxsize=64)
def line_table(n: int, line: int) -> Table:
    """Row ``line`` (< n) or column ``line - n`` as a table of `table_search` (cell value 0 or 1)."""
    cells = [line * n + k if line < n else k * n + line - n for k in range(n)]
    scope = cell_bits(cells, 2)
    return scope, tuple(sum(1 << (2 * cells[k] + v) for k, v in enumerate(p)) for p in valid_lines(n)), scope


def solve(n: int, givens: dict[tuple[int, int], int], rng: np.random.Generator | None = None,
          limit: int = 2, budget: int = 20_000) -> list[tuple[tuple[int, ...], ...]]:
    """Grids obeying the rules and the givens: each row and column is a table of the lines with as many
    ones as zeros and no triple (see `table_search`), full grids must have distinct rows and columns.
    With ``rng``, each table's lines are tried in a random order."""
    tables = [line_table(n, line) for line in range(2 * n)]
    if rng is not None:
        tables = [(scope, [codes[i] for i in rng.permutation(len(codes)).tolist()], union) for scope, codes, union in tables]
    dom = (1 << (2 * n * n)) - 1
    for (r, c), v in givens.items():
        dom &= ~(1 << (2 * (r * n + c) + 1 - v))

    def grid(code: int) -> tuple[tuple[int, ...], ...]:
        return tuple(zip(*[iter(decode_cells(code, n * n, 2))] * n))

    width, line = 2 * n * n, 2 * n

    def distinct(code: int) -> bool:
        # bit 2 * cell is set where the cell holds 0: a line's pattern of those bits names the line
        bit = format(code, f"0{width}b")[::-1]
        return (len({bit[r * line:(r + 1) * line:2] for r in range(n)}) == n
                and len({bit[2 * c::line] for c in range(n)}) == n)

    return [grid(x) for x in table_search(tables, dom, limit, budget, distinct)]


class Binairo(GridAnswerEnv):
    """Fill a Binairo grid with 0s and 1s.

    ## Description
    An ``n x n`` grid shows some 0s and 1s. Fill every empty cell with 0 or 1 so that each
    row and each column has as many 0s as 1s, no row or column has three equal digits next
    to each other, and no two rows and no two columns are the same. The solution is unique
    (checked by the solver at generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the full grid, row by row (``0``/``1`` per cell, any
    separators, ``/`` or newlines between rows). ``"mcq"``: `Discrete(k)` over complete grids.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid with the given digits.

    ## Rewards
    1.0 if the grid keeps the givens and obeys the three rules, else 0.0.

    ## Starting State
    A random valid grid (row-by-row search in a random order); cells are revealed in a
    random order until the puzzle has exactly one solution (binary search over the order).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, 1: 6x6, 2: 8x8), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    cell_kind = "digit"

    def _configure(self) -> None:
        self.rows = self.cols = self.n = SIDES[self.difficulty]
        self.answer_hint = self._grid_hint("the completed grid", "digits 0 or 1", " ".join("01" * (self.n // 2)))

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        full = solve(n, {}, rng, limit=1, budget=10**6)[0]
        order = [divmod(int(i), n) for i in rng.permutation(n * n)]

        def givens(k: int) -> dict[tuple[int, int], int]:
            return {rc: full[rc[0]][rc[1]] for rc in order[:k]}

        self.givens = givens(fewest_clues(0, n * n, lambda k: solve(n, givens(k))))
        self._full = full  # the givens have one solution: this grid
        self.free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in self.givens]

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank_board(self.obs_size, self.n, self.n)
        for (r, c), v in self.givens.items():
            cell_text(img, g, r, c, str(v))
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Binairo puzzle. Fill every empty cell with 0 or 1 so that: each row "
                f"and each column contains {n // 2} zeros and {n // 2} ones; no row or column has three equal "
                "digits next to each other; and no two rows are identical and no two columns are identical. "
                "Keep the given digits.")

    def _state_text(self) -> str:
        return self._state_rows(lambda r, c: str(self.givens.get((r, c), ".")))

    # -- verify
    def _check(self, answer) -> bool:
        if any(answer[r][c] != v for (r, c), v in self.givens.items()):
            return False
        cols = list(zip(*answer, strict=True))
        return (all(line_ok(x) for x in (*answer, *cols))
                and len(set(answer)) == self.n and len(set(cols)) == self.n)

    # -- oracle
    def _solve(self):
        return self._full


SPECS = (
    TaskSpec(name="Binairo", entry_point=Binairo, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "binary")),
)
