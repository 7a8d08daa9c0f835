"""Rock garden: mirror some rocks in the diagonal y = x so that the rectangle around all rocks is smallest."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.geometry._common import LETTERS, parse_letter_set
from gymv_envs.domains.geometry._plot import GeometryQuestion, distinct_points

COUNTS = {0: 4, 1: 6, 2: 8}
GRID = (0, 10)
ROCK = (110, 110, 120)
DIAGONAL = (200, 80, 60)


@functools.lru_cache(maxsize=16)
def _masks(n: int) -> np.ndarray:
    """Every subset of n rocks as a 0/1 row (2**n, n), read-only."""
    m = (np.arange(2 ** n)[:, None] >> np.arange(n)[None, :]) & 1
    m.setflags(write=False)
    return m.astype(bool)


def areas(pts: np.ndarray) -> np.ndarray:
    """The bounding-box area for every choice of rocks to mirror (swap x and y), all at once."""
    m = _masks(len(pts))
    x = np.where(m, pts[:, 1], pts[:, 0])
    y = np.where(m, pts[:, 0], pts[:, 1])
    return (x.max(1) - x.min(1)) * (y.max(1) - y.min(1))


def _diagonal(p) -> None:
    """The dashed diagonal y = x, the same on every level (cached with the grid)."""
    p.lines([(GRID[0], GRID[0], GRID[1], GRID[1])], DIAGONAL, dash=True)


class RockGarden(GeometryQuestion):
    """Choose rocks to mirror in the diagonal so the rectangle around the garden is smallest.

    ## Description
    Lettered rocks stand at integer points; the dashed red line is the diagonal ``y = x``. Any rock
    may be moved to its mirror image in the diagonal (its coordinates swapped). The answer is a set
    of rocks to mirror that makes the upright rectangle enclosing all rocks as small in area as
    possible; any optimal set is accepted (mirroring every rock turns the rectangle over and keeps
    its area, so complements of optimal sets are optimal too). All ``2**n`` choices are scored.

    ## Action Space
    ``answer_format="open"``: `Text`, the letters of the rocks to mirror. ``"mcq"``: `Discrete(k)`;
    wrong options are nothing mirrored, every rock moved below the diagonal, and the best set with
    one rock more or less.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid from 0 to 10, the rocks and the diagonal.

    ## Rewards
    1.0 for a set of rocks whose mirroring gives the smallest enclosing area, else 0.0.

    ## Starting State
    Random rocks, redrawn until mirroring some of them beats mirroring none.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4 rocks, 1: 6, 2: 8), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the letters of the rocks to mirror, separated by commas"

    def _generate(self, rng: np.random.Generator) -> None:
        n = COUNTS[self.difficulty]
        while True:
            self.pts = distinct_points(rng, n, GRID[0] + 1, GRID[1] - 1, min_gap=1.5)
            pts = {tuple(p) for p in self.pts}
            if any((y, x) in pts for x, y in pts if x != y):
                continue  # no rock where another one's mirror image would land
            self.areas = areas(self.pts)
            self.best = int(self.areas.min())
            if self.best < self.areas[0] and (self.areas > self.best).sum() >= 4:
                break
        self.labels = list(LETTERS[:n])

    def _draw(self) -> np.ndarray:
        p = self.plot(GRID[0], GRID[1], GRID[0], GRID[1], static=("rock-garden diagonal", _diagonal))
        return p.points(self.pts, self.labels, color=ROCK).frame()

    def _task_text(self) -> str:
        return ("The image shows lettered rocks on a grid and the dashed diagonal line y = x. You may move any "
                "rocks to their mirror images across the diagonal (swapping their x and y). Which rocks should "
                "be mirrored so that the smallest upright rectangle containing all the rocks has the least "
                "possible area?")

    def _state_text(self) -> str:
        return ", ".join(f"{a}({x},{y})" for a, (x, y) in zip(self.labels, self.pts))

    def _parse_answer(self, text: str):
        return parse_letter_set(text, len(self.labels))

    def _check(self, answer) -> bool:
        index = sum(1 << i for i in answer)
        return int(self.areas[index]) == self.best

    def _format(self, answer) -> str:
        return ", ".join(self.labels[i] for i in sorted(answer)) if answer else "none"

    def _solve(self):
        k = int(np.argmin(self.areas))
        if bin(k).count("1") > len(self.labels) // 2:  # the smaller of an optimal set and its complement
            k ^= (1 << len(self.labels)) - 1
        return frozenset(i for i in range(len(self.labels)) if k >> i & 1)

    def _near_misses(self, rng: np.random.Generator) -> list:
        n, best = len(self.labels), set(self._solution)
        out = [frozenset(), frozenset(i for i in range(n) if self.pts[i][1] > self.pts[i][0])]
        out += [frozenset(best ^ {i}) for i in rng.permutation(n)]
        out += [frozenset(int(i) for i in range(n) if k >> i & 1) for k in rng.permutation(2 ** n)]
        return out


SPECS = (
    TaskSpec(name="RockGarden", entry_point=RockGarden, max_episode_steps=1,
             tags=("geometry", "reflection", "optimisation")),
)
