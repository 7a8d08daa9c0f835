"""Shared helpers of the puzzle tasks: count answers, labelled boards, maze drawing."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core.canvas import BACKGROUND, INK, WHITE, draw_text, fill_rect, new_frame
from gymv_envs.core.rng import shuffled

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                "eighteen", "nineteen", "twenty")
_WORD = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b")
_CELL = re.compile(r"^([A-Z])\s?(\d{1,2})$")


def parse_count(text: str, max_value: int = 100_000) -> int | None:
    """The one whole number in ``text`` ("7", "7 moves", "seven"); None if there are several."""
    t = text.strip().lower()
    if not t or len(t) > 200:
        return None
    t = _WORD.sub(lambda m: str(NUMBER_WORDS.index(m.group(1))), t)
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


def cell_name(r: int, c: int) -> str:
    return f"{chr(65 + c)}{r + 1}"


def parse_cell(token: str, rows: int, cols: int) -> tuple[int, int] | None:
    m = _CELL.match(token.strip().upper())
    if m is None:
        return None
    r, c = int(m.group(2)) - 1, ord(m.group(1)) - 65
    return (r, c) if 0 <= r < rows and 0 <= c < cols else None


@functools.lru_cache(maxsize=64)
def labelled_board(h: int, w: int, rows: int, cols: int, labels: bool = True,
                   top: float = 0.0) -> tuple[np.ndarray, float, float, float]:
    """An empty board frame (read-only) with column letters and row numbers, its origin and pitch.

    ``top`` is a fraction of the height kept free above the board (for a caption or a panel).
    """
    margin = max(1, min(h, w) // 40)
    band = int(h * top)
    lab = 0.6 if labels else 0.0
    cell = min((w - 2 * margin) / (cols + lab), (h - band - 2 * margin) / (rows + lab))
    x0 = (w - (cols + lab) * cell) / 2 + lab * cell
    y0 = band + (h - band - (rows + lab) * cell) / 2 + lab * cell
    img = new_frame(h, w, BACKGROUND)
    if labels:
        size = max(5, int(cell * 0.36))
        for c in range(cols):
            draw_text(img, chr(65 + c), (x0 + (c + 0.5) * cell, y0 - lab * cell / 2), size, INK, bold=True)
        for r in range(rows):
            draw_text(img, str(r + 1), (x0 - lab * cell / 2, y0 + (r + 0.5) * cell), size, INK, bold=True)
    img.setflags(write=False)
    return img, x0, y0, cell


def draw_maze(open_: np.ndarray, obs_size: tuple[int, int]) -> tuple[np.ndarray, float, float, float]:
    """A maze frame from ``open_[r, c, k]`` (k: 0 up, 1 down, 2 left, 3 right); origin and pitch."""
    H, W = obs_size
    n = open_.shape[0]
    cell = (min(H, W) * 0.94) / n
    wall = max(1, int(cell / 8))
    x0, y0 = (W - cell * n) / 2, (H - cell * n) / 2
    img = new_frame(H, W, BACKGROUND)
    fill_rect(img, x0, y0, x0 + cell * n + wall, y0 + cell * n + wall, WHITE)
    for r in range(n):
        for c in range(n):
            x, y = x0 + c * cell, y0 + r * cell
            if not open_[r, c, 0]:
                fill_rect(img, x, y, x + cell + wall, y + wall, INK)
            if not open_[r, c, 2]:
                fill_rect(img, x, y, x + wall, y + cell + wall, INK)
    fill_rect(img, x0, y0 + n * cell, x0 + n * cell + wall, y0 + n * cell + wall, INK)
    fill_rect(img, x0 + n * cell, y0, x0 + n * cell + wall, y0 + n * cell + wall, INK)
    return img, x0 + wall / 2, y0 + wall / 2, cell
