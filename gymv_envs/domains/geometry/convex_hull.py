"""Convex hull: the corner points of the smallest convex polygon around a set of plotted points, in order."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.geometry._plot import GeometryQuestion, distinct_points

SIZES = {0: 7, 1: 10, 2: 14}
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
GRID = (0, 10)


def hull(points: np.ndarray) -> list[int]:
    """Indices of the hull's corners counter-clockwise (monotone chain in exact integer arithmetic;
    points on an edge between two corners are not corners)."""
    order = sorted(range(len(points)), key=lambda i: (int(points[i][0]), int(points[i][1])))

    def cross(o, a, b) -> int:
        (ox, oy), (ax, ay), (bx, by) = points[o], points[a], points[b]
        return int((ax - ox) * (by - oy) - (ay - oy) * (bx - ox))

    lower: list[int] = []
    for i in order:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], i) <= 0:
            lower.pop()
        lower.append(i)
    upper: list[int] = []
    for i in reversed(order):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], i) <= 0:
            upper.pop()
        upper.append(i)
    return lower[:-1] + upper[:-1]


def same_cycle(a, b) -> bool:
    """Whether sequence ``a`` is cycle ``b`` from any start, in either direction."""
    if len(a) != len(b) or set(a) != set(b) or not a:
        return False
    k = list(b).index(a[0])
    fwd = list(b[k:]) + list(b[:k])
    back = [fwd[0]] + fwd[1:][::-1]
    return list(a) in (fwd, back)


class ConvexHull(GeometryQuestion):
    """Name the corners of the convex hull of plotted points, in order around it.

    ## Description
    Lettered points with integer coordinates are plotted on a grid. Their convex hull is the
    smallest convex polygon containing them all. The answer is the hull's corner points in order
    around the hull; any starting corner and either direction is accepted. Points lying on an edge
    between two corners are not corners. The hull is computed exactly (monotone chain, integer
    cross products); scipy.spatial.ConvexHull agrees (tested).

    ## Action Space
    ``answer_format="open"``: `Text`, the corner letters in order (``A D F C``). ``"mcq"``:
    `Discrete(k)`; wrong options add a point on an edge or inside, drop a corner, swap two
    neighbouring corners, or list the corners sorted alphabetically.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid with the labelled points.

    ## Rewards
    1.0 for the hull's corners in cyclic order (either direction), else 0.0.

    ## Starting State
    Distinct random integer points in [1, 9] x [1, 9] (on a grid from 0 to 10), at least 1.5 apart.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 7 points, 1: 10, 2: 14), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the hull's corner letters in order around it, separated by spaces"

    def _generate(self, rng: np.random.Generator) -> None:
        n = SIZES[self.difficulty]
        self.pts = distinct_points(rng, n, GRID[0] + 1, GRID[1] - 1, min_gap=1.5)
        self.labels = list(LETTERS[:n])
        self.corners = hull(self.pts)

    def _draw(self) -> np.ndarray:
        p = self.plot(GRID[0], GRID[1], GRID[0], GRID[1])
        return p.points(self.pts, self.labels).frame()

    def _task_text(self) -> str:
        return ("The image shows lettered points on a grid. Give the corners of their convex hull (the smallest "
                "convex polygon that contains all the points) in order around the hull. Points on an edge between "
                "two corners are not corners.")

    def _state_text(self) -> str:
        return ", ".join(f"{a}({x},{y})" for a, (x, y) in zip(self.labels, self.pts))

    def _parse_answer(self, text: str):
        t = text.strip().strip("[]().").upper()
        if not t or len(t) > 400 or not re.fullmatch(r"[A-Z](?:[\s,;\->→]*[A-Z])*", t):
            return None
        seq = tuple(LETTERS.index(c) for c in re.findall(r"[A-Z]", t))
        return seq if all(i < len(self.labels) for i in seq) else None

    def _check(self, answer) -> bool:
        return same_cycle(answer, self.corners)

    def _format(self, answer) -> str:
        return " ".join(self.labels[i] for i in answer)

    def _solve(self):
        return tuple(self.corners)

    def _near_misses(self, rng: np.random.Generator) -> list:
        c, n = list(self.corners), len(self.labels)
        out = [tuple(sorted(c))]
        for i in rng.permutation(len(c)):
            out.append(tuple(c[:i] + c[i + 1:]))
            if i + 1 < len(c):
                b = c[:]
                b[i], b[i + 1] = b[i + 1], b[i]
                out.append(tuple(b))
        others = [v for v in range(n) if v not in c]
        dist = [min(np.hypot(*(self.pts[v] - self.pts[u])) for u in c) for v in others]
        for v in [others[int(k)] for k in np.argsort(dist)][:3]:  # an inner point next to the hull
            k = int(np.argmin([np.hypot(*(self.pts[v] - self.pts[u])) for u in c]))
            out.append(tuple(c[:k + 1] + [v] + c[k + 1:]))
        return out


SPECS = (
    TaskSpec(name="ConvexHull", entry_point=ConvexHull, max_episode_steps=1,
             tags=("geometry", "convex-hull", "points")),
)
