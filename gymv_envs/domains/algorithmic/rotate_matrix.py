"""Rotate matrix: the drawn matrix turned 90, 180 or 270 degrees clockwise."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import choice
from gymv_envs.domains.algorithmic._board import blank, cell_block
from gymv_envs.domains.algorithmic._common import AlgoEnv, GridOf, as_grid, board_text

LEVELS = {0: (3, 9), 1: (4, 30), 2: (5, 99)}  # side, largest value
ANGLES = (90, 180, 270)


class RotateMatrix(AlgoEnv):
    """Rotate the drawn matrix clockwise by 90, 180 or 270 degrees and give the result.

    ## Description
    A ``side x side`` matrix of distinct numbers is drawn; the angle (90, 180 or 270 degrees
    clockwise) is in the instruction and, with ``text_in_image``, in the caption. The answer is
    the rotated matrix.

    ## Action Space
    ``answer_format="open"``: `Text`, the rotated matrix row by row (numbers, rows separated by
    ``/``). ``"mcq"``: `Discrete(k)`; wrong options rotate counter-clockwise or by another angle,
    transpose, mirror, or leave the matrix as it is.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the matrix.

    ## Rewards
    1.0 for the exact rotated matrix, else 0.0.

    ## Starting State
    Distinct numbers from 1 to the difficulty's largest value; a random angle.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3x3 of 1-9, 1: 4x4 of 1-30, 2: 5x5 of 1-99), ``answer_format``,
    ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    def _configure(self) -> None:
        self.side, self.top = LEVELS[self.difficulty]
        self.kind = GridOf(self.side, self.side, "the rotated matrix")

    def _generate(self, rng: np.random.Generator) -> None:
        n = self.side
        self.matrix = (rng.permutation(self.top)[: n * n] + 1).reshape(n, n)
        self.angle = int(choice(rng, ANGLES))

    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.side, self.side, labels=False)
        for r, row in enumerate(self.matrix.tolist()):
            for c, v in enumerate(row):
                cell_block(img, g, r, c, (255, 255, 255), str(v), scale=0.5)
        return img

    def _task_text(self) -> str:
        return (f"The image shows a {self.side}x{self.side} matrix of numbers. Rotate it {self.angle} degrees clockwise "
                "and give the rotated matrix.")

    def _caption(self) -> list:
        return [f"Rotate {self.angle}° clockwise"]

    def _level_text(self) -> str:
        return board_text(self.matrix)

    def _similar(self, rng: np.random.Generator) -> list:
        m = self.matrix
        others = [np.rot90(m, -a // 90) for a in ANGLES if a != self.angle]
        return [as_grid(x) for x in (np.rot90(m, self.angle // 90), m.T, m[:, ::-1], m[::-1], *others, m)]

    def _solve(self):
        return as_grid(np.rot90(self.matrix, -self.angle // 90))


SPECS = (
    TaskSpec(name="RotateMatrix", entry_point=RotateMatrix, max_episode_steps=1,
             tags=("matrix", "spatial-transform", "grid-answer")),
)
