"""Tic-tac-toe best move: name a move with the best minimax value in a drawn position."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.board import Board
from gymv_envs.core.canvas import PALETTE, draw_text
from gymv_envs.core.cells import cell_names, find_cells
from gymv_envs.rules.tic_tac_toe import CROSS, move_score, to_move, winner

PIECES = {0: (4, 5), 1: (3, 4), 2: (1, 2)}  # stones already on the board: fewer = deeper search
NAMES = cell_names(3, 3)  # cell i's name


class TicTacToeBestMove(SingleTurnEnv):
    """Pick an optimal move in a tic-tac-toe position.

    ## Description
    A legal, unfinished tic-tac-toe position is drawn (X blue crosses, O red rings). The
    player to move is named in the instruction. Any move whose minimax value (win > draw >
    loss, perfect play by both sides) is the best available is accepted.

    ## Action Space
    ``"open"``: `Text`, a cell such as ``B2`` (column letter, row number from the top).
    ``"mcq"``: `Discrete(k)` over cells; the wrong ones have a worse value.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the 3x3 board with column letters and row numbers.

    ## Rewards
    1.0 for an optimal move, else 0.0.

    ## Starting State
    Random legal position with 4-5 (difficulty 0), 3-4 (1) or 1-2 (2) stones and at least
    three moves worse than the best.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "one empty cell such as `B2` (column letter A-C, row number 1-3 from the top)"

    def _generate(self, rng: np.random.Generator) -> None:
        lo, hi = PIECES[self.difficulty]
        while True:
            n = int(rng.integers(lo, hi + 1))
            b = [0] * 9
            for k, i in enumerate(rng.permutation(9)[:n].tolist()):
                b[i] = 1 if k % 2 == 0 else 2
            b = tuple(b)
            level = _level(b)
            if level:
                self.board, self.me = b, 1 if n % 2 == 0 else 2
                self.vals, self.best = level
                return

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        img = Board(H, W, 3, 3).base().copy()
        stones = _stones(H, W)
        for i, v in enumerate(self.board):
            if v and stones:
                x0, y0, x1, y1, patch = stones[i][v - 1]
                img[y0:y1, x0:x1] = patch
            elif v:
                _draw_stone(img, H, W, i, v)
        return img

    def _task_text(self) -> str:
        sym = "X" if self.me == 1 else "O"
        return (f"The image shows a tic-tac-toe board (X in blue, O in red); {sym} is to move. "
                f"Give a best move for {sym}: one that leads to the best result (win, else draw) "
                "against perfect play.")

    def _caption(self) -> list:
        return [f"{'X' if self.me == 1 else 'O'} to move: a best move?"]

    def _parse_answer(self, text: str) -> int | None:
        cells = find_cells(text, 3, 3)
        if not cells or len(set(cells)) != 1:
            return None
        r, c = cells[0]
        return r * 3 + c

    def _check(self, answer: int) -> bool:
        return self.vals.get(answer, -2) == self.best

    def _format(self, answer: int) -> str:
        return NAMES[answer]

    def _solve(self) -> int:
        return min(i for i, v in self.vals.items() if v == self.best)

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        worse = [i for i, v in self.vals.items() if v < self.best]
        return [worse[int(k)] for k in rng.permutation(len(worse))]

    def _state_text(self) -> str:
        marks = [".XO"[v] for v in self.board]
        rows = [" ".join(marks[r * 3:r * 3 + 3]) for r in range(3)]
        free = ", ".join(NAMES[i] for i in range(9) if not self.board[i])
        return "\n".join(rows) + f"\nempty: {free}"


@functools.lru_cache(maxsize=4096)
def _level(board: tuple[int, ...]) -> tuple[dict[int, int], int] | None:
    """Per empty cell, the game value for the player to move of marking it (+1 win, 0 draw, -1 loss), and the
    best value; None when the board is won already or fewer than three moves are worse than the best (read-only)."""
    if winner(board):
        return None
    sign = 1 if to_move(board) == CROSS else -1
    vals = {i: sign * ((v > 0) - (v < 0)) for i in range(9) if not board[i] for v in (move_score(board, i),)}
    best = max(vals.values())
    return (vals, best) if sum(v < best for v in vals.values()) >= 3 else None


def _draw_stone(img: np.ndarray, H: int, W: int, i: int, v: int) -> tuple[int, int, int, int]:
    """Draw stone ``v`` (1 X, 2 O) in cell ``i`` of the (H, W) board; returns the box it may change."""
    g = Board(H, W, 3, 3)
    cx, cy = g.center(i // 3, i % 3)
    return draw_text(img, "X" if v == 1 else "O", (cx, cy), max(5, int(g.cell * 0.75)),
                     PALETTE["blue"] if v == 1 else PALETTE["red"], bold=True)


@functools.lru_cache(maxsize=16)
def _stones(H: int, W: int) -> tuple | None:
    """Per cell and stone, ``(x0, y0, x1, y1, pixels)``: the box a stone drawn on the empty board changes
    and its pixels then (read-only); None when a box leaves its cell (stones could overlap: draw them)."""
    g, base, out = Board(H, W, 3, 3), Board(H, W, 3, 3).base(), []
    for i in range(9):
        bx0, by0, bx1, by1 = g.box(i // 3, i % 3)
        cell = []
        for v in (1, 2):
            img = base.copy()
            x0, y0, x1, y1 = _draw_stone(img, H, W, i, v)
            if x0 < bx0 or y0 < by0 or x1 > bx1 or y1 > by1:
                return None
            patch = img[y0:y1, x0:x1].copy()
            patch.setflags(write=False)
            cell.append((x0, y0, x1, y1, patch))
        out.append(tuple(cell))
    return tuple(out)


SPECS = (
    TaskSpec(name="TicTacToeBestMove", entry_point=TicTacToeBestMove, version=1, max_episode_steps=1,
             tags=("game", "minimax", "spatial-reasoning")),
)
