"""Snake safe move: name the one direction in which the snake survives its next step, or count the moves
until a snake that keeps going straight dies."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import count_near_misses, parse_count
from gymv_envs.core.board import Board
from gymv_envs.core.canvas import PALETTE, WHITE, fill, fill_rect, rect_box, shape_layer, stamp
from gymv_envs.core.rng import ScalarDraws

DIRS = {"UP": (-1, 0), "DOWN": (1, 0), "LEFT": (0, -1), "RIGHT": (0, 1)}
ALIASES = {"U": "UP", "D": "DOWN", "L": "LEFT", "R": "RIGHT", "NORTH": "UP", "SOUTH": "DOWN",
           "WEST": "LEFT", "EAST": "RIGHT", **{k: k for k in DIRS}}
SIZES = {0: 5, 1: 7, 2: 9}
LENGTHS = {0: (3, 5), 1: (6, 10), 2: (12, 20)}
QUESTIONS = ("safe_move", "crash")
CRASH_LENGTHS = {0: (6, 9), 1: (10, 16), 2: (18, 28)}  # crash: longer snakes, so the body is in the way


@lru_cache(maxsize=8)
def _neighbours(n: int) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Each cell's neighbours on the board, in the order of ``DIRS``."""
    return {(r, c): [(r + dr, c + dc) for dr, dc in DIRS.values() if 0 <= r + dr < n and 0 <= c + dc < n]
            for r in range(n) for c in range(n)}


def _free_cell(n: int, taken: set[tuple[int, int]], k: int) -> tuple[int, int]:
    """The ``k``-th cell (row by row) that is not taken."""
    for r, c in sorted(taken):
        if r * n + c <= k:
            k += 1
    return divmod(k, n)


@lru_cache(maxsize=16)
def _layout(H: int, W: int, n: int) -> tuple:
    """The empty board (read-only), the cell size, per cell its centre and the pixels (rows, columns)
    `fill_rect` fills for its body square, and per pair of neighbouring cells those of their link."""
    g = Board(H, W, n, n, labels=False)
    s, (p, w) = g.cell, (g.cell * 0.12, g.cell * 0.25)
    centers = {(r, c): g.center(r, c) for r in range(n) for c in range(n)}

    def pixels(x0: float, y0: float, x1: float, y1: float) -> tuple[slice, slice]:
        a, c, b, d = rect_box((H, W), x0, y0, x1, y1) or (0, 0, 0, 0)
        return slice(c, d), slice(a, b)

    squares = {cell: pixels(*(v + d for v, d in zip(g.box(*cell), (p, p, -p, -p)))) for cell in centers}
    links = {(a, b): pixels(min(ax, bx) - w, min(ay, by) - w, max(ax, bx) + w, max(ay, by) + w)
             for a, (ax, ay) in centers.items() for b in _neighbours(n)[a] for bx, by in [centers[b]]}
    return g.base(), s, squares, links, centers


class SnakeSafeMove(SingleTurnEnv):
    """Choose the move that keeps the snake alive, or count the moves until a snake going straight dies.

    ## Description
    A snake (green body, dark-green head with eyes) lies on an ``n x n`` board with one red
    food pellet. On each step the head moves one cell; the snake dies if the head leaves
    the board or enters its own body. The tail moves away on the same step, so the tail's
    cell is free, unless the head eats the food (the snake grows and the tail stays).
    ``question="safe_move"`` (default): which move survives the next step? Every surviving move
    is accepted; positions are drawn so that exactly one move survives.
    ``question="crash"``: the snake keeps moving straight on, the way its head points (from the
    body cell linked to the head, through the head); on which move does it die? Moves are
    counted from 1 (1: the very next move kills it). Levels where the body, not the wall, ends the run
    are preferred (a quarter of them at difficulty 0, over half at 2); the tail moving away and the
    food can change the count.

    ## Action Space
    ``"open"``: `Text`, a direction (up/down/left/right, U/D/L/R or north/south/west/east) for
    safe_move; a whole number for crash. ``"mcq"``: `Discrete(4)` over the four directions, or
    over counts (the wall alone, the body standing still, one off).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board, the body as a chain of linked squares.

    ## Rewards
    1.0 for a move that survives (safe_move) or the exact move number (crash), else 0.0.

    ## Starting State
    A random self-avoiding snake of 3-5 (difficulty 0), 6-10 (1) or 12-20 (2) cells on a
    5x5, 7x7 or 9x9 board, rejected until exactly one move is safe (crash: 6-9, 10-16 or 18-28
    cells, rejected mostly where the first move kills or the body is not in the way).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"safe_move"``: the one surviving move; ``"crash"``: the move on which a snake
    going straight dies), ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    questions = QUESTIONS

    @property
    def answer_hint(self) -> str:  # type: ignore[override]
        return "the number of the move on which it dies (for example `4`)" if self.question == "crash" else \
            "one direction: up, down, left or right"

    def _configure(self) -> None:
        self.n = SIZES[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        with ScalarDraws(rng) as d:  # the same draws as `rng.integers` / `rng.random`, at Python speed
            self._draw_level(d)

    def _draw_level(self, rng: ScalarDraws) -> None:
        n = self.n
        lo, hi = (CRASH_LENGTHS if self.question == "crash" else LENGTHS)[self.difficulty]
        neighbours = _neighbours(n)
        crash = self.question == "crash"
        while True:
            length = rng.integers(lo, hi + 1)
            body = [(rng.integers(n), rng.integers(n))]  # body[0] is the tail end
            taken = set(body)
            while len(body) < length:
                nxt = [q for q in neighbours[body[-1]] if q not in taken]
                if not nxt:
                    break
                body.append(nxt[rng.integers(len(nxt))])
                taken.add(body[-1])
            if len(body) < length:
                continue
            free_k, food = rng.integers(n * n - len(taken)), None  # the k-th free cell in row order, found when kept
            head_near = neighbours[body[-1]]
            if rng.integers(3) == 0:  # sometimes put the food next to the head
                near = [q for q in head_near if q not in taken]
                if near:
                    food = near[rng.integers(len(near))]
            # one safe move, where the food and the tail's cell are free (`_safe`); crash: `_accept_crash`
            if crash or len(head_near) - sum(q in taken and q != body[0] for q in head_near) == 1:
                self.body, self.food = body, _free_cell(n, taken, free_k) if food is None else food
                if not crash or self._accept_crash(rng):
                    return

    def _accept_crash(self, rng: ScalarDraws) -> bool:
        (nr, nc), (hr, hc) = self.body[-2], self.body[-1]
        self.heading = (hr - nr, hc - nc)
        ray = [(hr + k * self.heading[0], hc + k * self.heading[1]) for k in range(1, self.n)]
        ray = [q for q in ray if 0 <= q[0] < self.n and 0 <= q[1] < self.n and q not in self.body]
        if ray and rng.random() < 0.3:  # sometimes the food lies ahead
            self.food = ray[rng.integers(len(ray))]
        self.crash = self._crash_move()
        if self.crash == 1 and rng.random() < 0.8:  # mostly a snake that gets somewhere
            return False
        return self.crash != self._crash_move(body=False) or rng.random() < 0.08  # mostly the body in the way

    def _crash_move(self, tail_moves: bool = True, body: bool = True, eats: bool = True) -> int:
        """The move on which the snake going straight dies (a near miss without the tail moving away,
        without its body, or not growing on the food)."""
        snake, food = list(self.body), self.food if eats else None
        (r, c), (dr, dc) = self.body[-1], self.heading
        for move in range(1, 2 * self.n + 1):
            r, c = r + dr, c + dc
            if not (0 <= r < self.n and 0 <= c < self.n):
                return move
            eat = (r, c) == food
            if body and (r, c) in (snake if eat or not tail_moves else snake[1:]):
                return move
            snake.append((r, c))
            if eat:
                food = None
            elif tail_moves:
                snake.pop(0)
        raise RuntimeError("the snake going straight never leaves the board")

    def _safe(self, d: str) -> bool:
        hr, hc = self.body[-1]
        r, c = hr + DIRS[d][0], hc + DIRS[d][1]
        if not (0 <= r < self.n and 0 <= c < self.n):
            return False
        blocked = self.body if (r, c) == self.food else self.body[1:]
        return (r, c) not in blocked

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        base, s, squares, links, centers = _layout(H, W, self.n)
        img = base.copy()  # `Board.paint()`, cached
        dark, body = (20, 100, 40), PALETTE["green"]
        last = len(self.body) - 1
        for k, cell in enumerate(self.body):  # `fill_rect` on boxes worked out once per size
            fill(img[squares[cell]], dark if k == last else body)
            if k:  # link to the previous segment
                fill(img[links[cell, self.body[k - 1]]], body)
        cx, cy = centers[self.body[-1]]
        fill_rect(img, cx - s * 0.3, cy - s * 0.3, cx + s * 0.3, cy + s * 0.3, dark)
        eye = max(2, int(s * 0.14))  # (stamped: a cached tile where the box is one colour, else blended)
        stamp(img, [shape_layer("circle", cx + ex * s, cy - 0.08 * s, eye, WHITE) for ex in (-0.15, 0.15)], dark)
        fx, fy = centers[self.food]
        stamp(img, [shape_layer("circle", fx, fy, max(3, int(s * 0.6)), PALETTE["red"])], WHITE)
        return img

    def _task_text(self) -> str:
        rules = (f"The image shows a snake game on a {self.n}x{self.n} board: the green chain is the snake, "
                 "the dark square with eyes is its head, the red dot is food. On {} the head "
                 "moves one cell; the snake dies if it leaves the board or runs into its own body. The tail "
                 "moves away on the same step, unless the head eats the food (then the snake grows and "
                 "the tail stays). ")
        if self.question == "crash":
            return (rules.format("every step") + "The snake keeps moving straight on, in the direction from the "
                    "body cell linked to its head through its head. On which move does it die? Count the moves "
                    "from 1 (1 means the very next move kills it).")
        return rules.format("the next step") + "Which move keeps the snake alive?"

    def _parse_answer(self, text: str) -> str | None:
        if self.question == "crash":
            return parse_count(text)
        return ALIASES.get(text.strip().strip(".`'\"").upper())

    def _check(self, answer: str) -> bool:
        return answer == self.crash if self.question == "crash" else self._safe(answer)

    def _format(self, answer: str) -> str:
        return str(answer)  # directions in upper case: UP, DOWN, LEFT, RIGHT

    def _solve(self) -> str:
        if self.question == "crash":
            return self.crash
        return next(d for d in DIRS if self._safe(d))

    def _near_misses(self, rng: np.random.Generator) -> list[str]:
        if self.question == "crash":
            similar = [self._crash_move(tail_moves=False), self._crash_move(body=False), self._crash_move(eats=False)]
            return similar + count_near_misses(rng, self.crash, 1)
        return [d for d in DIRS if not self._safe(d)]

    def _state_text(self) -> str:
        n, grid = self.n, ["."] * (self.n * self.n)
        for r, c in self.body:
            grid[r * n + c] = "s"
        for (r, c), mark in ((self.body[0], "t"), (self.body[-1], "H"), (self.food, "F")):
            grid[r * n + c] = mark
        return "\n".join(" ".join(grid[r * n:r * n + n]) for r in range(n))

SPECS = (
    TaskSpec(name="SnakeSafeMove", entry_point=SnakeSafeMove, version=1, max_episode_steps=1,
             tags=("game", "spatial-reasoning")),
)
