"""DoorKey: fetch the key, unlock the door in the dividing wall, reach the goal."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import choice
from gymv_envs.domains.gridworld._world import COLOURS, GOAL, WALL, GridWorldEnv, Level, door, key


class GridDoorKey(GridWorldEnv):
    """Pick up the key, unlock the door and walk to the goal (MiniGrid's DoorKey, our own levels and tiles).

    ## Description
    A square room is split by a wall with one locked door. The agent and the key of the door's colour
    are on the left side, the green goal in the far corner on the right. Toggling the door while
    carrying the key opens it.

    ## Action Space
    ``action_mode="egocentric"`` (default): `Discrete(7)`, MiniGrid's ``left``, ``right`` (turn),
    ``forward``, ``pickup``, ``drop``, ``toggle``, ``done``. ``action_mode="absolute"``: `Discrete(8)`,
    ``up``, ``down``, ``left``, ``right`` (face that way and step if free), then ``pickup``, ``drop``,
    ``toggle``, ``done``. Every action is valid; one that cannot act (forward into a wall or a closed door,
    pickup with full hands) is a step that changes nothing, as in MiniGrid.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: ``view="full"`` the whole board from above with the agent as a red
    triangle; ``view="agent"`` the ``agent_view_size`` square window ahead of the agent, turned so that it
    faces up, cells hidden behind walls and closed doors shaded.

    ## Rewards
    1.0 on reaching the goal, else 0.0 (``max_return`` 1.0).

    ## Starting State
    The wall's column, the door's row and colour, the agent's cell and heading and the key's cell are drawn
    from the seed.

    ## Episode End
    Terminates with success on the goal. The registered budget truncates.

    ## Arguments
    ``difficulty`` (0: 5x5 board, 1: 7x7, 2: 9x9, borders included), ``action_mode`` (``"egocentric"``,
    ``"absolute"``), ``view`` (``"full"``, ``"agent"``), ``agent_view_size`` (odd, 3 to 15, default 7),
    ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    LEVELS = {0: 5, 1: 7, 2: 9}

    def _build(self, rng: np.random.Generator, n: int) -> Level:
        lv = Level(n, n)
        split = int(rng.integers(2, n - 2))
        for r in range(n):
            lv[r, split] = WALL
        colour = choice(rng, COLOURS)
        lv[int(rng.integers(1, n - 1)), split] = door(colour, "locked")
        lv[n - 2, n - 2] = GOAL
        lv.place_agent(rng, 1, 1, n - 2, split - 1)
        lv.place(rng, key(colour), 1, 1, n - 2, split - 1)
        return lv

    def _goal_text(self) -> str:
        return "Pick up the key, unlock the door of its colour with it and get to the green goal."


SPECS = (
    TaskSpec(name="GridDoorKey", entry_point=GridDoorKey, max_episode_steps=120,
             tags=("gridworld", "navigation", "planning", "minigrid")),
)
