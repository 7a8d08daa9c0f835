"""Word search: find where a listed word is hidden in a grid of letters, or where every listed word is."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.cells import cell_name
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.puzzles._word_search_answers import DIRS, parse_placement, parse_placements
from gymv_envs.domains.puzzles._word_search_draw import draw_grid

WORDS = ("APPLE", "BREAD", "CHAIR", "DANCE", "EAGLE", "FLAME", "GRAPE", "HOUSE", "IVORY", "JELLY",
         "KNIFE", "LEMON", "MANGO", "NORTH", "OCEAN", "PIANO", "QUEEN", "RIVER", "STONE", "TIGER",
         "UNCLE", "VOICE", "WATER", "YOUTH", "ZEBRA", "CLOUD", "PLANT", "TRAIN", "SHEEP", "HORSE",
         "BEACH", "CANDLE", "FOREST", "GARDEN", "ISLAND", "JUNGLE", "KITTEN", "MARKET", "ORANGE",
         "PENCIL", "ROCKET", "SILVER", "TURTLE", "WINDOW", "YELLOW", "BRIDGE", "CASTLE", "DRAGON",
         "FINGER", "GUITAR", "HAMMER", "LADDER", "MIRROR", "PLANET", "SPIDER", "TOMATO", "BASKET",
         "FROG", "LAMP", "MOON", "NEST", "ROSE", "SHIP", "TREE", "WOLF", "BELL", "COIN", "DUCK",
         "FISH", "GOAT", "KITE", "LION", "ROAD", "SNOW", "STAR", "BOAT", "CAKE", "DOOR", "LEAF")
# difficulty -> (side, directions used, words hidden)
LEVELS = {0: (6, ("right", "down"), 3), 1: (8, ("right", "down", "down-right", "up-right"), 4), 2: (10, tuple(DIRS), 6)}
QUESTIONS = ("one_word", "all_words")


class WordSearch(SingleTurnEnv):
    """Say where a given word is hidden in a grid of letters (first cell and direction), or where every word is.

    ## Description
    Several words are written into an ``n x n`` grid in straight lines (horizontal, vertical
    or diagonal, forwards or backwards by difficulty) and the other cells are filled with
    random letters. ``question="one_word"`` (default): the instruction names one hidden word;
    the answer is the cell of its first letter and the direction in which it reads.
    ``question="all_words"``: the answer gives, for every listed word, the cells of its first
    and last letters. Any occurrence is accepted (a word hidden twice may be given at either
    place), and a word's two cells may come in either order (``B3-F7`` or ``F7-B3``: the segment
    is what is checked); answers are checked by reading the grid.

    ## Action Space
    ``answer_format="open"``: `Text`, a start cell and a direction such as ``B3 down-right``,
    or the first and last cells such as ``B3 to F7`` (compass words are accepted too); for
    all_words, each word with its first and last cells, such as ``APPLE B3-F7; LEMON A1-A5``.
    ``"mcq"``: `Discrete(k)` over candidate placements (all_words: one word's end one cell off,
    two words' places swapped, rows and columns swapped, a word left out).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the letter grid with column letters and row numbers.

    ## Rewards
    1.0 if the grid letters from the start cell in that direction spell the word (all_words: for
    every listed word, and no other), else 0.0.

    ## Starting State
    Words, their placements and the filler letters are drawn from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"one_word"``: where one named word is; ``"all_words"``: where every listed word
    is), ``difficulty`` (0: 6x6, right/down; 1: 8x8, plus two diagonals; 2: 10x10, all eight
    directions), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    questions = QUESTIONS

    @property
    def answer_hint(self) -> str:  # type: ignore[override]
        if self.question == "all_words":
            return "every word with the cells of its first and last letters (for example `APPLE B3-F7; LEMON A1-A5`)"
        return "the cell of the word's first letter and its reading direction (for example `B3 down-right`)"

    def _configure(self) -> None:
        self.n, self.dirs, self.num_words = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        grid = [[""] * n for _ in range(n)]
        order = rng.permutation(len(WORDS)).tolist()  # (drawn before the scalar draws, as `d.permutation` would)
        with ScalarDraws(rng) as d:  # the same draws as `rng.integers`, faster
            words = [w for w in (WORDS[i] for i in order) if len(w) <= n]
            placed, integers = [], d.integers
            for word in words:
                if len(placed) == self.num_words:
                    break
                last = len(word) - 1
                for _ in range(40):
                    dr, dc = DIRS[self.dirs[integers(len(self.dirs))]]
                    r, c = integers(n), integers(n)
                    if not (0 <= r + last * dr < n and 0 <= c + last * dc < n):
                        continue  # the word's last letter (so one of its letters) would leave the grid
                    cells = [(r + i * dr, c + i * dc) for i in range(len(word))]
                    if all(grid[a][b] in ("", word[i]) for i, (a, b) in enumerate(cells)):
                        for i, (a, b) in enumerate(cells):
                            grid[a][b] = word[i]
                        placed.append(word)
                        break
            for row in grid:
                for c in range(n):
                    if not row[c]:
                        row[c] = chr(65 + integers(26))
            self.word = placed[integers(len(placed))]
        self.grid = ["".join(row) for row in grid]
        self.words = tuple(placed)

    # -- rules
    def _reads(self, r: int, c: int, dr: int, dc: int, length: int | None = None) -> str:
        out, length = [], length or len(self.word)
        while 0 <= r < self.n and 0 <= c < self.n and len(out) < length:
            out.append(self.grid[r][c])
            r, c = r + dr, c + dc
        return "".join(out)

    # -- draw
    def _draw(self) -> np.ndarray:
        return draw_grid(*self.obs_size, self.n, self.grid)

    def _task_text(self) -> str:
        if self.question == "all_words":
            return (f"The image shows a {self.n}x{self.n} word search grid; columns are labelled A to "
                    f"{chr(64 + self.n)} from left to right and rows 1 to {self.n} from top to bottom. The words "
                    f"{', '.join(sorted(self.words))} are hidden in straight lines (across, down or diagonally, "
                    "possibly backwards). Find every one: for each word give the word and the cells of its first "
                    "and last letters, for example APPLE B3-F7; LEMON A1-A5.")
        return (f"The image shows a {self.n}x{self.n} word search grid; columns are labelled A to "
                f"{chr(64 + self.n)} from left to right and rows 1 to {self.n} from top to bottom. The words "
                f"{', '.join(sorted(self.words))} are hidden in straight lines (across, down or diagonally, "
                f"possibly backwards). Where is the word {self.word}? Give the cell of its first letter and "
                "the direction it reads in: right, left, up, down, up-right, up-left, down-right or down-left.")

    def _caption(self) -> list:
        if self.question == "all_words":
            return [f"Find all: {', '.join(sorted(self.words))}"]
        return [f"Where is {self.word}? (words: {', '.join(sorted(self.words))})"]

    def _state_text(self) -> str:
        return "\n".join(" ".join(row) for row in self.grid)

    # -- verify
    def _parse_answer(self, text: str) -> tuple[int, int, int, int] | None:
        if self.question == "all_words":
            return parse_placements(text, self.n)
        return parse_placement(text, self.n, len(self.word))

    def _spells(self, word: str, a: tuple[int, int], b: tuple[int, int]) -> bool:
        """Whether the straight segment from ``a`` to ``b`` (either end first) spells ``word``."""
        dr, dc = b[0] - a[0], b[1] - a[1]
        steps = max(abs(dr), abs(dc))
        if steps != len(word) - 1 or dr not in (0, steps, -steps) or dc not in (0, steps, -steps):
            return False
        seg = self._reads(a[0], a[1], dr // steps, dc // steps, len(word))
        return word in (seg, seg[::-1])

    def _check(self, answer: tuple[int, int, int, int]) -> bool:
        if self.question == "all_words":
            return sorted(w for w, _, _ in answer) == sorted(self.words) and all(self._spells(*x) for x in answer)
        return self._reads(*answer) == self.word

    def _format(self, answer: tuple[int, int, int, int]) -> str:
        if self.question == "all_words":
            return "; ".join(f"{w} {cell_name(*a)}-{cell_name(*b)}" for w, a, b in answer)
        r, c, dr, dc = answer
        name = next(k for k, v in DIRS.items() if v == (dr, dc))
        return f"{cell_name(r, c)} {name}"

    # -- oracle
    def _solve(self) -> tuple[int, int, int, int]:
        if self.question == "all_words":
            out = []
            for word in sorted(self.words):
                self.word = word  # `_find` reads the current word
                r, c, dr, dc = self._find()
                out.append((word, (r, c), (r + (len(word) - 1) * dr, c + (len(word) - 1) * dc)))
            return tuple(out)
        return self._find()

    def _find(self) -> tuple[int, int, int, int]:
        for r in range(self.n):
            for c in range(self.n):
                if self.grid[r][c] != self.word[0]:
                    continue
                for dr, dc in DIRS.values():
                    if self._reads(r, c, dr, dc) == self.word:
                        return r, c, dr, dc
        raise RuntimeError("the word is not in the grid")

    def _all_misses(self, rng: np.random.Generator) -> list[tuple]:
        sol, n = list(self._solution), self.n
        out = []
        for i in rng.permutation(len(sol)):
            w, a, b = sol[i]
            for d in ((0, 1), (1, 0), (0, -1), (-1, 0)):  # the last letter's cell one off
                end = (b[0] + d[0], b[1] + d[1])
                if 0 <= end[0] < n and 0 <= end[1] < n:
                    out.append(tuple(sol[:i] + [(w, a, end)] + sol[i + 1:]))
                    break
            out.append(tuple(sol[:i] + [(w, (a[1], a[0]), (b[1], b[0]))] + sol[i + 1:]))  # rows and columns swapped
            j = int((i + 1) % len(sol))  # two words' places swapped
            if len(sol[i][0]) == len(sol[j][0]) and i != j:
                swap = list(sol)
                swap[i], swap[j] = (sol[i][0], *sol[j][1:]), (sol[j][0], *sol[i][1:])
                out.append(tuple(swap))
            out.append(tuple(sol[:i] + sol[i + 1:]))  # one word left out
        return out

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[int, int, int, int]]:
        if self.question == "all_words":
            return self._all_misses(rng)
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
