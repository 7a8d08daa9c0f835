"""Helpers of single-turn answers that several tasks share: counts, number words, near misses.

`CountAnswer` gives the `SingleTurnEnv` hooks of a task whose answer is one whole number;
`interleave` mixes groups of near misses so that multiple-choice options vary in kind.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from gymv_envs.core.rng import shuffled

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                "eighteen", "nineteen", "twenty")
_WORD = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b")


def words_to_digits(text: str) -> str:
    """``text`` (lower case) with the number words zero..twenty written as digits."""
    return _WORD.sub(lambda m: str(NUMBER_WORDS.index(m.group(1))), text)


def parse_count(text: str, max_value: int = 100_000) -> int | None:
    """The one whole number in ``text`` ("7", "7 moves", "seven"); None if there are several."""
    t = text.strip().lower()
    if not t or len(t) > 200:
        return None
    t = words_to_digits(t)
    nums = {int(x) for x in re.findall(r"(?<![a-z\d.])\d+(?![\d]|\.\d)", t)}
    if len(nums) != 1:
        return None
    n = nums.pop()
    return n if 0 <= n <= max_value else None


def count_near_misses(rng: np.random.Generator, n: int, lo: int = 0, width: int = 4) -> list[int]:
    """Wrong counts near ``n``: a window of ``width`` values holding ``n`` at a random place."""
    start = max(lo, n - int(rng.integers(width)))
    window = [v for v in range(start, start + width) if v != n]
    return shuffled(rng, window) + [v for v in range(n + 1, n + 12) if v not in window] + list(range(lo, n))


class CountAnswer:
    """Mixin of the single-turn hooks for tasks whose answer is one whole number (``_solve``)."""

    answer_hint = "a single whole number (for example `7`)"
    count_floor = 0

    def _parse_answer(self, text: str) -> int | None:
        return parse_count(text)

    def _check(self, answer: int) -> bool:
        return answer == self._solution

    def _format(self, answer: int) -> str:
        return str(answer)

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        return count_near_misses(rng, self._solution, self.count_floor)


def interleave(rng: np.random.Generator, *groups: Sequence) -> list:
    """Round-robin over the groups (each shuffled): a varied list of near misses."""
    pools = [[g[int(i)] for i in rng.permutation(len(g))] for g in groups]
    out = []
    while any(pools):
        for p in pools:
            if p:
                out.append(p.pop())
    return out
