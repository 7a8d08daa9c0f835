"""Star Battle: one star in every row, column and outlined region, no two stars touching."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.core.board import region_board
from gymv_envs.domains.logic._placement import (
    CellsAnswerEnv,
    grow_cells,
    move_one,
    repair_regions,
)
from gymv_envs.domains.logic._star_battle_solver import solutions

SIZES = {0: 5, 1: 6, 2: 8}
_LOWER = bytes.maketrans(bytes(range(26)), b"abcdefghijklmnopqrstuvwxyz")  # region k -> chr(97 + k)


def star_solutions(regions: np.ndarray, limit: int, touching: bool = False,
                   by_region: bool = True) -> list[tuple[int, ...]]:
    """Up to ``limit`` star columns per row; the flags relax the no-touching or region rule."""
    n = regions.shape[0]
    reg = regions.tolist()
    out: list[tuple[int, ...]] = []
    cols = [0] * n

    def place(r: int, used: int, regs: int, prev: int) -> None:
        if len(out) >= limit:
            return
        if r == n:
            out.append(tuple(cols))
            return
        for c in range(n):
            if used >> c & 1 or (by_region and regs >> reg[r][c] & 1) or (not touching and abs(c - prev) <= 1):
                continue
            cols[r] = c
            place(r + 1, used | 1 << c, regs | 1 << reg[r][c], c)

    place(0, 0, 0, -9)
    return out


def first_stars(order: list[list[int]]) -> list[int]:
    """The first placement of one star a row and a column, none touching, trying the columns of row ``r``
    in the order ``order[r]`` (regions play no part: a level's stars are drawn before its regions)."""
    n = len(order)
    cols = [0] * n

    def place(r: int, used: int, prev: int) -> bool:
        if r == n:
            return True
        for c in order[r]:
            if not used >> c & 1 and not -1 <= c - prev <= 1:
                cols[r] = c
                if place(r + 1, used | 1 << c, c):
                    return True
        return False

    place(0, 0, -9)
    return cols


@functools.cache
def _columns(n: int) -> np.ndarray:
    """An ``n x n`` array whose every row is ``0 .. n-1`` (read-only)."""
    out = np.tile(np.arange(n), (n, 1))
    out.setflags(write=False)
    return out


class StarBattle(CellsAnswerEnv):
    """Place one star in every row, every column and every outlined region; stars never touch.

    ## Description
    An ``n x n`` grid (columns A, B, ... left to right, rows 1, 2, ... top to bottom) is cut
    into ``n`` outlined, tinted regions. Place ``n`` stars so that every row, every column and
    every region holds exactly one star, and no two stars touch, not even diagonally. Every
    level has exactly one solution (checked by the solver when it is generated); answers are
    checked against the rules.

    ## Action Space
    ``answer_format="open"``: `Text`, the star cells such as ``A2 B4 C1`` (any order), or the
    grid as ``n`` rows of ``*`` and ``.``. ``"mcq"``: `Discrete(k)` over star placements.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled grid with its regions.

    ## Rewards
    1.0 if the stars keep every rule, else 0.0.

    ## Starting State
    A random non-touching placement of stars is drawn, regions are grown from the stars at
    random, then cells are handed between neighbouring regions to break every other solution
    the solver finds, until exactly one is left.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5, 1: 6x6, 2: 8x8), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the cells of all the stars, column letter then row number, separated by spaces (for example `A2 B4 C1`)"

    def _configure(self) -> None:
        self.n = SIZES[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        while True:
            # n permutations of range(n), one a row: the draws of n calls of rng.permutation(n) in one call
            order = rng.permuted(_columns(n), axis=1).tolist()
            stars = first_stars(order)
            regions = grow_cells(rng, list(enumerate(stars)), n, n)
            truth = frozenset(enumerate(stars))
            skip = sum(1 << (r * n + c) for r, c in truth)

            def other(masks: list[int], skip: int = skip) -> list[frozenset[tuple[int, int]]]:
                return solutions(masks, 1, skip)  # the first solution but the stars drawn

            if repair_regions(rng, regions, n, truth, other):
                break
        self.regions = np.array(regions, dtype=np.int64).reshape(n, n)
        self.stars = truth  # the repair left ``truth`` the only solution

    # -- draw
    def _draw(self) -> np.ndarray:
        return region_board(self.obs_size, self.regions)[0]

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Star Battle grid with columns A to {chr(64 + n)} (left to right) and rows "
                f"1 to {n} (top to bottom), divided by thick lines into {n} tinted regions. Place {n} stars so that "
                "every row, every column and every region contains exactly one star, and no two stars touch each "
                "other, not even diagonally. Name the cells of all the stars.")

    def _state_text(self) -> str:
        n, s = self.n, bytes(self.regions.ravel().tolist()).translate(_LOWER).decode()
        return "\n".join([s[i:i + n] for i in range(0, n * n, n)])

    # -- verify
    def _check(self, answer: tuple[tuple[int, int], ...]) -> bool:
        n, cells = self.n, set(answer)
        if len(cells) != n:
            return False
        regions, rows, cols, regs = self.regions.ravel().tolist(), 0, 0, 0
        for r, c in cells:  # (cells on the board, regions 0 .. n-1)
            rows, cols, regs = rows | 1 << r, cols | 1 << c, regs | 1 << regions[r * n + c]
        if not rows == cols == regs == (1 << n) - 1:  # n stars: one in every row, column and region
            return False
        col = dict(cells)  # one star in each row: two touch only in rows next to each other
        return all(abs(col[r] - col[r + 1]) > 1 for r in range(n - 1))

    # -- oracle
    def _solve(self) -> tuple[tuple[int, int], ...]:
        return tuple(sorted(self.stars))

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[tuple[int, int], ...]]:
        n = self.n
        touching = [tuple(enumerate(s)) for s in star_solutions(self.regions, 12, touching=True)]
        no_region = [tuple(enumerate(s)) for s in star_solutions(self.regions, 12, by_region=False)]
        moved = move_one(self._solution, n, n)
        return interleave(rng, touching, no_region, moved)


SPECS = (
    TaskSpec(name="StarBattle", entry_point=StarBattle, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "regions")),
)
