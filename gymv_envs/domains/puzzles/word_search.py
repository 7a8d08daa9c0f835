"""Word search: find where a listed word is hidden in a grid of letters."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.board import coordinate_frame
from gymv_envs.core.canvas import (
    INK,
    WHITE,
    draw_text,
    fill_rect,
    is_uniform,
    layers_tile,
    text_layer,
)
from gymv_envs.core.cells import cell_name
from gymv_envs.core.rng import ScalarDraws

WORDS = ("APPLE", "BREAD", "CHAIR", "DANCE", "EAGLE", "FLAME", "GRAPE", "HOUSE", "IVORY", "JELLY",
         "KNIFE", "LEMON", "MANGO", "NORTH", "OCEAN", "PIANO", "QUEEN", "RIVER", "STONE", "TIGER",
         "UNCLE", "VOICE", "WATER", "YOUTH", "ZEBRA", "CLOUD", "PLANT", "TRAIN", "SHEEP", "HORSE",
         "BEACH", "CANDLE", "FOREST", "GARDEN", "ISLAND", "JUNGLE", "KITTEN", "MARKET", "ORANGE",
         "PENCIL", "ROCKET", "SILVER", "TURTLE", "WINDOW", "YELLOW", "BRIDGE", "CASTLE", "DRAGON",
         "FINGER", "GUITAR", "HAMMER", "LADDER", "MIRROR", "PLANET", "SPIDER", "TOMATO", "BASKET",
         "FROG", "LAMP", "MOON", "NEST", "ROSE", "SHIP", "TREE", "WOLF", "BELL", "COIN", "DUCK",
         "FISH", "GOAT", "KITE", "LION", "ROAD", "SNOW", "STAR", "BOAT", "CAKE", "DOOR", "LEAF")
DIRS = {"right": (0, 1), "left": (0, -1), "down": (1, 0), "up": (-1, 0),
        "down-right": (1, 1), "down-left": (1, -1), "up-right": (-1, 1), "up-left": (-1, -1)}
SYNONYMS = {"east": "right", "west": "left", "south": "down", "north": "up", "e": "right", "w": "left",
            "s": "down", "n": "up", "southeast": "down-right", "southwest": "down-left",
            "northeast": "up-right", "northwest": "up-left", "se": "down-right", "sw": "down-left",
            "ne": "up-right", "nw": "up-left", "rightdown": "down-right", "leftdown": "down-left",
            "rightup": "up-right", "leftup": "up-left", "downright": "down-right", "downleft": "down-left",
            "upright": "up-right", "upleft": "up-left", "right": "right", "left": "left", "down": "down", "up": "up"}
# difficulty -> (side, directions used, words hidden)
LEVELS = {0: (6, ("right", "down"), 3), 1: (8, ("right", "down", "down-right", "up-right"), 4), 2: (10, tuple(DIRS), 6)}
_CELLS = re.compile(r"(?<![A-Z])([A-Z])\s?(\d{1,2})(?!\d)")


@functools.lru_cache(maxsize=16)
def _board(H: int, W: int, n: int):
    """The labelled board with its white cells (read-only), and a function giving a letter's tile in a
    cell, ``(rows, cols, tile)``, or None when the letter would not lie inside its cell on white."""
    base, (x0, y0, cell) = coordinate_frame((H, W), n, n)
    base = base.copy()
    fill_rect(base, x0, y0, x0 + n * cell, y0 + n * cell, WHITE)
    base.setflags(write=False)
    size = max(5, int(cell * 0.6))

    @functools.lru_cache(maxsize=4096)
    def letter(r: int, c: int, ch: str):
        m, x, y, colour = text_layer(ch, (x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell), size, INK, bold=True, mono=True)
        h, w = m.shape
        if not (x >= x0 + c * cell and x + w <= x0 + (c + 1) * cell and y >= y0 + r * cell and y + h <= y0 + (r + 1) * cell
                and is_uniform(base, x, y, x + w, y + h, WHITE)):
            return None
        return slice(y, y + h), slice(x, x + w), layers_tile([(m, x, y, colour)], x, y, x + w, y + h, WHITE)

    return base, letter


class WordSearch(SingleTurnEnv):
    """Say where a given word is hidden in a grid of letters: its first cell and direction.

    ## Description
    Several words are written into an ``n x n`` grid in straight lines (horizontal, vertical
    or diagonal, forwards or backwards by difficulty) and the other cells are filled with
    random letters. The instruction names one hidden word; the answer is the cell of its
    first letter and the direction in which it reads. Any occurrence is accepted: the answer
    is checked by reading the grid.

    ## Action Space
    ``answer_format="open"``: `Text`, a start cell and a direction such as ``B3 down-right``,
    or the first and last cells such as ``B3 to F7`` (compass words are accepted too).
    ``"mcq"``: `Discrete(k)` over candidate placements.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the letter grid with column letters and row numbers.

    ## Rewards
    1.0 if the grid letters from the start cell in that direction spell the word, else 0.0.

    ## Starting State
    Words, their placements and the filler letters are drawn from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 6x6, right/down; 1: 8x8, plus two diagonals; 2: 10x10, all eight
    directions), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the cell of the word's first letter and its reading direction (for example `B3 down-right`)"

    def _configure(self) -> None:
        self.n, self.dirs, self.num_words = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        grid = [[""] * n for _ in range(n)]
        with ScalarDraws(rng) as d:  # the same draws as `rng.integers`/`rng.permutation`, faster
            words = [w for w in (WORDS[i] for i in d.permutation(len(WORDS))) if len(w) <= n]
            placed = []
            for word in words:
                if len(placed) == self.num_words:
                    break
                for _ in range(40):
                    dr, dc = DIRS[self.dirs[d.integers(len(self.dirs))]]
                    r, c = d.integers(n), d.integers(n)
                    cells = [(r + i * dr, c + i * dc) for i in range(len(word))]
                    if all(0 <= a < n and 0 <= b < n and grid[a][b] in ("", word[i]) for i, (a, b) in enumerate(cells)):
                        for i, (a, b) in enumerate(cells):
                            grid[a][b] = word[i]
                        placed.append(word)
                        break
            for r in range(n):
                for c in range(n):
                    if not grid[r][c]:
                        grid[r][c] = chr(65 + d.integers(26))
            self.word = placed[d.integers(len(placed))]
        self.grid = ["".join(row) for row in grid]
        self.words = tuple(placed)

    # -- rules
    def _reads(self, r: int, c: int, dr: int, dc: int) -> str:
        out = []
        while 0 <= r < self.n and 0 <= c < self.n and len(out) < len(self.word):
            out.append(self.grid[r][c])
            r, c = r + dr, c + dc
        return "".join(out)

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        base, letter = _board(H, W, self.n)
        img = base.copy()
        tiles = [letter(r, c, ch) for r, row in enumerate(self.grid) for c, ch in enumerate(row)]
        if all(t is not None for t in tiles):  # each letter inside its own white cell: copy its tile
            for rows, cols, tile in tiles:
                img[rows, cols] = tile
            return img
        _, (x0, y0, cell) = coordinate_frame((H, W), self.n, self.n)
        size = max(5, int(cell * 0.6))
        for r in range(self.n):
            for c in range(self.n):
                draw_text(img, self.grid[r][c], (x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell), size, INK, bold=True, mono=True)
        return img

    def _task_text(self) -> str:
        return (f"The image shows a {self.n}x{self.n} word search grid; columns are labelled A to "
                f"{chr(64 + self.n)} from left to right and rows 1 to {self.n} from top to bottom. The words "
                f"{', '.join(sorted(self.words))} are hidden in straight lines (across, down or diagonally, "
                f"possibly backwards). Where is the word {self.word}? Give the cell of its first letter and "
                "the direction it reads in: right, left, up, down, up-right, up-left, down-right or down-left.")

    def _caption(self) -> list:
        return [f"Where is {self.word}? (words: {', '.join(sorted(self.words))})"]

    def _state_text(self) -> str:
        return "\n".join(" ".join(row) for row in self.grid)

    # -- verify
    def _parse_answer(self, text: str) -> tuple[int, int, int, int] | None:
        t = text.strip().upper()
        if not t or len(t) > 200:
            return None
        cells = [(int(m.group(2)) - 1, ord(m.group(1)) - 65) for m in _CELLS.finditer(t)]
        if not cells or len(cells) > 2 or any(not (0 <= r < self.n and 0 <= c < self.n) for r, c in cells):
            return None
        (r, c) = cells[0]
        if len(cells) == 2:
            dr, dc = cells[1][0] - r, cells[1][1] - c
            steps = max(abs(dr), abs(dc))
            if steps != len(self.word) - 1 or dr not in (0, steps, -steps) or dc not in (0, steps, -steps):
                return None
            return r, c, dr // steps, dc // steps
        rest = _CELLS.sub(" ", t).lower()
        rest = re.sub(r"\b(diagonal(ly)?|going|reading|starting|start|at|from|towards?|direction|and|cell)\b", " ", rest)
        key = re.sub(r"[^a-z]", "", rest)
        if key not in SYNONYMS:
            return None
        return (r, c, *DIRS[SYNONYMS[key]])

    def _check(self, answer: tuple[int, int, int, int]) -> bool:
        return self._reads(*answer) == self.word

    def _format(self, answer: tuple[int, int, int, int]) -> str:
        r, c, dr, dc = answer
        name = next(k for k, v in DIRS.items() if v == (dr, dc))
        return f"{cell_name(r, c)} {name}"

    # -- oracle
    def _solve(self) -> tuple[int, int, int, int]:
        for r in range(self.n):
            for c in range(self.n):
                if self.grid[r][c] != self.word[0]:
                    continue
                for dr, dc in DIRS.values():
                    if self._reads(r, c, dr, dc) == self.word:
                        return r, c, dr, dc
        raise RuntimeError("the word is not in the grid")

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[int, int, int, int]]:
        r, c, dr, dc = self._solution
        L = len(self.word) - 1
        n = self.n
        ends = [(r + L * dr, c + L * dc, -dr, -dc)]                                   # read backwards
        turns = [(r, c, *d) for d in DIRS.values() if d != (dr, dc)]                   # right start, wrong way
        shifts = [(r + a, c + b, dr, dc) for a, b in DIRS.values()]                    # off by one cell
        swapped = [(c, r, dc, dr)]                                                     # rows and columns swapped
        pool = ends + swapped + [turns[int(i)] for i in rng.permutation(len(turns))] + [shifts[int(i)] for i in rng.permutation(len(shifts))]
        out = [x for x in pool if 0 <= x[0] < n and 0 <= x[1] < n]
        return [out[0]] + [out[int(i) + 1] for i in rng.permutation(len(out) - 1)]


SPECS = (
    TaskSpec(name="WordSearch", entry_point=WordSearch, version=1, max_episode_steps=1,
             tags=("visual-search", "reading")),
)
