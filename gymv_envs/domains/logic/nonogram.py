"""Nonogram: shade the cells whose runs in every row and column match the number clues."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.logic._grid import BACKGROUND, GridAnswerEnv, blank_board, cell_text

# difficulty -> (side, shaded share range)
LEVELS = {0: (5, (0.5, 0.7)), 1: (7, (0.5, 0.65)), 2: (10, (0.5, 0.62))}


def runs(line) -> tuple[int, ...]:
    """Lengths of the runs of shaded cells along ``line``."""
    out, k = [], 0
    for v in line:
        if v:
            k += 1
        elif k:
            out.append(k)
            k = 0
    if k:
        out.append(k)
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def placements(clue: tuple[int, ...], length: int) -> tuple[int, ...]:
    """Every way to lay out ``clue`` on a line of ``length`` cells, as bit masks (bit i = cell i)."""
    if not clue:
        return (0,)
    first, rest = clue[0], clue[1:]
    need = sum(rest) + len(rest)
    out = []
    for start in range(length - need - first + 1):
        block = ((1 << first) - 1) << start
        skip = start + first + 1
        for tail in placements(rest, max(0, length - skip)) if rest else (0,):
            out.append(block | (tail << skip))
    return tuple(out)


def line_solve(rows: list, cols: list, n: int) -> list[list[int]] | None:
    """Solve by single-line deduction alone; ``None`` if that leaves a cell unknown (or contradicts).

    A puzzle this completes has exactly one solution.
    """
    full = (1 << n) - 1
    on_r, off_r = [0] * n, [0] * n  # known shaded / known empty cells per row (bit c)
    changed = True
    while changed:
        changed = False
        for axis in (0, 1):
            for i in range(n):
                if axis == 0:
                    on, off, clue = on_r[i], off_r[i], rows[i]
                else:
                    on = sum(1 << r for r in range(n) if on_r[r] >> i & 1)
                    off = sum(1 << r for r in range(n) if off_r[r] >> i & 1)
                    clue = cols[i]
                if (on | off) == full:
                    continue
                fits = [p for p in placements(clue, n) if p & off == 0 and p & on == on]
                if not fits:
                    return None
                all_on, all_off = full, full
                for p in fits:
                    all_on &= p
                    all_off &= ~p
                new_on, new_off = (on | all_on) & ~on, (off | (all_off & full)) & ~off
                if not (new_on or new_off):
                    continue
                changed = True
                if axis == 0:
                    on_r[i] |= new_on
                    off_r[i] |= new_off
                else:
                    for r in range(n):
                        on_r[r] |= (new_on >> r & 1) << i
                        off_r[r] |= (new_off >> r & 1) << i
    if any((on_r[r] | off_r[r]) != full for r in range(n)):
        return None
    return [[on_r[r] >> c & 1 for c in range(n)] for r in range(n)]


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
            if line_solve(rows, cols, n) is not None:
                break
        self.row_clues, self.col_clues = rows, cols
        self.free = [(r, c) for r in range(n) for c in range(n)]

    # -- draw
    def _paint(self) -> np.ndarray:
        n = self.n
        left = max(len(c) or 1 for c in self.row_clues) * 0.6 + 0.5
        top = max(len(c) or 1 for c in self.col_clues) * 0.6 + 0.5
        img, g = blank_board(self.obs_size, n, n, pad=(top, 0, 0, left), box=(5, 5) if n % 5 == 0 and n > 5 else None)
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
        return tuple(tuple(row) for row in line_solve(self.row_clues, self.col_clues, self.n))


SPECS = (
    TaskSpec(name="Nonogram", entry_point=Nonogram, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "picross")),
)
