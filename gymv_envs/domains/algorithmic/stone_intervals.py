"""Stone intervals (Kayles): remove one stone or two neighbouring stones; the Grundy value or a winning move."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.cells import format_cells
from gymv_envs.core.grid_answers import read_cells
from gymv_envs.domains.algorithmic._board import blank, cell_icons
from gymv_envs.domains.algorithmic._common import AlgoEnv, Kind, Number
from gymv_envs.domains.algorithmic._games import kayles, runs

QUESTIONS = ("grundy", "move")
LEVELS = {0: (2, 6), 1: (3, 8), 2: (4, 10)}  # lines, squares per line
STONE = (80, 85, 100)


class StoneMove(Kind):
    """A move as the one or two stones removed: ``C2`` or ``C2 D2``."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.hint = "a winning move as the stone or the two neighbouring stones to remove, such as `C2` or `C2 D2`"

    def parse(self, text: str):
        cells = read_cells(text, self.rows, self.cols) if isinstance(text, str) and len(text) < 200 else None
        return frozenset(cells) if cells and len(cells) in (1, 2) and len(set(cells)) == len(cells) else None

    def format(self, answer) -> str:
        return format_cells(answer)


class StoneIntervals(AlgoEnv):
    """Kayles on drawn lines of stones: give the Sprague-Grundy value or a winning move.

    ## Description
    Stones (dark discs) lie on the squares of several horizontal lines (the board's rows; columns
    are lettered, lines numbered). Two players move in turn; a move removes one stone, or two
    stones on neighbouring squares of the same line. The player who cannot move (no stone left)
    loses. Each line splits into intervals of consecutive stones that are independent games, so
    the position's value is the XOR of the intervals' Kayles values (computed by the mex
    recursion). ``question`` picks what is asked: ``"grundy"``, that value; ``"move"``, a winning
    move (any legal move to a position of value 0 is accepted).

    ## Action Space
    ``answer_format="open"``: `Text`: one number (grundy), or the removed stone(s) such as ``C2``
    or ``C2 D2`` (move). ``"mcq"``: `Discrete(k)`; wrong options XOR the interval lengths (Nim
    heaps), add the values instead of XOR-ing them, are one off, or are legal losing moves.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled lines with the stones.

    ## Rewards
    1.0 for the exact value, or for a legal move to a position of value 0; else 0.0.

    ## Starting State
    Each square holds a stone with probability 0.55-0.8; for ``move`` the value is non-zero and
    at least three legal moves lose.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"grundy"``, ``"move"``); ``difficulty`` (0: 2 lines of 6, 1: 3 lines of 8,
    2: 4 lines of 10), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    questions = QUESTIONS

    def _configure(self) -> None:
        self.rows, self.cols = LEVELS[self.difficulty]
        self.kind = (Number("the Grundy value, one whole number") if self.question == "grundy"
                     else StoneMove(self.rows, self.cols))

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        while True:
            self.lines = (rng.random((self.rows, self.cols)) < rng.uniform(0.55, 0.8)).astype(int).tolist()
            if not any(map(any, self.lines)):
                continue
            self.value = self._value(self.lines)
            if self.question == "grundy":
                return
            moves = self._moves()
            wins = [m for m in moves if self._value(self._play(m)) == 0]
            if self.value and len(moves) - len(wins) >= 3:
                self.win = wins[0]
                return

    @staticmethod
    def _value(lines) -> int:
        v = 0
        for line in lines:
            for k in runs(line):
                v ^= kayles(k)
        return v

    def _moves(self) -> list[frozenset]:
        out = []
        for r, line in enumerate(self.lines):
            for c, v in enumerate(line):
                if v:
                    out.append(frozenset({(r, c)}))
                    if c + 1 < self.cols and line[c + 1]:
                        out.append(frozenset({(r, c), (r, c + 1)}))
        return out

    def _play(self, move) -> list[list[int]]:
        lines = [row[:] for row in self.lines]
        for r, c in move:
            lines[r][c] = 0
        return lines

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.rows, self.cols)
        for r, line in enumerate(self.lines):
            for c, v in enumerate(line):
                if v:
                    cell_icons(img, g, r, c, (("circle", STONE, 0.7),))
        return img

    def _task_text(self) -> str:
        rules = (f"The image shows {self.rows} lines of {self.cols} squares (the rows of the board) with stones (dark "
                 "discs). Two players move in turn. A move removes one stone, or two stones on neighbouring squares of "
                 "the same line. The player who cannot move (no stone left) loses.")
        ask = ("What is the Sprague-Grundy value of this position?" if self.question == "grundy" else
               "Give a winning move for the player to move: a move after which the opponent is in a losing position.")
        return f"{rules} {ask}"

    def _level_text(self) -> str:
        return "\n".join("".join("o" if v else "." for v in line) for line in self.lines)

    # -- verify
    def _check(self, answer) -> bool:
        if self.question == "grundy":
            return answer == self.value
        return answer in self._moves() and self._value(self._play(answer)) == 0

    def _similar(self, rng: np.random.Generator) -> list:
        if self.question == "grundy":
            lengths = [k for line in self.lines for k in runs(line)]
            nim = 0
            for k in lengths:
                nim ^= k
            return [nim, sum(kayles(k) for k in lengths)]
        moves = self._moves()
        (r0, c0), *_ = sorted(self.win)
        near = [m for m in moves if any(r == r0 and abs(c - c0) <= 2 for r, c in m)]
        return near + [moves[int(i)] for i in rng.permutation(len(moves))]

    # -- oracle
    def _solve(self):
        return self.value if self.question == "grundy" else self.win


SPECS = tuple(
    TaskSpec(name=name, entry_point=StoneIntervals, max_episode_steps=1, kwargs={"question": q},
             tags=("impartial-game", "sprague-grundy", "kayles"))
    for name, q in (("StoneIntervalsGrundy", "grundy"), ("StoneIntervalsWinningMove", "move"))
)
