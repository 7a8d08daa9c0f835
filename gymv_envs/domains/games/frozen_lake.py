"""Frozen Lake (not slippery): walk across the ice to the goal without falling into a hole."""

from __future__ import annotations

from collections import deque

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import PALETTE, shape_mask

# difficulty -> (board side, share of cells that are holes, fewest moves from start to goal)
LEVELS = {0: (4, 0.2, 3), 1: (6, 0.25, 6), 2: (8, 0.3, 10)}
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
ICE, HOLE_C, HOLE_EDGE, GOAL_C, PLAYER_C = (214, 236, 248), (22, 44, 92), (120, 170, 210), PALETTE["green"], PALETTE["red"]


class FrozenLake(MultiTurnEnv):
    """Walk across a frozen lake to the goal without stepping into a hole.

    ## Description
    An ``n x n`` lake of ice with holes. The player moves one cell per step (the ice is not
    slippery: a move always goes where it says). Stepping into a hole ends the episode in
    failure; reaching the goal ends it in success.

    ## Action Space
    `Discrete(4)`: ``up``, ``down``, ``left``, ``right``. Walking off the board is invalid
    and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: light blue ice, dark blue holes, the green square the
    goal, the red disc the player.

    ## Rewards
    1.0 on reaching the goal, else 0.0 (``max_return`` 1.0).

    ## Starting State
    Holes on random cells; start and goal on random ice cells joined by an ice path at least
    ``m`` moves long.

    ## Episode End
    Terminates on the goal (success) or in a hole (failure); the step budget truncates.

    ## Arguments
    ``difficulty`` (0: 4x4, 20% holes, >= 3 moves; 1: 6x6, 25%, >= 6; 2: 8x8, 30%, >= 10), ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    action_names = ("up", "down", "left", "right")

    def _configure(self) -> None:
        self.n, self.hole_share, self.min_moves = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        while True:
            self.holes = frozenset((int(i) // n, int(i) % n) for i in
                                   rng.choice(n * n, size=int(round(self.hole_share * n * n)), replace=False))
            ice = [(r, c) for r in range(n) for c in range(n) if (r, c) not in self.holes]
            self.goal = ice[int(rng.integers(len(ice)))]
            dist = self._distances()
            far = [p for p in ice if self.min_moves <= dist.get(p, -1)]
            if far:
                self.player = far[int(rng.integers(len(far)))]
                self._dist, self._start = dist, dist[self.player]
                return

    def _distances(self) -> dict:
        """Moves from each ice cell to the goal over ice (BFS from the goal)."""
        dist, queue = {self.goal: 0}, deque([self.goal])
        while queue:
            r, c = queue.popleft()
            for dr, dc in STEPS:
                q = (r + dr, c + dc)
                if 0 <= q[0] < self.n and 0 <= q[1] < self.n and q not in self.holes and q not in dist:
                    dist[q] = dist[(r, c)] + 1
                    queue.append(q)
        return dist

    # -- rules
    def _apply(self, action: int) -> Outcome:
        dr, dc = STEPS[action]
        q = (self.player[0] + dr, self.player[1] + dc)
        if not (0 <= q[0] < self.n and 0 <= q[1] < self.n):
            return Outcome(invalid=True, feedback="that move leaves the lake")
        self.player = q
        if q in self.holes:
            return Outcome(terminated=True, feedback="fell into a hole")
        done = q == self.goal
        return Outcome(reward=float(done), terminated=done, success=done,
                       feedback="reached the goal" if done else f"moved {self.action_names[action]}")

    def _progress(self) -> float:
        if self._success:
            return 1.0
        return max(0.0, 1.0 - self._dist.get(self.player, self._start) / max(1, self._start))

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        keys = [["hole" if (r, c) in self.holes else "goal" if (r, c) == self.goal else "ice" for c in range(n)]
                for r in range(n)]
        r, c = self.player
        keys[r][c] = keys[r][c] + "+player"
        return self.grid_painter(n, n, self._tile).paint(keys)

    def _tile(self, key: str, h: int, w: int) -> np.ndarray:
        t = np.empty((h, w, 3), dtype=np.float32)
        t[...] = ICE
        if key.startswith("hole"):
            t[...] = HOLE_EDGE
            m = max(1, h // 8)
            t[m:h - m, m:w - m] = HOLE_C
        if key.startswith("goal"):
            m = max(1, h // 6)
            t[m:h - m, m:w - m] = GOAL_C
        if key.endswith("player"):
            d = max(1, int(h * 0.6))
            disc = np.zeros((h, w, 1), np.float32)
            o = (h - d) // 2
            disc[o:o + d, o:o + d, 0] = shape_mask("circle", d) / 255.0
            t[...] = t * (1 - disc) + np.asarray(PLAYER_C, np.float32) * disc
        return t.astype(np.uint8)

    def _task_text(self) -> str:
        return ("This is Frozen Lake, seen from above. Light blue cells are ice, dark blue cells are holes, the green "
                "square is the goal and the red disc is you. Each move takes you one cell up, down, left or right; "
                "the ice is not slippery. Reach the goal without stepping into a hole: a hole ends the game.")

    def _state_text(self) -> str:
        n = self.n
        return "\n".join("".join("P" if (r, c) == self.player else "H" if (r, c) in self.holes else
                                 "G" if (r, c) == self.goal else "." for c in range(n)) for r in range(n))

    # -- oracle
    def oracle_action(self) -> int:
        best, here = 0, self._dist.get(self.player, 1 << 30)
        for a, (dr, dc) in enumerate(STEPS):
            d = self._dist.get((self.player[0] + dr, self.player[1] + dc))
            if d is not None and d < here:
                best, here = a, d
        return best


SPECS = (
    TaskSpec(name="FrozenLake", entry_point=FrozenLake, version=1, max_episode_steps=100,
             tags=("navigation", "grid")),
)
