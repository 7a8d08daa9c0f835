"""Largest island: the area of the biggest of the polygon islands drawn on a grid, exactly."""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.geometry._common import LETTERS, fmt_exact, parse_exact, shoelace2
from gymv_envs.domains.geometry._plot import GeometryQuestion, centres_px

COUNTS = {0: 2, 1: 3, 2: 4}
CORNERS = {0: (4, 5), 1: (5, 6), 2: (6, 7)}
GRID = (0, 12)
LAND = (196, 226, 160)
SHORE = (70, 110, 50)


@functools.lru_cache(maxsize=1024)
def _sector(dx: float, dy: float, k: int) -> int:
    """Which of k equal angular sectors (from the -x direction, counter-clockwise) holds (dx, dy)."""
    return int((np.arctan2(dy, dx) + np.pi) / (2 * np.pi) * k) % k


@functools.lru_cache(maxsize=256)
def _corner_spots(x0: int, y0: int, x1: int, y1: int, k: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per sector s of `star_polygon`'s box, the grid points of the box it accepts as corner s (in
    sector s and at least 1 from the centre), in row-major order. The same tests, once per box."""
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    spots: list[list] = [[] for _ in range(k)]
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            if (x - cx) ** 2 + (y - cy) ** 2 >= 1:
                spots[_sector(x - cx, y - cy, k)].append((x, y))
    if not all(spots):
        raise ValueError(f"star_polygon: some of {k} sectors of the box {(x0, y0, x1, y1)} hold no grid point")
    return tuple(tuple(s) for s in spots)


def star_polygon(rng: np.random.Generator | ScalarDraws, x0: int, y0: int, x1: int, y1: int, k: int) -> np.ndarray:
    """A simple polygon with k integer corners in the box, star-shaped around the box's centre
    (corners sorted by angle, each a random grid point of its own sector, so the boundary never
    crosses itself); drawn again until its area is at least 3."""
    return _star_polygon(rng, x0, y0, x1, y1, k)[0]


def _star_polygon(rng: np.random.Generator | ScalarDraws, x0: int, y0: int, x1: int, y1: int,
                  k: int) -> tuple[np.ndarray, int]:
    """`star_polygon` and twice its area."""
    spots = _corner_spots(x0, y0, x1, y1, k)
    integers = rng.integers
    while True:
        pts = [ok[integers(len(ok))] for ok in spots]
        area2 = shoelace2(pts)
        if area2 >= 6:
            return np.array(pts, dtype=np.int64), area2


class LargestIsland(GeometryQuestion):
    """Give the area of the largest island drawn on a grid.

    ## Description
    A few lettered islands are drawn on a grid of sea: each is a simple polygon with corners on
    grid points. The answer is the area (in grid squares) of the largest island, exactly: an
    integer or a half (``17.5`` or ``35/2``), by the shoelace formula.

    ## Action Space
    ``answer_format="open"``: `Text`, one number. ``"mcq"``: `Discrete(k)`; wrong options are the
    second-largest island's area, the area of the largest island's bounding rectangle, the total
    land area, and the answer off by a half or one.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid from 0 to 12 with the islands.

    ## Rewards
    1.0 for the exact area, else 0.0.

    ## Starting State
    Random star-shaped polygons, one in each of ``k`` separate 6x6 blocks of the grid, with
    different areas.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 2 islands of 4-5 corners, 1: 3 of 5-6, 2: 4 of 6-7), ``answer_format``,
    ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: each corner is drawn straight from its sector's grid points (one draw, not random points of
      the box until one falls in the sector: the same distribution, other levels), and the labels'
      halos and letters are blended in one pass (`Plot.stamped_labels`).
    - v2: the same levels on a grid of whole pixels per unit (37 px at 512, not 37.8: the grid 10 px
      smaller), the outlines with round joins (no square-cut corners), filled and outlined in one
      step (`Plot.outlined`).
    """

    answer_hint = "the largest island's area, one number (a half as .5 or as a fraction)"

    def _generate(self, rng: np.random.Generator) -> None:
        k = COUNTS[self.difficulty]
        lo, hi = CORNERS[self.difficulty]
        blocks = [(0, 0), (6, 0), (0, 6), (6, 6)]
        while True:
            order = rng.permutation(4)[:k]
            with ScalarDraws(rng) as d:  # the same draws as `rng.integers` one by one, at Python speed
                drawn = [_star_polygon(d, bx + 1, by + 1, bx + 5, by + 5, d.integers(lo, hi + 1))
                         for bx, by in (blocks[int(i)] for i in order)]
            self.islands = [p for p, _ in drawn]
            self.areas2 = [a for _, a in drawn]
            if len(set(self.areas2)) == k:
                break
        self.labels = list(LETTERS[:k])
        self.best = Fraction(max(self.areas2), 2)

    def _draw(self) -> np.ndarray:
        p = self.plot(GRID[0], GRID[1], GRID[0], GRID[1], whole=True)
        p.outlined(self.islands, [LAND] * len(self.islands), SHORE)
        p.stamped_labels(centres_px(p.ax, self.islands), self.labels, SHORE)
        return p.frame()

    def _task_text(self) -> str:
        return ("The image shows lettered islands on a grid; the corners of every island are grid points. What is "
                "the area (in grid squares) of the largest island?")

    def _state_text(self) -> str:
        return "; ".join(f"{a}: " + " ".join(f"({x},{y})" for x, y in poly.tolist()) for a, poly in zip(self.labels, self.islands))

    def _parse_answer(self, text: str):
        return parse_exact(text)

    def _check(self, answer) -> bool:
        return answer == self.best

    def _format(self, answer) -> str:
        return fmt_exact(answer)

    def _solve(self):
        return self.best

    def _near_misses(self, rng: np.random.Generator) -> list:
        a = sorted(self.areas2)
        big = self.islands[self.areas2.index(a[-1])]
        box = (big[:, 0].max() - big[:, 0].min()) * (big[:, 1].max() - big[:, 1].min())
        half = Fraction(1, 2)
        return [Fraction(a[-2], 2), Fraction(int(box)), Fraction(sum(a), 2), self.best + half, self.best - half,
                self.best + 1, self.best - 1, 2 * self.best]


SPECS = (
    TaskSpec(name="LargestIsland", version=2, entry_point=LargestIsland, max_episode_steps=1,
             tags=("geometry", "area", "polygon")),
)
