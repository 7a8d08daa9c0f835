"""Unlock: open the locked door between two rooms with the key of its colour."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.gridworld._world import COLOURS, Cell, GridWorldEnv, Level, door, key


class GridUnlock(GridWorldEnv):
    """Open the locked door (MiniGrid's Unlock, our own levels and tiles).

    ## Description
    Two rooms side by side share a wall with one locked door. The agent and the key of the door's
    colour are in the left room; toggling the door while carrying the key opens it. At difficulty 1
    and 2, keys of other colours lie about as distractors: they do not open the door.

    ## Action Space
    ``action_mode="egocentric"`` (default): `Discrete(7)` ``left``, ``right`` (turn), ``forward``,
    ``pickup``, ``drop``, ``toggle``, ``done``; ``"absolute"``: `Discrete(8)` ``up``, ``down``, ``left``,
    ``right`` (face that way, step if free), ``pickup``, ``drop``, ``toggle``, ``done``. Every action is
    valid; one that cannot act (a step into a wall, toggling a locked door without its key) changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: ``view="full"`` the board from above; ``view="agent"`` the
    ``agent_view_size`` window ahead of the agent, turned to face up, hidden cells shaded.

    ## Rewards
    1.0 when the door opens, else 0.0 (``max_return`` 1.0).

    ## Starting State
    Room size by difficulty; the door's row and colour, the key, the distractors and the agent from the seed.

    ## Episode End
    Terminates with success when the door is open. The registered budget truncates.

    ## Arguments
    ``difficulty`` (0: rooms of 3x3 cells, 1: 4x4 and one distractor key, 2: 5x5 and two), ``action_mode``
    (``"egocentric"``, ``"absolute"``), ``view`` (``"full"``, ``"agent"``), ``agent_view_size`` (odd, 3 to
    15), ``obs_size``, ``render_mode``, ``text_in_image``. The registered id defaults to difficulty 1.

    ## Version History
    - v0: initial version.
    """

    LEVELS = {0: (3, 0), 1: (4, 1), 2: (5, 2)}  # room side, distractor keys

    def _build(self, rng: np.random.Generator, config: tuple[int, int]) -> Level:
        m, distractors = config
        lv = Level(m + 2, 2 * m + 3)
        lv.vwall(m + 1)
        colours = [COLOURS[i] for i in rng.permutation(len(COLOURS))]
        self.door_at = lv.idx(int(rng.integers(1, m + 1)), m + 1)
        lv.cells[self.door_at] = door(colours[0], "locked")
        lv.place_agent(rng, 1, 1, m, m)
        for colour in colours[: distractors + 1]:
            lv.place(rng, key(colour), 1, 1, m, m)
        return lv

    def _verdict(self, pos: int, carrying: Cell, grid: tuple, event: str) -> bool | None:
        return True if grid[self.door_at][2] == "open" else None

    def _goal_text(self) -> str:
        return "Open the locked door."


SPECS = (
    TaskSpec(name="GridUnlock", entry_point=GridUnlock, max_episode_steps=60, kwargs={"difficulty": 1},
             tags=("gridworld", "planning", "minigrid")),
)
