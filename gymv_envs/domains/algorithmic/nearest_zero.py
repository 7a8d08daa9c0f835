"""Nearest zero: in a 0/1 matrix, each cell's distance to the nearest 0 (one cell, or the whole map)."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.cells import cell_name
from gymv_envs.domains.algorithmic._board import MARK, blank, cell_blocks, outline_cell
from gymv_envs.domains.algorithmic._common import (
    AlgoEnv,
    GridOf,
    Number,
    as_grid,
    bfs_flat,
    board_text,
    neighbour_table,
)

QUESTIONS = ("cell", "map")


def distance_to(matrix: np.ndarray, value: int, chebyshev: bool = False) -> np.ndarray:
    """Each cell's distance to the nearest cell holding ``value`` (Manhattan, or Chebyshev: diagonal
    steps count one); on an open grid this is the breadth-first-search distance."""
    n, m = matrix.shape
    rr, cc = np.indices((n, m))
    pts = np.argwhere(matrix == value)
    dr = np.abs(rr[..., None] - pts[:, 0])
    dc = np.abs(cc[..., None] - pts[:, 1])
    return (np.maximum(dr, dc) if chebyshev else dr + dc).min(axis=-1)
LEVELS = {0: 5, 1: 7, 2: 9}
ONE_BG = (190, 215, 245)
STYLES = (((255, 255, 255), "0"), (ONE_BG, "1"))  # per value: background, text


class NearestZero(AlgoEnv):
    """Distance to the nearest 0 in a binary matrix: for one marked cell, or for every cell.

    ## Description
    A ``side x side`` matrix of 0s and 1s (1s tinted blue) is drawn with column letters and row
    numbers. A cell's distance is the fewest steps up, down, left or right from it to a cell
    holding 0 (so 0 for a 0 cell). ``question`` picks what is asked: ``"cell"``, the distance of
    the cell framed in red; ``"map"``, the matrix of every cell's distance.

    ## Action Space
    ``answer_format="open"``: `Text`: one number (cell), or the matrix row by row (numbers, rows
    separated by ``/``). ``"mcq"``: `Discrete(k)`; wrong options count diagonal steps as one
    (Chebyshev distance), measure the distance to the nearest 1 instead, or are one off.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled matrix (cell: with the red frame).

    ## Rewards
    1.0 for the exact distance or matrix, else 0.0.

    ## Starting State
    12-30% of the cells hold 0 (at least one); the marked cell is one of the farthest from a 0
    half the time, otherwise any cell at distance 2 or more.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"cell"``, ``"map"``); ``difficulty`` (0: 5x5, 1: 7x7, 2: 9x9),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    questions = QUESTIONS

    def _configure(self) -> None:
        n = self.side = LEVELS[self.difficulty]
        self.kind = (Number("the distance, one whole number") if self.question == "cell" else
                     GridOf(n, n, "the matrix of distances"))

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.side
        while True:
            noise = rng.random((n, n)).reshape(-1).tolist()
            zero = rng.uniform(0.12, 0.3)
            bits = [int(x >= zero) for x in noise]
            zeros = [i for i, v in enumerate(bits) if not v]
            if not zeros or len(zeros) == n * n:
                continue
            dist = bfs_flat([True] * (n * n), zeros, neighbour_table(n, n))  # = distance_to(matrix, 0)
            top = max(dist)
            if top < 2:
                continue
            far = rng.random() < 0.5
            pool = [i for i, d in enumerate(dist) if (d == top if far else d >= 2)]
            self.target = divmod(pool[int(rng.integers(len(pool)))], n)
            self.matrix = np.array(bits, dtype=np.int64).reshape(n, n)
            self.dist = np.array(dist, dtype=np.int64).reshape(n, n)
            return

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.side, self.side)
        cell_blocks(img, g, self.matrix, STYLES)
        if self.question == "cell":
            outline_cell(img, g, *self.target, MARK, width=0.12)
        return img

    def _task_text(self) -> str:
        ask = ("What is the distance of the cell framed in red?" if self.question == "cell" else
               "Give the matrix of the distances of all cells.")
        return (f"The image shows a {self.side}x{self.side} matrix of 0s and 1s. The distance of a cell is the fewest "
                "steps up, down, left or right from it to a cell holding 0 (0 for a cell that holds 0 itself). " + ask)

    def _level_text(self) -> str:
        where = f"\nmarked {cell_name(*self.target)}" if self.question == "cell" else ""
        return board_text(self.matrix.tolist()) + where

    # -- verify
    def _maps(self) -> list[np.ndarray]:
        """Maps by similar wrong methods: diagonal steps allowed, distances to the nearest 1."""
        return [distance_to(self.matrix, 0, chebyshev=True), distance_to(self.matrix, 1), self.dist + self.matrix]

    def _similar(self, rng: np.random.Generator) -> list:
        if self.question == "cell":
            return [int(m[self.target]) for m in self._maps()]
        return [as_grid(m) for m in self._maps()]

    # -- oracle
    def _solve(self):
        return int(self.dist[self.target]) if self.question == "cell" else as_grid(self.dist)


SPECS = tuple(
    TaskSpec(name=name, entry_point=NearestZero, max_episode_steps=1, kwargs={"question": q},
             tags=("bfs", "distance-transform", "matrix"))
    for name, q in (("NearestZeroCell", "cell"), ("NearestZeroMap", "map"))
)
