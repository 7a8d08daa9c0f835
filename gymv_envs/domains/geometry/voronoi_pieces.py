"""Voronoi pieces: a square cut into the regions nearest to each of some points; count them or name a piece's neighbours."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.env import check_choice
from gymv_envs.domains.geometry._common import LETTERS, parse_letter_set
from gymv_envs.domains.geometry._plot import GeometryQuestion, Plot, distinct_points

QUESTIONS = ("count", "adjacency")
SITES = {"count": {0: (5, 7), 1: (8, 10), 2: (11, 14)}, "adjacency": {0: (5, 6), 1: (7, 9), 2: (10, 12)}}
GRID = (0, 12)
EDGE = (50, 60, 90)
SITE = (200, 40, 40)
MIN_RIDGE = {"count": 0.3, "adjacency": 0.4}  # no shared border is shorter: every border shows
PULLS, PULL, PULL_LIMIT = 3, 0.2, 1.6  # a short border's two sites are pulled together this far, up to 3 times,
# while they are this far apart (else new sites are drawn)


def cut_ridges(sites: np.ndarray, lo: float, hi: float) -> list[tuple] | None:
    """The borders two regions of the sites' Voronoi diagram share inside the square [lo, hi]^2:
    scipy.spatial.Voronoi of the sites and four far points around the square (which bound every
    site's region and leave the diagram inside the square as it is), each ridge between two sites cut
    to the square. One ``(i, j, length, (x0, y0, x1, y1), u, v)`` per ridge that reaches the square
    (or comes within 1e-9 of it): ``u``, ``v`` are scipy's indices of the ridge's ends, or -1 for
    an end cut at a side. None if scipy leaves some site's region open. (A few dozen ridges: plain
    floats beat numpy calls here.)"""
    from scipy.spatial import Voronoi

    n = len(sites)
    mid, far = (lo + hi) / 2, 100.0 * (hi - lo)
    vor = Voronoi(np.concatenate([sites, [(mid, lo - far), (hi + far, mid), (mid, hi + far), (lo - far, mid)]]))
    corner = vor.vertices.tolist()
    out = []
    for (i, j), (u, v) in zip(vor.ridge_points.tolist(), vor.ridge_vertices):
        if i >= n or j >= n:
            continue
        if u < 0 or v < 0:
            return None
        (ax, ay), (bx, by) = corner[u], corner[v]
        dx, dy = bx - ax, by - ay
        if lo <= ax <= hi and lo <= ay <= hi and lo <= bx <= hi and lo <= by <= hi:  # inside: nothing to cut
            out.append((i, j, math.hypot(dx, dy), (ax, ay, bx, by), u, v))
            continue
        enter, leave = 0.0, 1.0  # the part of a + t (b - a), 0 <= t <= 1, inside the square
        for p, d in ((ax, dx), (ay, dy)):
            if d == 0:
                if not lo <= p <= hi:
                    enter = math.inf
                continue
            t0, t1 = (lo - p) / d, (hi - p) / d
            if t1 < t0:
                t0, t1 = t1, t0
            if t0 > enter:
                enter = t0
            if t1 < leave:
                leave = t1
        length = (leave - enter) * math.hypot(dx, dy)
        if length > -1e-9:  # (a ridge that misses the square: enter is past leave, or inf)
            if enter > 0:
                ax, ay, u = ax + enter * dx, ay + enter * dy, -1
            if leave < 1:
                bx, by, v = bx - (1 - leave) * dx, by - (1 - leave) * dy, -1
            out.append((i, j, length, (ax, ay, bx, by), u, v))
    return out


def settle(sites: np.ndarray, least: float) -> list[tuple] | None:
    """The borders of `cut_ridges` once none is shorter than ``least``: while some are, the two sites
    of each short border are pulled together by `PULL` (which moves both its ends outwards) and the
    diagram is made again, up to `PULLS` times (``sites`` moves in place). None if it does not
    settle, or a pair to pull is closer than `PULL_LIMIT`."""
    for _ in range(PULLS + 1):
        cut = cut_ridges(sites, GRID[0], GRID[1])
        if cut is None:
            return None
        short = [(i, j) for i, j, length, *_ in cut if length < least]
        if not short:
            return cut
        i, j = np.array(short).T
        step = sites[j] - sites[i]
        dist = np.hypot(step[:, 0], step[:, 1])
        if (dist < PULL_LIMIT).any():
            return None
        step *= (PULL / dist)[:, None]
        np.add.at(sites, i, step)
        np.add.at(sites, j, -step)
    return None


def meet_along_borders(cut: list[tuple]) -> bool:
    """Whether regions that meet at all share a border, given the borders of `cut_ridges`: each
    corner of the diagram inside the square ends exactly three borders, and no two borders end at
    one point of a side (the piece between would be a point). A corner of four regions (four sites
    on a circle, which scipy gives as one corner) fails, as does a rounding doubt on a side (ends
    compared to 6 decimals)."""
    corners = Counter(k for *_, u, v in cut for k in (u, v) if k >= 0)
    if any(c != 3 for c in corners.values()):
        return False
    sides = [(round(x, 6), round(y, 6)) for *_, (x0, y0, x1, y1), u, v in cut
             for x, y, k in ((x0, y0, u), (x1, y1, v)) if k < 0]
    return len(set(sides)) == len(sides)


def in_order(poly: np.ndarray) -> np.ndarray:
    """A convex polygon's corners sorted by angle around their mean."""
    c = poly.mean(axis=0)
    return poly[np.argsort(np.arctan2(poly[:, 1] - c[1], poly[:, 0] - c[0]))]


def _square(p: Plot) -> None:
    """The square's outline: the same every level, so it is drawn once into the cached grid."""
    lo, hi = GRID
    p.polyline([(lo, lo), (hi, lo), (hi, hi), (lo, hi)], EDGE, closed=True, width=p.width * 1.6)


def _inside_square(p: Plot) -> tuple[int, int, int, int]:
    """The pixels (x0, y0, x1, y1) a fill may cover without eating into the square's outline: those
    whose centres lie past the outline's fully covered core (`vector.Layer.lines`: half its width,
    to the quarter pixel, less half a pixel)."""
    (xl, xr), (yt, yb) = p.ax.px([GRID[0], GRID[1]], [GRID[1], GRID[0]])
    core = round(p.width * 1.6 / 2 * 4) / 4 - 0.5
    return (int(np.floor(xl + core - 0.5)) + 1, int(np.floor(yt + core - 0.5)) + 1,
            int(np.ceil(xr - core - 0.5)), int(np.ceil(yb - core - 0.5)))


class VoronoiPieces(GeometryQuestion):
    """A square cut into Voronoi regions: count the pieces, or name the pieces bordering one of them.

    ## Description
    Some points (sites) are chosen in a square on a grid, and the square is cut into pieces: each
    piece is the part of the square closer to its site than to any other site (a Voronoi
    diagram, computed with scipy.spatial.Voronoi on the sites and four far points around the
    square, each border cut to the square).

    - ``question="count"``: only the cuts are drawn; the answer is the number of pieces.
    - ``question="adjacency"``: the sites are drawn and lettered; the instruction names one piece;
      the answer is the set of pieces that share a border (a stretch of line, not just a corner)
      with it.

    Every shared border is at least 0.4 grid units long (0.3 for counting): levels where regions
    would meet at a single point or along a sliver of border are redrawn.

    ## Action Space
    ``answer_format="open"``: `Text`, an integer (count) or letters (adjacency). ``"mcq"``:
    `Discrete(k)`; wrong options are counts off by one or two, or the neighbour set with one piece
    added (a nearby site) or removed.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid from 0 to 12 with the cut square.

    ## Rewards
    1.0 for the exact count or exactly the neighbouring pieces, else 0.0.

    ## Starting State
    Random sites near grid points of [1, 11]^2 (at least 2 apart, then moved by up to 0.35). While
    some border is shorter than the minimum, its two sites are pulled 0.2 towards each other (up to
    3 times, while they are at least 1.6 apart); else the sites are redrawn.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"count"``, ``"adjacency"``), ``difficulty`` (count: 5-7, 8-10, 11-14 pieces;
    adjacency: 5-6, 7-9, 10-12), ``answer_format``, ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: a short border's two sites are pulled together instead of the whole level being redrawn
      (about 2 diagrams a level at difficulty 2, 3.4 before), scipy's diagram is made of the sites
      and four far points (not 5x the sites), the square's outline is cached and the shaded piece is
      filled first, under the borders; labels keep their places, each one's halo and letters
      blended in one pass with the dots. The same kind of levels and pictures.
    """

    extras = ("graphs",)

    questions = QUESTIONS

    def __init__(self, question: str = "count", **kwargs) -> None:
        self.question = check_choice("question", question, QUESTIONS)
        super().__init__(**kwargs)

    @property
    def answer_hint(self) -> str:  # type: ignore[override]
        return ("the number of pieces, one integer" if self.question == "count"
                else "the letters of the neighbouring pieces, separated by commas")

    def _generate(self, rng: np.random.Generator) -> None:
        lo, hi = SITES[self.question][self.difficulty]
        n = int(rng.integers(lo, hi + 1))
        while True:
            grid = distinct_points(rng, n, GRID[0] + 1, GRID[1] - 1, min_gap=2.0)
            sites = grid + rng.uniform(-0.35, 0.35, grid.shape)  # off the grid: no four sites on a circle
            cut = settle(sites, MIN_RIDGE[self.question])
            if cut is not None and meet_along_borders(cut):
                break
        self.sites = sites
        self.labels = list(LETTERS[:n])
        self.ridges = np.array([seg for *_, seg, _, _ in cut])
        around: list[set[int]] = [set() for _ in range(n)]
        for i, j, *_ in cut:
            around[i].add(j)
            around[j].add(i)
        self.neighbours = [frozenset(x) for x in around]
        self.target = t = int(rng.integers(n))
        if self.question == "adjacency":  # the target's piece: the ends of its borders and the square's corners in it
            corners = np.array([(GRID[0], GRID[0]), (GRID[1], GRID[0]), (GRID[1], GRID[1]), (GRID[0], GRID[1])], float)
            nearest = ((corners[:, None, :] - sites[None]) ** 2).sum(-1).argmin(axis=1)
            ends = [seg for i, j, _, seg, _, _ in cut if t in (i, j)]
            self.cell = in_order(np.concatenate([np.reshape(ends, (-1, 2)), corners[nearest == t]]))

    def _draw(self) -> np.ndarray:
        p = self.plot(GRID[0], GRID[1], GRID[0], GRID[1], static=("voronoi square", _square))
        if self.question == "adjacency":  # the shaded piece first: the borders are drawn over its edges
            p.fill_fresh([self.cell], [(255, 225, 140)], clip=_inside_square(p))
        p.lines(self.ridges, EDGE, width=p.width * 1.6)
        if self.question == "adjacency":
            p.labelled_points(self.sites, self.labels, color=SITE)
        return p.frame()

    def _task_text(self) -> str:
        if self.question == "count":
            return ("The image shows a square on a grid cut into pieces by straight lines. How many pieces is the "
                    "square cut into?")
        return (f"The image shows a square cut into pieces, each holding one lettered point: a piece is the part "
                f"of the square closer to its point than to any other point. Which pieces share a border (a "
                f"stretch of line, not just a corner) with piece {self.labels[self.target]} (shaded)?")

    def _caption(self) -> list | None:
        return None if self.question == "count" else [f"Neighbours of piece {self.labels[self.target]}?"]

    def _state_text(self) -> str:
        return ", ".join(f"{a}({x:.2f},{y:.2f})" for a, (x, y) in zip(self.labels, self.sites.tolist()))

    def _parse_answer(self, text: str):
        if self.question == "count":
            from gymv_envs.domains.geometry._common import parse_exact

            got = parse_exact(text)
            return int(got) if got is not None and got.denominator == 1 else None
        return parse_letter_set(text, len(self.labels)) or None

    def _check(self, answer) -> bool:
        if self.question == "count":
            return answer == len(self.sites)
        return answer == self.neighbours[self.target]

    def _format(self, answer) -> str:
        if self.question == "count":
            return str(answer)
        return ", ".join(self.labels[i] for i in sorted(answer))

    def _solve(self):
        return len(self.sites) if self.question == "count" else self.neighbours[self.target]

    def _near_misses(self, rng: np.random.Generator) -> list:
        if self.question == "count":
            n = len(self.sites)
            return [n + 1, n - 1, n + 2, n - 2, n + 3]
        nb, t = set(self.neighbours[self.target]), self.target
        d = np.hypot(*(self.sites - self.sites[t]).T)
        near = [int(i) for i in np.argsort(d) if int(i) != t and int(i) not in nb]
        out = [frozenset(nb | {i}) for i in near[:3]]
        out += [frozenset(nb - {i}) for i in sorted(nb) if len(nb) > 1]
        out += [frozenset(nb - {i} | {j}) for i in sorted(nb) for j in near[:2]]
        return out


SPECS = (
    TaskSpec(name="VoronoiCount", version=1, entry_point=VoronoiPieces, max_episode_steps=1, kwargs={"question": "count"},
             tags=("geometry", "voronoi", "counting")),
    TaskSpec(name="VoronoiAdjacency", version=1, entry_point=VoronoiPieces, max_episode_steps=1,
             kwargs={"question": "adjacency"}, tags=("geometry", "voronoi", "adjacency")),
)
