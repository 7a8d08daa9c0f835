"""Local minima: count the cells smaller than every one of their neighbours."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.algorithmic._board import blank, cell_blocks
from gymv_envs.domains.algorithmic._common import (
    NEIGHBOURS_4,
    NEIGHBOURS_8,
    AlgoEnv,
    Number,
    board_text,
)

LEVELS = {0: (5, 9), 1: (7, 9), 2: (9, 15)}  # side, largest value


def tint(v: int, top: int) -> tuple[int, int, int]:
    """A light blue that darkens with the value: the picture shows low and high ground at a glance."""
    f = v / max(1, top)
    return (int(250 - 90 * f), int(252 - 60 * f), 255)


def count_extrema(m: np.ndarray, moves=NEIGHBOURS_8, strict: bool = True, maxima: bool = False) -> int:
    """How many cells are below (or above) every neighbour they have (``strict``: strictly)."""
    rows, cols = m.shape
    w, edge, sign = cols + 2, float("inf"), -1 if maxima else 1
    # the values row by row inside a border that every cell is below, as one list: no bounds checks
    v = [edge] * w + [x for row in m.tolist() for x in (edge, *(sign * y for y in row), edge)] + [edge] * w
    offsets = [dr * w + dc for dr, dc in moves]
    count = 0
    for i in (i for r in range(1, rows + 1) for i in range(r * w + 1, r * w + cols + 1)):
        x = v[i]
        for o in offsets:
            if not (x < v[i + o] if strict else x <= v[i + o]):
                break
        else:
            count += 1
    return count


class LocalMinima(AlgoEnv):
    """Count the local minima of a drawn grid of numbers: cells smaller than all of their neighbours.

    ## Description
    A ``side x side`` grid of whole numbers is drawn (cells tinted darker for larger numbers). A
    cell is a local minimum when its number is strictly smaller than the number of each of its
    neighbours, the up to eight cells around it (side and corner cells have fewer). The answer is
    how many local minima the grid has.

    ## Action Space
    ``answer_format="open"``: `Text`, one whole number. ``"mcq"``: `Discrete(k)`; wrong options
    compare with the four side neighbours only, count cells no larger than their neighbours
    (ties allowed), count local maxima, or are one off.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid of numbers.

    ## Rewards
    1.0 for the exact count, else 0.0.

    ## Starting State
    Numbers from 1 to the difficulty's largest value, uniformly at random; levels where the
    four-neighbour count or the count with ties equals the answer are redrawn half of the time.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5 of 1-9, 1: 7x7 of 1-9, 2: 9x9 of 1-15), ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    def _configure(self) -> None:
        self.side, self.top = LEVELS[self.difficulty]
        self.styles = tuple((tint(v, self.top), str(v)) for v in range(self.top + 1))  # per value: colour, text
        self.kind = Number("the number of local minima, one whole number")

    def _generate(self, rng: np.random.Generator) -> None:
        strict = rng.random() < 0.5
        while True:
            self.grid = rng.integers(1, self.top + 1, size=(self.side, self.side))
            self.count = count_extrema(self.grid)
            if not strict or self.count not in (count_extrema(self.grid, NEIGHBOURS_4),
                                                count_extrema(self.grid, strict=False)):
                return

    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.side, self.side, labels=False)
        cell_blocks(img, g, self.grid, self.styles)
        return img

    def _task_text(self) -> str:
        return (f"The image shows a {self.side}x{self.side} grid of numbers. A cell is a local minimum if its number is "
                "strictly smaller than the number in every neighbouring cell, counting all up to eight cells around it "
                "(side and corner cells have fewer neighbours). How many local minima does the grid have?")

    def _level_text(self) -> str:
        return board_text(self.grid)

    def _similar(self, rng: np.random.Generator) -> list[int]:
        g = self.grid
        return [count_extrema(g, NEIGHBOURS_4), count_extrema(g, strict=False), count_extrema(g, maxima=True)]

    def _solve(self) -> int:
        return self.count


SPECS = (
    TaskSpec(name="LocalMinimaCount", entry_point=LocalMinima, max_episode_steps=1,
             tags=("counting", "grid", "neighbourhood")),
)
