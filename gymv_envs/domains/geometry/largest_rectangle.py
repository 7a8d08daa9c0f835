"""Largest rectangle among points: the four plotted points that are the corners of the biggest rectangle."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.core.vector import point_pairs
from gymv_envs.domains.geometry._common import LETTERS, parse_letter_set
from gymv_envs.domains.geometry._plot import GeometryQuestion

LEVELS = {0: (2, 2), 1: (3, 2), 2: (4, 3)}  # planted rectangles, extra points
GRID = (0, 12)


def rectangles(pts: np.ndarray) -> list[tuple[int, frozenset[int]]]:
    """Every rectangle (any orientation) with four of the points as corners, as (area, corners),
    largest first. Two pairs of points are its diagonals when they share midpoint and length; all
    in integers. The pairs are keyed in one numpy pass (coordinates in [0, 1024)); the few keys that
    two pairs share are expanded in Python, in the order of a loop over the pairs (i < j)."""
    pts = np.asarray(pts, dtype=np.int64).reshape(-1, 2)
    i, j = point_pairs(len(pts))
    a, b = pts[i], pts[j]
    s, d = a + b, a - b
    key = (s[:, 0] * 2048 + s[:, 1]) * 4_194_304 + d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]
    order = np.argsort(key, kind="stable")  # pairs of one key together, in the loop's order
    k = key[order]
    same = np.flatnonzero(k[1:] == k[:-1])
    if not len(same):
        return []
    xy, ii, jj, at = pts.tolist(), i.tolist(), j.tolist(), order.tolist()
    groups: list[list[int]] = []  # the pairs of each shared key
    for n in same.tolist():  # order[n] and order[n + 1] share a key
        if groups and groups[-1][-1] == at[n]:
            groups[-1].append(at[n + 1])
        else:
            groups.append([at[n], at[n + 1]])
    groups.sort(key=lambda g: g[0])  # in the order the loop meets each key first
    out = []
    for g in groups:
        pairs = [(ii[p], jj[p]) for p in g]
        for m, (pa, pb) in enumerate(pairs):
            for pc, pd in pairs[m + 1:]:
                (ax, ay), (bx, by), (cx, cy) = xy[pa], xy[pb], xy[pc]
                area = abs((ax - cx) * (by - cy) - (ay - cy) * (bx - cx))  # sides CA and CB meet at corner C
                out.append((area, frozenset((pa, pb, pc, pd))))
    return sorted(out, key=lambda t: -t[0])


class LargestRectangle(GeometryQuestion):
    """Name the four plotted points that form the largest rectangle.

    ## Description
    Lettered points with integer coordinates are plotted on a grid. Some quadruples of them are
    the corners of a rectangle, upright or tilted. The answer is the four corners of a rectangle of
    the largest area (any order; any largest one). Rectangles are found exactly: two pairs of points
    with the same midpoint and the same length are the diagonals of one.

    ## Action Space
    ``answer_format="open"``: `Text`, four letters. ``"mcq"``: `Discrete(k)`; wrong options are the
    smaller rectangles, the largest one with a corner swapped for a near point, and random
    quadruples.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid with the labelled points.

    ## Rewards
    1.0 for four points that are the corners of a rectangle of the largest area, else 0.0.

    ## Starting State
    A few rectangles (some tilted, with integer side vectors) are planted among a few random points,
    with a unique largest area.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 2 rectangles and 2 more points, 1: 3 and 2, 2: 4 and 3), ``answer_format``,
    ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: each label's white halo and letters are blended with the dots in one pass (`Plot.labelled_points`):
      the same places, the rounding of the blend done once. The same levels.
    """

    answer_hint = "the four corner letters of a largest rectangle"

    def _generate(self, rng: np.random.Generator) -> None:
        k, extra = LEVELS[self.difficulty]
        lo, hi = GRID[0] + 1, GRID[1] - 1
        while True:
            with ScalarDraws(rng) as d:  # the same draws as `rng.integers` / `rng.random`, one by one at Python speed
                pts: set[tuple[int, int]] = set()
                for _ in range(k):
                    for _ in range(50):
                        a, b = d.integers(1, 5), d.integers(-2, 3)  # side vectors (a, b) and t(-b, a)
                        t = d.integers(1, 3) if b else d.integers(1, 4)
                        x, y = d.integers(lo, hi + 1), d.integers(lo, hi + 1)
                        quad = [(x, y), (x + a, y + b), (x + a - t * b, y + b + t * a), (x - t * b, y + t * a)]
                        if all(lo <= px <= hi and lo <= py <= hi for px, py in quad) and not pts & set(quad):
                            pts |= set(quad)
                            break
                while len(pts) < 4 * k + extra:
                    pts.add((d.integers(lo, hi + 1), d.integers(lo, hi + 1)))
                order = sorted(pts, key=lambda _: d.random())
            self.pts = np.array(order, dtype=np.int64)
            self.rects = rectangles(self.pts)
            if len(self.rects) >= 2 and self.rects[0][0] > self.rects[1][0]:
                break
        self.labels = list(LETTERS[: len(self.pts)])
        self.best = self.rects[0][0]

    def _draw(self) -> np.ndarray:
        return self.plot(GRID[0], GRID[1], GRID[0], GRID[1]).labelled_points(self.pts, self.labels).frame()

    def _task_text(self) -> str:
        return ("The image shows lettered points on a grid. Some groups of four points are the corners of a "
                "rectangle (possibly tilted). Which four points are the corners of the rectangle with the largest "
                "area?")

    def _state_text(self) -> str:
        return ", ".join(f"{a}({x},{y})" for a, (x, y) in zip(self.labels, self.pts.tolist()))

    def _parse_answer(self, text: str):
        got = parse_letter_set(text, len(self.labels))
        return got if got is not None and len(got) == 4 else None

    def _check(self, answer) -> bool:
        return any(c == answer and a == self.best for a, c in self.rects)

    def _format(self, answer) -> str:
        return ", ".join(self.labels[i] for i in sorted(answer))

    def _solve(self):
        return self.rects[0][1]

    def _near_misses(self, rng: np.random.Generator) -> list:
        out = [c for _, c in self.rects[1:]]
        best = sorted(self.rects[0][1])
        d = np.hypot(*(self.pts[:, None, :] - self.pts[None, :, :]).transpose(2, 0, 1))
        for i in best:
            for j in np.argsort(d[i])[1:4]:
                if int(j) not in best:
                    out.append(frozenset(best) - {i} | {int(j)})
        n = len(self.labels)
        out += [frozenset(int(i) for i in rng.permutation(n)[:4]) for _ in range(10)]
        return out


SPECS = (
    TaskSpec(name="LargestRectangle", version=1, entry_point=LargestRectangle, max_episode_steps=1,
             tags=("geometry", "rectangle", "points", "area")),
)
