"""Coin-square game: queen-moving coins race to the top-left corner; its Grundy value or a winning move."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import INK
from gymv_envs.core.cells import cell_name
from gymv_envs.core.grid_answers import read_cells
from gymv_envs.domains.algorithmic._board import blank, cell_block, cell_icons, put_text
from gymv_envs.domains.algorithmic._common import AlgoEnv, Kind, Number
from gymv_envs.domains.algorithmic._games import wythoff_table

QUESTIONS = ("grundy", "move")
LEVELS = {0: (5, 2), 1: (7, 3), 2: (9, 4)}  # side, coins
COIN = (230, 175, 40)
LIGHT, CORNER = (236, 232, 220), (200, 230, 200)
_JOIN = re.compile(r"(?i)\bto\b|\bfrom\b|->|=>|→|-")


class CoinMove(Kind):
    """A move as two cells, from and to: ``C5 A3`` (``C5 to A3``, ``C5->A3``)."""

    def __init__(self, side: int) -> None:
        self.side = side
        self.hint = "a winning move as the coin's cell and the cell it moves to, such as `C5 A3`"

    def parse(self, text: str):
        if not isinstance(text, str) or len(text) > 200:
            return None
        cells = read_cells(_JOIN.sub(" ", text), self.side, self.side)
        return tuple(cells) if cells and len(cells) == 2 else None

    def format(self, answer) -> str:
        return f"{cell_name(*answer[0])} {cell_name(*answer[1])}"


class CoinSquareGame(AlgoEnv):
    """Coins slide toward the top-left corner like chess queens; give the Grundy value or a winning move.

    ## Description
    Coins (gold discs; a number on a disc says how many coins share the square) lie on a
    ``side x side`` board. Two players move in turn; a move slides one coin any number of squares
    straight up, straight left, or diagonally up-left, staying on the board (coins never block each
    other and may share squares). A player who cannot move (every coin in the top-left corner,
    tinted green) loses. ``question`` picks what is asked: ``"grundy"``, the Sprague-Grundy value
    of the position (the XOR of the coins' values, each computed by the mex recursion, i.e.
    Wythoff's game); ``"move"``, a winning move for the player to move (any move to a position of
    value 0 is accepted).

    ## Action Space
    ``answer_format="open"``: `Text`: one number (grundy), or the coin's cell and its destination
    such as ``C5 A3`` (move). ``"mcq"``: `Discrete(k)`; wrong options are the value without the
    diagonal moves (row XOR column, Nim), the sum instead of the XOR, one off, or legal moves that
    leave a non-zero value.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled board with the coins.

    ## Rewards
    1.0 for the exact Grundy value, or for a legal move to a position of value 0; else 0.0.

    ## Starting State
    Coins on random squares other than the corner; for ``move`` the value is non-zero and at
    least three legal moves lose.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"grundy"``, ``"move"``); ``difficulty`` (0: 5x5 with 2 coins, 1: 7x7 with 3,
    2: 9x9 with 4), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    questions = QUESTIONS

    def _configure(self) -> None:
        self.side, self.n_coins = LEVELS[self.difficulty]
        self.table = wythoff_table(self.side)
        self.kind = Number("the Grundy value, one whole number") if self.question == "grundy" else CoinMove(self.side)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.side
        while True:
            picks = rng.integers(1, n * n, size=self.n_coins)
            self.coins = sorted(divmod(int(i), n) for i in picks)
            self.value = self._value(self.coins)
            if self.question == "grundy":
                return
            wins = [m for m in self._moves() if self._value(self._play(m)) == 0]
            if self.value and len(self._moves()) - len(wins) >= 3:
                self.win = wins[0]
                return

    def _value(self, coins) -> int:
        v = 0
        for r, c in coins:
            v ^= self.table[r][c]
        return v

    def _moves(self) -> list:
        out = []
        for r, c in sorted(set(self.coins)):
            for dr, dc in ((-1, 0), (0, -1), (-1, -1)):
                k = 1
                while r + k * dr >= 0 and c + k * dc >= 0:
                    out.append(((r, c), (r + k * dr, c + k * dc)))
                    k += 1
        return out

    def _play(self, move) -> list:
        coins = list(self.coins)
        coins.remove(move[0])
        return coins + [move[1]]

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.side
        img, g = blank(self.obs_size, n, n)
        counts: dict = {}
        for p in self.coins:
            counts[p] = counts.get(p, 0) + 1
        for r in range(n):
            for c in range(n):
                bg = CORNER if (r, c) == (0, 0) else LIGHT if (r + c) % 2 else (255, 255, 255)
                if (r, c) in counts:
                    cell_icons(img, g, r, c, (("circle", COIN, 0.74),), bg)
                    if counts[(r, c)] > 1:
                        put_text(img, str(counts[(r, c)]), *g.center(r, c), int(g.cell * 0.45), INK, COIN)
                else:
                    cell_block(img, g, r, c, bg)
        return img

    def _task_text(self) -> str:
        rules = (f"The image shows a {self.side}x{self.side} board with coins (gold discs; a number on a disc counts the "
                 "coins sharing that square). Two players move in turn. A move slides one coin any number of squares "
                 "straight up, straight left, or diagonally up-left, staying on the board; coins never block each other "
                 "and may share squares. The player who cannot move (all coins in the top-left corner, tinted green) "
                 "loses.")
        ask = ("What is the Sprague-Grundy value of this position?" if self.question == "grundy" else
               "Give a winning move for the player to move: a move after which the opponent is in a losing position.")
        return f"{rules} {ask}"

    def _level_text(self) -> str:
        return "coins: " + " ".join(cell_name(*p) for p in self.coins)

    # -- verify
    def _check(self, answer) -> bool:
        if self.question == "grundy":
            return answer == self.value
        return answer in self._moves() and self._value(self._play(answer)) == 0

    def _similar(self, rng: np.random.Generator) -> list:
        if self.question == "grundy":
            nim = 0
            for r, c in self.coins:
                nim ^= r ^ c
            return [nim, sum(self.table[r][c] for r, c in self.coins)]
        moves = self._moves()
        near = [m for m in moves if m[0] == self.win[0]]  # the right coin, the wrong square first
        rest = [moves[int(i)] for i in rng.permutation(len(moves))]
        return near + rest

    # -- oracle
    def _solve(self):
        return self.value if self.question == "grundy" else self.win


SPECS = tuple(
    TaskSpec(name=name, entry_point=CoinSquareGame, max_episode_steps=1, kwargs={"question": q},
             tags=("impartial-game", "sprague-grundy", "game"))
    for name, q in (("CoinSquareGrundy", "grundy"), ("CoinSquareWinningMove", "move"))
)
