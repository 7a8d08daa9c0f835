"""Spiral order: read a drawn grid of numbers clockwise from the outside in."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.algorithmic._board import blank, cell_block
from gymv_envs.domains.algorithmic._common import AlgoEnv, Numbers, board_text

LEVELS = {0: (3, 4, 20), 1: (4, 5, 50), 2: (5, 6, 99)}  # rows, cols, largest value


def spiral(m: np.ndarray) -> list[int]:
    """Clockwise from the top-left corner: along the top row, down the right side, and inwards."""
    out, m = [], np.asarray(m)
    while m.size:
        out += m[0].tolist()
        m = np.rot90(m[1:])  # the rest, turned so that its right column becomes its top row
    return out


class SpiralOrder(AlgoEnv):
    """Read the numbers of a drawn grid in clockwise spiral order.

    ## Description
    A ``rows x cols`` grid of distinct numbers is drawn. Spiral order starts at the top-left
    cell, goes right along the top row, down the right column, left along the bottom row, up the
    left column, and so on inwards until every cell is read once. The answer is that sequence.

    ## Action Space
    ``answer_format="open"``: `Text`, the numbers in order separated by spaces or commas.
    ``"mcq"``: `Discrete(k)`; wrong options read the spiral counter-clockwise (down first), read
    row by row or in a snake, or swap two neighbouring numbers.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid of numbers.

    ## Rewards
    1.0 for the exact sequence, else 0.0.

    ## Starting State
    Distinct numbers from 1 to the difficulty's largest value.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3x4 of 1-20, 1: 4x5 of 1-50, 2: 5x6 of 1-99), ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    def _configure(self) -> None:
        self.rows, self.cols, self.top = LEVELS[self.difficulty]
        self.kind = Numbers(self.rows * self.cols, "all the numbers in spiral order, separated by spaces")

    def _generate(self, rng: np.random.Generator) -> None:
        self.matrix = (rng.permutation(self.top)[: self.rows * self.cols] + 1).reshape(self.rows, self.cols)

    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.rows, self.cols, labels=False)
        for r, row in enumerate(self.matrix.tolist()):
            for c, v in enumerate(row):
                cell_block(img, g, r, c, (255, 255, 255), str(v), scale=0.5)
        return img

    def _task_text(self) -> str:
        return (f"The image shows a grid of numbers with {self.rows} rows and {self.cols} columns. Read it in clockwise "
                "spiral order: start at the top-left cell, go right along the top row, then down the right column, "
                "left along the bottom row, up the left column, and keep turning inwards until every cell is read "
                "once. Give the numbers in that order.")

    def _level_text(self) -> str:
        return board_text(self.matrix)

    def _similar(self, rng: np.random.Generator) -> list:
        m = self.matrix
        snake = [v for i, row in enumerate(m.tolist()) for v in (row if i % 2 == 0 else row[::-1])]
        return [tuple(x) for x in (spiral(m.T), m.reshape(-1).tolist(), snake, m.T.reshape(-1).tolist())]

    def _solve(self) -> tuple[int, ...]:
        return tuple(spiral(self.matrix))


SPECS = (
    TaskSpec(name="SpiralOrder", entry_point=SpiralOrder, max_episode_steps=1,
             tags=("matrix", "traversal", "sequence-answer")),
)
