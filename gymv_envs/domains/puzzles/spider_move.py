"""Spider solitaire: count the legal moves of a tableau, or name a move that turns up a card or completes a suit."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import count_near_misses, parse_count
from gymv_envs.core.cells import LETTERS
from gymv_envs.domains.puzzles._spider_draw import draw_tableau
from gymv_envs.domains.puzzles._spider_rules import full_run, legal_moves, reveal_moves
from gymv_envs.rules.cards import card_name

QUESTIONS = ("reveal", "run", "count")  # the default first
LEVELS = {0: (5, 1, 2), 1: (7, 2, 3), 2: (10, 4, 4)}  # columns, suits, most face-down cards per column


class SpiderMove(SingleTurnEnv):
    """Spider solitaire tableau: count the legal moves, or give a move that turns up a card or completes a suit.

    ## Description
    Columns of cards, lettered A.. above them: face-down cards (blue backs) under face-up cards.
    A move takes the last card of a column, or several last cards that form a run (same suit, each
    one rank below the one before), and puts them on the last card of another column if that card
    is one rank higher than the first moved card (any suit), or into an empty column. Aces are low.

    - ``question="count"``: how many legal moves are there? Every number of cards from a run counts
      as a different move; all empty columns count as one destination, and moving a whole column
      into an empty one does not count.
    - ``question="reveal"``: give a move (source column, destination column) that moves every
      face-up card of a column (they must form one run) off a face-down card, turning it up. Any
      such move is accepted; into an empty column, any empty column's letter is accepted.
    - ``question="run"``: give a move (source column, destination column) after which the
      destination column ends with a whole suit in order, K down to A. Every such move is accepted.

    ## Action Space
    ``"open"``: `Text`, a whole number (count) or two column letters such as ``B to E`` (reveal).
    ``"mcq"``: `Discrete(k)`; counts off by a few, or moves that are legal but reveal nothing,
    that break a run or that land on a card of the wrong rank.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the tableau, cards drawn with rank and suit glyph.

    ## Rewards
    1.0 for the right count, a revealing move or a completing move, else 0.0.

    ## Starting State
    5, 7 or 10 columns with cards of 1, 2 or 4 suits and up to 2, 3 or 4 face-down cards each
    (difficulty 0-2); the face-up cards are built of runs; some columns may be empty from level 1.
    ``"run"`` deals K down to some rank of one suit at the end of one column and the rest of that suit
    at the end of another.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"count"``, ``"reveal"``, ``"run"``), ``difficulty``, ``answer_format``, ``num_options``,
    ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    questions = QUESTIONS

    @property
    def answer_hint(self) -> str:  # type: ignore[override]
        if self.question == "count":
            return "the number of legal moves (a whole number)"
        return "a move as `X to Y`, with X the source and Y the destination column letter"

    def _configure(self) -> None:
        self.ncols, self.nsuits, self.max_down = LEVELS[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        n = self.ncols
        while True:
            u = iter(rng.random(40 * n).tolist())
            self.down, self.up = [], []
            for _ in range(n):
                if self.difficulty and next(u) < 0.12:
                    self.down.append(0)
                    self.up.append([])
                    continue
                self.down.append(int(next(u) * (self.max_down + 1)))
                col = [(1 + int(next(u) * 13), int(next(u) * self.nsuits))]
                for _ in range(int(next(u) * 5)):
                    r, s = col[-1]
                    col.append((r - 1, s) if r > 1 and next(u) < 0.6 else (1 + int(next(u) * 13), int(next(u) * self.nsuits)))
                self.up.append(col)
            if self.question == "run":
                self._plant_run(u)
            if any(full_run(col) for col in self.up):
                continue
            if self.question == "reveal" and not 0 < len(reveal_moves(self.down, self.up)) < 3:
                continue  # (the test below, before the moves are listed)
            self.moves = legal_moves(self.down, self.up)
            self.runs = {(j, d) for j, k, d in self.moves if d != "empty" and len(self.up[d]) + k >= 13 and full_run(self.up[d] + self.up[j][-k:])}
            self.reveals = {(j, d) for j, k, d in self.moves if k == len(self.up[j]) and self.down[j]}
            if self.question == "count" and self.moves:
                return
            if self.question == "reveal" and self.reveals and len(self.reveals) < 3:
                return
            if self.question == "run" and self.runs:
                return

    def _plant_run(self, u) -> None:
        """Deal K down to rank x of one suit at the end of one column and x-1 down to A at the end of another."""
        p, q = int(next(u) * self.ncols), int(next(u) * (self.ncols - 1))
        q += q >= p
        suit, x = int(next(u) * self.nsuits), 3 + int(next(u) * 10)
        for j in (p, q):
            self.down[j] = min(self.down[j], 2)
            self.up[j] = self.up[j][: int(next(u) * 2)]
        self.up[p] += [(r, suit) for r in range(13, x - 1, -1)]
        self.up[q] += [(r, suit) for r in range(x - 1, 0, -1)]

    # ----------------------------------------------------------------- draw
    def _draw(self) -> np.ndarray:
        return draw_tableau(self.obs_size, self.ncols, self.max_down, self.down, self.up)

    # ----------------------------------------------------------------- text
    def _task_text(self) -> str:
        rules = (f"The image shows a Spider solitaire tableau of {self.ncols} columns lettered A-{LETTERS[self.ncols - 1]} "
                 "above them: face-down cards (blue backs) under face-up cards (rank and suit). A move takes the last "
                 "card of a column, or several last cards that form a run (same suit, each one rank below the card "
                 "before it), and puts them on the last card of another column if that card is one rank higher than "
                 "the first moved card (any suit), or into an empty column. Aces are low (A, 2, ..., 10, J, Q, K).")
        if self.question == "count":
            return rules + (" How many legal moves are there? Count each number of cards taken from a run as a "
                            "different move; all empty columns count as one destination, and moving a whole column "
                            "into an empty column does not count.")
        if self.question == "run":
            return rules + (" Give a move after which a column ends with a whole suit in order, K down to A "
                            "(13 cards of one suit): the source and destination columns.")
        return rules + (" Give a move that takes every face-up card of one column (they must form a run) off a "
                        "face-down card, so that the face-down card is turned up: the source and destination columns.")

    # ----------------------------------------------------------------- verify
    def _parse_answer(self, text: str):
        if self.question == "count":
            return parse_count(text)
        t = re.sub(r"\b(?:columns?|from|to|onto|on|into|move|the|cards?|all)\b", " ", text.strip().lower())
        t = t.replace("->", " ").replace("→", " ").replace(",", " ")
        letters = re.findall(r"(?<![a-z])([a-j])(?![a-z])", t)
        if len(letters) != 2 or re.search(r"[a-z]{2,}", t) or len(t) > 80:
            return None
        src, dst = (LETTERS.index(x.upper()) for x in letters)
        return (src, dst) if max(src, dst) < self.ncols and src != dst else None

    def _check(self, answer) -> bool:
        if self.question == "count":
            return answer == len(self.moves)
        src, dst = answer
        if self.question == "run":
            return (src, dst) in self.runs
        return (src, "empty" if not self.up[dst] and not self.down[dst] else dst) in self.reveals

    def _format(self, answer) -> str:
        return str(answer) if self.question == "count" else f"{LETTERS[answer[0]]} to {LETTERS[answer[1]]}"

    def _solve(self):
        if self.question == "count":
            return len(self.moves)
        if self.question == "run":
            return min(self.runs)
        src, dst = min(self.reveals, key=str)
        return src, dst if dst != "empty" else next(j for j in range(self.ncols) if not self.up[j] and not self.down[j])

    def _near_misses(self, rng: np.random.Generator) -> list:
        if self.question == "count":
            return count_near_misses(rng, len(self.moves))
        legal = [(j, d) for j, k, d in self.moves if d != "empty"]
        legal += [(d, j) for j, d in getattr(self, "runs", ())]
        pairs = [(j, d) for j in range(self.ncols) for d in range(self.ncols) if j != d and self.up[j]]
        close = [(j, d) for j, d in pairs if self.down[j] and self.up[d] and abs(self.up[d][-1][0] - self.up[j][0][0] - 1) == 1]
        first = [legal[int(k)] for k in rng.permutation(len(legal))] + [close[int(k)] for k in rng.permutation(len(close))]
        return first + [pairs[int(k)] for k in rng.permutation(len(pairs))]

    def _state_text(self) -> str:
        return "\n".join(f"{LETTERS[j]}: " + " ".join(["##"] * self.down[j] + [card_name(c) for c in self.up[j]])
                         for j in range(self.ncols))


SPECS = (
    TaskSpec(name="SpiderMove", entry_point=SpiderMove, max_episode_steps=1, kwargs={"question": "reveal"},
             tags=("game", "cards", "solitaire")),
    TaskSpec(name="SpiderRun", entry_point=SpiderMove, max_episode_steps=1, kwargs={"question": "run"},
             tags=("game", "cards", "solitaire")),
    TaskSpec(name="SpiderMoveCount", entry_point=SpiderMove, max_episode_steps=1, kwargs={"question": "count"},
             tags=("game", "cards", "counting")),
)
