"""Connect Four best move: pick a column with the best value of a short look-ahead."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    PALETTE,
    WHITE,
    draw_text,
    fill_rect,
    is_uniform,
    new_frame,
    shape_tile,
)
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.rules.connect_four import BOARD, BOTTOM, COLS, ROWS, has_four, wins_now

PLIES = {0: 1, 1: 2, 2: 3}      # look-ahead depth of the value that is asked for
STONES = {0: (6, 12), 1: (8, 16), 2: (10, 20)}
NAMES = {1: "red", 2: "yellow"}
def _value(mine: int, theirs: int, depth: int) -> int:
    """Negamax over ``depth`` plies on bit boards (see `rules.connect_four`), ``mine`` to move: +1 if it forces
    a win, -1 if the opponent does, else 0 (also when the board is full)."""
    if depth == 0:
        return 0
    taken = mine | theirs
    free = (taken + BOTTOM) & BOARD  # the lowest empty cell of each column
    if not free:
        return 0
    if wins_now(mine, taken):
        return 1
    if depth == 1:
        return 0
    best = -1
    for c in range(COLS):
        cell = free & 127 << 7 * c
        if cell:
            best = max(best, -_value(theirs, mine | cell, depth - 1))
            if best == 1:
                break
    return best


DISC = (WHITE, PALETTE["red"], PALETTE["yellow"])


def _geometry(H: int, W: int) -> tuple[float, float, float]:
    s = min(W / (COLS + 0.6), H / (ROWS + 1.4))
    return s, (W - s * COLS) / 2, (H - s * (ROWS + 0.8)) / 2


def _empty(H: int, W: int) -> np.ndarray:
    s, x0, y0 = _geometry(H, W)
    img = new_frame(H, W, BACKGROUND)
    fill_rect(img, x0, y0, x0 + s * COLS, y0 + s * ROWS, PALETTE["blue"])
    return img


def _numbers(img: np.ndarray, H: int, W: int) -> None:
    s, x0, y0 = _geometry(H, W)
    if s >= 7:
        for c in range(COLS):
            draw_text(img, str(c + 1), (x0 + (c + 0.5) * s, y0 + (ROWS + 0.4) * s), max(5, int(s * 0.5)), INK)


@functools.lru_cache(maxsize=16)
def _frame(H: int, W: int) -> tuple[np.ndarray, list[tuple[int, int]], int]:
    """The board with every hole empty (white) and the column numbers (read-only), each hole's disc
    box corner and the disc size. At every size from 32 px the boxes are apart and every hole is plain
    blue (checked here), so a disc is a copied tile, the same pixels as blending it, the numbers, which
    miss the holes, may be drawn first, and only the holes with a disc need drawing over this board."""
    s, x0, y0 = _geometry(H, W)
    img = _empty(H, W)
    _numbers(img, H, W)
    size = max(3, int(s * 0.8))
    xs = [int(round(x0 + (c + 0.5) * s - size / 2)) for c in range(COLS)]
    ys = [int(round(y0 + (r + 0.5) * s - size / 2)) for r in range(ROWS)]
    discs = [(x, y) for y in ys for x in xs]
    if not (all(b - a >= size for v in (xs, ys) for a, b in zip(v, v[1:]))
            and all(is_uniform(img, x, y, x + size, y + size, PALETTE["blue"]) for x, y in discs)):
        raise RuntimeError(f"ConnectFourBestMove: the holes overlap or leave the board at {H}x{W}")
    tile = shape_tile("circle", size, DISC[0], PALETTE["blue"])
    for x, y in discs:
        img[y:y + size, x:x + size] = tile
    img.setflags(write=False)
    return img, discs, size


class ConnectFourBestMove(SingleTurnEnv):
    """Choose a Connect Four column by a short look-ahead.

    ## Description
    A Connect Four position (6 rows, 7 columns, red and yellow discs) is drawn; the player to
    move is named. A move is best when it forces a win within the look-ahead (1, 2 or 3 plies
    by difficulty) if any move does, otherwise when it does not let the opponent force a win
    within it. Every column with the best value is accepted.

    ## Action Space
    ``"open"``: `Text`, a column number 1-7 (left to right). ``"mcq"``: `Discrete(k)`.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the blue frame with discs and numbered columns.

    ## Rewards
    1.0 for a column with the best look-ahead value, else 0.0.

    ## Starting State
    Random play of 6-12 (difficulty 0), 8-16 (1) or 10-20 (2) discs without a finished line,
    kept only if at least three columns are worse than the best.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "a column number from 1 (left) to 7 (right)"

    def _generate(self, rng: np.random.Generator) -> None:
        lo, hi = STONES[self.difficulty]
        depth = PLIES[self.difficulty]
        with ScalarDraws(rng) as d:  # `rng.integers` one by one, at Python speed
            while True:
                b = [0] * (ROWS * COLS)  # a flat board: lists index faster than arrays
                tops, cols, bits = [ROWS - 1] * COLS, list(range(COLS)), [0, 0, 0]  # bits: bit boards (rules.connect_four)
                n, ok = d.integers(lo, hi + 1), True
                for k in range(n):
                    c = cols[d.integers(len(cols))]  # the open columns, in order
                    r = tops[c]
                    tops[c] = r - 1
                    if not r:
                        cols.remove(c)
                    p = 1 + k % 2
                    b[r * COLS + c] = p
                    bits[p] |= 1 << (7 * c + ROWS - 1 - r)
                    if k >= 6 and has_four(bits[p]):  # (a colour has four discs from the seventh on)
                        ok = False
                        break
                if not ok:
                    continue
                me, vals = 1 + n % 2, {}
                wins = wins_now(bits[me], bits[1] | bits[2])
                if depth == 1 and not wins:  # every value 0: no column is worse than the best
                    continue
                for c in range(COLS):
                    r = tops[c]
                    if r < 0:
                        continue
                    cell = 1 << (7 * c + ROWS - 1 - r)
                    vals[c] = 1 if wins & cell else 0 if depth == 1 else -_value(bits[3 - me], bits[me] | cell, depth - 1)
                best = max(vals.values())
                if sum(v < best for v in vals.values()) >= 3:
                    break
        self.board, self.me = np.array(b, dtype=np.int8).reshape(ROWS, COLS), me
        self.vals, self.best = vals, best

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        base, discs, size = _frame(H, W)
        img = base.copy()
        for (x, y), v in zip(discs, self.board.ravel().tolist()):
            if v:
                img[y:y + size, x:x + size] = shape_tile("circle", size, DISC[v], PALETTE["blue"])
        return img

    def _task_text(self) -> str:
        me, other = NAMES[self.me], NAMES[3 - self.me]
        d = PLIES[self.difficulty]
        horizon = {1: "with this very move", 2: "with this move, and otherwise one after which "
                   f"{other} cannot win with the next move", 3: "within your next two moves whatever "
                   f"{other} replies, and otherwise one after which {other} cannot win with the next move"}[d]
        return (f"The image shows a Connect Four board (6 rows, 7 columns numbered 1-7); discs fall to the "
                f"lowest empty cell of a column, four in a row (any direction) wins. {me.title()} is to "
                f"move. Give a column for {me} that wins {horizon}.")

    def _caption(self) -> list:
        me = NAMES[self.me]
        goal = {1: "a column that wins now", 2: "win now, else stop a win",
                3: "win within two moves, else stop a win"}[PLIES[self.difficulty]]
        return [("circle", me), f"{me.title()} to move: {goal}"]

    def _parse_answer(self, text: str) -> int | None:
        m = re.fullmatch(r"(?:col(?:umn)?\s*)?([1-7])", text.strip().strip(".`'\"").lower())
        return int(m.group(1)) - 1 if m else None

    def _check(self, answer: int) -> bool:
        return self.vals.get(answer, -2) == self.best

    def _format(self, answer: int) -> str:
        return str(answer + 1)

    def _solve(self) -> int:
        return next(c for c in range(COLS) if self.vals.get(c, -2) == self.best)

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        worse = [c for c, v in self.vals.items() if v < self.best]
        return [worse[int(k)] for k in rng.permutation(len(worse))]

    def _state_text(self) -> str:
        return "\n".join(" ".join(map(".RY".__getitem__, row)) for row in self.board.tolist())


SPECS = (
    TaskSpec(name="ConnectFourBestMove", entry_point=ConnectFourBestMove, version=1, max_episode_steps=1,
             tags=("game", "minimax", "spatial-reasoning")),
)
