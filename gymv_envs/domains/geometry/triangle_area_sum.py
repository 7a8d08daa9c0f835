"""Sum of triangle areas: the total area of the triangles drawn on a grid, exactly."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.geometry._common import fmt_exact, parse_exact
from gymv_envs.domains.geometry._plot import FILLS, GeometryQuestion

COUNTS = {0: 2, 1: 3, 2: 4}
GRID = (0, 10)
OUTLINE = (60, 60, 80)


def area2(t) -> int:
    """Twice the area of a triangle with integer corners (the cross product)."""
    (ax, ay), (bx, by), (cx, cy) = t
    return abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))


class TriangleAreaSum(GeometryQuestion):
    """Add up the areas of the triangles drawn on a grid.

    ## Description
    A few filled triangles with corners on grid points are drawn, each in its own part of the
    grid (halves or quadrants). The answer is the sum of their areas in grid squares, exactly: an integer or a half
    (``17.5`` or ``35/2``).

    ## Action Space
    ``answer_format="open"``: `Text`, one number. ``"mcq"``: `Discrete(k)`; wrong options are the
    sum of the doubled areas, the sum off by a half or one, and the area of the largest triangle.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid from 0 to 10 with the triangles.

    ## Rewards
    1.0 for the exact total area, else 0.0.

    ## Starting State
    Random triangles of area at least 1.5, one in each of ``k`` of the grid's halves (2 triangles)
    or quadrants, at least one with a half in its area.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 2 triangles, 1: 3, 2: 4), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: the same levels on a grid of whole pixels per unit (45 px at 512, not 45.4: the grid 4 px
      smaller), the outlines with round joins (no square-cut corners), filled and outlined in one
      step (`Plot.outlined`).
    """

    answer_hint = "the total area, one number (a half as .5 or as a fraction)"

    def _generate(self, rng: np.random.Generator) -> None:
        k = COUNTS[self.difficulty]
        regions = [(0, 0, 5, 10), (5, 0, 10, 10)] if k == 2 else [(0, 0, 5, 5), (5, 0, 10, 5), (0, 5, 5, 10), (5, 5, 10, 10)]
        with ScalarDraws(rng) as draws:  # the draws of `rng.integers(lo, hi, 3)`, one by one at Python speed
            while True:
                tris = []
                for i in draws.permutation(len(regions))[:k]:  # one triangle per region: none overlap
                    x0, y0, x1, y1 = regions[i]
                    while True:
                        xs = [draws.integers(x0, x1 + 1) for _ in range(3)]
                        t = list(zip(xs, [draws.integers(y0, y1 + 1) for _ in range(3)]))
                        if area2(t) >= 3:
                            break
                    tris.append(t)
                doubled = [area2(t) for t in tris]
                if any(v % 2 for v in doubled):
                    break
        self.tris = [np.array(t, dtype=np.int64) for t in tris]
        self.total = Fraction(sum(doubled), 2)
        self.doubled = doubled

    def _draw(self) -> np.ndarray:
        p = self.plot(GRID[0], GRID[1], GRID[0], GRID[1], whole=True)
        p.outlined(self.tris, FILLS[: len(self.tris)], OUTLINE)
        return p.frame()

    def _task_text(self) -> str:
        return ("The image shows triangles drawn on a grid; every corner is a grid point. What is the sum of the "
                "areas of the triangles (in grid squares)?")

    def _state_text(self) -> str:
        return "; ".join(" ".join(f"({x},{y})" for x, y in t.tolist()) for t in self.tris)

    def _parse_answer(self, text: str):
        return parse_exact(text)

    def _check(self, answer) -> bool:
        return answer == self.total

    def _format(self, answer) -> str:
        return fmt_exact(answer)

    def _solve(self):
        return self.total

    def _near_misses(self, rng: np.random.Generator) -> list:
        t = self.total
        half = Fraction(1, 2)
        return [2 * t, t + half, t - half, t + 1, t - 1, Fraction(max(self.doubled), 2), t + 2, t - 2]


SPECS = (
    TaskSpec(name="TriangleAreaSum", version=1, entry_point=TriangleAreaSum, max_episode_steps=1,
             tags=("geometry", "area", "arithmetic")),
)
