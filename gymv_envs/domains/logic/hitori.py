"""Hitori: shade repeated numbers away, shaded cells apart and the rest connected."""

from __future__ import annotations

from collections import Counter

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import blank_board, cell_text
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.logic._grid import Budget, GridAnswerEnv, latin_square
from gymv_envs.domains.logic._placement import beside4, bits, edge_masks, is_connected

# difficulty -> (side, shaded share wanted)
LEVELS = {0: (5, 0.24), 1: (6, 0.26), 2: (8, 0.27)}


def connected(n: int, shaded: set) -> bool:
    """Whether the unshaded cells form one edge-connected region (bit-parallel flood fill)."""
    full = (1 << (n * n)) - 1
    free = full & ~sum(1 << (r * n + c) for r, c in shaded)
    if not free:
        return False
    not_first = full & ~sum(1 << (r * n) for r in range(n))       # cells not in column 0
    not_last = full & ~sum(1 << (r * n + n - 1) for r in range(n))  # cells not in column n-1
    region = free & -free
    while True:
        grown = (region | ((region << 1) & not_first) | ((region >> 1) & not_last) | (region << n) | (region >> n)) & free
        if grown == region:
            return region == free
        region = grown


def _reaches(seed: int, targets: int, within: int, n: int) -> bool:
    """Whether a flood from ``seed`` inside ``within`` reaches every cell of ``targets`` (stopping as
    soon as it has)."""
    full, not_first, not_last = edge_masks(n, n)
    region = seed
    while region & targets != targets:
        grown = (region | (region << 1 & not_first) | (region >> 1 & not_last) | (region << n) | (region >> n)) & within
        if grown == region:
            return False
        region = grown
    return True


def repeated(grid) -> set:
    """Cells whose number appears more than once in their row or their column."""
    n = len(grid)
    rows = [Counter(row) for row in grid]
    cols = [Counter(col) for col in zip(*grid, strict=True)]
    return {(r, c) for r in range(n) for c in range(n) if rows[r][grid[r][c]] > 1 or cols[c][grid[r][c]] > 1}


def solve(grid, limit: int = 2, budget: int = 30_000) -> list[frozenset]:
    """Shadings of repeated cells only, with no repeat among unshaded cells, no shaded neighbours and the
    unshaded cells connected.

    On bit masks (cell r * n + c): an unshaded cell shades every cell holding its number in its row
    and column, a shaded cell unshades its neighbours, and the cells not shaded must stay connected;
    after that settles, the search branches on the first undecided cell.
    """
    n = len(grid)
    full = (1 << (n * n)) - 1
    peers = [0] * (n * n)  # the other cells with the same number in the same row or column
    for r in range(n):
        for c in range(n):
            v = grid[r][c]
            for k in range(n):
                if k != c and grid[r][k] == v:
                    peers[r * n + c] |= 1 << (r * n + k)
                if k != r and grid[k][c] == v:
                    peers[r * n + c] |= 1 << (k * n + c)
    unshaded0 = sum(1 << i for i in range(n * n) if not peers[i])
    out: list[frozenset] = []
    nodes = [0]

    def rec(shaded: int, unshaded: int, done: int) -> None:
        while True:  # settle: `done` holds the unshaded cells whose peers are shaded already
            for i in bits(unshaded & ~done):
                shaded |= peers[i]
            done = unshaded
            if shaded & unshaded:
                return
            ring = beside4(shaded, n, n)
            if ring & shaded:  # two shaded cells side by side
                return
            more = ring & ~unshaded
            if not more:
                break
            unshaded |= more
        if not is_connected(full & ~shaded, n, n):
            return
        open_ = full & ~shaded & ~unshaded
        if not open_:
            out.append(frozenset(divmod(i, n) for i in bits(shaded)))
            return
        cell = open_ & -open_
        for shade in (True, False):
            nodes[0] += 1
            if nodes[0] > budget:
                raise Budget
            if shade:
                rec(shaded | cell, unshaded, done)
            else:
                rec(shaded, unshaded | cell, done)
            if len(out) >= limit:
                return

    rec(0, unshaded0, 0)
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
    _repeats: tuple | None = None  # (grid, its repeated cells)

    def _configure(self) -> None:
        self.n, self.share = LEVELS[self.difficulty]
        self.rows = self.cols = self.n
        self.answer_hint = self._mask_hint("the shading", "shaded", "unshaded")

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        full = (1 << (n * n)) - 1
        self._shading = None
        for _ in range(2000):
            grid = latin_square(rng, n)
            mask, count = 0, 0  # the shaded cells as bits r * n + c
            for i in rng.permutation(n * n).tolist():
                if count >= self.share * n * n:
                    break
                bit = 1 << i
                near = beside4(bit, n, n)
                if near & mask:
                    continue
                # the free cells are connected; without this cell they stay so exactly when its
                # (free) neighbours still reach each other
                if near and _reaches(near & -near, near, full & ~(mask | bit), n):
                    mask |= bit
                    count += 1
            with ScalarDraws(rng) as d:  # `rng.integers` one by one, at Python speed
                for i in bits(mask):  # reading order, as the cells sorted
                    r, c = divmod(i, n)
                    pool = ([grid[r][k] for k in range(n) if not mask >> (r * n + k) & 1]
                            + [grid[k][c] for k in range(n) if not mask >> (k * n + c) & 1])
                    grid[r][c] = pool[d.integers(len(pool))]
            try:
                if len(solve(grid)) == 1:
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
        for r in range(n):
            for c in range(n):
                cell_text(img, g, r, c, str(self.grid[r][c]), scale=0.55)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Hitori puzzle. Shade some cells so that: no number appears more than "
                "once among the unshaded cells of any row or column; no two shaded cells are next to each other "
                "horizontally or vertically; all unshaded cells are connected to each other through shared edges; "
                "and a cell may be shaded only if its number appears more than once in its row or column. Which "
                "cells are shaded?")

    def _state_text(self) -> str:
        return self._state_rows(lambda r, c: str(self.grid[r][c]))

    # -- verify
    def _check(self, answer) -> bool:
        n = self.n
        shaded = {(r, c) for r in range(n) for c in range(n) if answer[r][c]}
        if self._repeats is None or self._repeats[0] is not self.grid:
            self._repeats = (self.grid, repeated(self.grid))
        if len(shaded) == n * n or not shaded <= self._repeats[1]:
            return False
        if any((r + 1, c) in shaded or (r, c + 1) in shaded for r, c in shaded):
            return False
        for i in range(n):
            row = [self.grid[i][k] for k in range(n) if (i, k) not in shaded]
            col = [self.grid[k][i] for k in range(n) if (k, i) not in shaded]
            if len(set(row)) != len(row) or len(set(col)) != len(col):
                return False
        return connected(n, shaded)

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
