"""Knight swap: the fewest knight moves to bring a knight to a square or to swap two knights."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import CountAnswer
from gymv_envs.core.board import coordinate_frame
from gymv_envs.core.canvas import INK, PALETTE, draw_shape, draw_text, fill_rect
from gymv_envs.core.cells import cell_name
from gymv_envs.core.rng import sample

# difficulty -> (side, knights, blocked squares, fewest moves at least)
LEVELS = {0: (5, 1, 3, 2), 1: (5, 2, 4, 4), 2: (6, 2, 7, 7)}
JUMPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
LIGHT, DARK, BLOCK = (240, 217, 181), (181, 136, 99), (60, 60, 66)
WHITE_KNIGHT, BLACK_KNIGHT = (250, 250, 250), (20, 20, 24)


@functools.lru_cache(maxsize=8)
def _jumps(n: int) -> np.ndarray:
    """The knight-move adjacency of an n x n board (cell r * n + c), as a read-only uint8 matrix."""
    out = np.zeros((n * n, n * n), dtype=np.uint8)
    for r in range(n):
        for c in range(n):
            for dr, dc in JUMPS:
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    out[r * n + c, (r + dr) * n + c + dc] = 1
    out.setflags(write=False)
    return out


class KnightSwap(CountAnswer, SingleTurnEnv):
    """Give the fewest knight moves that bring a knight to the star, or swap two knights.

    ## Description
    A small chessboard has some blocked (dark grey) squares. At difficulty 0 one white
    knight must reach the red star; at difficulty 1 and 2 a white and a black knight must
    swap squares. Knights move as in chess (an L of two squares then one), one knight per
    move, never onto a blocked or occupied square. The answer is the fewest moves, found by
    breadth-first search over the knights' positions.

    ## Action Space
    ``answer_format="open"``: `Text`, a whole number such as ``6``. ``"mcq"``: `Discrete(k)`
    over nearby counts.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with column letters and row numbers.

    ## Rewards
    1.0 for the exact fewest number of moves, else 0.0.

    ## Starting State
    Blocked squares, knights and star are drawn from the seed and redrawn until the goal is
    reachable in at least the difficulty's floor of moves.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5, one knight to a star; 1: 5x5 swap; 2: 6x6 swap, more blocks),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the fewest number of moves as a whole number (for example `6`)"

    def _configure(self) -> None:
        self.n, self.knights, self.blocks, self.floor = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        squares = [(r, c) for r in range(self.n) for c in range(self.n)]
        while True:
            picked = sample(rng, squares, self.blocks + 2)
            self.blocked = frozenset(picked[2:])
            if self.knights == 1:
                self.start, self.goal = (picked[0],), (picked[1],)
            else:
                self.start, self.goal = (picked[0], picked[1]), (picked[1], picked[0])
            best = self._search()
            if best is not None and best >= self.floor:
                break
        self._fewest = best

    # -- rules
    def _search(self) -> int | None:
        """Breadth-first search over the knights' squares, a whole layer at a time on boolean arrays:
        with two knights, entry (a, b) of a layer is "white knight on a, black knight on b"."""
        n, blocked = self.n, self.blocked
        size = n * n
        jumps = _jumps(n).copy()
        for r, c in blocked:
            jumps[r * n + c, :] = 0
            jumps[:, r * n + c] = 0
        cells = [r * n + c for r, c in self.start]
        goal = tuple(r * n + c for r, c in self.goal)
        layer = np.zeros((size,) * len(cells), dtype=np.uint8)
        layer[tuple(cells)] = 1
        seen = layer.astype(bool)
        for moves in range(4 * size * size):
            if layer[goal]:
                return moves
            if len(cells) == 1:
                reach = jumps @ layer > 0
            else:  # move the white knight (rows) or the black one (columns), never onto the other
                reach = (jumps @ layer > 0) | (layer @ jumps > 0)
                np.fill_diagonal(reach, False)
            reach &= ~seen
            if not reach.any():
                return None
            seen |= reach
            layer = reach.view(np.uint8)
        return None

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        base, (x0, y0, cell) = coordinate_frame((H, W), self.n, self.n)
        img = base.copy()
        for r in range(self.n):
            for c in range(self.n):
                col = BLOCK if (r, c) in self.blocked else LIGHT if (r + c) % 2 == 0 else DARK
                fill_rect(img, x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + (r + 1) * cell, col)
        size = max(5, int(cell * 0.8))
        if self.knights == 1:
            (r, c), = self.goal
            draw_shape(img, "star", x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell, size, PALETTE["red"])
        for (r, c), col in zip(self.start, (WHITE_KNIGHT, BLACK_KNIGHT)):
            cx, cy = x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell
            draw_shape(img, "circle", cx, cy, size, INK if col == WHITE_KNIGHT else (235, 235, 235))
            draw_shape(img, "circle", cx, cy, int(size * 0.86), col)
            draw_text(img, "N", (cx, cy), max(5, int(size * 0.55)), INK if col == WHITE_KNIGHT else WHITE_KNIGHT, bold=True)
        return img

    def _task_text(self) -> str:
        rules = ("A knight moves as in chess: two squares in one direction and then one square at a right "
                 "angle, jumping over anything in between. It may not land on a dark grey (blocked) square")
        if self.knights == 1:
            return (f"The image shows a {self.n}x{self.n} board with a white knight (a disc marked N) and a red "
                    f"star. {rules}. What is the fewest number of moves that brings the knight to the star?")
        return (f"The image shows a {self.n}x{self.n} board with a white knight and a black knight (discs "
                f"marked N). {rules} or on the other knight's square. One knight moves at a time. What is the "
                "fewest total number of moves after which the two knights have swapped squares?")

    def _state_text(self) -> str:
        lines = [f"blocked: {' '.join(sorted(cell_name(*b) for b in self.blocked))}",
                 f"white knight: {cell_name(*self.start[0])}"]
        if self.knights == 1:
            lines.append(f"star: {cell_name(*self.goal[0])}")
        else:
            lines.append(f"black knight: {cell_name(*self.start[1])}")
        return "\n".join(lines)

    # -- oracle
    def _solve(self) -> int:
        return self._fewest  # found by `_search` when the level was drawn


SPECS = (
    TaskSpec(name="KnightSwap", entry_point=KnightSwap, version=1, max_episode_steps=1,
             tags=("planning", "search", "chess")),
)
