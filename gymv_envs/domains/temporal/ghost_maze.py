"""Ghost maze: eat the pellets of a maze while ghosts roam it and hunt you."""

from __future__ import annotations

from collections import deque

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.temporal._arcade import ARCADE_ARGS, ArcadeEnv, disc_mask, sprite_mask
from gymv_envs.rules.maze import block_map, carve_maze, closed_walls

N, B = 8, 9.0                                    # maze cells a side, one block's size (units)
S = 2 * N + 1                                    # blocks a side
FW = FH = S * B
MOVE = 4                                         # frames per block you move
PELLETS = 100
STEPS = ((-1, 0), (0, 1), (0, -1), (1, 0))       # up, right, left, down
# per difficulty: ghosts, frames per block a ghost moves, chance a ghost turns toward you, share of walls opened
LEVELS = {0: (2, 11, 0.25, 0.3), 1: (3, 9, 0.4, 0.25), 2: (4, 8, 0.55, 0.2)}
GHOST = ("..XXX..", ".XXXXX.", "XX.X.XX", "XXXXXXX", "XXXXXXX", "X.X.X.X")
WALL, FLOOR, PELLET, YOU = (40, 60, 170), (8, 8, 16), (250, 200, 160), (250, 220, 40)
GHOST_COLORS = ((240, 70, 70), (250, 150, 220), (80, 220, 230), (250, 170, 60))
Cell = tuple[int, int]


def distances(around: dict[Cell, tuple[Cell, ...]], src: Cell, back: Cell | None = None) -> dict[Cell, int]:
    """Breadth-first block counts from ``src`` over the open blocks (the first step not to ``back``: a ghost
    does not turn back)."""
    dist, queue = {src: 0}, deque([src])
    while queue:
        here = queue.popleft()
        for nb in around[here]:
            if nb not in dist and not (here == src and nb == back):
                dist[nb] = dist[here] + 1
                queue.append(nb)
    return dist


class GhostMaze(ArcadeEnv):
    """Eat the pellets of a maze while ghosts hunt you.

    ## Description
    A real-time maze chase seen from above. You steer the yellow disc one block at a time through a
    maze with loops and no dead ends, eating the pellets on your way; ghosts roam the maze, a ghost at a junction
    turning toward you by chance and otherwise any way but back. A ghost that meets you costs a life
    and sends you and the ghosts back to where you started (pellets eaten stay eaten). You are faster
    than the ghosts. Motion is only visible over consecutive frames (the SB3 stack stacks four).

    ## Action Space
    `Discrete(5)` minimal set ``NOOP`` (stop), ``UP``, ``RIGHT``, ``LEFT``, ``DOWN``;
    ``full_action_space=True``: the 18 ALE actions (the four directions alone act as such, the rest
    as ``NOOP``).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a status band (lives, score bar: pellets eaten) above the maze.

    ## Rewards
    +1 per pellet eaten (``max_return`` 100).

    ## Starting State
    You at the top-left corner, the ghosts at the bottom right; the maze (a carved maze with a share
    of its walls opened into loops, and every dead end opened) and the ghosts' turns come from the seed.

    ## Episode End
    Success at 100 pellets eaten; failure when the last of 3 lives is lost.

    ## Arguments
    ``difficulty``: 0 (2 slow ghosts that mostly wander, many loops), 1 (3 ghosts, faster, hunting
    more), 2 (the default: 4 ghosts, faster still, hunting most, fewer loops); ``obs_size``; {ARCADE_ARGS}.

    ## Version History
    - v0: initial version.
    """

    minimal_actions = ("NOOP", "UP", "RIGHT", "LEFT", "DOWN")
    target = float(PELLETS)
    field = (FW, FH)
    field_color = FLOOR
    transient_attrs = ArcadeEnv.transient_attrs + ("_routes",)

    def _setup(self) -> None:
        self.n_ghosts, self.gmove, self.chase, self.loops = LEVELS[self.difficulty]
        self._routes = None  # this level's ``distances(self.around, block)`` by block, as asked for

    def _new_game(self, rng: np.random.Generator) -> None:
        passages = carve_maze(rng, N, STEPS)
        extra = closed_walls(N, passages)
        pick = rng.permutation(len(extra))
        opened = [extra[i] for i in pick[:int(len(extra) * self.loops)]]
        degree = {(r, c): 0 for r in range(N) for c in range(N)}
        for a, b in passages + opened:
            degree[a] += 1
            degree[b] += 1
        for i in pick[int(len(extra) * self.loops):]:  # no dead ends: a dead end gets a second way out
            a, b = extra[i]
            if degree[a] == 1 or degree[b] == 1:
                opened.append((a, b))
                degree[a] += 1
                degree[b] += 1
        walls = block_map(N, passages + opened)
        self.walls = walls
        opened = [(r, c) for r in range(S) for c in range(S) if not walls[r, c]]
        self.around = {q: tuple((q[0] + dr, q[1] + dc) for dr, dc in STEPS if not walls[q[0] + dr, q[1] + dc])
                       for q in opened}
        self.start, self.home = (1, 1), (S - 2, S - 2)
        self.pellets = set(opened) - {self.start}
        self.you = self.start
        self.ghosts = [[self.home, self.home] for _ in range(self.n_ghosts)]  # [block, previous block]
        self.pause = 12
        self._routes = None

    # -- rules
    def _tick(self, dx: int, dy: int, fire: bool) -> None:
        if self.frames % MOVE == 0 and (dx or dy):
            step = (dy, 0) if dy else (0, dx)
            nb = (self.you[0] + step[0], self.you[1] + step[1])
            if nb in self.around:
                self.you = nb
                if nb in self.pellets:
                    self.pellets.discard(nb)
                    self.score += 1
                    self.paint_static(nb[1] * B + B * 0.35, nb[0] * B + B * 0.35, B * 0.3, B * 0.3, FLOOR)
                if self._caught():
                    return
        if self.pause:
            self.pause -= 1
            return
        if self.frames % self.gmove == 0:
            rng, to_you = self.np_random, None
            for g in self.ghosts:
                options = [q for q in self.around[g[0]] if q != g[1]] or list(self.around[g[0]])
                if len(options) > 1 and rng.random() < self.chase:
                    to_you = to_you or self._distances_to(self.you)
                    nxt = min(options, key=lambda q: to_you[q])
                else:
                    nxt = options[int(rng.integers(len(options)))]
                g[1], g[0] = g[0], nxt
            self._caught()

    def _distances_to(self, block: Cell) -> dict[Cell, int]:
        """``distances(self.around, block)``, kept for the level (the maze does not change)."""
        if self._routes is None:
            self._routes = {}
        if block not in self._routes:
            self._routes[block] = distances(self.around, block)
        return self._routes[block]

    def _caught(self) -> bool:
        hit = any(g[0] == self.you for g in self.ghosts)
        if hit:
            self.you, self.pause = self.start, 12
            self.ghosts = [[self.home, self.home] for _ in self.ghosts]
            self.lose_life("a ghost caught you")
        return hit

    # -- draw
    def _paint_background(self, frame: np.ndarray) -> None:
        for r, c in zip(*np.nonzero(self.walls)):
            self.rect(frame, c * B, r * B, B, B, WALL)
        for r, c in self.pellets:
            self.rect(frame, c * B + B * 0.35, r * B + B * 0.35, B * 0.3, B * 0.3, PELLET)

    def _draw_field(self, frame: np.ndarray) -> None:
        # self.sprite(..., GHOST, ...) and self.disc(...) for you, from cached tiles
        for k, (g, _) in enumerate(self.ghosts):
            x0, y0, pw, ph = self._px_box(g[1] * B + 1, g[0] * B + 1, B - 2, B - 2)
            self._mask_at(frame, sprite_mask(GHOST, pw, ph), x0, y0, GHOST_COLORS[k % 4])
        r = B * 0.42
        x0, y0, pw, ph = self._px_box(self.you[1] * B + B / 2 - r, self.you[0] * B + B / 2 - r, 2 * r, 2 * r)
        self._mask_at(frame, disc_mask(pw, ph), x0, y0, YOU)

    def _task_text(self) -> str:
        return (f"You are the yellow disc in a maze seen from above, with {self.n_ghosts} ghosts roaming it. UP, "
                "RIGHT, LEFT and DOWN move you one block at a time (NOOP stops); moving onto a small pellet eats "
                "it. A ghost turns toward you at some junctions. A ghost meeting you costs one of your 3 lives "
                "(the red marks at the top left) and sends everyone back to the start; eaten pellets stay "
                "eaten. Eat 100 pellets to win (the bar at the top shows how many). One action lasts a few "
                "frames and may be repeated by the game (sticky actions).")

    def _state_text(self) -> str:
        ghosts = ", ".join(f"({g[0][0]},{g[0][1]})" for g in self.ghosts)
        return (f"you at block (row {self.you[0]}, column {self.you[1]}); ghosts at {ghosts}; pellets left "
                f"{len(self.pellets)}; " + super()._state_text())

    # -- oracle
    def oracle_action(self) -> int:
        """Breadth-first search to the nearest pellet over blocks no ghost can reach (at its speed, with a
        block to spare) before you would; when none is safe, the move that keeps farthest from the ghosts."""
        if self._terminated:
            return 0
        ghost_d = [distances(self.around, g[0], g[1]) for g in self.ghosts]
        near = {q: min(d.get(q, 99) for d in ghost_d) for q in self.around}
        lead = self.pause

        def safe(q: Cell, depth: int, margin: int = 2) -> bool:
            frames = depth * MOVE + MOVE
            return near[q] > max(0, frames - lead) // self.gmove + margin

        def region(src: Cell, depth: int, cap: int = 40, margin: int = 2) -> int:
            """How many blocks you could flee to from ``src`` (reached ``depth`` moves from now), safely."""
            seen, queue = {src}, deque([(src, depth)])
            while queue and len(seen) < cap:
                here, dep = queue.popleft()
                for nb in self.around[here]:
                    if nb not in seen and safe(nb, dep + 1, margin):
                        seen.add(nb)
                        queue.append((nb, dep + 1))
            return len(seen)

        first, seen, queue, goal = {}, {self.you}, deque([(self.you, 0)]), None
        while queue:
            here, depth = queue.popleft()
            if here in self.pellets and here != self.you and region(here, depth, 12) >= 12:
                goal = here
                break
            for nb in self.around[here]:
                if nb not in seen and safe(nb, depth + 1):
                    seen.add(nb)
                    first[nb] = first.get(here, nb)
                    queue.append((nb, depth + 1))
        if goal is not None:
            move = first[goal]
        else:
            options = [self.you] + list(self.around[self.you])
            move = max(options, key=lambda q: (near[q] > 1, region(q, 1, 40, 1) if near[q] > 1 else 0, near[q], q != self.you))
        if move == self.you:
            return self.action_index("NOOP")
        d = (move[0] - self.you[0], move[1] - self.you[1])
        return self.action_index(("UP", "RIGHT", "LEFT", "DOWN")[STEPS.index(d)])


GhostMaze.__doc__ = GhostMaze.__doc__.replace("{ARCADE_ARGS}", ARCADE_ARGS)

SPECS = (
    TaskSpec(name="GhostMaze", entry_point=GhostMaze, max_episode_steps=600, max_return=float(PELLETS),
             kwargs={"difficulty": 2}, tags=("arcade", "real-time", "control", "maze")),
)
