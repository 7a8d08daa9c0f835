"""K paths: K right/down paths across a grid of numbers that together cover the largest total."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.algorithmic._board import blank, cell_block
from gymv_envs.domains.algorithmic._common import AlgoEnv, Kind, board_text
from gymv_envs.domains.algorithmic._k_paths_solver import best_paths

LEVELS = {0: (4, 2), 1: (5, 2), 2: (6, 3)}  # side, paths K
_GROUPS = re.compile(r"[/;|\n]+")
_LABEL = re.compile(r"(?i)\bpath\s*\d+\s*[:=)\]-]?")
START_BG, END_BG = (205, 235, 205), (245, 210, 205)


def covered(values: np.ndarray, paths: list[str]) -> int | None:
    """The total of the cells the paths visit (each cell once); ``None`` if a path is not a right/down path
    from the top-left to the bottom-right corner."""
    R, C = values.shape
    cells = set()
    for p in paths:
        if p.count("D") != R - 1 or p.count("R") != C - 1 or len(p) != R + C - 2:
            return None
        r = c = 0
        cells.add((0, 0))
        for m in p:
            r, c = (r + 1, c) if m == "D" else (r, c + 1)
            cells.add((r, c))
    return sum(int(values[r, c]) for r, c in cells)


class Paths(Kind):
    """K move strings of R and D, separated by ``/`` (or ``;``, newlines)."""

    def __init__(self, k: int, length: int) -> None:
        self.k, self.length = k, length
        self.hint = f"{k} paths, each as its {length} moves R (right) and D (down), the paths separated by `/`"

    def parse(self, text: str) -> tuple[str, ...] | None:
        if not isinstance(text, str) or len(text) > 4000:
            return None
        groups = [re.sub(r"[\s,>\-]+", "", g).upper() for g in _GROUPS.split(_LABEL.sub(" ", text))]
        groups = [g for g in groups if g]
        if len(groups) == 1 and len(text.split()) == self.k:
            groups = [t.upper() for t in text.split()]
        if len(groups) != self.k or not all(re.fullmatch(r"[RD]+", g) for g in groups):
            return None
        return tuple(groups)

    def format(self, answer) -> str:
        return " / ".join(answer)

    def nearby(self, answer, rng: np.random.Generator, k: int):
        for _ in range(60):  # one corner of one path turned the other way
            j = int(rng.integers(len(answer)))
            p = list(answer[j])
            turns = [i for i in range(len(p) - 1) if p[i] != p[i + 1]]
            if turns:
                i = turns[int(rng.integers(len(turns)))]
                p[i], p[i + 1] = p[i + 1], p[i]
                yield tuple(answer[:j]) + ("".join(p),) + tuple(answer[j + 1:])


class KPaths(AlgoEnv):
    """Choose K right/down paths across a grid of numbers that together cover the largest total.

    ## Description
    A ``side x side`` grid of digits is drawn; the top-left cell (green) is the start and the
    bottom-right cell (red) the end. Each of K paths goes from start to end moving one cell right
    or down at a time. The score of the K paths is the total of the numbers on the cells visited
    by at least one path (a cell visited by several paths counts once). Give K paths with the
    largest score; any set of paths reaching the largest score is accepted. The solver is a
    dynamic program over the K paths' rows on each anti-diagonal (exact; cross-checked against
    enumeration and min-cost flow in the tests).

    ## Action Space
    ``answer_format="open"``: `Text`, K move strings such as ``RRDD / DDRR``. ``"mcq"``:
    `Discrete(k)`; wrong options are the greedy choice (the best single path, then the best on
    what is left), the best single path repeated, an optimal set with one corner turned, or random
    paths.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid of digits with the start and end tinted.

    ## Rewards
    1.0 for K valid paths whose covered total is the largest possible, else 0.0.

    ## Starting State
    Digits 0-9 uniformly at random; levels where the greedy choice is already optimal are redrawn
    half of the time.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4 with 2 paths, 1: 5x5 with 2 paths, 2: 6x6 with 3 paths),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    def _configure(self) -> None:
        self.side, self.k = LEVELS[self.difficulty]
        self.kind = Paths(self.k, 2 * self.side - 2)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        strict = rng.random() < 0.5
        while True:
            self.values = rng.integers(0, 10, size=(self.side, self.side))
            self.best, self.paths = best_paths(self.values, self.k)
            if not strict or covered(self.values, self._greedy()) < self.best:
                return

    def _greedy(self) -> list[str]:
        left, out = self.values.copy(), []
        for _ in range(self.k):
            _, (p,) = best_paths(left, 1)
            out.append(p)
            r = c = 0
            left[0, 0] = 0
            for m in p:
                r, c = (r + 1, c) if m == "D" else (r, c + 1)
                left[r, c] = 0
        return out

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.side
        img, g = blank(self.obs_size, n, n, labels=False)
        for r, row in enumerate(self.values.tolist()):
            for c, v in enumerate(row):
                bg = START_BG if (r, c) == (0, 0) else END_BG if (r, c) == (n - 1, n - 1) else (255, 255, 255)
                cell_block(img, g, r, c, bg, str(v))
        return img

    def _task_text(self) -> str:
        n = self.side
        return (f"The image shows a {n}x{n} grid of numbers; the top-left cell (green) is the start and the bottom-right "
                f"cell (red) the end. Choose {self.k} paths from the start to the end, each moving one cell right (R) or "
                f"down (D) at a time ({2 * n - 2} moves). The paths score the total of the numbers on every cell that at "
                "least one of them visits (a cell visited by several paths counts once). Give paths with the largest "
                "possible score.")

    def _level_text(self) -> str:
        return board_text(self.values)

    # -- verify
    def _check(self, answer) -> bool:
        return covered(self.values, list(answer)) == self.best

    def _similar(self, rng: np.random.Generator) -> list:
        single = best_paths(self.values, 1)[1][0]
        n = self.side
        randoms = [tuple("".join("D" if m else "R" for m in rng.permutation([1] * (n - 1) + [0] * (n - 1)))
                         for _ in range(self.k)) for _ in range(40)]
        return [tuple(self._greedy()), (single,) * self.k, *randoms]

    # -- oracle
    def _solve(self) -> tuple[str, ...]:
        return tuple(self.paths)


SPECS = (
    TaskSpec(name="KPathsMaxCover", entry_point=KPaths, max_episode_steps=1,
             tags=("dynamic-programming", "paths", "optimisation")),
)
