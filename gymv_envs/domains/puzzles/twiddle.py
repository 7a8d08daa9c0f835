"""Twiddle: the fewest 2x2 block rotations that sort a grid of numbered tiles."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import CountAnswer
from gymv_envs.domains.puzzles._tiles import depth_table, draw_tiles, encode, pick

LEVELS = {0: (3, (2, 3)), 1: (3, (4, 6)), 2: (4, (4, 5))}  # difficulty -> (side, fewest moves lo..hi)


def rotations(n: int) -> tuple[tuple[int, ...], ...]:
    """The moves of an ``n x n`` board as permutations ``new[i] = old[perm[i]]``: for each 2x2 block
    (top-left corner in reading order), a clockwise then an anticlockwise quarter turn."""
    out = []
    for r in range(n - 1):
        for c in range(n - 1):
            a, b, d, e = r * n + c, r * n + c + 1, (r + 1) * n + c + 1, (r + 1) * n + c  # clockwise order
            cw, acw = list(range(n * n)), list(range(n * n))
            cw[b], cw[d], cw[e], cw[a] = a, b, d, e
            acw[a], acw[b], acw[d], acw[e] = b, d, e, a
            out += [tuple(cw), tuple(acw)]
    return tuple(out)


class Twiddle(CountAnswer, SingleTurnEnv):
    """Give the fewest 2x2 block rotations that sort a grid of numbered tiles.

    ## Description
    An ``n x n`` grid (3x3 at difficulty 0 and 1, 4x4 at 2) holds the tiles ``1..n*n``
    scrambled. A move turns any 2x2 block of four neighbouring tiles a quarter turn, clockwise
    or anticlockwise. The goal is the sorted grid (1, 2, 3, ... in reading order). The answer is
    the fewest moves, known exactly from a breadth-first search from the sorted grid.

    ## Action Space
    ``"open"``: `Text`, a whole number such as ``4``. ``"mcq"``: `Discrete(k)` over nearby counts.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the numbered tiles.

    ## Rewards
    1.0 for the exact fewest number of moves, else 0.0.

    ## Starting State
    A count drawn from the difficulty's range (0: 2-3, 1: 4-6, 2: 4-5 on 4x4), then a board at
    exactly that distance, uniformly from a breadth-first table built once per process.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the fewest number of moves as a whole number (for example `4`)"
    count_floor = 1

    def _configure(self) -> None:
        self.n, (self.lo, self.hi) = LEVELS[self.difficulty]
        self.perms = rotations(self.n)

    def _generate(self, rng: np.random.Generator) -> None:
        table, layers = depth_table(self.perms, self.n * self.n, self.hi)
        self.board = pick(rng, layers, self.lo, self.hi, self.n * self.n)
        self.best = table[encode(self.board)]

    def _draw(self) -> np.ndarray:
        return draw_tiles(self.obs_size, self.board, self.n, self.n, False)

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Twiddle puzzle: numbered tiles on a grid. A move turns any 2x2 block "
                "of four neighbouring tiles a quarter turn, clockwise or anticlockwise (the four tiles move "
                f"round together). The goal is the sorted grid: 1 to {n * n} in reading order (left to right, top "
                "to bottom). What is the fewest number of moves that sorts the grid?")

    def _state_text(self) -> str:
        return "\n".join(" ".join(str(v) for v in self.board[r * self.n:(r + 1) * self.n]) for r in range(self.n))

    def _solve(self) -> int:
        return self.best


SPECS = (
    TaskSpec(name="Twiddle", entry_point=Twiddle, max_episode_steps=1, tags=("planning", "search")),
)
