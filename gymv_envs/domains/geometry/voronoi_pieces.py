"""Voronoi pieces: a square cut into the regions nearest to each of some points; count them or name a piece's neighbours."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.geometry._common import LETTERS, parse_letter_set
from gymv_envs.domains.geometry._plot import GeometryQuestion, Plot, distinct_points
from gymv_envs.domains.geometry._voronoi import cut_ridges, fill_convex, piece, site_tiles, strokes

QUESTIONS = ("count", "adjacency")
SITES = {"count": {0: (5, 7), 1: (8, 10), 2: (11, 14)}, "adjacency": {0: (5, 6), 1: (7, 9), 2: (10, 12)}}
GRID = (0, 12)
EDGE = (50, 60, 90)
SITE = (200, 40, 40)
LABEL = (20, 20, 28)
SHADE = (255, 225, 140)
MIN_RIDGE = 0.4  # (adjacency) the shaded piece shares no border shorter than this: each of its borders shows


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
    diagram, computed with scipy.spatial.Voronoi on the sites, each border cut to the square).

    - ``question="count"``: only the cuts are drawn; the answer is the number of pieces.
    - ``question="adjacency"``: each site is drawn as a ringed disc with its letter; the instruction
      names one piece, shaded; the answer is the set of pieces that share a border (a stretch of
      line, not just a corner) with it.

    Every border of the shaded piece is at least 0.4 grid units long, so it shows as a stretch of
    line: the shaded piece is drawn from the sites whose borders all are (levels with none are
    redrawn). Other pieces may meet along shorter borders, or nearly at a point: that changes
    neither the count nor the shaded piece's neighbours.

    ## Action Space
    ``answer_format="open"``: `Text`, an integer (count) or letters (adjacency). ``"mcq"``:
    `Discrete(k)`; wrong options are counts off by one or two, or the neighbour set with one piece
    added (a nearby site) or removed.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid from 0 to 12 with the cut square.

    ## Rewards
    1.0 for the exact count or exactly the neighbouring pieces, else 0.0.

    ## Starting State
    Random sites near grid points of [1, 11]^2 (at least 2 apart, then moved by up to 0.35), one
    diagram a level.

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
    - v2: one diagram a level (v1 made about 2 at difficulty 2): no border is pulled longer; for
      adjacency the shaded piece is drawn among the sites whose borders are all at least 0.4 long
      (v1 wanted every border that long, 0.3 for counting). Each site is a white disc ringed in red
      with its letter inside (v1: a red dot, its letter beside it); the borders are drawn straight
      into the frame with a one-pixel anti-aliased rim each side, at the plot's line width (3.6 px
      at 512, v1 4.1 px; the square's outline keeps 4.1), the shaded piece filled through one PIL
      mask. The same site layouts, grid, colours and questions.
    """

    extras = ("graphs",)

    questions = QUESTIONS

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
            cut = cut_ridges(sites, *GRID)
            clear = [True] * n  # (adjacency) the sites all of whose borders are long enough to shade
            for i, j, length, *_ in cut:
                if length < MIN_RIDGE:
                    clear[i] = clear[j] = False
            clear = [k for k in range(n) if clear[k]]
            if clear or self.question == "count":
                break
        self.sites = sites
        self.labels = list(LETTERS[:n])
        self.cut = cut
        around: list[set[int]] = [set() for _ in range(n)]
        for i, j, *_ in cut:
            around[i].add(j)
            around[j].add(i)
        self.neighbours = [frozenset(x) for x in around]
        self.target = -1
        if self.question == "adjacency":  # the shaded piece: the ends of its borders and the square's corners in it
            self.target = clear[int(rng.integers(len(clear)))]
            self.cell = piece(cut, sites, self.target, *GRID)

    def _draw(self) -> np.ndarray:
        p = self.plot(GRID[0], GRID[1], GRID[0], GRID[1], static=("voronoi square", _square))
        img, ax = p.img, p.ax
        sx, sy, left, top = ax.sx, ax.sy, ax.left - GRID[0] * ax.sx, ax.top + GRID[1] * ax.sy  # x -> left + x sx, ...
        layout = self.__dict__.get("_layout")  # (the same for every level of this env)
        if layout is None:
            x0, y0, x1, y1 = _inside_square(p)
            m = int(p.width * 4) + 4  # the outline and what a border's end may run past it: kept as it is
            bands = [(slice(max(y0 - m, 0), y1 + m), slice(max(x0 - m, 0), x0)), (slice(max(y0 - m, 0), y1 + m), slice(x1, x1 + m)),
                     (slice(max(y0 - m, 0), y0), slice(x0, x1)), (slice(y1, y1 + m), slice(x0, x1))]
            layout = self._layout = ((x0, y0, x1, y1), bands, [img[b].copy() for b in bands])  # (the blank plot's bands)
        box, bands, kept = layout
        width = p.width * 1.4
        shaded = -1
        if self.question == "adjacency":  # the shaded piece first: the borders are drawn over its edges
            shaded = self.target
            fill_convex(img, [(left + x * sx, top - y * sy) for x, y in self.cell], SHADE, box)
            tx, ty = self.sites[shaded].tolist()
            tx, ty = left + tx * sx, top - ty * sy
        segs = []
        for i, j, _, (xa, ya, xb, yb), u, v in self.cut:
            xa, ya, xb, yb = left + xa * sx, top - ya * sy, left + xb * sx, top - yb * sy
            side = 0
            if shaded in (i, j):
                side = 1 if (xb - xa) * (ty - ya) - (yb - ya) * (tx - xa) > 0 else -1
            segs.append((xa, ya, xb, yb, width / 2 if u >= 0 else 0.0, width / 2 if v >= 0 else 0.0, side))
        strokes(img, segs, width, EDGE, SHADE)
        for b, k in zip(bands, kept):
            img[b] = k
        if self.question == "adjacency":
            side = p.side
            site_tiles(img, [(left + x * sx, top - y * sy) for x, y in self.sites.tolist()], side * 0.0215,
                       max(1.0, side * 0.0035), max(6, round(side * 0.033)), SITE, LABEL)
        return img

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
    TaskSpec(name="VoronoiCount", version=2, entry_point=VoronoiPieces, max_episode_steps=1, kwargs={"question": "count"},
             tags=("geometry", "voronoi", "counting")),
    TaskSpec(name="VoronoiAdjacency", version=2, entry_point=VoronoiPieces, max_episode_steps=1,
             kwargs={"question": "adjacency"}, tags=("geometry", "voronoi", "adjacency")),
)
