"""Maze path: give a shortest route through a drawn maze."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.board import draw_maze
from gymv_envs.core.canvas import PALETTE, WHITE, is_uniform, layers_tile, shape_layer, stamp
from gymv_envs.core.rng import choice, sample
from gymv_envs.rules.maze import carve_maze, closed_walls

MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
STEPS = tuple(MOVES.values())  # direction k of open_[r, c, k]; STEPS[1::2] are down and right
WORDS = {"UP": "U", "DOWN": "D", "LEFT": "L", "RIGHT": "R", "NORTH": "U", "SOUTH": "D", "WEST": "L", "EAST": "R"}
SIZES = {0: 5, 1: 8, 2: 12}          # cells per side
EXTRA_OPENINGS = {0: 0, 1: 3, 2: 8}  # walls knocked out after carving: several shortest paths
MARKERS = (("circle", PALETTE["green"]), ("star", PALETTE["red"]))  # the start's, the goal's
_DIRECTION = {step: k for k, step in enumerate(STEPS)}  # (drow, dcol) -> k
_MOVE = re.compile(r"UP|DOWN|LEFT|RIGHT|NORTH|SOUTH|EAST|WEST|[UDLR]")
_PATH = re.compile(r"^(?:(?:UP|DOWN|LEFT|RIGHT|NORTH|SOUTH|EAST|WEST|[UDLR])[\s,;>\-\u2192]*)+$")


def _steps(open_: list, n: int, src: int) -> list[int]:
    """Breadth-first step counts from cell index ``src`` (-1 where unreachable) over the open sides
    (up, down, left, right) of each cell index ``r * n + c``."""
    dist = [-1] * (n * n)
    dist[src] = 0
    queue = [src]
    for i in queue:  # the list grows as the search goes: a queue read front to back
        (up, down, left, right), d = open_[i], dist[i] + 1
        if up and dist[i - n] < 0:
            dist[i - n] = d
            queue.append(i - n)
        if down and dist[i + n] < 0:
            dist[i + n] = d
            queue.append(i + n)
        if left and dist[i - 1] < 0:
            dist[i - 1] = d
            queue.append(i - 1)
        if right and dist[i + 1] < 0:
            dist[i + 1] = d
            queue.append(i + 1)
    return dist


@functools.lru_cache(maxsize=32)
def _markers(H: int, W: int, n: int) -> dict:
    """Per (cell, shape) of `MazePath._draw`'s markers, where the marker's box is white even with every
    wall drawn (so in every maze): its pixels (rows, columns) and the tile `stamp` copies there."""
    img, (x0, y0, cell), wall = draw_maze(np.zeros((n, n, 4), dtype=bool), (H, W))
    out = {}
    for r in range(n):
        for c in range(n):
            for shape, colour in MARKERS:
                m, x, y, _ = layer = shape_layer(shape, x0 + (c + 0.5) * cell + wall / 2,
                                                 y0 + (r + 0.5) * cell + wall / 2, max(3, int(cell * 0.6)), colour)
                x1, y1 = x + m.shape[1], y + m.shape[0]
                if is_uniform(img, x, y, x1, y1, WHITE):
                    out[r, c, shape] = (slice(y, y1), slice(x, x1)), layers_tile([layer], x, y, x1, y1, WHITE)
    return out


def _back(open_: list, n: int, dist: list[int], start: int, goal: int) -> tuple[str, ...]:
    """The path from ``start`` to ``goal`` of a maze without loops, from the step counts from the start:
    back from the goal, each cell's one neighbour a step nearer to the start."""
    path, i = [], goal
    while i != start:
        (up, down, left, _), d = open_[i], dist[i] - 1  # (else right)
        m, i = (("D", i - n) if up and dist[i - n] == d else ("U", i + n) if down and dist[i + n] == d
                else ("R", i - 1) if left and dist[i - 1] == d else ("L", i + 1))
        path.append(m)
    return tuple(path[::-1])


class MazePath(SingleTurnEnv):
    """Find a shortest path from the green circle to the red star in a maze.

    ## Description
    A rectangular maze of ``n x n`` cells is carved by a randomised depth-first search, then
    a few extra walls are removed (difficulty 1 and 2), so several shortest paths may exist.
    The answer is a sequence of moves; any shortest path is accepted.

    ## Action Space
    ``answer_format="open"``: `Text`, a move sequence such as ``R R D L`` (U/D/L/R or
    up/down/left/right, any separators). ``"mcq"``: `Discrete(k)` over candidate paths.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the maze, dark walls on white, start and goal marked.

    ## Rewards
    1.0 for a valid shortest path (no wall crossed, ends on the goal, minimal length), else 0.0.

    ## Starting State
    Start and goal are drawn from the seed, at least 60% of the maze's longest distance apart.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5, 1: 8x8, 2: 12x12), ``answer_format``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "a shortest path as a sequence of moves U, D, L, R (for example `R R D L`)"

    def _configure(self) -> None:
        self.n = SIZES[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        # open_[r, c, k]: passage from (r, c) in direction k (0 U, 1 D, 2 L, 3 R), built as lists by cell r * n + c
        sides = [[False] * 4 for _ in range(n * n)]
        passages, extra = carve_maze(rng, n, STEPS), EXTRA_OPENINGS[self.difficulty]
        if extra:
            passages += sample(rng, closed_walls(n, passages, sides=STEPS[1::2]), extra)
        else:  # `sample`'s one draw, a permutation of the walls a perfect maze leaves: (n - 1) ** 2 of them
            rng.permutation((n - 1) ** 2)
        for a, b in passages:
            k = _DIRECTION[b[0] - a[0], b[1] - a[1]]
            sides[a[0] * n + a[1]][k] = sides[b[0] * n + b[1]][k ^ 1] = True
        self.open_ = np.array(sides, dtype=bool).reshape(n, n, 4)
        self.start = (int(rng.integers(n)), int(rng.integers(n)))
        dist = self._from_start = _steps(sides, n, self.start[0] * n + self.start[1])
        top = max(dist)
        far = [divmod(i, n) for i, d in enumerate(dist) if d >= 0.6 * top and d > 0]  # (r, c) in reading order
        self.goal = choice(rng, far)
        self.best = dist[self.goal[0] * n + self.goal[1]]

    def _distance_rows(self, src: tuple[int, int], sides: list | None = None) -> list[list[int]]:
        """Breadth-first step counts from ``src`` (-1 where unreachable), as rows of lists."""
        n = self.n
        sides = self.open_.tolist() if sides is None else sides
        dist = _steps([here for row in sides for here in row], n, src[0] * n + src[1])
        return [dist[r * n:r * n + n] for r in range(n)]

    def _distances(self, src: tuple[int, int]) -> np.ndarray:
        return np.array(self._distance_rows(src))

    # -- draw
    def _draw(self) -> np.ndarray:
        img, (x0, y0, cell), wall = draw_maze(self.open_, self.obs_size)
        size = max(3, int(cell * 0.6))
        markers = _markers(*self.obs_size, self.n)
        for (r, c), (shape, col) in zip((self.start, self.goal), MARKERS):
            tile = markers.get((r, c, shape))
            if tile is not None:
                img[tile[0]] = tile[1]
            else:
                stamp(img, [shape_layer(shape, x0 + (c + 0.5) * cell + wall / 2, y0 + (r + 0.5) * cell + wall / 2, size, col)], WHITE)
        return img

    def _task_text(self) -> str:
        return (f"The image shows a {self.n}x{self.n} maze; dark lines are walls. Find a shortest path "
                "from the green circle to the red star. Each move goes one cell up (U), down (D), "
                "left (L) or right (R) and may not cross a wall.")

    # -- verify
    def _parse_answer(self, text: str) -> tuple[str, ...] | None:
        t = text.strip().upper()
        if not t or len(t) > 4 * self.max_answer_length or not _PATH.match(t):
            return None
        return tuple([WORDS.get(tok, tok) for tok in _MOVE.findall(t)])

    def _walk(self, moves: tuple[str, ...]) -> tuple[int, int] | None:
        r, c = self.start
        sides = self.open_.tolist()
        for m in moves:
            k = _DIRECTION[MOVES[m]]
            if not sides[r][c][k]:
                return None
            r, c = r + MOVES[m][0], c + MOVES[m][1]
        return r, c

    def _check(self, answer: tuple[str, ...]) -> bool:
        return len(answer) == self.best and self._walk(answer) == self.goal

    def _format(self, answer: tuple[str, ...]) -> str:
        return " ".join(answer)

    # -- oracle
    def _solve(self) -> tuple[str, ...]:
        n, (r, c), (gr, gc) = self.n, self.start, self.goal
        open_ = self.open_.reshape(n * n, 4).tolist()  # by cell index r * n + c
        if not EXTRA_OPENINGS[self.difficulty]:  # a perfect maze: its one path, walked back from the goal
            return _back(open_, n, self._from_start, r * n + c, gr * n + gc)
        dist, i, goal = _steps(open_, n, gr * n + gc), r * n + c, gr * n + gc
        path = []
        while i != goal:  # the first move (U, D, L, R) that gets one step nearer
            (up, down, left, _), d = open_[i], dist[i] - 1  # (else right: a nearer neighbour exists)
            m, i = (("U", i - n) if up and dist[i - n] == d else ("D", i + n) if down and dist[i + n] == d
                    else ("L", i - 1) if left and dist[i - 1] == d else ("R", i + 1))
            path.append(m)
        return tuple(path)

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[str, ...]]:
        path = list(self._solution)
        flip = {"U": "D", "D": "U", "L": "R", "R": "L"}
        turn = {"U": "R", "R": "D", "D": "L", "L": "U"}
        out = []
        for _ in range(12):
            i = int(rng.integers(len(path)))
            kind = int(rng.integers(5))
            p = list(path)
            if kind == 0:
                p[i] = turn[p[i]]                      # one wrong turn
            elif kind == 1 and len(p) > 1:
                del p[i]                               # one step short
            elif kind == 2:
                p.insert(i, p[i])                      # one step too many
            elif kind == 3 and i + 1 < len(p):
                p[i], p[i + 1] = p[i + 1], p[i]        # two moves swapped
            else:
                p = [flip[m] if m in "LR" else m for m in p]  # left and right mirrored
            out.append(tuple(p))
        return out

    def _state_text(self) -> str:
        n, sides = self.n, self.open_.tolist()
        rows = ["+" + "".join([("--+", "  +")[here[0]] for here in sides[0]])]  # (indexed by the open side)
        for r, row in enumerate(sides):
            marks = [" "] * n
            for (mr, mc), mark in ((self.goal, "G"), (self.start, "S")):  # the start's mark wins
                if mr == r:
                    marks[mc] = mark
            rows.append(("|", " ")[row[0][2]] + "".join([m + (" |", "  ")[here[3]] for m, here in zip(marks, row)]))
            rows.append("+" + "".join([("--+", "  +")[here[1]] for here in row]))
        return "\n".join(rows)


SPECS = (
    TaskSpec(name="MazePath", entry_point=MazePath, version=1, max_episode_steps=1,
             tags=("path", "spatial-reasoning")),
)
