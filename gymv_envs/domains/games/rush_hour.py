"""Rush Hour: slide cars and trucks until the red car can leave through the right-hand exit."""

from __future__ import annotations

from collections import deque

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import PALETTE, ROAD
from gymv_envs.rules.rush_hour import ROW, N

# difficulty -> (other vehicles, fewest one-cell moves to solve)
LEVELS = {0: (4, 4), 1: (7, 7), 2: (8, 10)}
CARS = "ABCDEFGHIJ"
MAX_NODES = 30_000
COLOURS = ((220, 40, 40), PALETTE["blue"], PALETTE["green"], PALETTE["yellow"], PALETTE["purple"],
                                  PALETTE["orange"], PALETTE["cyan"], PALETTE["pink"], PALETTE["brown"], PALETTE["gray"])
DIRS = ("up", "down", "left", "right")


class RushHour(MultiTurnEnv):
    """Slide vehicles along their lanes to free the way for the red car.

    ## Description
    A 6x6 parking lot holds the red car (A, horizontal, length 2, third row) and other cars
    (length 2) and trucks (length 3). Each vehicle only moves along its own orientation, one
    cell per step, into a free cell. The goal is the red car at the right edge of its row,
    where the exit is.

    ## Action Space
    `Discrete(40)`: ``<vehicle> <direction>``, e.g. ``A right`` or ``C up`` (vehicles are
    lettered A-J; letters and colours are listed in the instruction). Moving across the
    vehicle's orientation, into another vehicle or off the board, or naming a vehicle that is
    not there, is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the lot from above; each vehicle a coloured block, the
    red car red.

    ## Rewards
    1.0 when the red car reaches the exit, else 0.0 (``max_return`` 1.0).

    ## Starting State
    Random vehicles placed without overlap; kept only when breadth-first search finds that the
    fewest moves to solve reach the difficulty's minimum.

    ## Episode End
    Terminates with success when the red car is at the exit; the step budget truncates.

    ## Arguments
    ``difficulty`` (0: 4 other vehicles, >= 4 moves; 1: 7, >= 7 moves; 2: 8, >= 10 moves), ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    action_names = tuple(f"{c} {d}" for c in CARS for d in DIRS)

    def _configure(self) -> None:
        self.others, self.min_moves = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        while True:
            self.shape = [(True, 2)]  # per vehicle: (horizontal, length)
            cells = {ROW * N + c for c in range(2)}
            pos = [ROW * N + int(rng.integers(0, 2))]
            cells = set(self._cells(0, pos[0]))
            for _ in range(200):
                if len(pos) > self.others:
                    break
                horiz, length = bool(rng.integers(2)), 2 + int(rng.random() < 0.3)
                if horiz and int(rng.integers(N)) == ROW:
                    continue
                p = int(rng.integers(N * N))
                r, c = divmod(p, N)
                if (c + length > N) if horiz else (r + length > N):
                    continue
                self.shape.append((horiz, length))
                new = set(self._cells(len(pos), p))
                if new & cells or (horiz and r == ROW):
                    self.shape.pop()
                    continue
                pos.append(p)
                cells |= new
            self.pos = tuple(pos)
            plan = self._search(self.pos)
            if plan is not None and len(plan) >= self.min_moves and len(self.shape) == self.others + 1:
                self._plan = plan
                return

    def _cells(self, v: int, p: int) -> list[int]:
        horiz, length = self.shape[v]
        return [p + (k if horiz else k * N) for k in range(length)]

    def _occupied(self, pos: tuple) -> int:
        occ = 0
        for v, p in enumerate(pos):
            for i in self._cells(v, p):
                occ |= 1 << i
        return occ

    def _move(self, pos: tuple, action: int, occ: int | None = None) -> tuple | None:
        v, d = divmod(action, 4)
        if v >= len(self.shape) or self.shape[v][0] != (d >= 2):
            return None
        step = (-N, N, -1, 1)[d]
        cells = self._cells(v, pos[v])
        head = cells[0] + step if step < 0 else cells[-1] + step
        if not 0 <= head < N * N or (d >= 2 and head // N != cells[0] // N):
            return None
        if (self._occupied(pos) if occ is None else occ) >> head & 1:
            return None
        return pos[:v] + (pos[v] + step,) + pos[v + 1:]

    def _won(self, pos: tuple) -> bool:
        return pos[0] == ROW * N + N - 2

    # -- rules
    def _apply(self, action: int) -> Outcome:
        nxt = self._move(self.pos, action)
        if nxt is None:
            return Outcome(invalid=True, feedback=f"{self.action_names[action]} is not possible")
        self.pos = nxt
        done = self._won(nxt)
        return Outcome(reward=float(done), terminated=done, success=done,
                       feedback="the red car is at the exit" if done else f"moved {self.action_names[action]}")

    def _progress(self) -> float:
        return 1.0 if self._success else (self.pos[0] % N) / (N - 2)

    # -- draw
    def _keys(self) -> list[list[int]]:
        keys = [[-1] * N for _ in range(N)]
        for v, p in enumerate(self.pos):
            for i in self._cells(v, p):
                keys[i // N][i % N] = v
        return keys

    def _draw(self) -> np.ndarray:
        return self.grid_painter(N, N, self._tile).paint(self._keys())

    def _tile(self, v: int, h: int, w: int) -> np.ndarray:
        t = np.empty((h, w, 3), dtype=np.uint8)
        t[...] = ROAD if v < 0 else COLOURS[v]
        if v >= 0:
            m = max(1, h // 6)
            t[m:h - m, m:w - m] = np.minimum(255, np.asarray(COLOURS[v]) * 0.75 + 60).astype(np.uint8)
        return t

    def _task_text(self) -> str:
        names = ("red", "blue", "green", "yellow", "purple", "orange", "cyan", "pink", "brown", "gray")
        listing = ", ".join(f"{CARS[v]} {names[v]}" for v in range(len(self.shape)))
        return ("This is Rush Hour on a 6x6 parking lot seen from above. Coloured blocks are vehicles (cars cover 2 "
                "cells, trucks 3); each moves one cell per step, only along its own length (horizontal vehicles "
                "left/right, vertical ones up/down), and only into a free cell. Get the red car to the right edge "
                f"of the third row, where the exit is. Vehicles: {listing}.")

    def _state_text(self) -> str:
        return "\n".join("".join(CARS[v] if v >= 0 else "." for v in row) for row in self._keys())

    # -- oracle
    def _search(self, start: tuple) -> dict | None:
        """Breadth-first search; the plan {state: action} of a shortest solution, or None.

        `_move` written out over tables made once per search: each vehicle's cell masks by position, and only
        the actions along its length (the others never move), in action order, so the search meets states in
        the same order as one through `_move` would (a level tries many of these searches)."""
        masks = [[sum(1 << i for i in self._cells(v, p)) for p in range(N * N)] for v in range(len(self.shape))]
        moves = [(a, v, step, span) for a in range(4 * len(self.shape))
                 for v, d in [divmod(a, 4)] if self.shape[v][0] == (d >= 2)
                 for step, span in [((-N, N, -1, 1)[d], (self.shape[v][1] - 1) * (1 if d >= 2 else N))]]
        goal = ROW * N + N - 2
        parent, queue = {start: None}, deque([start])
        while queue and len(parent) < MAX_NODES:
            s = queue.popleft()
            if s[0] == goal:
                plan = {}
                while parent[s] is not None:
                    s, a = parent[s]
                    plan[s] = a
                return plan
            occ = 0
            for v, p in enumerate(s):
                occ |= masks[v][p]
            for a, v, step, span in moves:
                p = s[v]
                head = p + step if step < 0 else p + span + step
                if not 0 <= head < N * N or (step in (-1, 1) and head // N != p // N) or occ >> head & 1:
                    continue
                t = s[:v] + (p + step,) + s[v + 1:]
                if t not in parent:
                    parent[t] = (s, a)
                    queue.append(t)
        return None

    def oracle_action(self) -> int:
        if self.pos not in self._plan:
            self._plan = self._search(self.pos) or {self.pos: 3}
        return self._plan.get(self.pos, 3)


SPECS = (
    TaskSpec(name="RushHour", entry_point=RushHour, version=1, max_episode_steps=100,
             tags=("puzzle", "planning", "grid")),
)
