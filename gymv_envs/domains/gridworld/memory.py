"""Memory: see the cue object in the start room, then walk down the hallway to the matching one."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import choice
from gymv_envs.domains.gridworld._world import COLOURS, Cell, GridWorldEnv, Level, ball, key


class GridMemory(GridWorldEnv):
    """Remember the cue and choose the matching object at the hallway's end (MiniGrid's Memory, our levels).

    ## Description
    The agent starts in a small room holding a cue object, a key or a ball. A hallway leads from the room
    to a junction: one end of the junction shows a key, the other a ball (in the wall, out of reach).
    Stepping onto the end cell next to the object of the cue's kind succeeds; stepping onto the other end
    cell fails. With ``view="agent"`` the cue is out of sight by the time the agent reaches the junction,
    which is what makes it a memory task; ``view="full"`` shows both at once.

    ## Action Space
    ``action_mode="egocentric"`` (default): `Discrete(7)` ``left``, ``right`` (turn), ``forward``,
    ``pickup``, ``drop``, ``toggle``, ``done``; ``"absolute"``: `Discrete(8)` ``up``, ``down``, ``left``,
    ``right`` (face that way, step if free), ``pickup``, ``drop``, ``toggle``, ``done``. Every action is
    valid; one that cannot act changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: ``view="full"`` the board from above; ``view="agent"`` the
    ``agent_view_size`` window ahead of the agent, turned to face up, hidden cells shaded.

    ## Rewards
    1.0 on the cell next to the matching object, else 0.0 (``max_return`` 1.0).

    ## Starting State
    The cue's kind and place, which end shows which object, the objects' colour and the agent's cell and
    heading in the start room from the seed.

    ## Episode End
    Terminates on either end cell of the junction (success or failure). The registered budget truncates.

    ## Arguments
    ``difficulty`` (hallway of 2, 5 or 9 cells), ``action_mode`` (``"egocentric"``, ``"absolute"``),
    ``view`` (``"full"``, ``"agent"``), ``agent_view_size`` (odd, 3 to 15), ``obs_size``,
    ``render_mode``, ``text_in_image``. The registered id defaults to difficulty 1.

    ## Version History
    - v0: initial version.
    """

    LEVELS = {0: 2, 1: 5, 2: 9}  # hallway length

    def _build(self, rng: np.random.Generator, hall: int) -> Level:
        j = 4 + hall
        lv = Level(7, j + 2)
        for r in (1, 5):
            lv.hwall(r, 4, j + 1)
        for r in (2, 4):
            lv.hwall(r, 4, j - 1)
        lv.vwall(4, 1, 5)
        lv[3, 4] = None
        colour = choice(rng, COLOURS)
        kinds = [key(colour), ball(colour)]
        top = int(rng.integers(2))
        lv[1, j], lv[5, j] = kinds[top], kinds[1 - top]
        self.cue = kinds[int(rng.integers(2))]
        lv.place(rng, self.cue, 1, 1, 5, 1)
        lv.place_agent(rng, 1, 2, 5, 3)
        self.win_at, self.lose_at = (lv.idx(2, j), lv.idx(4, j)) if self.cue == lv[1, j] else (lv.idx(4, j), lv.idx(2, j))
        return lv

    def _verdict(self, pos: int, carrying: Cell, grid: tuple, event: str) -> bool | None:
        if event == "moved":
            return True if pos == self.win_at else False if pos == self.lose_at else None
        return None

    def _goal_text(self) -> str:
        return ("Remember the object in the room where you start. At the end of the hallway, step onto the cell "
                "next to the object of the same kind (key or ball); the cell next to the other one ends the task.")


SPECS = (
    TaskSpec(name="GridMemory", entry_point=GridMemory, max_episode_steps=60, kwargs={"difficulty": 1},
             tags=("gridworld", "memory", "navigation", "minigrid")),
)
