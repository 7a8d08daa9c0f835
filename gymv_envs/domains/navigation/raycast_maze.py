"""Raycast maze: find the goal in a first-person (Wolfenstein-style) grid maze."""

from __future__ import annotations

from collections import deque
from typing import Any, ClassVar

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import PALETTE, blend_mask, shape_mask
from gymv_envs.core.env import VisionEnv, check_number
from gymv_envs.core.rng import choice, sample
from gymv_envs.domains.navigation._raycaster import floor_and_ceiling, rays
from gymv_envs.rules.maze import block_map, carve_maze, closed_walls, grid_distances

ROOMS = {0: 3, 1: 5, 2: 7}           # rooms per side; the block map is (2n+1) x (2n+1)
EXTRA_OPENINGS = {0: 0, 1: 2, 2: 4}  # walls knocked out after carving: loops
HEADINGS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # (drow, dcol): east, south, west, north
FOV_RANGE, PITCH_RANGE = (30.0, 120.0), (-0.5, 0.5)
GOAL_SIZE = 0.6  # world units


class RaycastMaze(MultiTurnEnv):
    """Reach the goal in a maze seen in first person through a raycaster.

    ## Description
    A perfect maze is carved on a block grid (difficulty 1 and 2 knock out a few extra walls,
    making loops). The agent stands at a cell centre facing east, south, west or north and sees
    the maze through a one-ray-per-column raycaster: shaded walls with block edges, a floor with
    one square per cell, and a red star floating over the goal cell. Turns are 90 degrees, so
    planning is exact.

    ## Action Space
    `Discrete(4)`: ``move_forward``, ``move_backward`` (one cell), ``turn_left``, ``turn_right``.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the first-person view. ``render_view("left")`` and
    ``render_view("right")`` show the same world with the camera yawed by -90 / +90 degrees.

    ## Rewards
    1.0 on reaching the goal cell, else 0.0 (``max_return`` 1.0).

    ## Starting State
    Start cell, heading (never facing a wall) and goal cell come from the seed; the goal is at
    least 60% of the longest distance from the start.

    ## Episode End
    Terminates on reaching the goal cell. Moving into a wall is invalid (nothing changes).
    The registered budget is 300 steps.

    ## Arguments
    ``difficulty`` (0: 7x7 blocks, 1: 11x11, 2: 15x15), ``fov`` (horizontal field of view in degrees, 30
    to 120, default 66), ``pitch`` (horizon shift as a fraction of the height, -0.5 to 0.5; positive
    tilts the camera up, moving the horizon down), ``obs_size``, ``render_mode``. The registered id
    defaults to difficulty 1.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's action-space
      seeding (a seeded random policy no longer replays the level's draws). The registered id defaults
      to difficulty 1: a random walk found the goal of the 3x3-room mazes of difficulty 0 in 30% of 100
      levels, 2% at difficulty 1.
    """

    action_names = ("move_forward", "move_backward", "turn_left", "turn_right")
    views = ("front", "left", "right")
    transient_attrs: ClassVar[tuple[str, ...]] = (*VisionEnv.transient_attrs, "_background", "_rows", "_tables")

    def __init__(self, fov: float = 66.0, pitch: float = 0.0, **kwargs: Any) -> None:
        self.fov = check_number("fov", fov, *FOV_RANGE, " degrees")
        self.pitch = check_number("pitch", pitch, *PITCH_RANGE)
        super().__init__(**kwargs)

    def _configure(self) -> None:
        self.n = ROOMS[self.difficulty]
        self.size = 2 * self.n + 1
        H, W = self.obs_size
        self.focal = (W / 2) / np.tan(np.radians(self.fov) / 2)  # pixels per unit at depth 1
        self.horizon = H * (0.5 + self.pitch)
        self._background: np.ndarray | None = None  # with _rows and _tables: built on the first frame

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        passages = carve_maze(rng, n, HEADINGS)
        loops = sample(rng, closed_walls(n, passages, by_row=True), EXTRA_OPENINGS[self.difficulty])
        walls = block_map(n, passages + loops)
        self.walls = walls
        s = self.size
        self._padded = np.pad(walls, 2 * s, constant_values=True).ravel()  # every DDA walk stays inside
        rooms = [(2 * r + 1, 2 * c + 1) for r in range(n) for c in range(n)]
        self.pos = choice(rng, rooms)
        self.heading = choice(rng, [h for h, (dr, dc) in enumerate(HEADINGS) if not walls[self.pos[0] + dr, self.pos[1] + dc]])
        dist = grid_distances(walls, [self.pos])
        self.goal = choice(rng, [p for p in rooms if dist[p] >= 0.6 * dist[dist < 10**6].max()])
        self.cell_dist = grid_distances(walls, [self.goal])
        self.cost = self._cost_to_go()
        self.start_dist = int(self.cell_dist[self.pos])

    def _cost_to_go(self) -> np.ndarray:
        """Fewest actions from each (row, col, heading) to the goal: BFS backwards over (cell, heading)."""
        cost = np.full((*self.walls.shape, 4), 10**6, dtype=np.int64)
        queue = deque()
        for h in range(4):
            cost[(*self.goal, h)] = 0
            queue.append((*self.goal, h))
        while queue:
            r, c, h = queue.popleft()
            dr, dc = HEADINGS[h]
            preds = [(r, c, (h + 1) % 4), (r, c, (h - 1) % 4)]  # turned left / right into h
            preds += [(r - dr, c - dc, h), (r + dr, c + dc, h)]  # moved forward / backward into (r, c)
            for p in preds:
                if not self.walls[p[0], p[1]] and cost[p] > cost[r, c, h] + 1:
                    cost[p] = cost[r, c, h] + 1
                    queue.append(p)
        return cost

    # -- rules
    def _next(self, action: int) -> tuple[tuple[int, int], int]:
        (r, c), h = self.pos, self.heading
        if action >= 2:
            return (r, c), (h - 1 if action == 2 else h + 1) % 4
        sign = 1 if action == 0 else -1
        return (r + sign * HEADINGS[h][0], c + sign * HEADINGS[h][1]), h

    def _apply(self, action: Any) -> Outcome:
        pos, heading = self._next(int(action))
        if self.walls[pos]:
            return Outcome(invalid=True, feedback=f"a wall blocks the way {'ahead' if action == 0 else 'behind'}")
        self.pos, self.heading = pos, heading
        if pos == self.goal:
            return Outcome(reward=1.0, terminated=True, success=True, feedback="reached the goal")
        return Outcome(feedback=self.action_names[int(action)].replace("_", " "))

    def _progress(self) -> float:
        return 1.0 - float(self.cell_dist[self.pos]) / max(1, self.start_dist)

    # -- draw
    def _draw(self) -> np.ndarray:
        return self._render(self.heading)

    def _view(self, name: str) -> np.ndarray:
        return self._render((self.heading + {"left": -1, "right": 1}[name]) % 4)

    def _render(self, heading: int) -> np.ndarray:
        H, W = self.obs_size
        if self._background is None:
            self._background = floor_and_ceiling(H, W, self.horizon, self.focal).transpose(2, 0, 1).copy()
            self._rows = np.abs(np.arange(H, dtype=np.float32) + 0.5 - self.horizon)[:, None]
            self._tables = {}
        if heading not in self._tables:
            self._tables[heading] = rays(HEADINGS[heading], HEADINGS[(heading + 1) % 4], W, self.size, self.focal)
        offset, dist, colour, half = self._tables[heading]
        K, cols = 2 * self.size, np.arange(W)
        here = (self.pos[0] + K) * (self.size + 2 * K) + self.pos[1] + K
        first = np.argmax(self._padded[here + offset], axis=0)               # the outer wall bounds every walk
        inside = self._rows < half[first, cols]
        img = np.empty((H, W, 3), dtype=np.uint8)
        for k in range(3):
            img[..., k] = np.where(inside, colour[k, first, cols], self._background[k])
        self._draw_goal(img, heading, dist[first, cols])
        return img

    def _draw_goal(self, img: np.ndarray, heading: int, zbuf: np.ndarray) -> None:
        (dr, dc), (rr, rc) = HEADINGS[heading], HEADINGS[(heading + 1) % 4]
        vr, vc = self.goal[0] - self.pos[0], self.goal[1] - self.pos[1]
        depth, lateral = vr * dr + vc * dc, vr * rr + vc * rc
        if depth < 0.5:  # standing on the goal
            return
        size = int(min(self.focal * GOAL_SIZE / depth, 4 * max(self.obs_size)))
        x = int(round(self.obs_size[1] / 2 + self.focal * lateral / depth - size / 2))
        y = int(round(self.horizon - size / 2))
        lo, hi = max(0, x), min(self.obs_size[1], x + size)
        if size < 2 or lo >= hi:
            return
        visible = zbuf[lo:hi] > depth  # the walls' depth buffer hides the star column by column
        mask = shape_mask("star", size)[:, lo - x: hi - x] * visible[None, :]
        blend_mask(img, mask.astype(np.uint8), lo, y, PALETTE["red"])

    def _task_text(self) -> str:
        return (f"You are inside a maze, seen in first person. The maze is a {self.size}x{self.size} grid of cells "
                "(outer walls included); each floor square is one cell and gray blocks are walls. A red star "
                "floats over the goal cell somewhere in the maze. Reach the goal cell. move_forward and "
                "move_backward move one cell along the way you face; turn_left and turn_right turn 90 degrees "
                "in place. Moving into a wall is not allowed.")

    def _state_text(self) -> str:
        (dr, dc), (rr, rc) = HEADINGS[self.heading], HEADINGS[(self.heading + 1) % 4]
        r, c = self.pos
        ahead = 0
        while not self.walls[r + (ahead + 1) * dr, c + (ahead + 1) * dc]:
            ahead += 1
        sides = {name: "wall" if self.walls[r + sr, c + sc] else "open"
                 for name, (sr, sc) in (("left", (-rr, -rc)), ("right", (rr, rc)), ("behind", (-dr, -dc)))}
        vr, vc = self.goal[0] - r, self.goal[1] - c
        depth, lateral = vr * dr + vc * dc, vr * rr + vc * rc
        goal = "not in view"
        if depth > 0 and abs(lateral) / depth <= np.tan(np.radians(self.fov) / 2) and self._clear(vr, vc):
            goal = f"in view, {depth} cells ahead" + (f" and {abs(lateral)} to the {'right' if lateral > 0 else 'left'}" if lateral else "")
        return (f"Ahead: {ahead} open cells, then a wall. Left: {sides['left']}. Right: {sides['right']}. "
                f"Behind: {sides['behind']}. Goal star: {goal}.")

    def _clear(self, vr: int, vc: int) -> bool:
        t = np.linspace(0, 1, 20 * (abs(vr) + abs(vc)) + 2)
        rows = np.floor(self.pos[0] + 0.5 + t * vr).astype(int)
        cols = np.floor(self.pos[1] + 0.5 + t * vc).astype(int)
        return not self.walls[rows, cols].any()

    # -- oracle
    def oracle_action(self) -> int:
        (r, c), h = self.pos, self.heading
        best = self.cost[r, c, h]
        for a in range(4):
            (nr, nc), nh = self._next(a)
            if not self.walls[nr, nc] and self.cost[nr, nc, nh] == best - 1:
                return a
        raise RuntimeError("the goal is unreachable")  # carving keeps every cell reachable


SPECS = (
    TaskSpec(name="RaycastMaze", entry_point=RaycastMaze, version=1, max_episode_steps=300,
             tags=("navigation", "first-person", "3d", "exploration"), kwargs={"difficulty": 1}),
)
