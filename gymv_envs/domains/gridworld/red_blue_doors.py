"""RedBlueDoors: open the red door first, then the blue door."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.gridworld._world import Cell, GridWorldEnv, Level, door

OTHERS = ("green", "purple", "yellow", "cyan")


class GridRedBlueDoors(GridWorldEnv):
    """Open the red door and then the blue one (MiniGrid's RedBlueDoors, our own levels and tiles).

    ## Description
    A room has a red door in one side wall and a blue door in the other. Opening the blue door while the
    red one is open succeeds; opening it while the red one is closed fails. At difficulty 1 and 2 doors of
    other colours sit in the top and bottom walls; toggling them does no harm and no good.

    ## Action Space
    ``action_mode="egocentric"`` (default): `Discrete(7)` ``left``, ``right`` (turn), ``forward``,
    ``pickup``, ``drop``, ``toggle``, ``done``; ``"absolute"``: `Discrete(8)` ``up``, ``down``, ``left``,
    ``right`` (face that way, step if free), ``pickup``, ``drop``, ``toggle``, ``done``. Every action is
    valid; one that cannot act changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: ``view="full"`` the board from above; ``view="agent"`` the
    ``agent_view_size`` window ahead of the agent, turned to face up, hidden cells shaded.

    ## Rewards
    1.0 when the blue door opens after the red one, else 0.0 (``max_return`` 1.0).

    ## Starting State
    Which side wall holds which door, the doors' rows, the distractor doors and the agent from the seed.

    ## Episode End
    Terminates when the blue door opens (success if the red one is open). The registered budget truncates.

    ## Arguments
    ``difficulty`` (0: 4x4 room, 1: 6x6 with 1 distractor door, 2: 8x8 with 3), ``action_mode``
    (``"egocentric"``, ``"absolute"``), ``view`` (``"full"``, ``"agent"``), ``agent_view_size`` (odd, 3 to
    15), ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    LEVELS = {0: (4, 0), 1: (6, 1), 2: (8, 3)}  # room side, distractor doors
    plans_door_toggles = True

    def _build(self, rng: np.random.Generator, config: tuple[int, int]) -> Level:
        m, distractors = config
        lv = Level(m + 4, m + 4)
        lv.wall_rect(1, 1, m + 2, m + 2)
        sides = [1, m + 2] if rng.random() < 0.5 else [m + 2, 1]
        self.red_at = lv.idx(int(rng.integers(2, m + 2)), sides[0])
        self.blue_at = lv.idx(int(rng.integers(2, m + 2)), sides[1])
        lv.cells[self.red_at], lv.cells[self.blue_at] = door("red"), door("blue")
        spots = [(r, c) for r in (1, m + 2) for c in range(2, m + 2)]
        for n, i in enumerate(rng.permutation(len(spots))[:distractors]):
            lv[spots[int(i)]] = door(OTHERS[n])
        lv.place_agent(rng, 2, 2, m + 1, m + 1)
        return lv

    def _verdict(self, pos: int, carrying: Cell, grid: tuple, event: str) -> bool | None:
        if grid[self.blue_at][2] == "open":
            return grid[self.red_at][2] == "open"
        return None

    def _goal_text(self) -> str:
        return "Open the red door, then the blue door; opening the blue door first fails."


SPECS = (
    TaskSpec(name="GridRedBlueDoors", entry_point=GridRedBlueDoors, max_episode_steps=60, kwargs={"difficulty": 1},
             tags=("gridworld", "planning", "instruction-following", "minigrid")),
)
