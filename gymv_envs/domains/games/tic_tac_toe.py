"""Tic-tac-toe: win a mid-game position against a built-in opponent."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    PALETTE,
    fit_text_size,
    new_frame,
    pil_draw,
)
from gymv_envs.core.cells import cell_names
from gymv_envs.core.rng import choice
from gymv_envs.domains.games._board import draw_xo
from gymv_envs.rules.tic_tac_toe import (
    CROSS,
    EMPTY,
    LINES,
    NOUGHT,
    move_score,
    play,
    puzzles,
    win_distance,
    winner,
)

COLS, ROWS = "ABC", "123"
CELL_NAMES = cell_names(3, 3)  # index = 3 * row + col
WIN_IN = {0: 1, 1: 2, 2: 3}  # our moves needed for the fastest forced win at reset
OPPONENTS = {0: "random", 1: "greedy", 2: "perfect"}
MARK_COLORS = {CROSS: PALETTE["blue"], NOUGHT: PALETTE["red"]}
WIN_TINT = (255, 236, 150)
SYMBOLS = {EMPTY: ".", CROSS: "X", NOUGHT: "O"}


@functools.lru_cache(maxsize=4096)
def _cell_keys(board: tuple[int, ...]) -> tuple[tuple[tuple[int, bool], ...], ...]:
    """Each cell's tile key, row by row: its mark and whether it lies on a completed line."""
    line = next((ln for ln in LINES if board[ln[0]] and board[ln[0]] == board[ln[1]] == board[ln[2]]), ())
    return tuple(tuple((board[3 * r + c], 3 * r + c in line) for c in range(3)) for r in range(3))


@functools.lru_cache(maxsize=4096)
def _board_text(board: tuple[int, ...]) -> str:
    rows = [f"{ROWS[r]} " + " ".join(SYMBOLS[board[3 * r + c]] for c in range(3)) for r in range(3)]
    return "  A B C\n" + "\n".join(rows)


class TicTacToe(MultiTurnEnv):
    """Play X and win a tic-tac-toe game from a position where a forced win exists.

    ## Description
    A 3x3 board is shown mid-game with blue X marks (yours) and red O marks (the opponent's).
    It is your turn, and X can force a win. Columns are labelled A-C left to right and rows
    1-3 top to bottom. After each of your moves the opponent answers within the same step.

    ## Action Space
    `Discrete(9)`: the cell to mark, named ``A1`` .. ``C3`` (column letter, row number);
    index ``3 * row + column``. Marking an occupied cell is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with row and column labels; the winning line
    is highlighted once the game is over.

    ## Rewards
    +1 for a win, 0 for a draw, -1 for a loss, given when the game ends (``max_return`` 1).

    ## Starting State
    A reachable position, drawn from the seed, in which X is to move and the fastest forced
    win takes exactly 1 (difficulty 0), 2 (difficulty 1, a fork) or 3 (difficulty 2) moves.

    ## Episode End
    Terminates when a line is completed or the board is full; success is a win for X.

    ## Arguments
    ``difficulty``: 0 (win in 1, random opponent), 1 (win in 2, greedy opponent: wins if it can, else
    blocks, else random), 2 (win in 3, perfect minimax opponent); ``obs_size``. The registered id
    defaults to difficulty 2.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's action-space
      seeding (a seeded random policy no longer replays the level's draws). The registered id defaults
      to difficulty 2: random play won 70% of the difficulty-0 games and 13% at difficulty 1, 4% against
      the perfect opponent of difficulty 2.
    """

    action_names = CELL_NAMES

    def _configure(self) -> None:
        self.win_in = WIN_IN[self.difficulty]
        self.opponent = OPPONENTS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        self.board = choice(rng, puzzles(self.win_in))
        self.start = self.board
        self.moves = 0

    def standard_start(self) -> tuple[int, ...]:
        """The empty board, X to move (two-player play)."""
        return (EMPTY,) * 9

    # -- rules
    def _apply(self, action: int) -> Outcome:
        if self.board[action]:
            owner = "your X" if self.board[action] == CROSS else "an O"
            return Outcome(invalid=True, feedback=f"{CELL_NAMES[action]} already holds {owner}; choose an empty cell")
        self.board = play(self.board, action)
        self.moves += 1
        done = self._result(f"you played {CELL_NAMES[action]}")
        if done is not None:
            return done
        reply = self._opponent_move()
        self.board = play(self.board, reply)
        text = f"you played {CELL_NAMES[action]}, O answered {CELL_NAMES[reply]}"
        return self._result(text) or Outcome(feedback=text)

    def _result(self, text: str) -> Outcome | None:
        w = winner(self.board)
        if w == CROSS:
            return Outcome(reward=1.0, terminated=True, success=True, feedback=f"{text}: X wins")
        if w == NOUGHT:
            return Outcome(reward=-1.0, terminated=True, feedback=f"{text}: O wins")
        if EMPTY not in self.board:
            return Outcome(terminated=True, feedback=f"{text}: the board is full, a draw")
        return None

    def _opponent_move(self) -> int:
        b, rng = self.board, self.np_random
        free = [i for i in range(9) if not b[i]]
        if self.opponent == "perfect":
            scores = [move_score(b, i) for i in free]
            free = [i for i, s in zip(free, scores) if s == min(scores)]
        elif self.opponent == "greedy":
            for side in (NOUGHT, CROSS):  # complete own line, else block X's
                hits = [i for i in free if winner(b[:i] + (side,) + b[i + 1:]) == side]
                if hits:
                    return choice(rng, hits)
        return choice(rng, free)

    # -- draw
    def _tile(self, key: tuple[int, bool], h: int, w: int) -> np.ndarray:
        mark, lit = key
        tile = new_frame(h, w, WIN_TINT if lit else (255, 255, 255))
        if mark:
            pad, width = 0.2 * w, max(2, round(w / 9))
            with pil_draw(tile) as d:
                draw_xo(d, mark == CROSS, MARK_COLORS[mark], h, w, pad, width)
        return tile

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        painter = self.grid_painter(3, 3, self._tile, margin=max(6, min(H, W) // 9), background=BACKGROUND, line_color=INK)
        frame = painter.paint(_cell_keys(self.board))
        if not painter.labelled:  # labels sit outside the cells: draw them once per painter
            band = painter.band
            size = fit_text_size("C", int(band * 0.8), min(int(band * 0.7), painter.cell // 3), bold=True)
            painter.draw_labels(frame, COLS, ROWS, size)
        return frame

    def _task_text(self) -> str:
        opp = {"random": "plays random moves", "greedy": "completes its own line when it can, otherwise blocks yours",
               "perfect": "plays perfectly"}[self.opponent]
        return ("You play tic-tac-toe as X (blue) against O (red) on the 3x3 board shown. Columns are labelled "
                "A, B, C from left to right and rows 1, 2, 3 from top to bottom, so a cell is named like B2 "
                "(the centre). It is your turn and you can force a win. Mark one empty cell per turn; the "
                f"opponent then answers at once (it {opp}). Three X marks in a row, column or diagonal win "
                "(+1); a full board is a draw (0); three O marks lose (-1). Marking an occupied cell is invalid.")

    # -- verify
    def _progress(self) -> float:
        if self._success:
            return 1.0
        left = win_distance(self.board) if not self._terminated else 0
        if self._terminated or left == 0:
            return 0.0
        return self.moves / (self.moves + left)

    def _state_text(self) -> str:
        return _board_text(self.board)

    # -- oracle
    def oracle_action(self) -> int:
        """Minimax move: the fastest forced win, else a draw, else the longest resistance."""
        free = [i for i in range(9) if not self.board[i]]
        if not free or self._terminated:
            return 0
        return max(free, key=lambda i: (move_score(self.board, i), -i))


SPECS = (
    TaskSpec(name="TicTacToe", entry_point=TicTacToe, version=1, max_episode_steps=20,
             tags=("board-game", "adversarial", "planning"), kwargs={"difficulty": 2}),
)
