"""Campsite: place camps so that no two touch, not even diagonally, matching the row and column counts."""

from __future__ import annotations

import operator

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import board_base, cell_text
from gymv_envs.core.canvas import BACKGROUND, PALETTE, WHITE, draw_layers, shape_layer
from gymv_envs.domains.logic._campsite_solver import solve, spread_masks
from gymv_envs.domains.logic._grid import GridAnswerEnv

# difficulty -> (side, camps)
LEVELS = {0: (5, 5), 1: (6, 8), 2: (8, 13)}
PROBE = 4  # solutions looked at per given cell added
CAMP = PALETTE["orange"]
EMPTY_MARK = PALETTE["gray"]


class Campsite(GridAnswerEnv):
    """Place the camps: none touching, not even diagonally, with the row and column counts shown.

    ## Description
    An ``n x n`` grid has a number right of each row and below each column: how many camps that
    line holds. Some cells may be given: an orange disc is a camp, a small grey cross (+) a cell without
    one. Place camps so that every count holds and no two camps touch, neither side by side nor
    diagonally (the eight cells around a camp are empty). The solution is unique (a row-by-row
    solver counts solutions up to two at generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the grid row by row with ``#`` (or ``1``) for a camp and
    ``.`` (or ``0``) for an empty cell, ``/`` or newlines between rows. ``"mcq"``:
    `Discrete(k)` over grids.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid, the counts and the given cells.

    ## Rewards
    1.0 if the grid keeps the given cells, matches every count and has no two touching camps,
    else 0.0.

    ## Starting State
    Camps are scattered at random without touching; the counts are read off. When the counts
    alone allow other solutions, the cell where most of the (up to four) solutions found differ
    from the layout is given (its camp or its cross), until the solver finds no other solution.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5 with 5 camps, 1: 6x6 with 8, 2: 8x8 with 13), ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    cell_kind = "mask"

    def _configure(self) -> None:
        self.n, self.camps = LEVELS[self.difficulty]
        self.rows = self.cols = self.n
        self.answer_hint = self._mask_hint("the camps", "a camp", "an empty cell")

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        w = n + 2  # cell (r, c) at (r + 1) * w + c + 1 of a grid with a border one cell wide
        around = tuple(dr * w + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1))
        while True:
            camps: list[tuple[int, int]] = []
            near = bytearray(w * w)  # a camp on the cell or in its eight neighbours
            for i in rng.permutation(n * n).tolist():
                r, c = divmod(i, n)
                p = (r + 1) * w + c + 1
                if not near[p]:
                    camps.append((r, c))
                    for d in around:
                        near[p + d] = 1
                    if len(camps) == self.camps:
                        break
            if len(camps) == self.camps:
                break
        grid, cc = [0] * n, [0] * n
        for r, c in camps:
            grid[r] |= 1 << c
            cc[c] += 1
        rc = [m.bit_count() for m in grid]
        ones, zeros, dead = [0] * n, [0] * n, set()  # more givens: states without a completion keep none
        while True:  # give the cell where most other solutions found differ from the layout, until none is left
            others = [s for s in solve(n, rc, cc, ones, zeros, limit=PROBE, dead=dead) if list(s) != grid]
            if not others:
                break
            spread = spread_masks(n)  # per row, how many solutions differ in each column, four bits per column
            tally = [sum(spread[grid[r] ^ s[r]] for s in others) for r in range(n)]
            miss = [(tally[r] >> 4 * c & 15, r, c) for r in range(n) for c in range(n)]
            top = max(miss)[0]
            best = [(r, c) for k, r, c in miss if k == top]
            r, c = best[int(rng.integers(len(best)))]
            if grid[r] >> c & 1:
                ones[r] |= 1 << c
            else:
                zeros[r] |= 1 << c
        self.ones, self.zeros = ones, zeros
        self.row_counts, self.col_counts, self._grid = rc, cc, grid
        self.free = [(r, c) for r in range(n) for c in range(n) if not (self.ones[r] | self.zeros[r]) >> c & 1]

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        base, g = board_base(tuple(self.obs_size), n, n, pad=(0, 0.8, 0.8, 0))
        img = base.copy()
        camp, cross, groups = int(g.cell * 0.62), int(g.cell * 0.36), []  # the givens' discs and crosses
        for r in range(n):
            on, off = self.ones[r], self.zeros[r]
            for c in range(n):
                if on >> c & 1:
                    groups.append([shape_layer("circle", *g.center(r, c), camp, CAMP)])
                elif off >> c & 1:
                    groups.append([shape_layer("cross", *g.center(r, c), cross, EMPTY_MARK)])
        draw_layers(img, groups, base, WHITE)  # each inside its own cell: tiles, or blended in this order
        for i in range(n):
            cell_text(img, g, i, n - 0.1, str(self.row_counts[i]), scale=0.5, bg=BACKGROUND)
            cell_text(img, g, n - 0.1, i, str(self.col_counts[i]), scale=0.5, bg=BACKGROUND)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Campsite puzzle. The number right of each row and below each column is "
                "how many camps that row or column holds. An orange disc is a given camp and a small grey cross (+) a given "
                "cell without a camp. Place camps so that every count holds and no two camps touch each other, "
                "neither side by side nor diagonally. Where are all the camps?")

    def _state_text(self) -> str:
        n, rows = self.n, []
        for on, off in zip(self.ones, self.zeros):
            rows.append(" ".join(["#" if on >> c & 1 else "x" if off >> c & 1 else "." for c in range(n)]))
        body = "\n".join(rows)
        return f"{body}\nrow counts: {' '.join(map(str, self.row_counts))}\ncolumn counts: {' '.join(map(str, self.col_counts))}"

    # -- verify
    def _check(self, answer) -> bool:
        places = range(self.n)
        masks = [sum(map(operator.lshift, row, places)) for row in answer]  # cell c at bit c
        if any(m & o != o or m & z for m, o, z in zip(masks, self.ones, self.zeros, strict=True)):
            return False
        if [m.bit_count() for m in masks] != self.row_counts:
            return False
        if [sum(col) for col in zip(*answer, strict=True)] != self.col_counts:
            return False
        return all(not (m & m >> 1) and not (m & (p | p << 1 | p >> 1)) for p, m in zip([0, *masks], masks))

    # -- oracle
    def _solve(self):
        # the solver found no second solution for these clues: the layout is the solution
        return tuple(tuple(m >> c & 1 for c in range(self.n)) for m in self._grid)


SPECS = (
    TaskSpec(name="Campsite", entry_point=Campsite, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction")),
)
