"""Minima take-away: take at most as many stones as the smallest heap holds; the Grundy value or a winning move."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import BACKGROUND, GRID_LINE, INK, fill_rect, new_frame
from gymv_envs.domains.algorithmic._board import icon_block, put_text
from gymv_envs.domains.algorithmic._common import AlgoEnv, Kind, Number
from gymv_envs.domains.algorithmic._games import after, minima_moves, minima_value

QUESTIONS = ("grundy", "move")
LEVELS = {0: (3, 5), 1: (3, 8), 2: (4, 9)}  # heaps, most stones in a heap
HEAPS = "ABCD"
STONE = (80, 85, 100)
_TAKE = re.compile(r"(?i)^(?:take|remove)?\s*(\d{1,2})\s*(?:stones?)?\s*(?:from)?\s*(?:heap|pile)?\s*([A-D])$")
_HEAP_FIRST = re.compile(r"(?i)^(?:heap|pile)?\s*([A-D])\s*[:=,\s-]\s*(?:take|remove)?\s*(\d{1,2})(?:\s*stones?)?$")


class TakeMove(Kind):
    """A move as the number of stones and the heap: ``2 from B`` (``B 2``, ``take 2 from heap B``)."""

    def __init__(self, heaps: int) -> None:
        self.heaps = heaps
        self.hint = "a winning move as the number of stones and the heap letter, such as `2 from B`"

    def parse(self, text: str):
        if not isinstance(text, str) or len(text) > 100:
            return None
        t = text.strip().rstrip(".")
        m = _TAKE.match(t)
        if m:
            k, heap = int(m.group(1)), m.group(2).upper()
        else:
            m = _HEAP_FIRST.match(t)
            if not m:
                return None
            heap, k = m.group(1).upper(), int(m.group(2))
        i = HEAPS.index(heap)
        return (i, k) if i < self.heaps else None

    def format(self, answer) -> str:
        return f"{answer[1]} from {HEAPS[answer[0]]}"


class MinimaTakeAway(AlgoEnv):
    """A take-away game whose limit is the smallest heap: give the Sprague-Grundy value or a winning move.

    ## Description
    Heaps of stones (lettered columns, their sizes written below) are drawn. Two players move in
    turn; a move takes from one heap between 1 and m stones, where m is the number of stones in the
    smallest non-empty heap (so the smallest heap can be emptied, and no heap loses more than m).
    The player who cannot move (every heap empty) loses. The game is not a sum of independent
    heaps, so its value is computed on whole positions by the mex recursion. ``question`` picks
    what is asked: ``"grundy"``, the Sprague-Grundy value; ``"move"``, a winning move (any legal
    move to a position of value 0 is accepted).

    ## Action Space
    ``answer_format="open"``: `Text`: one number (grundy), or a move such as ``2 from B`` (move).
    ``"mcq"``: `Discrete(k)`; wrong options are the Nim value (XOR of the heap sizes, as if any
    number could be taken), one off, or legal losing moves.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the heaps of stones with their letters and sizes.

    ## Rewards
    1.0 for the exact value, or for a legal move to a position of value 0; else 0.0.

    ## Starting State
    Heaps of 1 up to the difficulty's largest size; for ``move`` the value is non-zero and at
    least three legal moves lose.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"grundy"``, ``"move"``); ``difficulty`` (0: 3 heaps of up to 5, 1: 3 heaps of
    up to 8, 2: 4 heaps of up to 9), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    questions = QUESTIONS

    def _configure(self) -> None:
        self.n_heaps, self.top = LEVELS[self.difficulty]
        self.kind = Number("the Grundy value, one whole number") if self.question == "grundy" else TakeMove(self.n_heaps)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        while True:
            self.heaps = tuple(int(h) for h in rng.integers(1, self.top + 1, size=self.n_heaps))
            self.value = minima_value(self.heaps)
            if self.question == "grundy":
                return
            moves = minima_moves(self.heaps)
            wins = [m for m in moves if minima_value(after(self.heaps, *m)) == 0]
            if self.value and len(moves) - len(wins) >= 3:
                self.win = wins[0]
                return

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        img = new_frame(H, W, BACKGROUND)
        k = self.n_heaps
        col = W / k
        label = max(4, int(min(col * 0.3, H * 0.08)))
        base = H - 2.4 * label
        stone = max(2, int(min(col * 0.55, (base - H * 0.04) / self.top)))
        fill_rect(img, 0, base, W, base + max(1, stone // 10), GRID_LINE)
        tile = icon_block(stone, stone, BACKGROUND, (("circle", STONE, 0.94),))
        for i, h in enumerate(self.heaps):
            cx = (i + 0.5) * col
            x0 = int(cx - stone / 2)
            for j in range(h):
                y0 = int(base - (j + 1) * stone)
                if 0 <= y0 and x0 >= 0 and x0 + stone <= W:
                    img[y0:y0 + stone, x0:x0 + stone] = tile
            put_text(img, f"{HEAPS[i]}: {h}", cx, base + 1.2 * label, label, INK, BACKGROUND)
        return img

    def _task_text(self) -> str:
        rules = (f"The image shows {self.n_heaps} heaps of stones, lettered with their sizes below. Two players move in "
                 "turn. A move takes from one heap at least 1 and at most m stones, where m is the number of stones in "
                 "the smallest heap that is not empty. The player who cannot move (every heap empty) loses.")
        ask = ("What is the Sprague-Grundy value of this position?" if self.question == "grundy" else
               "Give a winning move for the player to move: a move after which the opponent is in a losing position.")
        return f"{rules} {ask}"

    def _level_text(self) -> str:
        return "heaps: " + " ".join(f"{HEAPS[i]}={h}" for i, h in enumerate(self.heaps))

    # -- verify
    def _check(self, answer) -> bool:
        if self.question == "grundy":
            return answer == self.value
        return tuple(answer) in minima_moves(self.heaps) and minima_value(after(self.heaps, *answer)) == 0

    def _similar(self, rng: np.random.Generator) -> list:
        if self.question == "grundy":
            nim = 0
            for h in self.heaps:
                nim ^= h
            return [nim, min(self.heaps)]
        moves = minima_moves(self.heaps)
        near = [m for m in moves if m[0] == self.win[0] or m[1] == self.win[1]]
        return near + [moves[int(i)] for i in rng.permutation(len(moves))]

    # -- oracle
    def _solve(self):
        return self.value if self.question == "grundy" else self.win


SPECS = tuple(
    TaskSpec(name=name, entry_point=MinimaTakeAway, max_episode_steps=1, kwargs={"question": q},
             tags=("impartial-game", "sprague-grundy", "take-away"))
    for name, q in (("MinimaTakeAwayGrundy", "grundy"), ("MinimaTakeAwayWinningMove", "move"))
)
