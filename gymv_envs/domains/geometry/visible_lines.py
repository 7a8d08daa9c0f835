"""Lines visible from above: which of the plotted lines y = ax + b show on the upper envelope."""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import PIXEL, text_mask
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.core.vector import point_segment_distance
from gymv_envs.domains.geometry._common import LETTERS, parse_letter_set
from gymv_envs.domains.geometry._plot import GeometryQuestion, plot_base
from gymv_envs.domains.geometry._raster import outline_coverage

COUNTS = {0: 4, 1: 6, 2: 8}
X, Y = (-6, 6), (-12, 12)
COLOURS = ((200, 50, 47), (38, 110, 220), (40, 150, 60), (140, 70, 190), (235, 120, 20), (20, 160, 170),
           (200, 70, 150), (110, 80, 40))
SPOTS = np.linspace(0.12, 0.88, 15)  # where along its segment a line's label may sit
SPOTS.setflags(write=False)


def envelope(lines, sign: int = 1) -> tuple[set[int], bool, list[Fraction]]:
    """(lines on the upper envelope (``sign=-1``: lower), whether some other line touches it at a point,
    the crossing points' x along it). A line counts when it is strictly highest on some interval. Exact
    integer arithmetic: the lines by slope (the highest of equal slopes), each dropping the ones before it
    that it overtakes no later than they overtook theirs (the convex hull trick); the envelope's corners
    are its neighbours' crossings, and a line touches it where a third line meets a corner."""
    ab = [(sign * a, sign * b) for a, b in lines]
    hull: list[int] = []
    for i in sorted(range(len(ab)), key=ab.__getitem__):
        a3, b3 = ab[i]
        if hull and ab[hull[-1]][0] == a3:  # a parallel line below this one
            hull.pop()
        while len(hull) >= 2:
            (a1, b1), (a2, b2) = ab[hull[-2]], ab[hull[-1]]
            if (b1 - b3) * (a2 - a1) <= (b1 - b2) * (a3 - a1):  # 3 meets 1 no later than 2 does: 2 never on top
                hull.pop()
            else:
                break
        hull.append(i)
    touch, breaks = False, []
    for p, q in zip(hull, hull[1:]):
        (a1, b1), (a2, b2) = ab[p], ab[q]
        num, den = b1 - b2, a2 - a1  # x of the corner, den > 0
        breaks.append(Fraction(num, den))
        best = a1 * num + b1 * den
        if not touch and sum(a * num + b * den == best for a, b in ab) > 2:
            touch = True
    return set(hull), touch, breaks


@functools.lru_cache(maxsize=256)
def line_marks(obs_size: tuple[int, int], a: int, b: int) -> tuple:
    """The line y = a x + b as `Plot.infinite_lines` marks the grid (its arithmetic, line width and cached
    coverage; cached, read-only: lines recur): its segment in pixels (xa, ya, xb, yb), its pixels (flat
    indices), their coverage and the grid's pixels there."""
    base, ax = plot_base(obs_size, X[0], X[1], Y[0], Y[1], False)
    H, W = obs_size
    xs = np.array([ax.x0, ax.x1], dtype=float)  # the segment `Plot.infinite_lines` clips the line to
    if a:
        lo, hi = sorted(((ax.y0 - b) / a, (ax.y1 - b) / a))
        xs = np.clip(xs, lo, hi)
    xa, ya = ax.px(xs[0], a * xs[0] + b)
    xb, yb = ax.px(xs[1], a * xs[1] + b)
    px = np.array([(float(xa), float(ya)), (float(xb), float(yb))])
    x0, y0, m = outline_coverage(H, W, px.tobytes(), max(1.0, min(H, W) / 200) * 1.6, False, False, True)
    flat = np.flatnonzero(m != 0)  # `np.nonzero(m)` in the same order (2-D nonzero costs 7x more)
    alpha = m.reshape(-1)[flat]
    ys, xs = np.divmod(flat, m.shape[1])
    ys, xs = ys + y0, xs + x0
    on = (ys >= 0) & (ys < H) & (xs >= 0) & (xs < W)  # (what `Layer.mask` keeps at the frame's border)
    pix, alpha = (ys * W + xs)[on].astype(np.intp), alpha[on]
    grid = base.reshape(-1, 3)[pix]
    for arr in (pix, alpha, grid):
        arr.setflags(write=False)
    return px.ravel().tolist(), pix, alpha, grid


def blend(under: np.ndarray, alpha: np.ndarray, colour) -> np.ndarray:
    """(n, 3) pixels ``under`` with ``colour`` (one, or one per pixel) over them at coverage ``alpha`` (0-255),
    rounded as `vector.Layer.flush` blends; on the flat bytes, each coverage repeated for a pixel's three
    (numpy's loops broadcasting over rows of three run several times slower)."""
    a = np.repeat(alpha.astype(np.uint16), 3)
    a += a >> 7
    v = under.reshape(-1).astype(np.uint16)
    v *= 256 - a
    colour = np.asarray(colour, dtype=np.uint16)
    a *= np.tile(colour, len(alpha)) if colour.ndim == 1 else colour.reshape(-1)
    v += a
    v >>= 8
    return v.astype(np.uint8).reshape(-1, 3)


@functools.lru_cache(maxsize=2048)
def line_pixels(obs_size: tuple[int, int], a: int, b: int, colour: tuple[int, int, int]) -> np.ndarray:
    """`line_marks`' pixels with the line drawn in ``colour`` alone, as 3-byte `PIXEL` items (read-only)."""
    _, _, alpha, grid = line_marks(obs_size, a, b)
    vals = blend(grid, alpha, colour).reshape(-1).view(PIXEL)
    vals.setflags(write=False)
    return vals


def paint_lines(img: np.ndarray, lines: list, colours) -> None:
    """The lines y = a x + b on ``img`` (a C-contiguous copy of the blank grid), as `Plot.infinite_lines` draws
    them in one `Layer`: where lines overlap, the last line's colour at the largest coverage among them."""
    if not img.flags.c_contiguous:
        raise ValueError("paint_lines draws on a C-contiguous frame")
    size = img.shape[:2]
    marks = [line_marks(size, a, b) for a, b in lines]
    pix = np.concatenate([m[1] for m in marks])
    # each pixel: the last line over it at its own coverage (right where that is the most)
    img.reshape(-1).view(PIXEL).put(pix, np.concatenate([line_pixels(size, a, b, c) for (a, b), c in zip(lines, colours)]))
    ids = np.empty(size[0] * size[1], dtype=np.uint8)  # only the lines' pixels are written, then read
    line = np.repeat(np.arange(1, len(marks) + 1, dtype=np.uint8), [len(m[1]) for m in marks])
    ids[pix] = line
    top = ids.take(pix)
    under = np.flatnonzero(top != line)  # marks with a later line over their pixel
    if under.size:  # there: the last line's colour at the largest coverage of the lines over the pixel
        at = pix.take(under)
        alpha = np.concatenate([m[2] for m in marks])
        cover = ids  # (the line numbers are read: the buffer takes the coverages)
        cover[pix] = alpha  # the last line's coverage on each pixel (the last write wins, as for the numbers)
        np.maximum.at(cover, at, alpha.take(under))  # then the largest with the lines under it
        grid = plot_base(size, X[0], X[1], Y[0], Y[1], False)[0].reshape(-1, 3).take(at, axis=0)
        img.reshape(-1, 3)[at] = blend(grid, cover.take(at), np.array(colours, dtype=np.uint16)[top.take(under) - 1])


class VisibleLines(GeometryQuestion):
    """Name the lines visible from above.

    ## Description
    Lettered straight lines ``y = a x + b`` (integer slopes and intercepts) are plotted. Looking
    down from high above, a line is visible when over some stretch of x it is strictly above all
    the others (the upper envelope). Every crossing where the envelope changes line lies inside the
    plot, so what is seen there holds for all x. The answer is the set of visible lines; it is
    computed exactly with rational arithmetic, and no line merely touches the envelope at a point.

    ## Action Space
    ``answer_format="open"``: `Text`, the visible lines' letters. ``"mcq"``: `Discrete(k)`; wrong
    options are the lines visible from below, and the visible set with one line added or removed.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid from -6 to 6 (x) and -12 to 12 (y) with the
    coloured, lettered lines.

    ## Rewards
    1.0 for exactly the visible lines, else 0.0.

    ## Starting State
    Distinct lines with slopes -3..3 and intercepts -6..6, redrawn until the envelope's crossings lie
    inside the plot and no line touches it at a single point.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4 lines, 1: 6, 2: 8), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the letters of the visible lines, separated by commas"

    def _generate(self, rng: np.random.Generator) -> None:
        k = COUNTS[self.difficulty]
        with ScalarDraws(rng) as d:  # the same draws as `rng.integers` / `rng.random`, one by one at Python speed
            while True:
                pairs = {(d.integers(-3, 4), d.integers(-6, 7)) for _ in range(k)}
                if len(pairs) < k:
                    continue
                self.lines = sorted(pairs, key=lambda _: d.random())
                up, touch_up, xs = envelope(self.lines)
                if touch_up or not 2 <= len(up) < k:
                    continue  # (the tests below are pure: skipping them when this one fails redraws the same)
                # x = n / d (d > 0) in [X0 + 1, X1 - 1] with Y0 < max(a x + b) < Y1, in integers: the same tests
                inside = all((X[0] + 1) * x.denominator <= x.numerator <= (X[1] - 1) * x.denominator
                             and Y[0] * x.denominator < max(a * x.numerator + b * x.denominator for a, b in self.lines)
                             < Y[1] * x.denominator for x in xs)
                if not inside:
                    continue
                down, touch_down, _ = envelope(self.lines, -1)
                if not touch_down:
                    break
        self.visible, self.below = frozenset(up), frozenset(down)
        self.labels = list(LETTERS[:k])

    def _draw(self) -> np.ndarray:
        p = self.plot(X[0], X[1], Y[0], Y[1], square=False)
        paint_lines(p.img, self.lines, COLOURS[:len(self.lines)])
        pix = np.array([line_marks(p.img.shape[:2], a, b)[0] for a, b in self.lines])  # pixel segments, to put
        # each label where the other lines are farthest: every line's candidate spots against every line at once
        # (elementwise: the same distances), each line's own distance left out of its minimum
        n = len(pix)
        xa, ya, xb, yb = (pix[:, c:c + 1] for c in range(4))
        cand = np.stack([xa + SPOTS * (xb - xa), ya + SPOTS * (yb - ya)], 2)  # (n, 15, 2)
        d = point_segment_distance(cand.reshape(-1, 2), pix).reshape(n, len(SPOTS), n)
        d[np.arange(n), :, np.arange(n)] = np.inf
        spots = cand[np.arange(n), d.min(axis=2).argmax(axis=1)].tolist()
        # labels whose halos do not meet give the same pixels drawn together as one after another
        halos = []
        for (cx, cy), text in zip(spots, self.labels):
            h, w = text_mask(text, p.font, True).shape
            halos.append((round(cx - w / 2 - 1), round(cy - h / 2 - 1), round(cx + w / 2 + 1), round(cy + h / 2 + 1)))
        if all(a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1] for i, a in enumerate(halos) for b in halos[i + 1:]):
            p.labels(spots, list(self.labels), list(COLOURS[:len(spots)]), centred=True)
        else:
            for spot, text, col in zip(spots, self.labels, COLOURS):
                p.labels([spot], [text], col, centred=True)
        return p.frame()

    def _task_text(self) -> str:
        return ("The image shows lettered straight lines. Looking down from far above, a line is visible if over "
                "some stretch it lies strictly above all the other lines. Which lines are visible?")

    def _state_text(self) -> str:
        return ", ".join(f"{c}: y = {a}x + {b}" for c, (a, b) in zip(self.labels, self.lines))

    def _parse_answer(self, text: str):
        got = parse_letter_set(text, len(self.labels))
        return got or None

    def _check(self, answer) -> bool:
        return answer == self.visible

    def _format(self, answer) -> str:
        return ", ".join(self.labels[i] for i in sorted(answer))

    def _solve(self):
        return self.visible

    def _near_misses(self, rng: np.random.Generator) -> list:
        k, vis = len(self.labels), set(self.visible)
        out = [self.below]
        out += [frozenset(vis | {i}) for i in rng.permutation(k) if i not in vis]
        out += [frozenset(vis - {i}) for i in sorted(vis)]
        return out


SPECS = (
    TaskSpec(name="VisibleLines", entry_point=VisibleLines, max_episode_steps=1,
             tags=("geometry", "lines", "envelope")),
)
