"""Life board: the whole Game of Life board after N steps."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import choice
from gymv_envs.domains.algorithmic import _life
from gymv_envs.domains.algorithmic._board import DARK, blank, fill_cells
from gymv_envs.domains.algorithmic._common import AlgoEnv, GridOf, as_grid, board_text

# difficulty -> (side, step counts N to draw from)
LEVELS = {0: (6, (1, 2)), 1: (8, (2, 3)), 2: (10, (3, 4, 5))}
class LifeBoard(AlgoEnv):
    """Give the whole board of Conway's Game of Life after N steps.

    ## Description
    A ``side x side`` board of live (dark) and dead (white) cells is drawn with column letters
    and row numbers. The board evolves by Conway's rules (B3/S23) on a bounded board: cells
    beyond the edge are always dead. The answer is the board after N steps (N in the
    instruction and, with ``text_in_image``, in the caption).

    ## Action Space
    ``answer_format="open"``: `Text`, the board row by row, ``1`` (or ``#``) for a live cell and
    ``0`` (or ``.``) for a dead one, rows separated by ``/``. ``"mcq"``: `Discrete(k)` over boards;
    the wrong ones are the board after N-1 or N+1 steps, after N steps on a wrap-around board, or
    one or two cells off.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled board.

    ## Rewards
    1.0 for the exact board after N steps, else 0.0.

    ## Starting State
    A random soup (30-45% live); levels whose board dies out, stops changing by step N or has
    fewer than three live cells at step N are redrawn.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 6x6, N 1-2; 1: 8x8, N 2-3; 2: 10x10, N 3-5), ``answer_format``,
    ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    def _configure(self) -> None:
        self.side, self.step_counts = LEVELS[self.difficulty]
        self.kind = GridOf(self.side, self.side, "the board after the steps, 1 for a live cell and 0 for a dead one",
                           kind="mask", values=(0, 1))

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.side
        while True:
            self.steps = int(choice(rng, self.step_counts))
            self.start = _life.random_soup(rng, n)
            bits = _life.to_bits(self.start)
            before = _life.run(bits, n, n, self.steps - 1)
            after = _life.step(before, n, n)
            if after != before and after != bits and after.bit_count() >= 3:
                self.start_bits, self.after_bits = bits, after
                return

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.side, self.side)
        fill_cells(img, g, self.start, DARK)
        return img

    def _task_text(self) -> str:
        s = "step" if self.steps == 1 else "steps"
        return (f"The image shows Conway's Game of Life on a {self.side}x{self.side} board; dark cells are alive. "
                f"{_life.RULES} Give the whole board after {self.steps} {s}.")

    def _caption(self) -> list:
        return [f"Board after {self.steps} step{'s' if self.steps > 1 else ''}?"]

    def _level_text(self) -> str:
        return board_text(self.start)

    # -- verify
    def _similar(self, rng: np.random.Generator):
        n = self.side
        yield as_grid(_life.to_array(_life.run(self.start_bits, n, n, self.steps - 1), n, n))
        yield as_grid(_life.to_array(_life.step(self.after_bits, n, n), n, n))
        torus = self.start
        for _ in range(self.steps):
            torus = _life.step_array(torus, wrap=True)
        yield as_grid(torus)

    # -- oracle
    def _solve(self):
        return as_grid(_life.to_array(self.after_bits, self.side, self.side))


SPECS = (
    TaskSpec(name="LifeBoard", entry_point=LifeBoard, max_episode_steps=1,
             tags=("cellular-automaton", "simulation", "grid-answer")),
)
