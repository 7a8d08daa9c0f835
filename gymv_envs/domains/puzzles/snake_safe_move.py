"""Snake safe move: name the one direction in which the snake survives its next step."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.board import Board
from gymv_envs.core.canvas import PALETTE, draw_shape, fill_rect

DIRS = {"UP": (-1, 0), "DOWN": (1, 0), "LEFT": (0, -1), "RIGHT": (0, 1)}
ALIASES = {"U": "UP", "D": "DOWN", "L": "LEFT", "R": "RIGHT", "NORTH": "UP", "SOUTH": "DOWN",
           "WEST": "LEFT", "EAST": "RIGHT", **{k: k for k in DIRS}}
SIZES = {0: 5, 1: 7, 2: 9}
LENGTHS = {0: (3, 5), 1: (6, 10), 2: (12, 20)}


class SnakeSafeMove(SingleTurnEnv):
    """Choose the move that keeps the snake alive.

    ## Description
    A snake (green body, dark-green head with eyes) lies on an ``n x n`` board with one red
    food pellet. On the next step the head moves one cell; the snake dies if the head leaves
    the board or enters its own body. The tail moves away on the same step, so the tail's
    cell is free, unless the head eats the food (the snake grows and the tail stays).
    Every surviving move is accepted; positions are drawn so that exactly one move survives.

    ## Action Space
    ``"open"``: `Text`, a direction (up/down/left/right, U/D/L/R or north/south/west/east).
    ``"mcq"``: `Discrete(4)` over the four directions.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board, the body as a chain of linked squares.

    ## Rewards
    1.0 for a move that survives, else 0.0.

    ## Starting State
    A random self-avoiding snake of 3-5 (difficulty 0), 6-10 (1) or 12-20 (2) cells on a
    5x5, 7x7 or 9x9 board, rejected until exactly one move is safe.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "one direction: up, down, left or right"

    def _configure(self) -> None:
        self.n = SIZES[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        lo, hi = LENGTHS[self.difficulty]
        while True:
            length = int(rng.integers(lo, hi + 1))
            body = [(int(rng.integers(n)), int(rng.integers(n)))]  # body[0] is the tail end
            while len(body) < length:
                r, c = body[-1]
                nxt = [(r + dr, c + dc) for dr, dc in DIRS.values()
                       if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr, c + dc) not in body]
                if not nxt:
                    break
                body.append(nxt[int(rng.integers(len(nxt)))])
            if len(body) < length:
                continue
            free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in body]
            self.body = body
            self.food = free[int(rng.integers(len(free)))]
            if int(rng.integers(3)) == 0:  # sometimes put the food next to the head
                hr, hc = body[-1]
                near = [(hr + dr, hc + dc) for dr, dc in DIRS.values() if (hr + dr, hc + dc) in free]
                if near:
                    self.food = near[int(rng.integers(len(near)))]
            if sum(self._safe(d) for d in DIRS) == 1:
                return

    def _safe(self, d: str) -> bool:
        hr, hc = self.body[-1]
        r, c = hr + DIRS[d][0], hc + DIRS[d][1]
        if not (0 <= r < self.n and 0 <= c < self.n):
            return False
        blocked = self.body if (r, c) == self.food else self.body[1:]
        return (r, c) not in blocked

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        g = Board(H, W, self.n, self.n, labels=False)
        img = g.paint()
        s = g.cell
        dark, body = (20, 100, 40), PALETTE["green"]
        for k, (r, c) in enumerate(self.body):
            x0, y0, x1, y1 = g.box(r, c)
            p = s * 0.12
            fill_rect(img, x0 + p, y0 + p, x1 - p, y1 - p, dark if k == len(self.body) - 1 else body)
            if k:  # link to the previous segment
                pr, pc = self.body[k - 1]
                (ax, ay), (bx, by) = g.center(r, c), g.center(pr, pc)
                w = s * 0.25
                fill_rect(img, min(ax, bx) - w, min(ay, by) - w, max(ax, bx) + w, max(ay, by) + w, body)
        hr, hc = self.body[-1]
        cx, cy = g.center(hr, hc)
        fill_rect(img, cx - s * 0.3, cy - s * 0.3, cx + s * 0.3, cy + s * 0.3, dark)
        for ex in (-0.15, 0.15):
            draw_shape(img, "circle", cx + ex * s, cy - 0.08 * s, max(2, int(s * 0.14)), (255, 255, 255))
        fx, fy = g.center(*self.food)
        draw_shape(img, "circle", fx, fy, max(3, int(s * 0.6)), PALETTE["red"])
        return img

    def _task_text(self) -> str:
        return (f"The image shows a snake game on a {self.n}x{self.n} board: the green chain is the snake, "
                "the dark square with eyes is its head, the red dot is food. On the next step the head "
                "moves one cell; the snake dies if it leaves the board or runs into its own body. The tail "
                "moves away on the same step, unless the head eats the food (then the snake grows and "
                "the tail stays). Which move keeps the snake alive?")

    def _parse_answer(self, text: str) -> str | None:
        return ALIASES.get(text.strip().strip(".`'\"").upper())

    def _check(self, answer: str) -> bool:
        return self._safe(answer)

    def _format(self, answer: str) -> str:
        return answer  # upper case: UP, DOWN, LEFT, RIGHT

    def _solve(self) -> str:
        return next(d for d in DIRS if self._safe(d))

    def _near_misses(self, rng: np.random.Generator) -> list[str]:
        return [d for d in DIRS if not self._safe(d)]

    def _state_text(self) -> str:
        grid = [["." for _ in range(self.n)] for _ in range(self.n)]
        for k, (r, c) in enumerate(self.body):
            grid[r][c] = "H" if k == len(self.body) - 1 else ("t" if k == 0 else "s")
        grid[self.food[0]][self.food[1]] = "F"
        return "\n".join(" ".join(row) for row in grid)


SPECS = (
    TaskSpec(name="SnakeSafeMove", entry_point=SnakeSafeMove, version=1, max_episode_steps=1,
             tags=("game", "spatial-reasoning")),
)
