"""Maze path: give a shortest route through a drawn maze."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.board import draw_maze
from gymv_envs.core.canvas import PALETTE, WHITE, shape_layer, stamp
from gymv_envs.core.rng import choice, sample
from gymv_envs.rules.maze import carve_maze, closed_walls

MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
STEPS = tuple(MOVES.values())  # direction k of open_[r, c, k]; STEPS[1::2] are down and right
WORDS = {"UP": "U", "DOWN": "D", "LEFT": "L", "RIGHT": "R", "NORTH": "U", "SOUTH": "D", "WEST": "L", "EAST": "R"}
SIZES = {0: 5, 1: 8, 2: 12}          # cells per side
EXTRA_OPENINGS = {0: 0, 1: 3, 2: 8}  # walls knocked out after carving: several shortest paths
_DIRECTION = {step: k for k, step in enumerate(STEPS)}  # (drow, dcol) -> k
_PATH = re.compile(r"^(?:(?:UP|DOWN|LEFT|RIGHT|NORTH|SOUTH|EAST|WEST|[UDLR])[\s,;>\-\u2192]*)+$")


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
        # open_[r, c, k]: passage from (r, c) in direction k (0 U, 1 D, 2 L, 3 R), built as lists
        sides = [[[False] * 4 for _ in range(n)] for _ in range(n)]
        passages, extra = carve_maze(rng, n, STEPS), EXTRA_OPENINGS[self.difficulty]
        if extra:
            passages += sample(rng, closed_walls(n, passages, sides=STEPS[1::2]), extra)
        else:  # `sample`'s one draw, a permutation of the walls a perfect maze leaves: (n - 1) ** 2 of them
            rng.permutation((n - 1) ** 2)
        for a, b in passages:
            k = _DIRECTION[b[0] - a[0], b[1] - a[1]]
            sides[a[0]][a[1]][k] = sides[b[0]][b[1]][k ^ 1] = True
        self.open_ = np.array(sides, dtype=bool)
        self.start = (int(rng.integers(n)), int(rng.integers(n)))
        dist = self._distance_rows(self.start, sides)
        top = max(map(max, dist))
        far = [(r, c) for r in range(n) for c in range(n) if dist[r][c] >= 0.6 * top and dist[r][c] > 0]
        self.goal = choice(rng, far)
        self.best = dist[self.goal[0]][self.goal[1]]

    def _distance_rows(self, src: tuple[int, int], sides: list | None = None) -> list[list[int]]:
        """Breadth-first step counts from ``src`` (-1 where unreachable), as rows of lists."""
        n = self.n
        sides = self.open_.tolist() if sides is None else sides
        open_ = [here for row in sides for here in row]  # by cell index r * n + c
        dist = [-1] * (n * n)
        dist[src[0] * n + src[1]] = 0
        queue = [src[0] * n + src[1]]
        for i in queue:  # the list grows as the search goes: a queue read front to back
            (up, down, left, right), d = open_[i], dist[i] + 1
            for ok, j in ((up, i - n), (down, i + n), (left, i - 1), (right, i + 1)):
                if ok and dist[j] < 0:
                    dist[j] = d
                    queue.append(j)
        return [dist[r * n:r * n + n] for r in range(n)]

    def _distances(self, src: tuple[int, int]) -> np.ndarray:
        return np.array(self._distance_rows(src))

    # -- draw
    def _draw(self) -> np.ndarray:
        img, (x0, y0, cell), wall = draw_maze(self.open_, self.obs_size)
        size = max(3, int(cell * 0.6))
        for (r, c), shape, col in ((self.start, "circle", PALETTE["green"]), (self.goal, "star", PALETTE["red"])):
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
        return tuple(WORDS.get(tok, tok) for tok in re.findall(r"UP|DOWN|LEFT|RIGHT|NORTH|SOUTH|EAST|WEST|[UDLR]", t))

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
        sides = self.open_.tolist()
        dist = self._distance_rows(self.goal, sides)
        r, c = self.start
        path = []
        while (r, c) != self.goal:
            for k, (m, (dr, dc)) in enumerate(MOVES.items()):
                if sides[r][c][k] and dist[r + dr][c + dc] == dist[r][c] - 1:
                    path.append(m)
                    r, c = r + dr, c + dc
                    break
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
        rows = ["+" + "".join("--+" if not sides[0][c][0] else "  +" for c in range(n))]
        for r in range(n):
            row = sides[r]
            line = "|" if not row[0][2] else " "
            for c in range(n):
                mark = "S" if (r, c) == self.start else "G" if (r, c) == self.goal else " "
                line += f"{mark} " + ("|" if not row[c][3] else " ")
            rows.append(line)
            rows.append("+" + "".join("--+" if not row[c][1] else "  +" for c in range(n)))
        return "\n".join(rows)


SPECS = (
    TaskSpec(name="MazePath", entry_point=MazePath, version=1, max_episode_steps=1,
             tags=("path", "spatial-reasoning")),
)
