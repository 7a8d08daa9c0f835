"""Breakthrough: break through to the far row against a built-in opponent."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.cells import LETTERS, cell_name
from gymv_envs.domains.games._board import (
    ME,
    OPPONENT_TEXT,
    THEM,
    BoardGameEnv,
    CheckeredDiscs,
    grid_text,
)

LEVELS = {0: (5, 3), 1: (6, 4), 2: (6, 5)}   # difficulty -> (board side, pieces per side)
LIGHT, DARK, LIT_C = (238, 222, 190), (190, 150, 110), (250, 220, 110)
PIECE_C = {ME: (250, 250, 250), THEM: (40, 40, 45)}
EDGE_C = {ME: (90, 90, 90), THEM: (10, 10, 10)}
ARROWS = ("forward-left", "forward", "forward-right")


@functools.cache
def step_table(n: int, p: int) -> tuple[tuple[tuple[int, int, bool], ...], ...]:
    """Per square of an ``n x n`` board, ``p``'s steps from it in move order: (the move, the square it
    lands on, whether it goes straight ahead); moves are ``3 * square + direction``, the opponent's
    (``THEM``) shifted by ``3 * n * n``."""
    dr, base = (-1, 0) if p == ME else (1, 3 * n * n)
    out = []
    for i in range(n * n):
        r, c = divmod(i, n)
        rr = r + dr
        out.append(tuple((base + 3 * i + d, rr * n + c + d - 1, d == 1) for d in range(3)
                         if 0 <= rr < n and 0 <= c + d - 1 < n))
    return tuple(out)


class Breakthrough(CheckeredDiscs, BoardGameEnv):
    """Play white in a Breakthrough endgame and reach the far row first.

    ## Description
    A square board shows white pieces (yours, moving up) and black pieces (the opponent's,
    moving down). Columns are labelled A, B, ... and rows 1, 2, ... from the bottom. A piece
    moves one square straight forward onto an empty square, or one square diagonally forward
    onto an empty square or an enemy piece, capturing it. Reaching the far row, or capturing
    every enemy piece, wins. The opponent answers within the same step.

    ## Action Space
    `Discrete(3 * side * side)`: index ``3 * square + d`` moves the white piece on ``square``
    (row-major from the top-left) forward-left (d=0), forward (1) or forward-right (2), named by
    its squares like ``B2-C3``. A move that is not legal is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the checkered board with labels; the squares changed by
    the last step are highlighted.

    ## Rewards
    +1 for a win, -1 for a loss, given when the game ends (``max_return`` 1).

    ## Starting State
    A random endgame drawn from the seed (a few pieces each, none on its own goal row) with
    white to move, kept only when white can force a win in exactly 1 (difficulty 0), 2 or 3
    of its own moves against any reply (verified by an AND-OR search).

    ## Episode End
    Terminates when a piece reaches its far row, a side loses its last piece, or the player to
    move has no legal move (that player loses); success is a white win.

    ## Arguments
    ``difficulty``: 0 (5x5, win in 1, random opponent), 1 (6x6, win in 2, greedy opponent), 2 (6x6, win
    in 3, 2-ply alpha-beta opponent); ``obs_size``. The registered id defaults to difficulty 1.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's action-space
      seeding (a seeded random policy no longer replays the level's draws). The registered id defaults
      to difficulty 1: random play won 60% of the difficulty-0 games (a win in one against a random
      opponent), 10% at difficulty 1.
    """

    memo_views = True
    LIGHT, DARK, LIT_C, PIECE_C, EDGE_C = LIGHT, DARK, LIT_C, PIECE_C, EDGE_C

    def _configure(self) -> None:
        super()._configure()
        self.side, self.pieces = LEVELS[self.difficulty]
        n = self.side
        self.board_shape = (n, n)
        names, aliases = [], []
        for i in range(n * n):
            r, c = divmod(i, n)
            for d in range(3):
                rr, cc = r - 1, c + d - 1
                frm = cell_name(r, c, n, bottom_up=True)
                to = cell_name(rr, cc, n, bottom_up=True) if 0 <= rr and 0 <= cc < n else f"{frm}{ARROWS[d]}"
                names.append(f"{frm}-{to}")
                aliases.append((f"{frm}{to}", 3 * i + d))
        self.action_names = tuple(names)
        self.action_aliases = tuple(aliases)

    # -- generate
    def random_start(self, rng: np.random.Generator):
        n = self.side
        board = [0] * (n * n)
        spots = rng.permutation(n * (n - 1))
        for p, picks in ((ME, spots[:self.pieces]), (THEM, spots[self.pieces:2 * self.pieces])):
            for k in picks:
                board[int(k) + (n if p == ME else 0)] = p
        return tuple(board), ME, None

    def standard_start(self):
        """Each side's two home rows full (black on the top two rows), white to move."""
        n = self.side
        return (THEM,) * (2 * n) + (0,) * (n * n - 4 * n) + (ME,) * (2 * n), ME, None

    def move_of(self, player: int, a: int) -> int:
        return a + (3 * self.side ** 2 if player == THEM else 0)

    def action_of(self, move: int) -> int:
        return move % (3 * self.side ** 2)

    # -- rules
    def _moves(self, board, p: int) -> list[int]:
        out, table = [], step_table(self.side, p)
        for i, v in enumerate(board):
            if v == p:
                for a, j, straight in table[i]:
                    t = board[j]
                    if t == 0 or (not straight and t != p):
                        out.append(a)
        return out

    def legal(self, s) -> list[int]:
        return self._moves(s[0], s[1])

    def _target(self, a: int) -> tuple[int, int, int]:
        n = self.side
        p = THEM if a >= 3 * n * n else ME
        i, d = divmod(a % (3 * n * n), 3)
        r, c = divmod(i, n)
        return i, (r + (-1 if p == ME else 1)) * n + c + d - 1, p

    def play(self, s, a: int):
        i, j, p = self._target(a)
        b = list(s[0])
        b[i], b[j] = 0, p
        b = tuple(b)
        n, q = self.side, 3 - p
        if (p == ME and j < n) or (p == THEM and j >= n * (n - 1)) or q not in b or not self._moves(b, q):
            return b, q, p
        return b, q, None

    def result(self, s):
        return s[2]

    def _wins_now(self, b, p: int) -> bool:
        n = self.side
        row = 1 if p == ME else n - 2
        goal = (row - 1 if p == ME else row + 1) * n
        for c in range(n):
            if b[row * n + c] == p:
                if b[goal + c] == 0 or any(0 <= c + d < n and b[goal + c + d] != p for d in (-1, 1)):
                    return True
        return False

    def wins(self, s, k: int) -> bool:
        if s[2] is not None:
            return s[2] == ME
        if k <= 0:
            return False
        if s[1] == ME:
            if self._wins_now(s[0], ME):
                return True
            if k == 1:
                return False
        elif self._wins_now(s[0], THEM):
            return False
        return super().wins(s, k)

    def attack_moves(self, s) -> list[int]:
        return sorted(self.legal(s), key=lambda a: self._target(a)[1])

    def heuristic(self, s) -> float:
        n, v = self.side, 0.0
        for i, p in enumerate(s[0]):
            if p == ME:
                v += 10 + (n - 1 - i // n) ** 2
            elif p == THEM:
                v -= 10 + (i // n) ** 2
        return v

    def move_name(self, a: int) -> str:
        i, j, _ = self._target(a)
        n = self.side
        return f"{cell_name(*divmod(i, n), n, bottom_up=True)}-{cell_name(*divmod(j, n), n, bottom_up=True)}"

    def describe_invalid(self, s, a: int) -> str:
        i, j, _ = self._target(a)
        n = self.side
        if s[0][i] != ME:
            return f"there is no white piece on {cell_name(*divmod(i, n), n, bottom_up=True)}"
        return f"{self.action_names[a]} is not legal: straight moves need an empty square, diagonal moves an empty or black one, on the board"

    # -- draw
    def _task_text(self) -> str:
        n = self.side
        return (f"You play Breakthrough as white against black on the {n}x{n} board shown. Columns are labelled A to "
                f"{LETTERS[n - 1]} from left to right and rows 1 to {n} from bottom to top. White moves up, black "
                "moves down. Each turn move one of your pieces one square forward: straight ahead onto an empty "
                "square, or diagonally forward onto an empty square or a black piece, which is captured. Name a move "
                "by its two squares, like B2-C3. The opponent then answers at once (it "
                f"{OPPONENT_TEXT[self.opponent]}). Reaching row {n} or capturing every black piece wins (+1); black "
                "reaching row 1 or capturing all your pieces loses (-1); a player with no legal move loses. It is "
                "your turn and white can force a win.")

    def _state_text(self) -> str:
        return grid_text(self.state[0], self.side, self.side, {0: ".", ME: "W", THEM: "B"})


SPECS = (
    TaskSpec(name="Breakthrough", entry_point=Breakthrough, version=1, max_episode_steps=30,
             tags=("board-game", "adversarial", "planning"), kwargs={"difficulty": 1}),
)
