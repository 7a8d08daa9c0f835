"""Monochrome blocks: count the regions of one colour on a drawn grid."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import PALETTE
from gymv_envs.domains.algorithmic._board import blank, fill_cell
from gymv_envs.domains.algorithmic._common import NEIGHBOURS_8, AlgoEnv, Number, components

LEVELS = {0: (6, 3), 1: (8, 4), 2: (10, 5)}  # side, colours
COLOURS = ("red", "blue", "yellow", "green", "purple")


class MonochromeBlocks(AlgoEnv):
    """Count the blocks of a coloured grid: maximal groups of same-coloured cells joined side by side.

    ## Description
    A ``side x side`` grid of coloured cells is drawn. A block is a maximal group of cells of one
    colour joined side by side (up, down, left or right; touching corners do not join). The answer
    is the number of blocks.

    ## Action Space
    ``answer_format="open"``: `Text`, one whole number. ``"mcq"``: `Discrete(k)`; wrong options
    join cells diagonally too, count the colours, or are one off.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the coloured grid.

    ## Rewards
    1.0 for the exact number of blocks, else 0.0.

    ## Starting State
    Random colours, each cell copying its left or upper neighbour's colour with probability 0.55,
    so that blocks of several cells form.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 6x6 with 3 colours, 1: 8x8 with 4, 2: 10x10 with 5), ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    def _configure(self) -> None:
        self.side, self.colours = LEVELS[self.difficulty]
        self.kind = Number("the number of blocks, one whole number")

    def _generate(self, rng: np.random.Generator) -> None:
        n = self.side
        g = rng.integers(self.colours, size=(n, n))
        copy, up = rng.random((n, n)) < 0.55, rng.random((n, n)) < 0.5
        for r in range(n):
            for c in range(n):
                if copy[r, c] and (r or c):
                    g[r, c] = g[r - 1, c] if (up[r, c] and r) or not c else g[r, c - 1]
        self.grid = g
        self.count = components(g)[1]

    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.side, self.side, labels=False)
        for r, row in enumerate(self.grid.tolist()):
            for c, v in enumerate(row):
                fill_cell(img, g, r, c, PALETTE[COLOURS[v]])
        return img

    def _task_text(self) -> str:
        return (f"The image shows a {self.side}x{self.side} grid of coloured cells. A block is a largest possible group "
                "of cells of one colour joined side by side (up, down, left or right; cells touching only at corners "
                "are not joined). How many blocks are there?")

    def _level_text(self) -> str:
        return "\n".join("".join(COLOURS[v][0] for v in row) for row in self.grid.tolist())

    def _similar(self, rng: np.random.Generator) -> list[int]:
        return [components(self.grid, NEIGHBOURS_8)[1], len(np.unique(self.grid))]

    def _solve(self) -> int:
        return self.count


SPECS = (
    TaskSpec(name="MonochromeBlocks", entry_point=MonochromeBlocks, max_episode_steps=1,
             tags=("counting", "connected-components", "colour")),
)
