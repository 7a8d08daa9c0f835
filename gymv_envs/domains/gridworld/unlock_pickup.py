"""UnlockPickup: unlock the door, then pick up the named box in the other room."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.gridworld._world import (
    COLOURS,
    GridWorldEnv,
    Level,
    PickupGoal,
    box,
    door,
    key,
)


class GridUnlockPickup(PickupGoal, GridWorldEnv):
    """Unlock the door and pick up the box of the named colour (MiniGrid's UnlockPickup, our own levels).

    ## Description
    Two rooms side by side share a wall with one locked door. The agent and the key are in the left
    room, the boxes in the right one. The agent carries one object at a time, so it must drop the key
    before it can pick up the box. At difficulty 1 and 2 boxes of other colours stand beside the target.

    ## Action Space
    ``action_mode="egocentric"`` (default): `Discrete(7)` ``left``, ``right`` (turn), ``forward``,
    ``pickup``, ``drop``, ``toggle``, ``done``; ``"absolute"``: `Discrete(8)` ``up``, ``down``, ``left``,
    ``right`` (face that way, step if free), ``pickup``, ``drop``, ``toggle``, ``done``. Every action is
    valid; one that cannot act changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: ``view="full"`` the board from above; ``view="agent"`` the
    ``agent_view_size`` window ahead of the agent, turned to face up, hidden cells shaded.

    ## Rewards
    1.0 on picking up the named box, else 0.0 (``max_return`` 1.0).

    ## Starting State
    Room size by difficulty; the door, the key, the boxes, their colours and the agent from the seed.

    ## Episode End
    Terminates with success when the agent holds the named box. The registered budget truncates.

    ## Arguments
    ``difficulty`` (0: rooms of 3x3 cells and one box, 1: 4x4 and two boxes, 2: 5x5 and three),
    ``action_mode`` (``"egocentric"``, ``"absolute"``), ``view`` (``"full"``, ``"agent"``),
    ``agent_view_size`` (odd, 3 to 15), ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    LEVELS = {0: (3, 1), 1: (4, 2), 2: (5, 3)}  # room side, boxes

    def _build(self, rng: np.random.Generator, config: tuple[int, int]) -> Level:
        m, boxes = config
        lv = Level(m + 2, 2 * m + 3)
        lv.vwall(m + 1)
        colours = [COLOURS[i] for i in rng.permutation(len(COLOURS))]
        lv[int(rng.integers(1, m + 1)), m + 1] = door(colours[0], "locked")
        lv.place_agent(rng, 1, 1, m, m)
        lv.place(rng, key(colours[0]), 1, 1, m, m)
        self.target = box(colours[1])
        for colour in colours[1: boxes + 1]:
            lv.place(rng, box(colour), 1, m + 2, m, 2 * m + 1)
        return lv



SPECS = (
    TaskSpec(name="GridUnlockPickup", entry_point=GridUnlockPickup, max_episode_steps=100,
             tags=("gridworld", "planning", "minigrid")),
)
