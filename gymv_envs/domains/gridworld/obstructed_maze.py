"""ObstructedMaze: clear the ball blocking each locked door, find its key (maybe in a box), fetch the ball."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.gridworld._world import (
    GridWorldEnv,
    Level,
    PickupGoal,
    ball,
    box,
    door,
    key,
)

TARGETS = ("blue", "red", "purple")
OTHERS = ("green", "yellow", "cyan")


class GridObstructedMaze(PickupGoal, GridWorldEnv):
    """Fetch the named ball behind obstructed locked doors (MiniGrid's ObstructedMaze, our own levels).

    ## Description
    Rooms stand in a row, each joined to the next by a locked door. On the near side of every door a ball
    blocks the way; its key lies in the same room, at difficulty 1 and 2 hidden in a box (toggling a box
    opens it and leaves what it held). The agent carries one object at a time: it moves the blocking ball
    aside, takes the key, unlocks the door, and in the last room drops what it holds to pick up the ball
    named in the instruction.

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
    The doors' rows and colours, the keys, boxes, the target's colour and place and the agent from the seed.

    ## Episode End
    Terminates with success when the agent holds the named ball. The registered budget truncates.

    ## Arguments
    ``difficulty`` (0: two 4x4 rooms, key in sight; 1: two rooms, key in a box; 2: three rooms, keys in
    boxes), ``action_mode`` (``"egocentric"``, ``"absolute"``), ``view`` (``"full"``, ``"agent"``),
    ``agent_view_size`` (odd, 3 to 15), ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    LEVELS = {0: (2, False), 1: (2, True), 2: (3, True)}  # rooms, keys hidden in boxes
    SIDE = 4

    def _build(self, rng: np.random.Generator, config: tuple[int, bool]) -> Level:
        rooms, hidden = config
        m = self.SIDE
        lv = Level(m + 2, rooms * (m + 1) + 1)
        colours = [OTHERS[i] for i in rng.permutation(len(OTHERS))]
        self.target = ball(TARGETS[int(rng.integers(len(TARGETS)))])
        for i in range(1, rooms):
            wall_c, row = i * (m + 1), int(rng.integers(1, m + 1))
            lv.vwall(wall_c)
            lv[row, wall_c] = door(colours[i - 1], "locked")
            lv[row, wall_c - 1] = ball(colours[(i + 1) % len(colours)])  # the obstruction
        doors = [(r, c) for r in range(lv.rows) for c in range(lv.cols) if lv[r, c] is not None and lv[r, c][0] == "door"]
        near = tuple((r + dr, c + dc) for r, c in doors for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)))
        for i in range(rooms - 1):
            c0 = i * (m + 1) + 1
            thing = box(colours[(i + 2) % len(colours)], key(colours[i])) if hidden else key(colours[i])
            lv.place(rng, thing, 1, c0, m, c0 + m - 2, avoid=near)
        last = (rooms - 1) * (m + 1) + 1
        lv.place(rng, self.target, 1, last + 1, m, last + m - 1, avoid=near)
        lv.place_agent(rng, 1, 1, m, m - 1)
        return lv



SPECS = (
    TaskSpec(name="GridObstructedMaze", entry_point=GridObstructedMaze, max_episode_steps=150,
             tags=("gridworld", "planning", "minigrid")),
)
