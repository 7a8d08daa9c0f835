"""Langton's ant: where the ant is, where it faces, or how many cells are black after k steps."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.cells import cell_name
from gymv_envs.domains.algorithmic._board import (
    DARK,
    DIRS,
    HEADINGS,
    MARK,
    blank,
    cell_arrow,
    fill_cells,
)
from gymv_envs.domains.algorithmic._common import (
    AlgoEnv,
    Cell,
    Number,
    Word,
    board_text,
)

QUESTIONS = ("position", "heading", "black")
LEVELS = {0: (7, (4, 6)), 1: (9, (9, 14)), 2: (11, (18, 28))}  # side, (fewest, most) steps
STEPS = tuple(DIRS.values())  # heading index 0 up, 1 right, 2 down, 3 left
HEADING_WORDS = {"north": 0, "u": 0, "n": 0, "↑": 0, "east": 1, "r": 1, "e": 1, "→": 1,
                 "south": 2, "d": 2, "s": 2, "↓": 2, "west": 3, "l": 3, "w": 3, "←": 3}


def walk(black: np.ndarray, pos: tuple[int, int], heading: int, steps: int, mirrored: bool = False):
    """(black cells, position, heading) after ``steps`` moves; ``None`` if the ant leaves the board.

    ``mirrored`` turns left on white and right on black (the rule told the other way round)."""
    n = black.shape[0]
    grid = black.tolist()
    (r, c), h = pos, heading
    turn = -1 if mirrored else 1
    for _ in range(steps):
        h = (h + (-turn if grid[r][c] else turn)) % 4
        grid[r][c] ^= 1
        r, c = r + STEPS[h][0], c + STEPS[h][1]
        if not (0 <= r < n and 0 <= c < n):
            return None
    return grid, (r, c), h


class LangtonAnt(AlgoEnv):
    """Follow Langton's ant for k steps and say where it is, where it faces, or how many cells are black.

    ## Description
    A ``side x side`` board of white and black cells is drawn with column letters and row numbers;
    the ant is a red arrow in its cell, pointing where it faces. Each step the ant turns 90° right
    on a white cell or 90° left on a black cell, flips the colour of that cell, and moves one cell
    forward. ``question`` picks what is asked after k steps (k in the instruction and caption):
    ``"position"`` (the ant's cell), ``"heading"`` (up/right/down/left) or ``"black"`` (how many
    cells are black).

    ## Action Space
    ``answer_format="open"``: `Text`: a cell name such as ``C4``, a heading (``up`` or ``facing up``;
    right, down, left), or a number.
    ``"mcq"``: `Discrete(k)`; wrong options are the answer after k-1 or k+1 steps, under the rule
    turned the other way (left on white), a neighbouring cell, or one off.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled board with the ant.

    ## Rewards
    1.0 for the right cell, heading or count, else 0.0.

    ## Starting State
    15-30% of the cells black at random, the ant on a random cell facing a random way; levels in
    which the ant would leave the board within k + 1 steps are redrawn.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"position"``, ``"heading"``, ``"black"``); ``difficulty`` (0: 7x7, 4-6 steps;
    1: 9x9, 9-14 steps; 2: 11x11, 18-28 steps), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    questions = QUESTIONS

    def _configure(self) -> None:
        self.side, self.step_range = LEVELS[self.difficulty]
        self.kind = {"position": Cell(self.side, self.side, "the ant's cell, its column letter and row number"),
                     "heading": Word(HEADINGS, "the way the ant faces (up, right, down or left)", HEADING_WORDS,
                                        prefix="facing "),
                     "black": Number("the number of black cells, one whole number")}[self.question]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.side
        while True:
            self.steps = int(rng.integers(self.step_range[0], self.step_range[1] + 1))
            self.black = (rng.random((n, n)) < rng.uniform(0.15, 0.3)).astype(np.int64)
            self.pos = (int(rng.integers(n)), int(rng.integers(n)))
            self.heading = int(rng.integers(4))
            if walk(self.black, self.pos, self.heading, self.steps + 1) is not None:
                return

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.side, self.side)
        fill_cells(img, g, self.black, DARK)
        cell_arrow(img, g, *self.pos, "URDL"[self.heading], MARK, 0.86, DARK if self.black[self.pos] else (255, 255, 255))
        return img

    def _task_text(self) -> str:
        ask = {"position": "On which cell is the ant", "heading": "Which way does the ant face",
               "black": "How many cells are black"}[self.question]
        return (f"The image shows Langton's ant on a {self.side}x{self.side} board of white and black cells; the ant "
                "is the red arrow, pointing the way it faces. At each step the ant turns 90 degrees right if its "
                "cell is white or 90 degrees left if it is black, then flips the colour of that cell and moves one "
                f"cell forward. {ask} after {self.steps} steps?")

    def _caption(self) -> list:
        what = {"position": "Ant's cell", "heading": "Ant's heading", "black": "Black cells"}[self.question]
        return [f"{what} after {self.steps} steps?"]

    def _level_text(self) -> str:
        return board_text(self.black) + f"\nant at {cell_name(*self.pos)} facing {HEADINGS[self.heading]}"

    # -- verify
    def _answer_of(self, result) -> object:
        grid, pos, h = result
        return {"position": pos, "heading": h, "black": sum(map(sum, grid))}[self.question]

    def _similar(self, rng: np.random.Generator) -> list:
        k = self.steps
        out = [self._answer_of(walk(self.black, self.pos, self.heading, k + d)) for d in (-1, 1)]
        mirrored = walk(self.black, self.pos, self.heading, k, mirrored=True)
        return out + ([self._answer_of(mirrored)] if mirrored is not None else [])

    # -- oracle
    def _solve(self):
        return self._answer_of(walk(self.black, self.pos, self.heading, self.steps))


SPECS = tuple(
    TaskSpec(name=name, entry_point=LangtonAnt, max_episode_steps=1, kwargs={"question": q},
             tags=("cellular-automaton", "simulation", "turmite"))
    for name, q in (("LangtonAntPosition", "position"), ("LangtonAntHeading", "heading"),
                    ("LangtonAntBlackCount", "black"))
)
