"""Wild tic-tac-toe: either player may write X or O; whoever completes a line of three wins."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import PALETTE, new_frame, pil_draw
from gymv_envs.domains.games._board import (
    ME,
    OPPONENT_TEXT,
    BoardGameEnv,
    draw_xo,
    grid_text,
    square_cell_names,
)
from gymv_envs.rules.tic_tac_toe import CROSS, EMPTY, LINES, NOUGHT

CELLS = square_cell_names(3)            # index 3 * row + column, rows from the top, named from the bottom
MARKS = {CROSS: "X", NOUGHT: "O"}
PLIES = {0: (2, 6), 1: (2, 4), 2: (0, 2)}   # difficulty -> range of random opening plies (even: you to move)
MARK_C, LIT_C, CELL_C = PALETTE["blue"], (255, 236, 150), (255, 255, 255)


def completes_line(board: tuple[int, ...], i: int) -> bool:
    """Whether the mark on cell ``i`` completes a line of three equal marks."""
    return any(i in ln and board[ln[0]] == board[ln[1]] == board[ln[2]] != EMPTY for ln in LINES)


class WildTicTacToe(BoardGameEnv):
    """Win a game of wild tic-tac-toe, in which both players may write either mark.

    ## Description
    A 3x3 board is shown mid-game with X and O marks. Unlike tic-tac-toe the marks belong to nobody:
    on each turn a player writes an X or an O in any empty cell, and whoever completes a line of three
    equal marks (row, column or diagonal; XXX or OOO) wins. Columns are labelled A-C left to right and
    rows 1-3 bottom to top. It is your turn and you can force a win; the opponent answers within the
    same step.

    ## Action Space
    `Discrete(18)`: index ``2 * cell + m`` writes X (m=0) or O (m=1) in ``cell`` (row-major from the
    top-left), named like ``X A1`` or ``O B2``. Writing into an occupied cell is invalid and changes
    nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with column and row labels; the cells written in the
    last step are highlighted.

    ## Rewards
    +1 for a win, 0 for a draw, -1 for a loss, given when the game ends (``max_return`` 1).

    ## Starting State
    A random opening of 0-6 plies drawn from the seed (no line complete), you to move, kept only when
    you can force a win in exactly 1 (difficulty 0), 2 (difficulty 1) or 3 (difficulty 2) of your own
    moves against any reply (verified by an AND-OR search).

    ## Episode End
    Terminates when a line of three equal marks is completed (its writer wins) or the board is full
    (a draw); success is a win for you.

    ## Arguments
    ``difficulty``: 0 (win in 1, random opponent), 1 (win in 2, greedy opponent), 2 (win in 3, 4-ply
    alpha-beta opponent); ``obs_size``. The registered id defaults to difficulty 1.

    ## Version History
    - v0: initial version. The registered id defaults to difficulty 1: random play won 55% of the
      difficulty-0 games (a win in one against a random opponent), 10% at difficulty 1, 0% at 2.
    """

    action_names = tuple(f"{MARKS[m]} {CELLS[i]}" for i in range(9) for m in (CROSS, NOUGHT))
    action_aliases = tuple((alias, 2 * i + k) for i in range(9) for k, m in enumerate((CROSS, NOUGHT))
                           for alias in (f"{CELLS[i]} {MARKS[m]}", f"{MARKS[m]} at {CELLS[i]}", f"{MARKS[m]} in {CELLS[i]}"))
    search_depth = 4

    # -- generate
    def random_start(self, rng: np.random.Generator):
        lo, hi = PLIES[self.difficulty]
        s = self.standard_start()
        for _ in range(2 * int(rng.integers(lo // 2, hi // 2 + 1))):
            safe = [a for a in self.legal(s) if self.result(self.play(s, a)) is None]
            if not safe:
                break
            s = self.play(s, safe[int(rng.integers(len(safe)))])
        return s

    def standard_start(self):
        """The empty board, the first player (you) to move."""
        return (EMPTY,) * 9, ME, None

    # -- rules
    def legal(self, s) -> list[int]:
        return [2 * i + k for i in range(9) if s[0][i] == EMPTY for k in (0, 1)]

    def play(self, s, a: int):
        board, p = s[0], s[1]
        i, mark = a // 2, (CROSS, NOUGHT)[a % 2]
        b = board[:i] + (mark,) + board[i + 1:]
        if completes_line(b, i):
            return b, 3 - p, p
        return b, 3 - p, (0 if EMPTY not in b else None)

    def result(self, s):
        return s[2]

    def describe_invalid(self, s, a: int) -> str:
        return f"{CELLS[a // 2]} already holds a mark; write in an empty cell"

    # -- draw
    def cell_keys(self, s):
        b, prev = s[0], self.before[0]
        return [[(b[3 * r + c], b[3 * r + c] != prev[3 * r + c]) for c in range(3)] for r in range(3)]

    def _tile(self, key, h: int, w: int) -> np.ndarray:
        mark, lit = key
        tile = new_frame(h, w, LIT_C if lit else CELL_C)
        if mark:
            pad, width = 0.2 * w, max(2, round(w / 9))
            with pil_draw(tile) as d:
                draw_xo(d, mark == CROSS, MARK_C, h, w, pad, width)
        return tile

    def _task_text(self) -> str:
        return ("You play wild tic-tac-toe on the 3x3 board shown. Columns are labelled A, B, C from left to right "
                "and rows 1, 2, 3 from bottom to top. The marks belong to nobody: each turn a player writes either "
                "an X or an O in one empty cell; name a move by the mark and the cell, like X B2 or O A1. Whoever "
                "completes a line of three equal marks (XXX or OOO in a row, column or diagonal) wins. The opponent "
                f"answers at once (it {OPPONENT_TEXT[self.opponent]}). Your win is +1, a full board without a line "
                "is a draw (0), the opponent's win is -1. It is your turn and you can force a win.")

    def _state_text(self) -> str:
        return grid_text(self.state[0], 3, 3, {EMPTY: ".", CROSS: "X", NOUGHT: "O"})


SPECS = (
    TaskSpec(name="WildTicTacToe", entry_point=WildTicTacToe, max_episode_steps=20,
             tags=("board-game", "adversarial", "planning"), kwargs={"difficulty": 1}),
)
