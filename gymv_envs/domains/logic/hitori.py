"""Hitori: shade repeated numbers away, shaded cells apart and the rest connected."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import GIVEN, blank_board, cell_text, text_tile
from gymv_envs.core.canvas import WHITE
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.logic._grid import Budget, GridAnswerEnv, latin_square
from gymv_envs.domains.logic._placement import beside4, bits, edge_masks, is_connected

# difficulty -> (side, shaded share wanted)
LEVELS = {0: (5, 0.24), 1: (6, 0.26), 2: (8, 0.27)}


@functools.lru_cache(maxsize=16)  # a tuple of n * n ints per side
def _around(n: int) -> tuple[int, ...]:
    """Per cell r * n + c, its orthogonal neighbours as a bit mask."""
    return tuple(beside4(1 << i, n, n) for i in range(n * n))


@functools.lru_cache(maxsize=16)  # n * n small tuples per side
def _corners(n: int) -> tuple[tuple[int, int], ...]:
    """Per cell r * n + c: the diagonal neighbours that join two of its orthogonal neighbours (a mask),
    and how many of those may be shaded with its orthogonal neighbours still joined around the cell (as
    many as they are less the joins the neighbours need to hang together: their count less one)."""
    out = []
    for r in range(n):
        for c in range(n):
            ring = [(r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)]  # clockwise; corner k joins k and k + 1
            inside = [0 <= a < n and 0 <= b < n for a, b in ring]
            joins = [1 << ((a + e - r) * n + (b + f - c))
                     for k, ((a, b), (e, f)) in enumerate(zip(ring, ring[1:] + ring[:1]))
                     if inside[k] and inside[(k + 1) % 4]]
            out.append((sum(joins), len(joins) - (sum(inside) - 1)))  # distinct cells: the sum is their mask
    return tuple(out)


def _reaches(seed: int, targets: int, within: int, n: int, not_first: int, not_last: int) -> bool:
    """Whether a flood from ``seed`` inside ``within`` reaches every cell of ``targets`` (stopping as
    soon as it has); ``not_first``, ``not_last``: `edge_masks` (the cells off the first, last column)."""
    region = seed
    while region & targets != targets:
        grown = (region | (region << 1 & not_first) | (region >> 1 & not_last) | (region << n) | (region >> n)) & within
        if grown == region:
            return False
        region = grown
    return True


@functools.lru_cache(maxsize=16)  # a tuple of n * n ints per side
def _lines(n: int) -> tuple[int, ...]:
    """Per cell r * n + c, the other cells of its row and column as a bit mask."""
    rows = [((1 << n) - 1) << (r * n) for r in range(n)]
    cols = [sum(1 << (k * n + c) for k in range(n)) for c in range(n)]
    return tuple((rows[i // n] | cols[i % n]) & ~(1 << i) for i in range(n * n))


def _where(grid) -> dict:
    """Each number's cells in the whole grid as a bit mask (cell r * n + c)."""
    where: dict = {}
    bit = 1
    for row in grid:
        for v in row:
            where[v] = where.get(v, 0) | bit
            bit <<= 1
    return where


def _peers(grid) -> list[int]:
    """Per cell r * n + c, the other cells with its number in its row or column, as a bit mask."""
    where = _where(grid)
    return [where[v] & m for v, m in zip([v for row in grid for v in row], _lines(len(grid)))]


def repeats(grid) -> list[int]:
    """The groups of two or more cells with one number in one row or column, as bit masks (cell r * n + c):
    together, the cells whose number repeats in their row or column."""
    n = len(grid)
    row, col = (1 << n) - 1, sum(1 << (k * n) for k in range(n))
    lines = [row << (r * n) for r in range(n)] + [col << c for c in range(n)]
    return [m for cells in _where(grid).values() for line in lines if (m := cells & line) & (m - 1)]


def shadings(grid, limit: int = 2, budget: int = 30_000) -> list[int]:
    """Shadings (bit masks, cell r * n + c) of repeated cells only, with no repeat among unshaded cells, no shaded neighbours and the
    unshaded cells connected.

    On bit masks (cell r * n + c): an unshaded cell shades every cell holding its number in its row
    and column, a shaded cell unshades its neighbours, and the cells not shaded must stay connected;
    after that settles, the search branches on the first undecided cell.
    """
    n = len(grid)
    full = (1 << (n * n)) - 1
    peers = _peers(grid)  # the other cells with the same number in the same row or column
    unshaded0 = full & ~functools.reduce(int.__or__, peers)  # cells with no peer (peers are mutual)
    out: list[int] = []
    nodes = [0]
    _, not_first, not_last = edge_masks(n, n)

    def rec(shaded: int, unshaded: int, done: int) -> None:
        while True:  # settle: `done` holds the unshaded cells whose peers are shaded already
            new = unshaded & ~done
            while new:
                low = new & -new
                new ^= low
                shaded |= peers[low.bit_length() - 1]
            done = unshaded
            if shaded & unshaded:
                return
            ring = ((shaded << 1 & not_first) | (shaded >> 1 & not_last) | (shaded << n) | (shaded >> n)) & full
            if ring & shaded:  # two shaded cells side by side
                return
            more = ring & ~unshaded
            if not more:
                break
            unshaded |= more
        free = full & ~shaded  # connected? (a flood from its first cell)
        region = free & -free
        while True:
            grown = (region | (region << 1 & not_first) | (region >> 1 & not_last) | (region << n) | (region >> n)) & free
            if grown == region:
                break
            region = grown
        if region != free:
            return
        open_ = full & ~shaded & ~unshaded
        if not open_:
            out.append(shaded)
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


def solve(grid, limit: int = 2, budget: int = 30_000) -> list[frozenset]:
    """`shadings` as sets of shaded cells (r, c)."""
    n = len(grid)
    return [frozenset(divmod(i, n) for i in bits(m)) for m in shadings(grid, limit, budget)]


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
        around, corners, (_, not_first, not_last) = _around(n), _corners(n), edge_masks(n, n)
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
                             or _reaches(near & -near, near, full & ~(mask | 1 << i), n, not_first, not_last)):
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
