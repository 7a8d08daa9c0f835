"""Smallest enclosing circle: the centre and radius of the smallest circle around plotted points."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.geometry._common import LETTERS, parse_numbers
from gymv_envs.domains.geometry._plot import GeometryQuestion, distinct_points

SIZES = {0: 4, 1: 6, 2: 9}
GRID = (0, 10)
TOL = 0.05


@functools.lru_cache(maxsize=16)
def _combos(n: int) -> tuple[np.ndarray, np.ndarray]:
    pairs = np.array(list(itertools.combinations(range(n), 2)), dtype=np.intp)
    triples = np.array(list(itertools.combinations(range(n), 3)), dtype=np.intp).reshape(-1, 3)
    return pairs, triples


def enclosing_circle(pts: np.ndarray) -> tuple[float, float, float]:
    """The smallest circle containing every point: the smallest of the circles on two points as a
    diameter or through three points that contains them all (every candidate tried at once)."""
    p = np.asarray(pts, dtype=float)
    pairs, triples = _combos(len(p))
    centres = [(p[pairs[:, 0]] + p[pairs[:, 1]]) / 2]
    if len(triples):
        a, b, c = p[triples[:, 0]], p[triples[:, 1]], p[triples[:, 2]]
        d = 2 * (a[:, 0] * (b[:, 1] - c[:, 1]) + b[:, 0] * (c[:, 1] - a[:, 1]) + c[:, 0] * (a[:, 1] - b[:, 1]))
        ok = np.abs(d) > 1e-9
        sa, sb, sc = (a ** 2).sum(1), (b ** 2).sum(1), (c ** 2).sum(1)
        ux = (sa * (b[:, 1] - c[:, 1]) + sb * (c[:, 1] - a[:, 1]) + sc * (a[:, 1] - b[:, 1]))[ok] / d[ok]
        uy = (sa * (c[:, 0] - b[:, 0]) + sb * (a[:, 0] - c[:, 0]) + sc * (b[:, 0] - a[:, 0]))[ok] / d[ok]
        centres.append(np.stack([ux, uy], 1))
    cen = np.concatenate(centres)
    reach = np.sqrt(((cen[:, None, :] - p[None, :, :]) ** 2).sum(-1)).max(axis=1)
    k = int(np.argmin(reach))
    return float(cen[k, 0]), float(cen[k, 1]), float(reach[k])


class SmallestCircle(GeometryQuestion):
    """Give the centre and radius of the smallest circle that contains every plotted point.

    ## Description
    Lettered points with integer coordinates are plotted on a grid. The answer is the centre
    ``(x, y)`` and radius ``r`` of the smallest circle containing all of them (on it or inside).
    Each of the three numbers is accepted within 0.05 of the exact value (the smallest of the
    circles through two or three of the points that encloses all of them).

    ## Action Space
    ``answer_format="open"``: `Text`, three numbers ``x, y, r`` (for example
    ``centre (3.5, 2.25), radius 4.1``; the last three numbers count). ``"mcq"``: `Discrete(k)`;
    wrong options are the circle around the points' centroid, around the bounding box's centre,
    the circle on the farthest pair as diameter (when it misses a point), and the right centre with
    a radius off by a half.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid with the labelled points.

    ## Rewards
    1.0 when x, y and r are each within 0.05 of the smallest enclosing circle's, else 0.0.

    ## Starting State
    Distinct random integer points in [1, 9] x [1, 9], at least 1.5 apart.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4 points, 1: 6, 2: 9), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the centre and radius as three numbers `x, y, r` (each within 0.05)"

    def _generate(self, rng: np.random.Generator) -> None:
        n = SIZES[self.difficulty]
        self.pts = distinct_points(rng, n, GRID[0] + 1, GRID[1] - 1, min_gap=1.5)
        self.labels = list(LETTERS[:n])
        self.circle = enclosing_circle(self.pts)

    def _draw(self) -> np.ndarray:
        return self.plot(GRID[0], GRID[1], GRID[0], GRID[1]).points(self.pts, self.labels).frame()

    def _task_text(self) -> str:
        return ("The image shows lettered points on a grid. Find the smallest circle that contains all the points "
                "(on the circle or inside it). Give its centre x, y and its radius r, each to within 0.05.")

    def _state_text(self) -> str:
        return ", ".join(f"{a}({x},{y})" for a, (x, y) in zip(self.labels, self.pts))

    def _parse_answer(self, text: str):
        nums = parse_numbers(text, 3)
        return tuple(nums) if nums else None

    def _check(self, answer) -> bool:
        return all(abs(a - b) <= TOL + 1e-9 for a, b in zip(answer, self.circle)) and answer[2] > 0

    def _format(self, answer) -> str:
        x, y, r = answer
        return f"centre ({x:.2f}, {y:.2f}), radius {r:.2f}"

    def _solve(self):
        return self.circle

    def _near_misses(self, rng: np.random.Generator) -> list:
        p = self.pts.astype(float)
        x, y, r = self.circle
        out = []
        for cx, cy in (p.mean(axis=0), (p.min(axis=0) + p.max(axis=0)) / 2):
            out.append((float(cx), float(cy), float(np.sqrt(((p - (cx, cy)) ** 2).sum(1)).max())))
        d = np.sqrt(((p[:, None] - p[None]) ** 2).sum(-1))
        i, j = np.unravel_index(int(np.argmax(d)), d.shape)
        mid = (p[i] + p[j]) / 2
        out.append((float(mid[0]), float(mid[1]), float(d[i, j] / 2)))
        out += [(x, y, r + 0.5), (x, y, r - 0.5), (x + 0.5, y, r), (x, y - 0.5, r), (x, y, r + 1)]
        return out


SPECS = (
    TaskSpec(name="SmallestCircle", entry_point=SmallestCircle, max_episode_steps=1,
             tags=("geometry", "circle", "points", "optimisation")),
)
