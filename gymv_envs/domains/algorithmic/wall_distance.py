"""Wall distance: fewest moves from the green circle, around walls, to one cell or to every cell."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import PALETTE
from gymv_envs.core.cells import cell_name
from gymv_envs.domains.algorithmic._board import WALL, blank, cell_shape, fill_cells
from gymv_envs.domains.algorithmic._common import (
    NEIGHBOURS_8,
    AlgoEnv,
    GridOf,
    Number,
    as_grid,
    bfs_distances,
    bfs_flat,
    neighbour_table,
)

QUESTIONS = ("cell", "map")
LEVELS = {0: 5, 1: 7, 2: 9}
WALL_SYMBOLS = {"#": -1, "X": -1, "x": -1, "W": -1, "w": -1}


class WallDistance(AlgoEnv):
    """Breadth-first search on a drawn grid: the distance from the start to a marked cell, or the whole map.

    ## Description
    A ``side x side`` grid of open cells and walls (dark) is drawn with column letters and row
    numbers; the start is the green circle. A move goes one cell up, down, left or right onto an
    open cell. ``question`` picks what is asked: ``"cell"``, the fewest moves from the start to
    the red star; ``"map"``, the fewest moves from the start to every open cell (``#`` for walls).

    ## Action Space
    ``answer_format="open"``: `Text`: one number (cell), or the map row by row (numbers, ``#`` for
    a wall, rows separated by ``/``). ``"mcq"``: `Discrete(k)`; wrong options use diagonal moves
    too, ignore the walls (Manhattan distance), count cells instead of moves, or are one off.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled grid with walls, the start and (cell) the target.

    ## Rewards
    1.0 for the exact distance or map, else 0.0.

    ## Starting State
    About a quarter of the cells are walls; open cells the start cannot reach become walls. The
    target (cell) is an open cell at least half the largest distance away, preferring cells the
    walls force a detour to.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"cell"``, ``"map"``); ``difficulty`` (0: 5x5, 1: 7x7, 2: 9x9),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    questions = QUESTIONS

    def _configure(self) -> None:
        n = self.side = LEVELS[self.difficulty]
        self.kind = (Number("the fewest moves, one whole number") if self.question == "cell" else
                     GridOf(n, n, "the distance map, a number per open cell and # for a wall", symbols=WALL_SYMBOLS,
                            names={-1: "#"}))

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.side
        while True:
            noise = rng.random((n, n)).reshape(-1).tolist()
            wall = rng.uniform(0.2, 0.32)
            ok = [x >= wall for x in noise]
            cells = [i for i, v in enumerate(ok) if v]
            start = cells[int(rng.integers(len(cells)))]
            dist = bfs_flat(ok, [start], neighbour_table(n, n))
            top = max(dist)
            if sum(d > 0 for d in dist) < n * n // 2 or top < 3:
                continue
            (sr, sc), low = divmod(start, n), max(2, top // 2)
            far = [i for i, d in enumerate(dist) if d >= low]
            detour = [i for i in far if dist[i] > abs(i // n - sr) + abs(i % n - sc)]  # longer than Manhattan
            pool = detour or far
            self.start, self.target = (sr, sc), divmod(pool[int(rng.integers(len(pool)))], n)
            self.dist = np.array(dist, dtype=np.int64).reshape(n, n)
            self.open_ = self.dist >= 0  # cells the start cannot reach are walls
            return

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.side, self.side)
        fill_cells(img, g, ~self.open_, WALL)
        cell_shape(img, g, *self.start, "circle", PALETTE["green"], 0.66)
        if self.question == "cell":
            cell_shape(img, g, *self.target, "star", PALETTE["red"], 0.76)
        return img

    def _task_text(self) -> str:
        ask = ("How many moves does the shortest route from the green circle to the red star take?"
               if self.question == "cell" else
               "Give, for every open cell, the fewest moves from the green circle to it (0 for the green circle's "
               "own cell), and # for every wall.")
        return (f"The image shows a {self.side}x{self.side} grid; dark cells are walls. A move goes one cell up, down, "
                f"left or right onto an open cell, never into a wall or off the grid. {ask}")

    def _level_text(self) -> str:
        rows = [["." if v else "#" for v in row] for row in self.open_.tolist()]
        rows[self.start[0]][self.start[1]] = "S"
        if self.question == "cell":
            rows[self.target[0]][self.target[1]] = "T"
        return "\n".join(map("".join, rows)) + f"\nstart {cell_name(*self.start)}"

    # -- verify
    def _maps(self) -> list[np.ndarray]:
        """Distance maps by similar wrong methods: diagonal moves, no walls, cells counted."""
        n, walls = self.side, ~self.open_
        diagonal = bfs_distances(self.open_, [self.start], NEIGHBOURS_8)
        rr, cc = np.mgrid[0:n, 0:n]
        manhattan = np.abs(rr - self.start[0]) + np.abs(cc - self.start[1])
        return [np.where(walls, -1, m) for m in (diagonal, manhattan, self.dist + 1)]

    def _similar(self, rng: np.random.Generator) -> list:
        if self.question == "cell":
            return [int(m[self.target]) for m in self._maps()]
        return [as_grid(m) for m in self._maps()]

    # -- oracle
    def _solve(self):
        return int(self.dist[self.target]) if self.question == "cell" else as_grid(self.dist)


SPECS = tuple(
    TaskSpec(name=name, entry_point=WallDistance, max_episode_steps=1, kwargs={"question": q},
             tags=("bfs", "shortest-path", "grid"))
    for name, q in (("WallDistanceCell", "cell"), ("WallDistanceMap", "map"))
)
