"""Maze dead ends: count the cells of a maze that are walled on three sides."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.answers import CountAnswer
from gymv_envs.core.board import draw_maze
from gymv_envs.domains.puzzles.maze_path import MazePath

SIZES = {0: 4, 1: 6, 2: 8}  # cells per side


class MazeDeadEnds(CountAnswer, MazePath):
    """Count the dead ends of a drawn maze.

    ## Description
    A maze of ``n x n`` cells is carved by a randomised depth-first search (shared with
    MazePath), with a few extra passages opened at difficulty 1 and 2. A dead end is a cell
    with walls on exactly three of its four sides (the outer border counts as wall). The
    answer is how many dead ends the maze has.

    ## Action Space
    ``answer_format="open"``: `Text`, a whole number such as ``7`` (digits or a word).
    ``"mcq"``: `Discrete(k)` over nearby counts.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the maze, dark walls on white, no markers.

    ## Rewards
    1.0 for the exact count, else 0.0.

    ## Starting State
    The maze is drawn from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, 1: 6x6, 2: 8x8), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the number of dead ends as a whole number (for example `7`)"

    def _configure(self) -> None:
        self.n = SIZES[self.difficulty]

    # -- draw
    def _draw(self) -> np.ndarray:
        return draw_maze(self.open_, self.obs_size)[0]

    def _task_text(self) -> str:
        return (f"The image shows a {self.n}x{self.n} maze of square cells; dark lines are walls and the "
                "outer border is a wall. A dead end is a cell with walls on exactly three of its four "
                "sides. How many dead ends does the maze have?")

    def _state_text(self) -> str:
        return super()._state_text().replace("S", " ").replace("G", " ")

    # -- oracle
    def _solve(self) -> int:
        return int((self.open_.sum(axis=2) == 1).sum())


SPECS = (
    TaskSpec(name="MazeDeadEnds", entry_point=MazeDeadEnds, version=1, max_episode_steps=1,
             tags=("maze", "counting", "spatial-reasoning")),
)
