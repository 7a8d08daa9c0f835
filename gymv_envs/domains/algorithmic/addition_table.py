"""Addition table: decode which digit each letter stands for in a base-N addition table."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.algorithmic._board import blank, cell_block
from gymv_envs.domains.algorithmic._common import AlgoEnv, Kind

LEVELS = {0: 4, 1: 6, 2: 8}  # base N = number of letters
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: they read as digits
HEADER_BG = (215, 220, 232)
_PAIR = re.compile(r"([A-Za-z])\s*(?:=|:|->|→|is|=>)?\s*(\d{1,2})")
_REST = re.compile(r"(?i)[\s,;/|(){}\[\]\"'`.]+|\band\b")


def entry(a: int, b: int, n: int, letters: dict[int, str]) -> str:
    """a + b written in base ``n`` with the letters for digits."""
    s = a + b
    return letters[s] if s < n else letters[1] + letters[s - n]


class Mapping(Kind):
    """Which digit each of the given letters stands for: ``A=2 B=0 ...``."""

    def __init__(self, letters: str) -> None:
        self.letters = letters
        self.hint = "the digit of every letter, as pairs such as `X=3` separated by spaces"

    def parse(self, text: str) -> tuple[tuple[str, int], ...] | None:
        if not isinstance(text, str) or len(text) > 2000 or _REST.sub("", _PAIR.sub("", text)):
            return None
        pairs = {}
        for letter, digit in _PAIR.findall(text):
            letter = letter.upper()
            if letter in pairs and pairs[letter] != int(digit):
                return None
            pairs[letter] = int(digit)
        if set(pairs) != set(self.letters):
            return None
        return tuple(sorted(pairs.items()))

    def format(self, answer) -> str:
        return " ".join(f"{a}={d}" for a, d in sorted(answer))

    def nearby(self, answer, rng: np.random.Generator, k: int):
        items = sorted(answer)
        for _ in range(40):  # two letters' digits swapped
            i, j = rng.choice(len(items), 2, replace=False)
            d = dict(items)
            d[items[i][0]], d[items[j][0]] = items[j][1], items[i][1]
            yield tuple(sorted(d.items()))


class AdditionTable(AlgoEnv):
    """Decode a drawn addition table in base N whose digits are written as letters.

    ## Description
    An (N+1) x (N+1) table is drawn: the top row and the left column list N different letters
    (in the same random order), and each inner cell holds the sum of its row letter and column
    letter, written in base N with letters (one letter, or two when the sum is N or more). Each
    letter stands for a different digit from 0 to N-1, where N is the number of letters. Give the
    digit of every letter; the verifier rebuilds the table from the answer (the decoding is
    unique: a letter's digit is the number of two-letter sums in its row).

    ## Action Space
    ``answer_format="open"``: `Text`, pairs such as ``A=2 B=0 C=1``. ``"mcq"``: `Discrete(k)`;
    wrong options read the digits off the header order or the alphabet, shift every digit by
    one, or swap two letters.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the table.

    ## Rewards
    1.0 for a digit per letter that reproduces every sum of the table, else 0.0.

    ## Starting State
    N letters (no I or O) with random distinct digits and a random header order that does not
    already count 0, 1, 2, ...

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: base 4, 1: base 6, 2: base 8), ``answer_format``, ``num_options``,
    ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    def _configure(self) -> None:
        self.n = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        self.letters = "".join(sorted(ALPHABET[int(i)] for i in rng.permutation(len(ALPHABET))[:n]))
        self.kind = Mapping(self.letters)
        while True:
            digits = [int(d) for d in rng.permutation(n)]
            self.digit = dict(zip(self.letters, digits))
            self.order = [self.letters[int(i)] for i in rng.permutation(n)]
            if [self.digit[a] for a in self.order] != list(range(n)):
                break
        self.table = self._table(self.digit)

    def _table(self, digit: dict[str, int]) -> list[list[str]]:
        n = self.n
        letter_of = {d: a for a, d in digit.items()}
        return [[entry(digit[a], digit[b], n, letter_of) for b in self.order] for a in self.order]

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        img, g = blank(self.obs_size, n + 1, n + 1, labels=False)
        cell_block(img, g, 0, 0, HEADER_BG, "+")
        for i, a in enumerate(self.order):
            cell_block(img, g, 0, i + 1, HEADER_BG, a)
            cell_block(img, g, i + 1, 0, HEADER_BG, a)
            for j in range(n):
                cell_block(img, g, i + 1, j + 1, (255, 255, 255), self.table[i][j], scale=0.5)
        return img

    def _task_text(self) -> str:
        return ("The image shows an addition table written with letters instead of digits. The top row and the left "
                "column list the same letters; each inner cell holds the sum of its row's letter and its column's "
                "letter, written in base N, where N is the number of different letters, with two letters when the sum "
                "is N or more. Each letter stands for a different digit from 0 to N-1. Which digit does each letter "
                "stand for?")

    def _level_text(self) -> str:
        return "\n".join(" ".join(row) for row in [["+", *self.order]] + [[a, *r] for a, r in zip(self.order, self.table)])

    # -- verify
    def _check(self, answer) -> bool:
        digit = dict(answer)
        return sorted(digit.values()) == list(range(self.n)) and self._table(digit) == self.table

    def _similar(self, rng: np.random.Generator) -> list:
        n = self.n
        by_header = {a: i for i, a in enumerate(self.order)}
        by_alphabet = {a: i for i, a in enumerate(self.letters)}
        shifted = {a: (d + 1) % n for a, d in self.digit.items()}
        return [tuple(sorted(m.items())) for m in (by_header, by_alphabet, shifted)]

    # -- oracle
    def _solve(self):
        return tuple(sorted(self.digit.items()))


SPECS = (
    TaskSpec(name="AdditionTableDecode", entry_point=AdditionTable, max_episode_steps=1,
             tags=("cryptarithm", "number-base", "deduction")),
)
