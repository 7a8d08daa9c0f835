"""Largest connected component of a grid: the size of the biggest 4-connected group of filled cells."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.canvas import BACKGROUND, GRID_LINE, WHITE, new_frame
from gymv_envs.domains.graphs._graphs import int_near_misses, parse_int

SIZES = {0: 6, 1: 9, 2: 12}
FILLED = (52, 96, 170)


def component_sizes(grid: np.ndarray, diagonal: bool = False) -> list[int]:
    """Sizes of the groups of filled cells joined through shared sides (and corners if ``diagonal``), largest first."""
    rows, cols = grid.shape
    seen = np.zeros_like(grid, dtype=bool)
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)] + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] if diagonal else [])
    sizes = []
    for r in range(rows):
        for c in range(cols):
            if grid[r, c] and not seen[r, c]:
                seen[r, c] = True
                stack, size = [(r, c)], 0
                while stack:
                    y, x = stack.pop()
                    size += 1
                    for dy, dx in steps:
                        yy, xx = y + dy, x + dx
                        if 0 <= yy < rows and 0 <= xx < cols and grid[yy, xx] and not seen[yy, xx]:
                            seen[yy, xx] = True
                            stack.append((yy, xx))
                sizes.append(size)
    return sorted(sizes, reverse=True)


class GridLargestComponent(SingleTurnEnv):
    """Give the size of the largest group of filled cells joined side to side.

    ## Description
    A square grid of white and filled (blue) cells is drawn. Two filled cells are connected when
    they share a side (touching corners do not count); the answer is the number of cells in the
    largest connected group.

    ## Action Space
    ``answer_format="open"``: `Text`, one integer. ``"mcq"``: `Discrete(k)`; wrong options are the
    largest group when corners also connect, the second-largest group, the number of groups and
    the answer plus or minus one.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid.

    ## Rewards
    1.0 for the exact size, else 0.0.

    ## Starting State
    Each cell is filled with probability 0.45-0.55.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 6x6, 1: 9x9, 2: 12x12), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the number of cells in the largest group, one integer"

    def _generate(self, rng: np.random.Generator) -> None:
        n = SIZES[self.difficulty]
        while True:
            self.grid = rng.random((n, n)) < rng.uniform(0.45, 0.55)
            self.sizes = component_sizes(self.grid)
            if len(self.sizes) >= 2:
                break
        self.diag = component_sizes(self.grid, diagonal=True)[0]

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        n = self.grid.shape[0]
        cell = max(2, int(min(H, W) * 0.94) // n)
        line = max(1, cell // 14)
        tile = np.empty((n, n, 3), dtype=np.uint8)
        tile[:] = WHITE
        tile[self.grid] = FILLED
        img = new_frame(H, W, BACKGROUND)
        y0, x0 = (H - n * cell) // 2, (W - n * cell) // 2
        if y0 >= 0 and x0 >= 0:  # every pixel row of a row of cells is the same: one row each, repeated
            rows = np.repeat(tile, cell, axis=1)
            for k in range(line):
                rows[:, k::cell] = GRID_LINE
            board = img[y0:y0 + n * cell, x0:x0 + n * cell].reshape(n, cell, n * cell, 3)
            board[:] = rows[:, None]
            board[:, :line] = GRID_LINE
        else:  # the board is cut by the frame
            board = np.repeat(np.repeat(tile, cell, axis=0), cell, axis=1)
            board[::cell, :] = GRID_LINE
            board[:, ::cell] = GRID_LINE
            for k in range(1, line):
                board[k::cell, :] = GRID_LINE
                board[:, k::cell] = GRID_LINE
            img[max(0, y0):y0 + n * cell, max(0, x0):x0 + n * cell] = board[max(0, -y0):H - y0, max(0, -x0):W - x0]
        edge = min(H, y0 + n * cell + line) , min(W, x0 + n * cell + line)
        img[max(0, y0):edge[0], max(0, x0 + n * cell):edge[1]] = GRID_LINE
        img[max(0, y0 + n * cell):edge[0], max(0, x0):edge[1]] = GRID_LINE
        return img

    def _task_text(self) -> str:
        n = self.grid.shape[0]
        return (f"The image shows a {n}x{n} grid of white and blue cells. Blue cells that share a side are "
                "connected (touching corners do not count). How many cells are in the largest connected group "
                "of blue cells?")

    def _state_text(self) -> str:
        return "\n".join("".join("#" if v else "." for v in row) for row in self.grid)

    def _parse_answer(self, text: str):
        return parse_int(text)

    def _check(self, answer) -> bool:
        return answer == self.sizes[0]

    def _solve(self) -> int:
        return self.sizes[0]

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        return int_near_misses(rng, self.sizes[0], self.diag, self.sizes[1], len(self.sizes), low=1)


SPECS = (
    TaskSpec(name="GridLargestComponent", entry_point=GridLargestComponent, max_episode_steps=1,
             tags=("graph", "grid", "connectivity", "counting")),
)
