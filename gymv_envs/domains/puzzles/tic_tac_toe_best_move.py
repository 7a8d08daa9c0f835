"""Tic-tac-toe best move: name a move with the best minimax value in a drawn position."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.board import Board
from gymv_envs.core.canvas import PALETTE, draw_text
from gymv_envs.core.cells import cell_name, find_cells
from gymv_envs.rules.tic_tac_toe import CROSS, move_score, winner

PIECES = {0: (4, 5), 1: (3, 4), 2: (1, 2)}  # stones already on the board: fewer = deeper search


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
            for k, i in enumerate(rng.permutation(9)[:n]):
                b[int(i)] = 1 if k % 2 == 0 else 2
            b = tuple(b)
            if winner(b):
                continue
            self.board, self.me = b, 1 if n % 2 == 0 else 2
            vals = self._values()
            best = max(vals.values())
            if sum(v < best for v in vals.values()) >= 3:
                self.vals, self.best = vals, best
                return

    def _values(self) -> dict[int, int]:
        """Per empty cell, the game value for the player to move of marking it: +1 win, 0 draw, -1 loss."""
        sign = 1 if self.me == CROSS else -1
        return {i: sign * ((v > 0) - (v < 0)) for i in range(9) if not self.board[i] for v in (move_score(self.board, i),)}

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        g = Board(H, W, 3, 3)
        img = g.paint()
        for i, v in enumerate(self.board):
            if v:
                cx, cy = g.center(i // 3, i % 3)
                draw_text(img, "X" if v == 1 else "O", (cx, cy), max(5, int(g.cell * 0.75)),
                          PALETTE["blue"] if v == 1 else PALETTE["red"], bold=True)
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
        return cell_name(answer // 3, answer % 3)

    def _solve(self) -> int:
        return min(i for i, v in self.vals.items() if v == self.best)

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        worse = [i for i, v in self.vals.items() if v < self.best]
        return [worse[int(k)] for k in rng.permutation(len(worse))]

    def _state_text(self) -> str:
        rows = [" ".join(".XO"[self.board[r * 3 + c]] for c in range(3)) for r in range(3)]
        free = ", ".join(self._format(i) for i in range(9) if not self.board[i])
        return "\n".join(rows) + f"\nempty: {free}"


SPECS = (
    TaskSpec(name="TicTacToeBestMove", entry_point=TicTacToeBestMove, version=1, max_episode_steps=1,
             tags=("game", "minimax", "spatial-reasoning")),
)
