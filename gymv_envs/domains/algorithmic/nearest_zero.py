"""Nearest zero: in a 0/1 matrix, each cell's distance to the nearest 0 (one cell, or the whole map)."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.cells import cell_name
from gymv_envs.domains.algorithmic._board import MARK, blank, cell_block, outline_cell
from gymv_envs.domains.algorithmic._common import (
    AlgoEnv,
    GridOf,
    Number,
    as_grid,
    board_text,
    check_question,
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

    def __init__(self, question: str = "cell", **kwargs) -> None:
        self.question = check_question(question, QUESTIONS)
        super().__init__(**kwargs)

    def _configure(self) -> None:
        n = self.side = LEVELS[self.difficulty]
        self.kind = (Number("the distance, one whole number") if self.question == "cell" else
                     GridOf(n, n, "the matrix of distances"))

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.side
        while True:
            self.matrix = (rng.random((n, n)) >= rng.uniform(0.12, 0.3)).astype(np.int64)
            if self.matrix.all() or not self.matrix.any():
                continue
            self.dist = distance_to(self.matrix, 0)
            if self.dist.max() < 2:
                continue
            pool = np.argwhere(self.dist == self.dist.max()) if rng.random() < 0.5 else np.argwhere(self.dist >= 2)
            self.target = tuple(int(v) for v in pool[int(rng.integers(len(pool)))])
            return

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.side, self.side)
        for r, row in enumerate(self.matrix.tolist()):
            for c, v in enumerate(row):
                cell_block(img, g, r, c, ONE_BG if v else (255, 255, 255), str(v))
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
        return board_text(self.matrix) + where

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
