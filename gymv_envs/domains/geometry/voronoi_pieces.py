"""Voronoi pieces: a square cut into the regions nearest to each of some points; count them or name a piece's neighbours."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.env import check_choice
from gymv_envs.domains.geometry._common import LETTERS, parse_letter_set
from gymv_envs.domains.geometry._plot import GeometryQuestion, distinct_points

QUESTIONS = ("count", "adjacency")
SITES = {"count": {0: (5, 7), 1: (8, 10), 2: (11, 14)}, "adjacency": {0: (5, 6), 1: (7, 9), 2: (10, 12)}}
GRID = (0, 12)
EDGE = (50, 60, 90)
SITE = (200, 40, 40)
MIN_RIDGE = {"count": 0.3, "adjacency": 0.4}  # shorter shared borders are redrawn: every border shows


def voronoi_cells(sites: np.ndarray, lo: float, hi: float,
                  min_ridge: float = 0.0) -> tuple[list[np.ndarray], dict[frozenset, np.ndarray]] | None:
    """Each site's region inside the square [lo, hi]^2 (a convex polygon, corners in order) and every
    border two regions share (as a segment ``(x0, y0, x1, y1)``), by scipy.spatial.Voronoi on the sites
    and their mirror images in the four sides (which makes every region bounded and cut exactly at
    the square's sides). With ``min_ridge``: None when some border is shorter than that."""
    from scipy.spatial import Voronoi

    s = np.asarray(sites, dtype=float)
    n = len(s)
    mirrored = [s, np.stack([2 * lo - s[:, 0], s[:, 1]], 1), np.stack([2 * hi - s[:, 0], s[:, 1]], 1),
                np.stack([s[:, 0], 2 * lo - s[:, 1]], 1), np.stack([s[:, 0], 2 * hi - s[:, 1]], 1)]
    vor = Voronoi(np.concatenate(mirrored))
    pts = vor.ridge_points
    inner = np.flatnonzero((pts[:, 0] < n) & (pts[:, 1] < n))
    ridge = np.array([vor.ridge_vertices[i] for i in inner.tolist()], dtype=np.intp).reshape(-1, 2)
    segs = np.hstack([vor.vertices[ridge[:, 0]], vor.vertices[ridge[:, 1]]])
    if min_ridge and not (np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1]) >= min_ridge).all():
        return None
    borders = {frozenset(p): seg for p, seg in zip(pts[inner].tolist(), segs)}
    cells = [vor.vertices[vor.regions[vor.point_region[i]]] for i in range(n)]
    return cells, borders


@functools.lru_cache(maxsize=32)
def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(n, 1)


def border_lengths(sites: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """The length of the border every two regions of `voronoi_cells` share (0 where they share none),
    computed directly: the part of each pair's bisector inside the square that is closer to the pair
    than to every other site. Sub-micro-unit rounding aside it is what scipy's diagram gives, so it
    can turn down a layout before scipy is asked (what it turns down, scipy would have too)."""
    s = np.asarray(sites, dtype=float)
    i, j = _pairs(len(s))
    mid = (s[i] + s[j]) / 2
    d = s[j] - s[i]
    d = np.stack([-d[:, 1], d[:, 0]], 1)  # along the bisector
    # p(t) = mid + t d is no closer to site k than to site i where a t <= b
    a = 2 * (d @ s.T - (s[i] * d).sum(axis=1)[:, None])
    sq = (s * s).sum(axis=1)
    b = sq[None, :] - sq[i][:, None] - 2 * (mid @ s.T - (s[i] * mid).sum(axis=1)[:, None])
    rows = np.arange(len(i))
    a[rows, i], b[rows, i] = 0.0, 1.0
    a[rows, j], b[rows, j] = 0.0, 1.0
    # the square's sides: lo <= mid + t d <= hi on both axes
    a = np.concatenate([a, d, -d], axis=1)
    b = np.concatenate([b, hi - mid, mid - lo], axis=1)
    ratio = np.divide(b, a, out=np.zeros_like(b), where=a != 0)
    t_hi = np.where(a > 0, ratio, np.inf).min(axis=1)
    t_lo = np.where(a < 0, ratio, -np.inf).max(axis=1)
    open_ = ~((a == 0) & (b < 0)).any(axis=1)
    return np.where(open_, np.maximum(t_hi - t_lo, 0.0), 0.0) * np.hypot(d[:, 0], d[:, 1])


def in_order(poly: np.ndarray) -> np.ndarray:
    """A convex polygon's corners sorted by angle around their mean."""
    c = poly.mean(axis=0)
    return poly[np.argsort(np.arctan2(poly[:, 1] - c[1], poly[:, 0] - c[0]))]


def all_in_order(polys: list[np.ndarray]) -> list[np.ndarray]:
    """`in_order` of each polygon, in a few calls for all of them (the same means, angles and orders:
    each mean is the same sum of the same corners, each angle the same arctan2)."""
    sizes = [len(p) for p in polys]
    pts = np.concatenate(polys)
    starts = np.cumsum([0] + sizes[:-1])
    centre = np.repeat(np.add.reduceat(pts, starts, axis=0) / np.array(sizes, dtype=float)[:, None], sizes, axis=0)
    angle = np.arctan2(pts[:, 1] - centre[:, 1], pts[:, 0] - centre[:, 0]).tolist()
    out = []
    for p, at, k in zip(polys, starts.tolist(), sizes):
        a = angle[at:at + k]
        out.append(p[sorted(range(k), key=a.__getitem__)])
    return out


class VoronoiPieces(GeometryQuestion):
    """A square cut into Voronoi regions: count the pieces, or name the pieces bordering one of them.

    ## Description
    Some points (sites) are chosen in a square on a grid, and the square is cut into pieces: each
    piece is the part of the square closer to its site than to any other site (a Voronoi
    diagram, computed with scipy.spatial.Voronoi on the sites and their mirror images in the
    square's sides).

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
    Random sites near grid points of [1, 11]^2 (at least 2 apart, then moved by up to 0.35), redrawn
    while some border is shorter than the minimum.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"count"``, ``"adjacency"``), ``difficulty`` (count: 5-7, 8-10, 11-14 pieces;
    adjacency: 5-6, 7-9, 10-12), ``answer_format``, ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
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
            self.sites = grid + rng.uniform(-0.35, 0.35, grid.shape)  # off the grid: no four sites on a circle
            length = border_lengths(self.sites, GRID[0], GRID[1])
            if ((length > 1e-6) & (length < MIN_RIDGE[self.question] - 1e-6)).any():
                continue  # a border clearly too short: scipy's diagram would say so too, at 100x the cost
            found = voronoi_cells(self.sites, GRID[0], GRID[1], MIN_RIDGE[self.question])
            if found is None:  # some border is too short
                continue
            self.cells, borders = found
            if not self._corner_touch(borders):
                break
        self.labels = list(LETTERS[:n])
        self.ridges = np.array(list(borders.values())).reshape(-1, 4)
        around: list[list[int]] = [[] for _ in range(n)]
        for a, b in (tuple(k) for k in borders):
            around[a].append(b)
            around[b].append(a)
        self.neighbours = [frozenset(x) for x in around]
        self.target = int(rng.integers(n))

    def _corner_touch(self, borders) -> bool:
        """Whether two regions without a shared border still meet at a corner (four sites on a circle)."""
        meet: dict[tuple[float, float], set[int]] = {}  # each corner, rounded, and the regions that have it
        for i, c in enumerate(self.cells):
            for x, y in c.tolist():
                meet.setdefault((round(x, 6), round(y, 6)), set()).add(i)
        return any(frozenset((i, j)) not in borders for at in meet.values() if len(at) > 1
                   for i in at for j in at if i < j)

    def _draw(self) -> np.ndarray:
        p = self.plot(GRID[0], GRID[1], GRID[0], GRID[1])
        p.lines(self.ridges, EDGE, width=p.width * 1.6)
        square = [(GRID[0], GRID[0]), (GRID[1], GRID[0]), (GRID[1], GRID[1]), (GRID[0], GRID[1])]
        p.polylines([square], EDGE, closed=True, width=p.width * 1.6, cached=True)  # the same every level
        if self.question == "adjacency":
            fills = [(255, 225, 140)]
            cell = all_in_order([self.cells[self.target]])[0]  # (the one piece drawn: its corners in order)
            p.fill_polygons([cell], fills)
            p.polyline(cell, EDGE, closed=True, width=p.width * 1.6)
            p.points(self.sites, self.labels, color=SITE)
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
    TaskSpec(name="VoronoiCount", entry_point=VoronoiPieces, max_episode_steps=1, kwargs={"question": "count"},
             tags=("geometry", "voronoi", "counting")),
    TaskSpec(name="VoronoiAdjacency", entry_point=VoronoiPieces, max_episode_steps=1,
             kwargs={"question": "adjacency"}, tags=("geometry", "voronoi", "adjacency")),
)
