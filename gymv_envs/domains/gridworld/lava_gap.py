"""LavaGap: cross a wall of lava through its one gap to the goal."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.gridworld._world import GOAL, LAVA, GridWorldEnv, Level


class GridLavaGap(GridWorldEnv):
    """Walk through the one gap in a wall of lava to the goal (MiniGrid's LavaGap, our own levels).

    ## Description
    A column of lava crosses the room from top to bottom but for one gap. The agent starts left of it,
    the green goal is in the bottom-right corner. Stepping into lava ends the episode.

    ## Action Space
    ``action_mode="egocentric"`` (default): `Discrete(7)` ``left``, ``right`` (turn), ``forward``,
    ``pickup``, ``drop``, ``toggle``, ``done``; ``"absolute"``: `Discrete(8)` ``up``, ``down``, ``left``,
    ``right`` (face that way, step if free), ``pickup``, ``drop``, ``toggle``, ``done``. Every action is
    valid; one that cannot act changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: ``view="full"`` the board from above; ``view="agent"`` the
    ``agent_view_size`` window ahead of the agent, turned to face up, hidden cells shaded.

    ## Rewards
    1.0 on reaching the goal, else 0.0; lava ends the episode with 0.0 (``max_return`` 1.0).

    ## Starting State
    The lava column, its gap, the agent's cell (left of the lava) and heading from the seed.

    ## Episode End
    Terminates on the goal (success) or in lava (failure). The registered budget truncates.

    ## Arguments
    ``difficulty`` (0: 5x5 board, 1: 7x7, 2: 9x9, borders included), ``action_mode``
    (``"egocentric"``, ``"absolute"``), ``view`` (``"full"``, ``"agent"``), ``agent_view_size`` (odd,
    3 to 15), ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    LEVELS = {0: 5, 1: 7, 2: 9}

    def _build(self, rng: np.random.Generator, n: int) -> Level:
        lv = Level(n, n)
        col = int(rng.integers(2, n - 2))
        gap = int(rng.integers(1, n - 1))
        for r in range(1, n - 1):
            if r != gap:
                lv[r, col] = LAVA
        lv[n - 2, n - 2] = GOAL
        lv.place_agent(rng, 1, 1, n - 2, col - 1)
        return lv

    def _goal_text(self) -> str:
        return "Get to the green goal without stepping into the lava."


SPECS = (
    TaskSpec(name="GridLavaGap", entry_point=GridLavaGap, max_episode_steps=60,
             tags=("gridworld", "navigation", "safety", "minigrid")),
)
