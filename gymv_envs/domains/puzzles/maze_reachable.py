"""Maze reachability: which lettered cells can be reached from the start of a walled maze."""

from __future__ import annotations

import itertools
import re

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import draw_maze
from gymv_envs.core.canvas import INK, PALETTE, WHITE, shape_layer, stamp, text_layer
from gymv_envs.core.rng import sample
from gymv_envs.domains.puzzles.maze_path import MazePath

# difficulty -> (cells per side, lettered cells, largest share of the maze reachable from the start)
LEVELS = {0: (5, 3, 0.6), 1: (7, 4, 0.55), 2: (10, 5, 0.5)}
LETTERS = "ABCDEFGH"


def _side_masks(open_: np.ndarray, n: int) -> tuple[int, ...]:
    """The cells open up, down, left and right, as bit masks (bit ``r * n + c``)."""
    return tuple(int.from_bytes(np.packbits(open_[:, :, k].ravel(), bitorder="little").tobytes(), "little")
                 for k in range(4))


def _grid(mask: int, n: int) -> np.ndarray:
    """The ``n x n`` boolean grid whose cell ``(r, c)`` is bit ``r * n + c`` of ``mask``."""
    raw = np.frombuffer(mask.to_bytes((n * n + 7) // 8, "little"), np.uint8)
    return np.unpackbits(raw, bitorder="little")[: n * n].astype(bool).reshape(n, n)


def _nth_passage(down: int, right: int, index: int) -> tuple[int, int]:
    """Item ``index`` of the sorted list of passages ``(i, 1)`` for each set bit ``i`` of ``down`` and
    ``(i, 3)`` for each of ``right``, found by bisecting on the cell: the number of items before a
    cell is two bit counts."""
    lo, hi = 0, max(down.bit_length(), right.bit_length())  # the cell is in [lo, hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        below = (1 << mid) - 1
        if (down & below).bit_count() + (right & below).bit_count() <= index:
            lo = mid
        else:
            hi = mid
    below = (1 << lo) - 1
    first = index == (down & below).bit_count() + (right & below).bit_count()  # the cell's first item
    return lo, 1 if first and down >> lo & 1 else 3


def _flood(seen: int, up: int, down: int, left: int, right: int, n: int) -> int:
    """The cells reached from ``seen`` through open sides (bit-parallel: a step in every direction at once)."""
    while True:
        grown = seen | (seen & right) << 1 | (seen & left) >> 1 | (seen & down) << n | (seen & up) >> n
        if grown == seen:
            return seen
        seen = grown


def _after_cut(seen: int, a: int, b: int, start: int, up: int, down: int, left: int, right: int, n: int) -> int:
    """The cells reached from ``start`` once the passage between cells ``a`` and ``b`` of its region
    ``seen`` is closed: both ends are flooded a step at a time until they meet (the region stays
    whole) or one side stops growing (it is cut off), so the smaller side sets the cost."""
    x, y = 1 << a, 1 << b
    while True:
        gx = x | (x & right) << 1 | (x & left) >> 1 | (x & down) << n | (x & up) >> n
        gy = y | (y & right) << 1 | (y & left) >> 1 | (y & down) << n | (y & up) >> n
        if gx & gy:
            return seen
        if gx == x:
            return x if x & start else seen & ~x
        if gy == y:
            return y if y & start else seen & ~y
        x, y = gx, gy


class MazeReachable(MazePath):
    """Name the lettered cells of a maze that can be reached from the green circle.

    ## Description
    A maze of ``n x n`` cells is carved by a randomised depth-first search (shared with
    MazePath), then passages are walled off until the start's region holds at most about half
    the maze. Some cells carry a letter; the answer is the set of letters whose cells can be
    reached from the green circle without crossing a wall. At least one letter is reachable
    and at least one is not.

    ## Action Space
    ``answer_format="open"``: `Text`, the reachable letters such as ``A C`` (any order, any
    separators, any case). ``"mcq"``: `Discrete(k)` over candidate sets of letters.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the maze, dark walls on white, start and letters marked.

    ## Rewards
    1.0 if the set of letters equals the set found by breadth-first search, else 0.0.

    ## Starting State
    Maze, walls added, start and lettered cells are drawn from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5 with 3 letters, 1: 7x7 with 4, 2: 10x10 with 5), ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the letters of the reachable cells, separated by spaces (for example `A C`)"

    def _configure(self) -> None:
        self.n, self.num_marks, self.share = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        super()._generate(rng)
        # the open sides as bit masks (bit r * n + c), flooded bit-parallel from the start
        up, down, left, right = _side_masks(self.open_, n)
        start = 1 << (self.start[0] * n + self.start[1])
        seen = _flood(start, up, down, left, right, n)
        while True:
            if seen.bit_count() < 2:                      # the start was walled in alone: redraw the maze
                super()._generate(rng)
                up, down, left, right = _side_masks(self.open_, n)
                start = 1 << (self.start[0] * n + self.start[1])
                seen = _flood(start, up, down, left, right, n)
                continue
            if seen.bit_count() <= self.share * n * n:
                break
            # the passages inside the region, (cell, 1: down or 3: right) in sorted order: pick one
            i, k = _nth_passage(seen & down, seen & right, int(rng.integers((seen & down).bit_count()
                                                                            + (seen & right).bit_count())))
            j = i + n if k == 1 else i + 1
            if k == 1:  # the wall goes back on both sides of the passage
                down, up = down & ~(1 << i), up & ~(1 << j)
            else:
                right, left = right & ~(1 << i), left & ~(1 << j)
            seen = _after_cut(seen, i, j, start, up, down, left, right, n)
        sides = np.zeros((n, n, 4), dtype=bool)
        for k, mask in enumerate((up, down, left, right)):
            sides[:, :, k] = _grid(mask, n)
        self.open_ = sides
        reach = _grid(seen, n)
        cells = [(r, c) for r in range(n) for c in range(n) if (r, c) != self.start]
        while True:
            self.marks = sample(rng, cells, self.num_marks)
            inside = sum(bool(reach[m]) for m in self.marks)
            if 0 < inside < self.num_marks:
                break
        self.reach = reach

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g, wall = draw_maze(self.open_, self.obs_size)
        x0, y0, cell = g.x0 + wall / 2, g.y0 + wall / 2, g.cell
        r, c = self.start
        stamp(img, [shape_layer("circle", x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell, max(3, int(cell * 0.6)), PALETTE["green"])], WHITE)
        size = max(5, int(cell * 0.6))
        for i, (r, c) in enumerate(self.marks):
            stamp(img, [text_layer(LETTERS[i], (x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell), size, INK, bold=True)], WHITE)
        return img

    def _task_text(self) -> str:
        letters = ", ".join(LETTERS[: self.num_marks])
        return (f"The image shows a {self.n}x{self.n} maze; dark lines are walls. Moving one cell at a time "
                "up, down, left or right without crossing a wall, which of the cells lettered "
                f"{letters} can be reached from the green circle? Name every reachable letter.")

    def _state_text(self) -> str:
        text = super()._state_text().replace("G", " ")
        rows = text.split("\n")
        for i, (r, c) in enumerate(self.marks):
            line = rows[2 * r + 1]
            rows[2 * r + 1] = line[: 3 * c + 1] + LETTERS[i] + line[3 * c + 2:]
        return "\n".join(rows)

    # -- verify
    def _parse_answer(self, text: str) -> tuple[str, ...] | None:
        t = re.sub(r"\b(AND|CELLS?|LETTERS?)\b", " ", text.strip().upper())
        toks = [x for x in re.split(r"[\s,;/|+&.\-()\[\]{}]+", t) if x]
        valid = LETTERS[: self.num_marks]
        if not toks or any(len(x) != 1 or x not in valid for x in toks):
            return None
        return tuple(sorted(set(toks)))

    def _check(self, answer: tuple[str, ...]) -> bool:
        return answer == self._solve()

    def _format(self, answer: tuple[str, ...]) -> str:
        return " ".join(answer)

    # -- oracle
    def _solve(self) -> tuple[str, ...]:
        return tuple(LETTERS[i] for i, m in enumerate(self.marks) if self.reach[m])

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[str, ...]]:
        letters = LETTERS[: self.num_marks]
        sol = set(self._solve())
        flips = [tuple(sorted(sol ^ {x})) for x in letters]
        others = [tuple(s) for k in range(1, self.num_marks + 1) for s in itertools.combinations(letters, k)]
        out = [flips[int(i)] for i in rng.permutation(len(flips))]
        out += [others[int(i)] for i in rng.permutation(len(others))]
        return [x for x in out if x]


SPECS = (
    TaskSpec(name="MazeReachable", entry_point=MazeReachable, version=1, max_episode_steps=1,
             tags=("maze", "spatial-reasoning")),
)
