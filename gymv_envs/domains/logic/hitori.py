"""Hitori: shade repeated numbers away, shaded cells apart and the rest connected."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.bits import beside4, edge_masks, is_connected
from gymv_envs.core.board import GIVEN, blank_board, cell_text, text_tile
from gymv_envs.core.canvas import WHITE
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.logic._grid import Budget, GridAnswerEnv, latin_square
from gymv_envs.domains.logic._hitori_solver import (
    corner_joins,
    flood_reaches,
    neighbour_masks,
    repeats,
    shadings,
    solve,
)
from gymv_envs.domains.logic._placement import bits

# difficulty -> (side, shaded share wanted)
LEVELS = {0: (5, 0.24), 1: (6, 0.26), 2: (8, 0.27)}


@functools.lru_cache(maxsize=32)  # per frame and side: n tiles (shared with text_tile's cache), 2n slices each
def _places(H: int, W: int, n: int, x0: float, y0: float, cell: float) -> dict:
    """Per number, `cell_text`'s tile for it and where it goes: per column, and per row, the slice it
    fills (None where the tile would leave the frame: `cell_text` draws that cell itself)."""
    size = max(4, int(cell * 0.55))  # `cell_text`'s size for one digit
    out = {}
    for v in range(1, n + 1):
        tile = text_tile(str(v), size, GIVEN, True, WHITE)
        h, w = tile.shape[:2]
        xs = [int(round(x0 + (c + 0.5) * cell - w / 2)) for c in range(n)]
        ys = [int(round(y0 + (r + 0.5) * cell - h / 2)) for r in range(n)]
        out[v] = (tile, tuple(slice(x, x + w) if 0 <= x and x + w <= W else None for x in xs),
                  tuple(slice(y, y + h) if 0 <= y and y + h <= H else None for y in ys))
    return out


class Hitori(GridAnswerEnv):
    """Shade cells of a Hitori grid so no number repeats in a row or column.

    ## Description
    An ``n x n`` grid of numbers. Shade some cells so that: no number appears more than once
    among the unshaded cells of any row or column; no two shaded cells share an edge; all
    unshaded cells form one region connected through shared edges; and only a cell whose
    number appears more than once in its row or column is shaded. The solution is unique
    (checked by the solver at generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the grid row by row with ``#`` (or ``1``) for a shaded
    cell and ``.`` (or ``0``) for an unshaded one, ``/`` or newlines between rows.
    ``"mcq"``: `Discrete(k)` over shadings.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid of numbers.

    ## Rewards
    1.0 if the shading obeys the four rules, else 0.0.

    ## Starting State
    A random Latin square; random cells (not adjacent, the rest connected) get a number
    copied from an unshaded cell of their row or column. Redrawn until the solution is unique.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5, 1: 6x6, 2: 8x8), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    cell_kind = "mask"
    _repeats: tuple | None = None  # (grid, its `repeats` groups, their cells as one mask)

    def _configure(self) -> None:
        self.n, self.share = LEVELS[self.difficulty]
        self.rows = self.cols = self.n
        self.answer_hint = self._mask_hint("the shading", "shaded", "unshaded")

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        full = (1 << (n * n)) - 1
        self._shading = None
        around, corners, (_, not_first, not_last) = neighbour_masks(n), corner_joins(n), edge_masks(n, n)
        for _ in range(2000):
            grid = latin_square(rng, n)
            mask, count = 0, 0  # the shaded cells as bits r * n + c
            for i in rng.permutation(n * n).tolist():
                if count >= self.share * n * n:
                    break
                near = around[i]
                if near & mask:
                    continue
                # the free cells are connected; without this cell they stay so exactly when its
                # (free) neighbours still reach each other: around it through free corners, or else
                joins, slack = corners[i]
                if near and ((joins & mask).bit_count() <= slack
                             or flood_reaches(near & -near, near, full & ~(mask | 1 << i), n, not_first, not_last)):
                    mask |= 1 << i
                    count += 1
            # the numbers left unshaded in each row and column (the shaded ones change below)
            rows = [[x for k, x in enumerate(grid[r]) if not mask >> (r * n + k) & 1] for r in range(n)]
            cols = [[grid[k][c] for k in range(n) if not mask >> (k * n + c) & 1] for c in range(n)]
            with ScalarDraws(rng) as d:  # `rng.integers` one by one, at Python speed
                for i in bits(mask):  # reading order, as the cells sorted
                    r, c = divmod(i, n)
                    pool = rows[r] + cols[c]
                    grid[r][c] = pool[d.integers(len(pool))]
            try:
                if len(shadings(grid)) == 1:
                    # the one solution is the shading the numbers were copied over
                    self._shading = tuple(tuple(mask >> (r * n + c) & 1 for c in range(n)) for r in range(n))
                    break
            except Budget:
                continue
        self.grid = tuple(tuple(row) for row in grid)
        self.free = [(r, c) for r in range(n) for c in range(n)]

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        img, g = blank_board(self.obs_size, n, n)
        places = _places(img.shape[0], img.shape[1], n, g.x0, g.y0, g.cell)
        for r, row in enumerate(self.grid):  # what `cell_text` pastes
            for c, v in enumerate(row):
                tile, xs, ys = places[v]
                if xs[c] is None or ys[r] is None:
                    cell_text(img, g, r, c, str(v), scale=0.55)
                else:
                    img[ys[r], xs[c]] = tile
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Hitori puzzle. Shade some cells so that: no number appears more than "
                "once among the unshaded cells of any row or column; no two shaded cells are next to each other "
                "horizontally or vertically; all unshaded cells are connected to each other through shared edges; "
                "and a cell may be shaded only if its number appears more than once in its row or column. Which "
                "cells are shaded?")

    def _state_text(self) -> str:
        return "\n".join(" ".join(map(str, row)) for row in self.grid)

    # -- verify
    def _check(self, answer) -> bool:
        n, grid = self.n, self.grid
        full, mask = (1 << (n * n)) - 1, 0  # the shaded cells, bit r * n + c
        for r, row in enumerate(answer):
            for c, x in enumerate(row):
                if x:
                    mask |= 1 << (r * n + c)
        if self._repeats is None or self._repeats[0] is not grid:
            groups = repeats(grid)
            self._repeats = (grid, groups, functools.reduce(int.__or__, groups, 0))
        _, groups, repeated_cells = self._repeats
        if mask == full or mask & ~repeated_cells or beside4(mask, n, n) & mask:
            return False
        for m in groups:  # two unshaded cells of a group repeat a number
            left = m & ~mask
            if left & (left - 1):
                return False
        return is_connected(full & ~mask, n, n)

    # -- oracle
    def _solve(self):
        if self._shading is not None:
            return self._shading
        shaded = solve(self.grid, limit=1, budget=10**8)[0]
        return tuple(tuple(int((r, c) in shaded) for c in range(self.n)) for r in range(self.n))


SPECS = (
    TaskSpec(name="Hitori", entry_point=Hitori, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction")),
)
