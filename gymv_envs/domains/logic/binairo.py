"""Binairo (Takuzu): fill a grid with 0s and 1s under the balance, no-triple and distinct-lines rules."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import blank_board, cell_text
from gymv_envs.domains.logic._binairo_solver import (
    fewest_givens,
    plain_puzzle,
    random_grid,
    valid_set,
)
from gymv_envs.domains.logic._grid import GridAnswerEnv

SIDES = {0: 4, 1: 6, 2: 8}


class Binairo(GridAnswerEnv):
    """Fill a Binairo grid with 0s and 1s.

    ## Description
    An ``n x n`` grid shows some 0s and 1s. Fill every empty cell with 0 or 1 so that each
    row and each column has as many 0s as 1s, no row or column has three equal digits next
    to each other (not a rule with ``no_triples=False``, the BinairoPlain id), and no two rows
    and no two columns are the same. The solution is unique (checked by the solver at
    generation; BinairoPlain's by line reasoning alone).

    ## Action Space
    ``answer_format="open"``: `Text`, the full grid, row by row (``0``/``1`` per cell, any
    separators, ``/`` or newlines between rows). ``"mcq"``: `Discrete(k)` over complete grids.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid with the given digits.

    ## Rewards
    1.0 if the grid keeps the givens and obeys the rules, else 0.0.

    ## Starting State
    A random valid grid (row-by-row search in a random order); cells are revealed in a
    random order until the puzzle has exactly one solution (binary search over the order).
    BinairoPlain (`plain_puzzle`): cells visited in a random order, each one that the givens so
    far do not settle by line reasoning (`plain_deduce`) given a random digit, until every cell
    is settled; the grid is what the reasoning settles.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, 1: 6x6, 2: 8x8); ``no_triples`` (``True``: three equal digits in a
    row are forbidden, Binairo-v1; ``False``: allowed, BinairoPlain-v1); ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
      BinairoPlain-v0 (``no_triples=False``) added; Binairo-v1's levels are unchanged.
    - BinairoPlain-v1: levels drawn by one pass of line reasoning (`plain_puzzle`) instead of
      a full grid and a search for other solutions after each given added (4x faster at 8x8,
      about as many givens: 33 of 64 on average at 8x8, 16 of 36 at 6x6).    """

    cell_kind = "digit"

    def __init__(self, no_triples: bool = True, **kwargs) -> None:
        if not isinstance(no_triples, (bool, np.bool_)):
            raise ValueError(f"invalid no_triples={no_triples!r}; valid values: True, False")
        self.no_triples = bool(no_triples)
        super().__init__(**kwargs)

    def _configure(self) -> None:
        self.rows = self.cols = self.n = SIDES[self.difficulty]
        self.answer_hint = self._grid_hint("the completed grid", "digits 0 or 1", " ".join("01" * (self.n // 2)))

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        if not self.no_triples:
            full, self.givens = plain_puzzle(n, rng)
        else:
            full = random_grid(n, rng)
            order = [divmod(i, n) for i in rng.permutation(n * n).tolist()]

            self.givens = {rc: full[rc[0]][rc[1]] for rc in order[:fewest_givens(n, full, order)]}
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
        triples = ("no row or column has three equal digits next to each other; " if self.no_triples else
                   "three or more equal digits may stand next to each other; ")
        return (f"The image shows a {n}x{n} Binairo puzzle. Fill every empty cell with 0 or 1 so that: each row "
                f"and each column contains {n // 2} zeros and {n // 2} ones; {triples}"
                "and no two rows are identical and no two columns are identical. "
                "Keep the given digits.")

    def _state_text(self) -> str:
        n = self.n
        cells = ["."] * (n * n)
        for (r, c), v in self.givens.items():
            cells[r * n + c] = str(v)
        return "\n".join(" ".join(cells[r * n:r * n + n]) for r in range(n))

    # -- verify
    def _check(self, answer) -> bool:
        if any(answer[r][c] != v for (r, c), v in self.givens.items()):
            return False
        cols = list(zip(*answer, strict=True))
        valid = valid_set(self.n, self.no_triples)  # `line_ok` of every row and column
        return (valid.issuperset(answer) and valid.issuperset(cols)
                and len(set(answer)) == self.n and len(set(cols)) == self.n)

    # -- oracle
    def _solve(self):
        return self._full


SPECS = (
    TaskSpec(name="Binairo", entry_point=Binairo, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "binary")),
    TaskSpec(name="BinairoPlain", entry_point=Binairo, version=1, max_episode_steps=1, kwargs={"no_triples": False},
             tags=("puzzle", "constraint-satisfaction", "binary")),
)
