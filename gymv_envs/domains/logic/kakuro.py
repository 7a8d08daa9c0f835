"""Kakuro: fill white cells with 1-9 so each run has distinct digits adding up to its clue."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import blank_board, cell_text
from gymv_envs.core.canvas import WHITE, fill_rect, new_frame
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.logic._grid import GridAnswerEnv
from gymv_envs.domains.logic._kakuro_solver import ALL, DIGITS, reveal, runs_of

# difficulty -> (board side including the clue row and column, extra black cells wanted)
LEVELS = {0: (4, 0), 1: (5, 2), 2: (6, 4)}
DARK = (60, 62, 72)
CLUE = (235, 235, 240)


@functools.lru_cache(maxsize=32)
def clue_tile(size: int) -> np.ndarray:
    """A dark clue cell with its light diagonal (read-only, cached)."""
    tile = new_frame(size, size, DARK)
    w = max(1, size // 40)
    for i in range(size):
        fill_rect(tile, i - w, i, i + w + 1, i + 1, CLUE)
    tile.setflags(write=False)
    return tile


class Kakuro(GridAnswerEnv):
    """Fill a Kakuro: digits 1-9 in the white cells, each run distinct and adding to its clue.

    ## Description
    A board of white cells and dark clue cells. A number in the upper-right part of a clue
    cell is the sum of the run of white cells to its right; a number in the lower-left part
    is the sum of the run below it. Fill every white cell with a digit 1-9 so that each run
    adds up to its clue and has no repeated digit. Some white cells may show given digits.
    The solution is unique (checked by the solver at generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the digits of the white cells row by row, top to
    bottom and left to right, rows separated by ``/`` (rows without white cells left out);
    the whole board with ``0`` in every dark cell is read too. ``"mcq"``: `Discrete(k)` over
    fillings.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with clue sums and given digits.

    ## Rewards
    1.0 if every run has distinct digits adding up to its clue and the givens are kept, else 0.0.

    ## Starting State
    A random pattern (interior cells blackened at random, runs of one cell removed) is filled
    with random distinct digits per run, cell by cell; while the sums allow two solutions, a
    cell where they differ is revealed as a given digit.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3x3 white area, 1: 4x4 with about 2 dark cells, 2: 5x5 with about 4),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    - v2: other levels for a seed, made faster: the filling is drawn cell by cell, and the givens
      come from one search that goes on after each reveal instead of a new search per given
      (same rules, sizes and unique solution; mean givens d0/d1/d2 3.04/4.26/5.83, were
      3.03/4.15/5.92).
    """

    cell_kind = "digit"

    def _configure(self) -> None:
        self.n, self.blacks = LEVELS[self.difficulty]
        self.rows = self.cols = self.n
        self.answer_hint = ("the digits of the white cells row by row (top to bottom, left to right), rows separated by "
                            "`/` (for example `3 1 / 9 8 7 / ...`)")

    def _values(self) -> range:
        return range(1, 10)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        inner = sum(1 << (r * n + c) for r in range(1, n) for c in range(1, n))  # bit r*n+c: cell (r, c)
        while True:
            w = inner
            for i in rng.permutation((n - 1) ** 2)[:self.blacks]:
                r, c = divmod(int(i), n - 1)
                w &= ~(1 << ((r + 1) * n + c + 1))
            while True:  # a white cell must lie on a run of at least two both ways (row and column 0 are dark)
                keep = w & (w << 1 | w >> 1) & (w << n | w >> n)
                if keep == w:
                    break
                w = keep
            if w.bit_count() >= (n - 1) ** 2 - self.blacks - 2:
                break
        white = [[bool(w >> (r * n + c) & 1) for c in range(n)] for r in range(n)]
        cells = [(r, c) for r in range(n) for c in range(n) if white[r][c]]
        runs = runs_of(white)
        of: dict = {x: [] for x in cells}
        for i, run in enumerate(runs):
            for x in run:
                of[x].append(i)
        used = [0] * len(runs)
        fill = {}
        with ScalarDraws(rng) as draws:
            for x in cells:  # random distinct digits per run (a cell sees at most 8 others: one is left)
                a, b = of[x]
                digits = DIGITS[ALL & ~(used[a] | used[b])]
                d = fill[x] = digits[draws.integers(len(digits))]
                used[a] |= 1 << d
                used[b] |= 1 << d
            sums = [sum(fill[x] for x in run) for run in runs]
            givens = reveal(cells, runs, sums, fill, draws)
        self.white, self.cells, self.runs, self.sums, self.givens = white, cells, runs, sums, givens
        self._fill = fill  # the sums and givens have one solution: the filling they came from
        self.free = [x for x in cells if x not in givens]

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        img, g = blank_board(self.obs_size, n, n)
        s = int(g.cell) - max(1, int(g.cell / 30))
        tile = clue_tile(max(2, s))
        across = {run[0]: t for run, t in zip(self.runs, self.sums, strict=True) if run[0][0] == run[1][0]}
        down = {run[0]: t for run, t in zip(self.runs, self.sums, strict=True) if run[0][1] == run[1][1]}
        for r in range(n):
            for c in range(n):
                if self.white[r][c]:
                    if (r, c) in self.givens:
                        cell_text(img, g, r, c, str(self.givens[(r, c)]))
                    continue
                x0, y0, _, _ = g.box(r, c)
                x, y = int(x0) + 1, int(y0) + 1
                img[y:y + tile.shape[0], x:x + tile.shape[1]] = tile[: img.shape[0] - y, : img.shape[1] - x]
                if (r, c + 1) in across:
                    cell_text(img, g, r - 0.22, c + 0.2, str(across[(r, c + 1)]), scale=0.36, color=WHITE, bg=DARK)
                if (r + 1, c) in down:
                    cell_text(img, g, r + 0.22, c - 0.2, str(down[(r + 1, c)]), scale=0.36, color=WHITE, bg=DARK)
        return img

    def _task_text(self) -> str:
        return ("The image shows a Kakuro puzzle. Fill every white cell with a digit from 1 to 9. A number in the "
                "upper-right half of a dark cell is the sum of the white cells to its right up to the next dark cell; "
                "a number in the lower-left half is the sum of the white cells below it up to the next dark cell. No "
                "digit repeats within one such run. Keep any given digits.")

    def _state_text(self) -> str:
        runs = "; ".join(f"{'across' if run[0][0] == run[1][0] else 'down'} from r{run[0][0] + 1}c{run[0][1] + 1} "
                         f"({len(run)} cells) = {t}" for run, t in zip(self.runs, self.sums, strict=True))
        board = self._state_rows(lambda r, c: str(self.givens.get((r, c), ".")) if self.white[r][c] else "#")
        return f"{board}\nruns: {runs}"

    # -- verify
    def _grid_from_cells(self, cells: list[str]):
        n = self.n
        if len(cells) == n * n:
            if any(cells[r * n + c] != "0" for r in range(n) for c in range(n) if not self.white[r][c]):
                return None
            vals = {x: int(cells[x[0] * n + x[1]]) for x in self.cells}
        elif len(cells) == len(self.cells):
            vals = {x: int(v) for x, v in zip(self.cells, cells, strict=True)}
        else:
            return None
        return tuple(tuple(vals.get((r, c), 0) for c in range(n)) for r in range(n))

    def _cell_counts(self) -> tuple[int, ...]:
        return (self.n * self.n, len(self.cells))

    def _format(self, answer) -> str:
        rows = [" ".join(str(answer[r][c]) for c in range(self.n) if self.white[r][c]) for r in range(self.n)]
        return " / ".join(row for row in rows if row)

    def _check(self, answer) -> bool:
        if any(answer[r][c] != v for (r, c), v in self.givens.items()):
            return False
        for run, t in zip(self.runs, self.sums, strict=True):
            digits = [answer[r][c] for r, c in run]
            if not all(1 <= d <= 9 for d in digits) or len(set(digits)) != len(digits) or sum(digits) != t:
                return False
        return True

    # -- oracle
    def _solve(self):
        val = self._fill
        return tuple(tuple(val.get((r, c), 0) for c in range(self.n)) for r in range(self.n))


SPECS = (
    TaskSpec(name="Kakuro", entry_point=Kakuro, version=2, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "arithmetic")),
)
