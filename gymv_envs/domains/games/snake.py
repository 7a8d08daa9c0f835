"""Snake: steer a growing snake to eat a number of food items without crashing."""

from __future__ import annotations

from collections import deque

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import PALETTE, shape_mask

# difficulty -> (board side, food items to eat, starting length)
LEVELS = {0: (6, 3, 3), 1: (8, 5, 3), 2: (10, 8, 3)}
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
OPPOSITE = (1, 0, 3, 2)
EMPTY_C, BODY_C, HEAD_C, FOOD_C, EYE_C = (232, 236, 222), PALETTE["green"], (20, 90, 35), PALETTE["red"], (250, 250, 250)


class Snake(MultiTurnEnv):
    """Steer a snake around a walled board, eating food until it has eaten ``N`` items.

    ## Description
    The snake moves one cell every step in the direction chosen. Eating a food item makes it
    one cell longer and a new item appears on a random free cell. Running into the board's
    edge or into its own body ends the episode in failure. Eat ``N`` items to win.

    ## Action Space
    `Discrete(4)`: ``up``, ``down``, ``left``, ``right`` (the heading for this step). Turning
    straight back into the snake's own neck is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board from above; the snake is green with a dark
    green head (white eyes), the food a red disc.

    ## Rewards
    ``+1/N`` per food item eaten; crashing gives nothing more, so the best return is 1.0.

    ## Starting State
    A snake of length 3 in a straight line at a random place and heading, one food item on a
    random free cell.

    ## Episode End
    Terminates with success after ``N`` items, or in failure on a crash; the step budget
    truncates.

    ## Arguments
    ``difficulty`` (0: 6x6 board, 3 items; 1: 8x8, 5 items; 2: 10x10, 8 items), ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    action_names = ("up", "down", "left", "right")

    def _configure(self) -> None:
        self.side, self.target, self.start_len = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.side
        while True:
            h = int(rng.integers(4))
            r, c = int(rng.integers(1, n - 1)), int(rng.integers(1, n - 1))
            dr, dc = STEPS[h]
            body = [(r - dr * i, c - dc * i) for i in range(self.start_len)]
            ahead = (r + dr, c + dc)
            if all(0 <= y < n and 0 <= x < n for y, x in body) and 0 <= ahead[0] < n and 0 <= ahead[1] < n:
                break
        self.body, self.heading, self.eaten, self.dead = body, h, 0, False
        self.food = self._spawn(rng)

    def _spawn(self, rng: np.random.Generator) -> tuple[int, int]:
        occupied = set(self.body)
        free = [(r, c) for r in range(self.side) for c in range(self.side) if (r, c) not in occupied]
        return free[int(rng.integers(len(free)))]

    # -- rules
    def _apply(self, action: int) -> Outcome:
        if action == OPPOSITE[self.heading]:
            return Outcome(invalid=True, feedback="the snake cannot turn straight back into its own neck")
        dr, dc = STEPS[action]
        head = (self.body[0][0] + dr, self.body[0][1] + dc)
        self.heading = action
        eats = head == self.food
        body_after = self.body if eats else self.body[:-1]
        if not (0 <= head[0] < self.side and 0 <= head[1] < self.side) or head in body_after:
            self.dead = True
            what = "the wall" if not (0 <= head[0] < self.side and 0 <= head[1] < self.side) else "its own body"
            return Outcome(terminated=True, feedback=f"the snake crashed into {what}")
        self.body = [head] + body_after
        if not eats:
            return Outcome(feedback=f"moved {self.action_names[action]}")
        self.eaten += 1
        done = self.eaten >= self.target
        if not done:
            self.food = self._spawn(self.np_random)
        fb = "ate the last food item" if done else f"ate a food item ({self.eaten} of {self.target})"
        return Outcome(reward=1.0 / self.target, terminated=done, success=done, feedback=fb)

    def _progress(self) -> float:
        return self.eaten / self.target

    # -- draw
    def _keys(self) -> list[list[str]]:
        keys = [["empty"] * self.side for _ in range(self.side)]
        if self.eaten < self.target:
            keys[self.food[0]][self.food[1]] = "food"
        for r, c in self.body[1:]:
            keys[r][c] = "body"
        r, c = self.body[0]
        keys[r][c] = f"head{self.heading}"
        return keys

    def _draw(self) -> np.ndarray:
        return self.grid_painter(self.side, self.side, self._tile).paint(self._keys())

    def _tile(self, key: str, h: int, w: int) -> np.ndarray:
        t = np.empty((h, w, 3), dtype=np.float32)
        t[...] = EMPTY_C
        if key == "food":
            d = max(1, int(h * 0.7))
            m = np.zeros((h, w), np.float32)
            o = (h - d) // 2
            m[o:o + d, o:o + d] = shape_mask("circle", d) / 255.0
            t[...] = t * (1 - m[..., None]) + np.asarray(FOOD_C, np.float32) * m[..., None]
        elif key == "body" or key.startswith("head"):
            m = max(1, h // 10)
            t[m:h - m, m:w - m] = BODY_C if key == "body" else HEAD_C
            if key.startswith("head") and h >= 8:
                dr, dc = STEPS[int(key[4])]
                e = max(1, h // 6)
                cy, cx = h // 2 + dr * h // 5, w // 2 + dc * w // 5
                for sy, sx in ((dc, dr), (-dc, -dr)):  # two eyes, either side of the heading
                    y, x = cy + sy * h // 5 - e // 2, cx + sx * w // 5 - e // 2
                    t[max(0, y):y + e, max(0, x):x + e] = EYE_C
        return t.astype(np.uint8)

    def _task_text(self) -> str:
        return ("This is Snake on a walled square board seen from above. The green cells are the snake; its dark "
                "green head with white eyes leads. The red disc is food. Each turn the snake moves one cell up, "
                "down, left or right, as you choose; it cannot turn straight back into its own neck. Moving onto "
                "the food eats it: the snake grows by one cell and new food appears on a random free cell. "
                "Running into the board's edge or into the snake's own body loses the game. "
                f"Eat {self.target} food items to win.")

    def _state_text(self) -> str:
        chars = {"empty": ".", "food": "*", "body": "o"}
        return "\n".join("".join(chars.get(k, "@") for k in row) for row in self._keys())

    # -- oracle
    def _path(self, body: list, goal: tuple[int, int], grow: bool) -> list[int] | None:
        """Shortest moves from the head to ``goal`` avoiding the body (its tail counts free unless it grows)."""
        n, start = self.side, body[0]
        blocked = set(body if grow else body[:-1])
        prev, queue = {start: None}, deque([start])
        while queue:
            s = queue.popleft()
            if s == goal:
                moves = []
                while prev[s] is not None:
                    s, a = prev[s]
                    moves.append(a)
                return moves[::-1]
            for a, (dr, dc) in enumerate(STEPS):
                t = (s[0] + dr, s[1] + dc)
                if 0 <= t[0] < n and 0 <= t[1] < n and t not in prev and (t not in blocked or t == goal):
                    prev[t] = (s, a)
                    queue.append(t)
        return None

    def _walk(self, body: list, moves: list[int], food) -> list | None:
        for a in moves:
            dr, dc = STEPS[a]
            head = (body[0][0] + dr, body[0][1] + dc)
            rest = body if head == food else body[:-1]
            if not (0 <= head[0] < self.side and 0 <= head[1] < self.side) or head in rest:
                return None
            body = [head] + rest
        return body

    def _safe(self, body: list) -> bool:
        """The head can still reach the tail, so the snake can always keep moving."""
        return len(body) < 3 or self._path(body, body[-1], grow=False) is not None

    def oracle_action(self) -> int:
        body = list(self.body)
        path = self._path(body, self.food, grow=False)
        if path:
            after = self._walk(body, path, self.food)
            if after is not None and (self.eaten + 1 >= self.target or self._safe(after)):
                return path[0]
        best, best_len = None, -1
        for a in range(4):  # no safe way to the food: chase the tail along the longest detour
            if a == OPPOSITE[self.heading]:
                continue
            after = self._walk(body, [a], self.food)
            if after is not None and self._safe(after):
                d = len(self._path(after, after[-1], grow=False) or [])
                if d > best_len:
                    best, best_len = a, d
        return best if best is not None else next(a for a in range(4) if a != OPPOSITE[self.heading])


SPECS = (
    TaskSpec(name="Snake", entry_point=Snake, version=1, max_episode_steps=200,
             tags=("arcade", "planning", "grid")),
)
