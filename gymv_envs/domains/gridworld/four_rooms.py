"""FourRooms: find the goal in one of four rooms joined by gaps in their walls."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.gridworld._world import GOAL, GridWorldEnv, Level


class GridFourRooms(GridWorldEnv):
    """Walk to the goal through four rooms joined by gaps (MiniGrid's FourRooms, our own levels).

    ## Description
    Two walls, one across and one down, split the board into four rooms; each of the four wall segments
    has one gap. The agent and the green goal are placed anywhere.

    ## Action Space
    ``action_mode="egocentric"`` (default): `Discrete(7)` ``left``, ``right`` (turn), ``forward``,
    ``pickup``, ``drop``, ``toggle``, ``done``; ``"absolute"``: `Discrete(8)` ``up``, ``down``, ``left``,
    ``right`` (face that way, step if free), ``pickup``, ``drop``, ``toggle``, ``done``. Every action is
    valid; one that cannot act changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: ``view="full"`` the board from above; ``view="agent"`` the
    ``agent_view_size`` window ahead of the agent, turned to face up, hidden cells shaded.

    ## Rewards
    1.0 on reaching the goal, else 0.0 (``max_return`` 1.0).

    ## Starting State
    The walls' places, their gaps, the agent (cell and heading) and the goal from the seed; the goal is
    never in the agent's room.

    ## Episode End
    Terminates with success on the goal. The registered budget truncates.

    ## Arguments
    ``difficulty`` (0: 9x9 board, 1: 13x13, 2: 17x17, borders included), ``action_mode``
    (``"egocentric"``, ``"absolute"``), ``view`` (``"full"``, ``"agent"``), ``agent_view_size`` (odd, 3
    to 15), ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    LEVELS = {0: 9, 1: 13, 2: 17}

    def _build(self, rng: np.random.Generator, n: int) -> Level:
        lv = Level(n, n)
        h = n // 2 + int(rng.integers(-1, 2))
        v = n // 2 + int(rng.integers(-1, 2))
        lv.hwall(h)
        lv.vwall(v)
        lv[h, int(rng.integers(1, v))] = lv[h, int(rng.integers(v + 1, n - 1))] = None
        lv[int(rng.integers(1, h)), v] = lv[int(rng.integers(h + 1, n - 1)), v] = None
        rooms = [(1, 1, h - 1, v - 1), (1, v + 1, h - 1, n - 2), (h + 1, 1, n - 2, v - 1), (h + 1, v + 1, n - 2, n - 2)]
        a, g = (int(i) for i in rng.permutation(4)[:2])
        lv.place_agent(rng, *rooms[a])
        lv.place(rng, GOAL, *rooms[g])
        return lv

    def _goal_text(self) -> str:
        return "Get to the green goal."


SPECS = (
    TaskSpec(name="GridFourRooms", entry_point=GridFourRooms, max_episode_steps=100,
             tags=("gridworld", "navigation", "exploration", "minigrid")),
)
