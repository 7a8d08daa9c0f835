"""MultiRoom: pass through a chain of rooms, opening the doors between them, to the goal."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.gridworld._world import COLOURS, GOAL, GridWorldEnv, Level, door


class GridMultiRoom(GridWorldEnv):
    """Walk through a chain of rooms to the goal in the last one (MiniGrid's MultiRoom, our own levels).

    ## Description
    Rooms sit on a lattice; a chain of them, each joined to the next by a closed door (toggle opens it),
    leads from the agent's room to the one with the green goal. Rooms off the chain are solid wall.

    ## Action Space
    ``action_mode="egocentric"`` (default): `Discrete(7)` ``left``, ``right`` (turn), ``forward``,
    ``pickup``, ``drop``, ``toggle``, ``done``; ``"absolute"``: `Discrete(8)` ``up``, ``down``, ``left``,
    ``right`` (face that way, step if free), ``pickup``, ``drop``, ``toggle``, ``done``. Every action is
    valid; one that cannot act (forward into a closed door) changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: ``view="full"`` the board from above; ``view="agent"`` the
    ``agent_view_size`` window ahead of the agent, turned to face up, hidden cells shaded.

    ## Rewards
    1.0 on reaching the goal, else 0.0 (``max_return`` 1.0).

    ## Starting State
    The chain (a random self-avoiding walk over the lattice), the doors' places and colours, the agent
    and the goal are drawn from the seed.

    ## Episode End
    Terminates with success on the goal. The registered budget truncates.

    ## Arguments
    ``difficulty`` (0: 2 rooms on a 2x2 lattice, 1: 3 rooms on 3x3, 2: 5 rooms on 3x3; rooms of 4x4
    cells), ``action_mode`` (``"egocentric"``, ``"absolute"``), ``view`` (``"full"``, ``"agent"``),
    ``agent_view_size`` (odd, 3 to 15), ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    LEVELS = {0: (2, 2, 4), 1: (3, 3, 4), 2: (5, 3, 4)}  # rooms in the chain, lattice side, room side

    def _build(self, rng: np.random.Generator, config: tuple[int, int, int]) -> Level:
        n, k, m = config
        size = k * (m + 1) + 1
        lv = Level(size, size)
        chain = self._chain(rng, n, k)
        for i in range(k):
            lv.hwall(i * (m + 1))
            lv.vwall(i * (m + 1))
        for sr in range(k):
            for sc in range(k):
                if (sr, sc) not in chain:
                    for r in range(m):
                        lv.hwall(sr * (m + 1) + 1 + r, sc * (m + 1) + 1, sc * (m + 1) + m)
        colours = [COLOURS[i] for i in rng.permutation(len(COLOURS))]
        for i, ((r0, c0), (r1, c1)) in enumerate(zip(chain, chain[1:])):
            off = 1 + int(rng.integers(m))
            if r0 == r1:  # side by side: a door in the wall column between them
                lv[r0 * (m + 1) + off, max(c0, c1) * (m + 1)] = door(colours[i % len(colours)])
            else:
                lv[max(r0, r1) * (m + 1), c0 * (m + 1) + off] = door(colours[i % len(colours)])
        (ar, ac), (gr, gc) = chain[0], chain[-1]
        lv.place_agent(rng, ar * (m + 1) + 1, ac * (m + 1) + 1, ar * (m + 1) + m, ac * (m + 1) + m)
        lv.place(rng, GOAL, gr * (m + 1) + 1, gc * (m + 1) + 1, gr * (m + 1) + m, gc * (m + 1) + m)
        return lv

    @staticmethod
    def _chain(rng: np.random.Generator, n: int, k: int) -> list[tuple[int, int]]:
        """A random self-avoiding walk of ``n`` lattice slots (depth first, random order)."""
        def grow(path: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
            if len(path) == n:
                return path
            r, c = path[-1]
            steps = [(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
            for i in rng.permutation(4):
                nxt = steps[int(i)]
                if 0 <= nxt[0] < k and 0 <= nxt[1] < k and nxt not in path:
                    out = grow(path + [nxt])
                    if out:
                        return out
            return None

        while True:
            out = grow([(int(rng.integers(k)), int(rng.integers(k)))])
            if out:
                return out

    def _goal_text(self) -> str:
        return "Go through the rooms, opening the doors on the way, and get to the green goal."


SPECS = (
    TaskSpec(name="GridMultiRoom", entry_point=GridMultiRoom, max_episode_steps=120,
             tags=("gridworld", "navigation", "exploration", "minigrid")),
)
