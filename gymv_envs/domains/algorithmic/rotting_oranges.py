"""Rotting oranges: the minutes until no fresh orange is left, or -1 when some never rot."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import PALETTE
from gymv_envs.domains.algorithmic._board import blank, cell_icon_grid
from gymv_envs.domains.algorithmic._common import (
    NEIGHBOURS_4,
    NEIGHBOURS_8,
    AlgoEnv,
    Number,
    bfs_flat,
    neighbour_table,
)

LEVELS = {0: 5, 1: 7, 2: 9}
EMPTY, FRESH, ROTTEN = 0, 1, 2
ROTTEN_COLOR = (95, 65, 35)
MARK_COLOR = (250, 245, 230)
ICONS = ((), (("circle", PALETTE["orange"], 0.78),), (("circle", ROTTEN_COLOR, 0.78), ("cross", MARK_COLOR, 0.42)))


def minutes(cells: list[int], side: int, moves=NEIGHBOURS_4) -> tuple[int, int]:
    """(minutes until every fresh orange is rotten or -1, minutes until the reachable ones are), for a
    ``side x side`` grid given row by row as one list."""
    dist = bfs_flat([v != EMPTY for v in cells], [i for i, v in enumerate(cells) if v == ROTTEN],
                    neighbour_table(side, side, moves))
    fresh = [d for d, v in zip(dist, cells) if v == FRESH]
    reach = max([d for d in fresh if d >= 0], default=0)
    return (-1 if -1 in fresh else reach), reach


class RottingOranges(AlgoEnv):
    """Oranges on a grid rot their neighbours minute by minute: how long until none is fresh?

    ## Description
    A ``side x side`` grid holds empty cells, fresh oranges (orange discs) and rotten oranges
    (dark brown discs with a white cross). Every minute each fresh orange next to a rotten one (up,
    down, left or right; not diagonally) becomes rotten. The answer is the number of minutes until
    no fresh orange is left (0 if there is none to begin with), or -1 if some fresh orange can
    never rot.

    ## Action Space
    ``answer_format="open"``: `Text`, one whole number (-1 for never). ``"mcq"``: `Discrete(k)`;
    wrong options let rot spread diagonally too, ignore the oranges that never rot, count the fresh
    oranges, or are one off.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled grid with the oranges.

    ## Rewards
    1.0 for the exact number of minutes (or -1), else 0.0.

    ## Starting State
    15-30% empty cells, one to three rotten oranges, the rest fresh; about a quarter of the levels
    are drawn so that some fresh orange can never rot, and the others need at least 2 minutes.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5, 1: 7x7, 2: 9x9), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    def _configure(self) -> None:
        self.side = LEVELS[self.difficulty]
        self.kind = Number("the number of minutes, one whole number (-1 if some orange never rots)", min_value=-1)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.side
        never = rng.random() < 0.25
        while True:
            noise = rng.random((n, n)).reshape(-1).tolist()
            empty = rng.uniform(0.15, 0.3)
            grid = [EMPTY if x < empty else FRESH for x in noise]
            cells = [i for i, v in enumerate(grid) if v]
            if len(cells) < 4:
                continue
            picks = rng.permutation(len(cells)).tolist()
            for i in picks[: int(rng.integers(1, 4))]:
                grid[cells[i]] = ROTTEN
            if never:  # wall one fresh orange in with empty cells
                for j in neighbour_table(n, n)[cells[picks[-1]]]:
                    grid[j] = EMPTY
            answer, reach = minutes(grid, n)
            if (answer == -1) == never and reach >= 2:
                self.grid, self.answer = np.array(grid, dtype=np.int64).reshape(n, n), answer
                return

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.side, self.side)
        cell_icon_grid(img, g, self.grid, ICONS)
        return img

    def _task_text(self) -> str:
        return (f"The image shows a {self.side}x{self.side} grid with fresh oranges (orange discs), rotten oranges (dark "
                "brown discs with a white cross) and empty cells. Every minute, each fresh orange that is directly up, down, "
                "left or right of a rotten orange becomes rotten (not diagonally, and rot does not cross empty cells). "
                "How many minutes pass until no fresh orange is left? Answer -1 if some fresh orange never rots.")

    def _level_text(self) -> str:
        return "\n".join("".join(".FR"[v] for v in row) for row in self.grid.tolist())

    # -- verify
    def _similar(self, rng: np.random.Generator) -> list[int]:
        cells = self.grid.reshape(-1).tolist()
        answer, reach = minutes(cells, self.side)
        diagonal, diagonal_reach = minutes(cells, self.side, NEIGHBOURS_8)
        out = [reach if answer == -1 else -1, diagonal, diagonal_reach, int((self.grid == FRESH).sum())]
        return out if answer == -1 else out + [answer + 1]

    # -- oracle
    def _solve(self) -> int:
        return self.answer


SPECS = (
    TaskSpec(name="RottingOranges", entry_point=RottingOranges, max_episode_steps=1,
             tags=("bfs", "multi-source", "grid")),
)
