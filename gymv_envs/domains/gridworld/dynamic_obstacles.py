"""DynamicObstacles: reach the goal while obstacles wander the room; touching one ends the episode."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.gridworld._world import GOAL, OBSTACLE, Cell, GridWorldEnv, Level


class GridDynamicObstacles(GridWorldEnv):
    """Reach the goal among moving obstacles (MiniGrid's DynamicObstacles, our own levels and tiles).

    ## Description
    Blue obstacles wander an empty room: after each of the agent's steps, each moves to a random free
    neighbouring cell or stays (drawn from the env's seeded generator). Walking into an obstacle
    (forward, or an absolute move, towards its cell) ends the episode. Obstacles never move onto the
    agent or the goal.

    ## Action Space
    ``action_mode="egocentric"`` (default): `Discrete(7)` ``left``, ``right`` (turn), ``forward``,
    ``pickup``, ``drop``, ``toggle``, ``done``; ``"absolute"``: `Discrete(8)` ``up``, ``down``, ``left``,
    ``right`` (face that way, step if free), ``pickup``, ``drop``, ``toggle``, ``done``. Every action is
    valid; one that cannot act changes nothing but lets the obstacles move.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: ``view="full"`` the board from above; ``view="agent"`` the
    ``agent_view_size`` window ahead of the agent, turned to face up, hidden cells shaded.

    ## Rewards
    1.0 on reaching the goal, else 0.0; a collision ends the episode with 0.0 (``max_return`` 1.0).

    ## Starting State
    The agent in the top-left quarter with a random heading, the goal in the bottom-right corner,
    the obstacles on random free cells.

    ## Episode End
    Terminates on the goal (success) or on a collision (failure). The registered budget truncates.

    ## Arguments
    ``difficulty`` (0: 6x6 board with 2 obstacles, 1: 7x7 with 3, 2: 9x9 with 5), ``action_mode``
    (``"egocentric"``, ``"absolute"``), ``view`` (``"full"``, ``"agent"``), ``agent_view_size`` (odd, 3
    to 15), ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    LEVELS = {0: (6, 2), 1: (7, 3), 2: (9, 5)}  # board side, obstacles
    transient_attrs = (*GridWorldEnv.transient_attrs, "_obstacles")
    _obstacles: tuple | None = None  # (the board the last tick made, its obstacles' cells in board order)

    def _build(self, rng: np.random.Generator, config: tuple[int, int]) -> Level:
        n, k = config
        lv = Level(n, n)
        lv[n - 2, n - 2] = GOAL
        half = (n - 1) // 2
        lv.place_agent(rng, 1, 1, half, half)
        r, c = divmod(lv.agent, n)
        near = tuple((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))
        for _ in range(k):
            lv.place(rng, OBSTACLE, 1, 1, n - 2, n - 2, avoid=near)
        return lv

    def _verdict(self, pos: int, carrying: Cell, grid: tuple, event: str) -> bool | None:
        if event == "bumped:obstacle":
            return False
        return True if event == "moved" and grid[pos] == GOAL else None

    def _tick(self, rng: np.random.Generator) -> None:
        grid, C, pos = self.grid, self.cols, self.pos
        hit = self._obstacles
        if hit is not None and hit[0] is grid:  # the board the last tick left: its obstacles' cells
            at = hit[1]
        else:  # the obstacles' cells in board order
            at = [-1]
            for _ in range(grid.count(OBSTACLE)):
                at.append(grid.index(OBSTACLE, at[-1] + 1))
            del at[0]
        cells = list(grid)
        moved = []
        for i in at:
            options = [i]
            for j in (i + 1, i + C, i - 1, i - C):
                if cells[j] is None and j != pos:
                    options.append(j)
            j = options[int(rng.integers(len(options)))]
            cells[i], cells[j] = None, OBSTACLE
            moved.append(j)
        self.grid = tuple(cells)
        self._obstacles = (self.grid, sorted(moved))

    def _goal_text(self) -> str:
        return "Get to the green goal without walking into the moving blue obstacles."


SPECS = (
    TaskSpec(name="GridDynamicObstacles", entry_point=GridDynamicObstacles, max_episode_steps=80,
             tags=("gridworld", "navigation", "safety", "minigrid")),
)
