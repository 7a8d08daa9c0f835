"""N-Queens: complete a board on which some queens are already placed."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.core.board import blank_labelled_board, cell_centre, cell_rect, labelled_layout
from gymv_envs.core.canvas import WHITE, draw_layers, fill_rect, text_layer
from gymv_envs.domains.logic._placement import CellsAnswerEnv, move_one

# difficulty -> (board side, queens given)
LEVELS = {0: (5, 2), 1: (7, 2), 2: (8, 1)}
DARK = (214, 196, 160)
GIVEN = (120, 40, 30)


def queens_solutions(n: int, given: dict[int, int], limit: int, order=None) -> list[tuple[int, ...]]:
    """Up to ``limit`` placements (column per row) that keep ``given`` {row: col}; ``order`` permutes columns per row."""
    out: list[tuple[int, ...]] = []
    cols = [0] * n

    def place(r: int, used: int, d1: int, d2: int) -> None:
        if len(out) >= limit:
            return
        if r == n:
            out.append(tuple(cols))
            return
        choices = [given[r]] if r in given else (order[r] if order is not None else range(n))
        for c in choices:
            bit, a, b = 1 << c, 1 << (r + c), 1 << (r - c + n)
            if used & bit or d1 & a or d2 & b:
                continue
            cols[r] = c
            place(r + 1, used | bit, d1 | a, d2 | b)

    place(0, 0, 0, 0)
    return out


@functools.lru_cache(maxsize=32)
def _checkerboard(h: int, w: int, n: int) -> np.ndarray:
    """The empty labelled ``n x n`` board with its dark cells filled (read-only, cached per size)."""
    img, layout = blank_labelled_board((h, w), n, n)
    for r in range(n):
        for c in range(n):
            if (r + c) % 2:
                fill_rect(img, *cell_rect(layout, r, c), DARK)
    img.setflags(write=False)
    return img


@functools.lru_cache(maxsize=16)
def _columns(n: int) -> np.ndarray:
    """An ``n x n`` array whose every row is ``0 .. n-1`` (read-only)."""
    out = np.tile(np.arange(n), (n, 1))
    out.setflags(write=False)
    return out


def is_valid(n: int, cells: set[tuple[int, int]]) -> bool:
    if len(cells) != n:
        return False
    rows, cols = {r for r, _ in cells}, {c for _, c in cells}
    d1, d2 = {r + c for r, c in cells}, {r - c for r, c in cells}
    return len(rows) == len(cols) == len(d1) == len(d2) == n


class NQueens(CellsAnswerEnv):
    """Place the remaining queens on an N x N board so that no two queens attack each other.

    ## Description
    An ``n x n`` chessboard (columns A, B, ... left to right, rows 1, 2, ... top to bottom)
    shows some queens already placed. The answer completes the board to ``n`` queens with no
    two in the same row, column or diagonal. Several completions may exist: any one that
    keeps the given queens is accepted (it is checked against the rules).

    ## Action Space
    ``answer_format="open"``: `Text`, the cells of all ``n`` queens such as ``A2 B4 C1 D3``
    (the given queens may be left out), or the board as ``n`` rows of ``Q`` and ``.``.
    ``"mcq"``: `Discrete(k)` over complete placements.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled board with the given queens.

    ## Rewards
    1.0 if the given queens and the answered ones are ``n`` mutually non-attacking queens, else 0.0.

    ## Starting State
    A random solution is drawn by randomised backtracking; some of its queens are shown.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5 with 2 queens given, 1: 7x7 with 2 given, 2: 8x8 with 1 given),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the cells of all the queens, column letter then row number, separated by spaces (for example `A2 B4 C1`)"

    def _configure(self) -> None:
        self.n, self.k = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        order = rng.permuted(_columns(n), axis=1).tolist()  # the draws of n calls of rng.permutation(n), in one call
        sol = queens_solutions(n, {}, 1, order)[0]
        rows = sorted(int(r) for r in rng.choice(n, size=self.k, replace=False))
        self.given = tuple((r, sol[r]) for r in rows)

    # -- draw
    def _draw(self) -> np.ndarray:
        (h, w), n = self.obs_size, self.n
        base = _checkerboard(h, w, n)
        img, layout = base.copy(), labelled_layout((h, w), n, n)
        size = max(4, int(layout[2] * 0.95))
        for r, c in self.given:  # each queen copied from a tile blended over its cell's colour where it fits in the cell
            draw_layers(img, [[text_layer("\u265b", cell_centre(layout, r, c), size, GIVEN)]], base, DARK if (r + c) % 2 else WHITE)
        return img

    def _task_text(self) -> str:
        n, last = self.n, chr(64 + self.n)
        return (f"The image shows a {n}x{n} chessboard with columns A to {last} (left to right) and rows 1 to {n} "
                f"(top to bottom). {len(self.given)} queen(s) are already placed. Place more queens so that the board "
                f"holds exactly {n} queens and no two queens share a row, a column or a diagonal. The given queens "
                f"stay where they are. Name the cells of all {n} queens.")

    def _state_text(self) -> str:
        rows = ["." * self.n] * self.n
        for r, c in self.given:
            rows[r] = f"{rows[r][:c]}Q{rows[r][c + 1:]}"
        return "\n".join(rows)

    # -- verify
    def _check(self, answer: tuple[tuple[int, int], ...]) -> bool:
        return is_valid(self.n, set(answer) | set(self.given))

    # -- oracle
    def _solve(self) -> tuple[tuple[int, int], ...]:
        sol = queens_solutions(self.n, dict(self.given), 1)[0]
        return tuple((r, c) for r, c in enumerate(sol))

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[tuple[int, int], ...]]:
        n, sol = self.n, self._solution
        others = [tuple(enumerate(s)) for s in queens_solutions(n, {}, 40) if not set(self.given) <= set(enumerate(s))]
        moved = move_one(sol, n, n, fixed=self.given)
        short = [tuple(x for x in sol if x != cell) for cell in sol if cell not in self.given]
        shifted = [tuple(sorted((r, (c + 1) % n) for r, c in sol)), tuple(sorted((r, n - 1 - c) for r, c in sol))]
        return interleave(rng, moved, others, short, shifted)


SPECS = (
    TaskSpec(name="NQueens", entry_point=NQueens, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "chess")),
)
