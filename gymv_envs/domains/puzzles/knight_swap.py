"""Knight swap: the fewest knight moves to bring a knight to a square or to swap two knights."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import CountAnswer
from gymv_envs.core.board import coordinate_frame
from gymv_envs.core.canvas import (
    INK,
    PALETTE,
    color_block,
    fill_rect,
    rect_box,
    shape_layer,
    stamp,
    text_layer,
)
from gymv_envs.core.cells import cell_name
from gymv_envs.core.rng import sample

# difficulty -> (side, knights, blocked squares, fewest moves at least)
LEVELS = {0: (5, 1, 3, 2), 1: (5, 2, 4, 4), 2: (6, 2, 7, 7)}
JUMPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
LIGHT, DARK, BLOCK = (240, 217, 181), (181, 136, 99), (60, 60, 66)
WHITE_KNIGHT, BLACK_KNIGHT = (250, 250, 250), (20, 20, 24)


@functools.lru_cache(maxsize=16)
def _board(H: int, W: int, n: int):
    """The labelled board with every square light or dark (read-only), its geometry and each square's box."""
    base, (x0, y0, cell) = coordinate_frame((H, W), n, n)
    img = base.copy()
    squares = []
    for r in range(n):
        for c in range(n):
            box = (x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + (r + 1) * cell)
            fill_rect(img, *box, LIGHT if (r + c) % 2 == 0 else DARK)
            squares.append(rect_box((H, W), *box))
    img.setflags(write=False)
    return img, (x0, y0, cell), squares


@functools.lru_cache(maxsize=8)
def _layer_moves(n: int, knights: int) -> tuple[tuple[int, int], ...]:
    """For a layer of `KnightSwap._search`: per knight and jump, the states from which the jump stays
    on the board and the bit shift it makes."""
    size = n * n
    out = []
    for k in range(knights):
        scale = size ** (knights - 1 - k)  # the white knight is the high digit
        for dr, dc in JUMPS:
            ok = [r * n + c for r in range(n) for c in range(n) if 0 <= r + dr < n and 0 <= c + dc < n]
            if knights == 1:
                mask = sum(1 << a for a in ok)
            elif k == 0:
                mask = sum(((1 << size) - 1) << (a * size) for a in ok)
            else:
                row = sum(1 << b for b in ok)
                mask = sum(row << (a * size) for a in range(size))
            out.append((mask, (dr * n + dc) * scale))
    return tuple(out)


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
        """Breadth-first search over the knights' squares, a whole layer at a time on bit masks: with
        two knights, bit ``a * n * n + b`` of a layer is "white knight on a, black knight on b"; a layer
        moves by shifting the states from which a jump stays on the board. The same layers as
        stepping boolean arrays by the jump matrix."""
        n = self.n
        size = n * n
        moves_of = _layer_moves(n, len(self.start))
        free = [r * n + c for r in range(n) for c in range(n) if (r, c) not in self.blocked]
        if len(self.start) == 1:
            allowed = sum(1 << a for a in free)
            at = lambda cells: 1 << cells[0]  # noqa: E731
        else:  # both knights on free squares, never on the same one
            row = sum(1 << b for b in free)
            allowed = sum(row << (a * size) for a in free) & ~sum(1 << (a * size + a) for a in range(size))
            at = lambda cells: 1 << (cells[0] * size + cells[1])  # noqa: E731
        layer = at([r * n + c for r, c in self.start])
        goal = at([r * n + c for r, c in self.goal])
        seen = layer
        for moves in range(4 * size * size):
            if layer & goal:
                return moves
            reach = 0
            for mask, shift in moves_of:
                part = layer & mask
                if part:
                    reach |= part << shift if shift >= 0 else part >> -shift
            reach &= allowed & ~seen
            if not reach:
                return None
            seen |= reach
            layer = reach
        return None

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        base, (x0, y0, cell), squares = _board(H, W, self.n)
        img = base.copy()
        for r, c in self.blocked:  # the squares fill their boxes, which meet without overlapping
            box = squares[r * self.n + c]
            if box is not None:
                a, b, e, f = box
                img[b:f, a:e] = color_block(f - b, e - a, BLOCK)
        size = max(5, int(cell * 0.8))
        if self.knights == 1:
            (r, c), = self.goal
            stamp(img, [shape_layer("star", x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell, size, PALETTE["red"])],
                  LIGHT if (r + c) % 2 == 0 else DARK)
        for (r, c), col in zip(self.start, (WHITE_KNIGHT, BLACK_KNIGHT)):
            cx, cy = x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell
            stamp(img, [shape_layer("circle", cx, cy, size, INK if col == WHITE_KNIGHT else (235, 235, 235)),
                        shape_layer("circle", cx, cy, int(size * 0.86), col),
                        text_layer("N", (cx, cy), max(5, int(size * 0.55)), INK if col == WHITE_KNIGHT else WHITE_KNIGHT, bold=True)],
                  LIGHT if (r + c) % 2 == 0 else DARK)
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
