"""KeyCorridor: find the key in one of the rooms off a corridor, unlock the ball's room, fetch the ball."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.gridworld._world import (
    COLOURS,
    GridWorldEnv,
    Level,
    PickupGoal,
    ball,
    door,
    key,
)


class GridKeyCorridor(PickupGoal, GridWorldEnv):
    """Fetch the named ball from a locked room off a corridor (MiniGrid's KeyCorridor, our own levels).

    ## Description
    A corridor runs down the middle with rooms on both sides, each behind a door. One door is locked and
    its room holds the ball to fetch; the key of its colour lies in another room behind a closed door
    (toggle opens it). The agent carries one object at a time, so it drops the key before taking the ball.

    ## Action Space
    ``action_mode="egocentric"`` (default): `Discrete(7)` ``left``, ``right`` (turn), ``forward``,
    ``pickup``, ``drop``, ``toggle``, ``done``; ``"absolute"``: `Discrete(8)` ``up``, ``down``, ``left``,
    ``right`` (face that way, step if free), ``pickup``, ``drop``, ``toggle``, ``done``. Every action is
    valid; one that cannot act changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: ``view="full"`` the board from above; ``view="agent"`` the
    ``agent_view_size`` window ahead of the agent, turned to face up, hidden cells shaded.

    ## Rewards
    1.0 on picking up the named ball, else 0.0 (``max_return`` 1.0).

    ## Starting State
    Rows of rooms by difficulty; which room is locked, where the key lies, the doors' places and
    colours, the ball's colour and the agent's place in the corridor from the seed.

    ## Episode End
    Terminates with success when the agent holds the ball. The registered budget truncates.

    ## Arguments
    ``difficulty`` (0: one row of two 3x3 rooms, 1: two rows, 2: three rows of 4x4 rooms), ``action_mode``
    (``"egocentric"``, ``"absolute"``), ``view`` (``"full"``, ``"agent"``), ``agent_view_size`` (odd, 3
    to 15), ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    LEVELS = {0: (1, 3), 1: (2, 3), 2: (3, 4)}  # rows of rooms, room side

    def _build(self, rng: np.random.Generator, config: tuple[int, int]) -> Level:
        rows, m = config
        lv = Level(rows * (m + 1) + 1, 2 * m + 5)
        mid = m + 2
        lv.vwall(mid - 1)
        lv.vwall(mid + 1)
        for i in range(1, rows):
            lv.hwall(i * (m + 1))
        lv[0, mid] = lv[lv.rows - 1, mid] = ("wall",)
        for i in range(1, rows):
            lv[i * (m + 1), mid] = None  # the corridor runs through the rows' walls
        colours = [COLOURS[i] for i in rng.permutation(len(COLOURS))]
        rooms = [(i, side) for i in range(rows) for side in (0, 1)]
        order = [rooms[int(j)] for j in rng.permutation(len(rooms))]
        boxes = {}
        for n, (i, side) in enumerate(order):
            r0, c0 = i * (m + 1) + 1, 1 if side == 0 else mid + 2
            boxes[(i, side)] = (r0, c0, r0 + m - 1, c0 + m - 1)
            lv[r0 + int(rng.integers(m)), mid - 1 if side == 0 else mid + 1] = door(colours[n], "locked" if n == 0 else "closed")
        self.target = ball(colours[int(rng.integers(1, len(colours)))])
        lv.place(rng, self.target, *boxes[order[0]])
        lv.place(rng, key(colours[0]), *boxes[order[1]])
        lv.place_agent(rng, 1, mid, lv.rows - 2, mid)
        return lv



SPECS = (
    TaskSpec(name="GridKeyCorridor", entry_point=GridKeyCorridor, max_episode_steps=150,
             tags=("gridworld", "planning", "exploration", "minigrid")),
)
