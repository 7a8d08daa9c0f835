"""LavaCrossing: cross several rivers of lava, each with one gap, to the goal."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.gridworld._world import GOAL, LAVA, GridWorldEnv, Level


class GridLavaCrossing(GridWorldEnv):
    """Cross rivers of lava through their gaps to the goal (MiniGrid's LavaCrossing, our own levels).

    ## Description
    Rivers of lava run across the room, some from top to bottom, some from left to right; each has
    exactly one gap, and the gaps line up into a way from the top-left start to the goal in the
    bottom-right corner. Stepping into lava ends the episode.

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
    Which rows and columns carry rivers, the order the way crosses them, the gaps and the agent's
    heading from the seed.

    ## Episode End
    Terminates on the goal (success) or in lava (failure). The registered budget truncates.

    ## Arguments
    ``difficulty`` (0: 9x9 board with 1 river, 1: 9x9 with 2, 2: 11x11 with 4), ``action_mode``
    (``"egocentric"``, ``"absolute"``), ``view`` (``"full"``, ``"agent"``), ``agent_view_size`` (odd,
    3 to 15), ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    LEVELS = {0: (9, 1), 1: (9, 2), 2: (11, 4)}  # board side, rivers

    def _build(self, rng: np.random.Generator, config: tuple[int, int]) -> Level:
        n, rivers = config
        lv = Level(n, n)
        lines = [(o, i) for o in ("v", "h") for i in range(2, n - 2, 2)]
        chosen = [lines[int(j)] for j in rng.permutation(len(lines))[:rivers]]
        cols = sorted(i for o, i in chosen if o == "v")
        rows = sorted(i for o, i in chosen if o == "h")
        for c in cols:
            lv.vwall(c, 1, n - 2)
        for r in rows:
            lv.hwall(r, 1, n - 2)
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                if lv[i, j] is not None:
                    lv[i, j] = LAVA
        # the way crosses the rivers in a random order, left to right and top to bottom
        crossings = ["v"] * len(cols) + ["h"] * len(rows)
        crossings = [crossings[int(j)] for j in rng.permutation(len(crossings))]
        band_r, band_c = 0, 0  # how many horizontal / vertical rivers are behind
        r_edges, c_edges = [0, *rows, n - 1], [0, *cols, n - 1]
        for o in crossings:
            if o == "v":  # a gap in column cols[band_c], in the current band of rows
                lv[int(rng.integers(r_edges[band_r] + 1, r_edges[band_r + 1])), cols[band_c]] = None
                band_c += 1
            else:
                lv[rows[band_r], int(rng.integers(c_edges[band_c] + 1, c_edges[band_c + 1]))] = None
                band_r += 1
        lv[n - 2, n - 2] = GOAL
        lv.agent, lv.dir = lv.idx(1, 1), int(rng.integers(4))
        return lv

    def _goal_text(self) -> str:
        return "Get to the green goal without stepping into the lava."


SPECS = (
    TaskSpec(name="GridLavaCrossing", entry_point=GridLavaCrossing, max_episode_steps=80,
             tags=("gridworld", "navigation", "safety", "minigrid")),
)
