"""The one plot renderer of the geometry domain: a coordinate grid with numbered ticks, and marks on it.

`plot_base` draws (once per size and range, cached read-only) the grid: a line at every integer
(heavier at multiples of 5 and on the axes through 0), tick numbers below and left of the grid,
so integer and half-integer coordinates can be read off the picture. `Plot` maps data
coordinates (y up) to pixels and draws points with labels, segments, polylines, polygons,
circles and infinite lines clipped to the grid, with the anti-aliased primitives of
`core.vector`. Labels go to the side of their point (of eight) that keeps clear of the other
points and labels. `GeometryQuestion` is the base of the domain's tasks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from gymv_envs.core import SingleTurnEnv
from gymv_envs.core.canvas import BACKGROUND, INK, WHITE, Color, new_frame, text_mask
from gymv_envs.core.vector import Layer, _solid, disc_mask
from gymv_envs.domains.geometry._raster import (
    _stamp_terms,
    blend_stamps,
    fill_polygon,
    outline_coverage,
    outline_segments,
    outlined_polygons,
    paint,
    polygon_raster,
)

GRID_MINOR = (214, 218, 226)
GRID_MAJOR = (170, 176, 190)
AXIS = (90, 94, 110)
POINT = (200, 40, 40)
LABEL = (20, 20, 28)
FILLS = ((255, 190, 160), (170, 215, 255), (190, 235, 170), (255, 225, 140), (215, 190, 245),
         (160, 230, 225), (250, 180, 215), (220, 220, 200))


@dataclass(frozen=True)
class Axes:
    """Where the grid of ``[x0, x1] x [y0, y1]`` sits in the frame: pixel origin and pixels per unit."""

    x0: int
    x1: int
    y0: int
    y1: int
    left: float
    top: float
    sx: float
    sy: float

    def px(self, x, y) -> tuple:
        """Pixel coordinates of data points (scalars or arrays); y grows upwards in data."""
        return self.left + (np.asarray(x, dtype=float) - self.x0) * self.sx, self.top + (self.y1 - np.asarray(y, dtype=float)) * self.sy

    @property
    def box(self) -> tuple[float, float, float, float]:
        return self.left, self.top, self.left + (self.x1 - self.x0) * self.sx, self.top + (self.y1 - self.y0) * self.sy


def make_axes(obs_size: tuple[int, int], x0: int, x1: int, y0: int, y1: int, square: bool = True,
              whole: bool = False) -> Axes:
    """``whole``: a whole number of pixels per unit and the grid's corner on a pixel corner, so shapes
    moved by whole units move by whole pixels (`Plot.tiles`)."""
    H, W = obs_size
    font = max(5, int(min(H, W) * 0.03))
    margin_l = font * (1.6 if max(abs(y0), abs(y1)) < 10 else 2.4) + 4 + (font * 0.6 if min(y0, 0) < 0 else 0)
    margin_b, pad = font * 1.6 + 4, max(2, font * 1.2)
    aw, ah = W - margin_l - pad, H - margin_b - pad
    sx, sy = aw / (x1 - x0), ah / (y1 - y0)
    if square:
        sx = sy = min(sx, sy)
    if whole:
        sx, sy = float(max(1, int(sx))), float(max(1, int(sy)))
    left = margin_l + (aw - sx * (x1 - x0)) / 2
    top = pad + (ah - sy * (y1 - y0)) / 2
    if whole:
        left, top = float(round(left)), float(round(top))
    return Axes(x0, x1, y0, y1, left, top, sx, sy)


@functools.lru_cache(maxsize=64)
def plot_base(obs_size: tuple[int, int], x0: int, x1: int, y0: int, y1: int, square: bool = True,
              whole: bool = False) -> tuple[np.ndarray, Axes]:
    """The empty grid with tick numbers (read-only) and its axes (`make_axes`)."""
    H, W = obs_size
    ax = make_axes(obs_size, x0, x1, y0, y1, square, whole)
    img = new_frame(H, W, BACKGROUND)
    L, T, R, B = ax.box
    layer = Layer(img).rect(L, T, R + 1, B + 1, WHITE)
    layer.flush()
    unit = min(ax.sx, ax.sy)
    thin = max(1.0, unit / 30)
    step = 1 if unit >= 5 else 5
    minor, major, axis = [], [], []
    for x in range(x0, x1 + 1, step):
        (px, _), seg = ax.px(x, 0), None
        seg = (float(px), T, float(px), B)
        (axis if x == 0 else major if x % 5 == 0 else minor).append(seg)
    for y in range(y0, y1 + 1, step):
        _, py = ax.px(0, y)
        seg = (L, float(py), R, float(py))
        (axis if y == 0 else major if y % 5 == 0 else minor).append(seg)
    for segs, col, w in ((minor, GRID_MINOR, thin), (major, GRID_MAJOR, thin * 1.3), (axis, AXIS, thin * 2)):
        if segs:
            layer.lines(segs, w, col)
        layer.flush()
    font = max(5, int(min(H, W) * 0.03))
    every = max(1, int(np.ceil(font * 1.6 / max(ax.sx, 1e-9)))) if x1 - x0 > 0 else 1
    every = next(e for e in (1, 2, 5, 10, 20, 50) if e >= every)
    for x in range(x0, x1 + 1):
        if x % every == 0:
            px, _ = ax.px(x, 0)
            layer.text(str(x), (float(px), B + 3), font, INK, anchor="mt")
    every_y = max(1, int(np.ceil(font * 1.3 / max(ax.sy, 1e-9))))
    every_y = next(e for e in (1, 2, 5, 10, 20, 50) if e >= every_y)
    for y in range(y0, y1 + 1):
        if y % every_y == 0:
            _, py = ax.px(0, y)
            layer.text(str(y), (L - 4, float(py)), font, INK, anchor="rm")
    layer.flush()
    img.setflags(write=False)
    return img, ax


class Plot:
    """Marks in data coordinates on a copy of the cached grid; call `frame()` for the result.
    ``static``: a name and a function that draws on the plot what every level of a task shares
    (a fixed line); the grid with those marks is cached per name, size and range, so each frame
    starts from it with the same pixels as drawing them again would give. ``whole``: whole pixels per
    unit (`make_axes`)."""

    def __init__(self, obs_size: tuple[int, int], x0: int, x1: int, y0: int, y1: int, square: bool = True,
                 static: tuple[str, Callable[[Plot], object]] | None = None, whole: bool = False) -> None:
        base, self.ax = plot_base(obs_size, x0, x1, y0, y1, square, whole)
        if static is not None:
            key = (static[0], tuple(obs_size), x0, x1, y0, y1, square)
            cached = _STATIC.get(key)
            if cached is None:
                self.img = base.copy()
                self._setup(obs_size)
                static[1](self)
                if len(_STATIC) > 64:
                    _STATIC.clear()
                cached = _STATIC[key] = self.img
                cached.setflags(write=False)
            base = cached
        self.img = base.copy()
        self._setup(obs_size)
        # the grid's key while nothing is drawn on the copy yet (`recurring` copies boxes onto it)
        self._blank = None if static is not None else (tuple(obs_size), x0, x1, y0, y1, square) + (("whole",) if whole else ())

    def _setup(self, obs_size: tuple[int, int]) -> None:
        H, W = obs_size
        self.unit = min(self.ax.sx, self.ax.sy)
        self.side = min(H, W)
        self.width = max(1.0, self.side / 200)
        self.font = max(5, int(self.side * 0.036))
        self.radius = max(1.5, self.side * 0.011)
        self.spots: list[tuple[float, float]] = []  # pixel centres of the points and labels drawn
        self._blank: tuple | None = None

    def _pixels(self, polys) -> tuple[list[np.ndarray], np.ndarray | None]:
        """The outlines as (k, 2) arrays in data coordinates, and all their points in pixels, mapped in
        one `Axes.px` call (element-wise: the same values as one call per outline)."""
        polys = [np.asarray(poly, dtype=float).reshape(-1, 2) for poly in polys]
        if not polys:
            return polys, None
        p = np.concatenate(polys) if len(polys) > 1 else polys[0]
        x, y = self.ax.px(p[:, 0], p[:, 1])
        return polys, np.stack([x, y], 1)

    def recurring(self, key: tuple, draw: Callable[[Plot], object], box: tuple[float, float, float, float]) -> Plot:
        """Marks that recur across levels (a layout out of a few), drawn first: ``draw(self)`` on the
        blank grid, kept per grid and ``key`` as the pixels of ``box`` (x0, y0, x1, y1 in data
        coordinates, which holds the marks; widened by a margin for their strokes), 24 MiB of boxes at
        most, and copied in when the key comes again."""
        blank = self._blank
        if blank is None:  # something is drawn already: no box of the blank grid to copy
            draw(self)
            return self
        hit = _RECURRING.get((blank, key))
        if hit is not None:
            x0, y0, block = hit
            self.img[y0:y0 + block.shape[0], x0:x0 + block.shape[1]] = block
            self._blank = None
            return self
        draw(self)
        self._blank = None
        H, W = self.img.shape[:2]
        (xa, xb), (ya, yb) = self.ax.px([box[0], box[2]], [box[1], box[3]])
        pad = 4 * self.width + 4
        x0, x1 = max(0, int(min(xa, xb) - pad)), min(W, int(max(xa, xb) + pad) + 1)
        y0, y1 = max(0, int(min(ya, yb) - pad)), min(H, int(max(ya, yb) + pad) + 1)
        if x0 < x1 and y0 < y1:
            block = self.img[y0:y1, x0:x1].copy()
            block.setflags(write=False)
            _RECURRING[(blank, key)] = (x0, y0, block)
            _RECURRING_BYTES[0] += block.nbytes
            while _RECURRING_BYTES[0] > _RECURRING_LIMIT:  # the oldest boxes go first
                _RECURRING_BYTES[0] -= _RECURRING.pop(next(iter(_RECURRING)))[2].nbytes
        return self

    def fill_polygons(self, polys, colors) -> Plot:
        """Solid fills, painted in order (outline them with `polylines` for smooth edges). Each fill is
        the pixel-exact raster of `vector.Layer.polygon` (cached per pixel outline), set directly: a
        fully covered pixel takes the colour of the last fill over it, as a layer flush gives."""
        self._blank = None
        polys, xy = self._pixels(polys)
        if not polys:
            return self
        at = 0
        for poly, col in zip(polys, colors):
            pts = xy[at:at + len(poly)]
            at += len(poly)
            (x0, y0), mask = polygon_raster(pts.tobytes())
            paint(self.img, x0, y0, mask, tuple(int(v) for v in col))
        return self

    def fill_fresh(self, polys, colors, clip: tuple[int, int, int, int] | None = None) -> Plot:
        """`fill_polygons` for outlines that do not recur (nothing is cached): each one is filled
        through a one-byte PIL mask of its box (`fill_polygon`), about a fifth of the work of a raster
        and a paint. ``clip``: a pixel box (x0, y0, x1, y1) the fills keep inside."""
        self._blank = None
        polys, xy = self._pixels(polys)
        H, W = self.img.shape[:2]
        box = (0, 0, W, H) if clip is None else clip
        at = 0
        for poly, col in zip(polys, colors):
            fill_polygon(self.img, xy[at:at + len(poly)], col, box)
            at += len(poly)
        return self

    def tiles(self, polys, fill: Color, edge: Color) -> Plot:
        """Filled polygons with integer corners, outlined, on a grid of whole pixels per unit (``whole``):
        each shape's fill and outline are rastered once at a fixed place (its lowest corners on the
        grid's corner; `polygon_raster`, `outline_coverage`, cached) and moved by whole pixels to each
        copy, so a shape that comes again anywhere costs a paint and a mask. The fills first, then
        the outlines in one pass (for polygons that do not overlap)."""
        ax = self.ax
        if ax.sx != int(ax.sx) or ax.sy != int(ax.sy) or ax.left != int(ax.left) or ax.top != int(ax.top):
            raise ValueError("Plot.tiles needs a grid of whole pixels per unit (Plot(..., whole=True))")
        self._blank = None
        H, W = self.img.shape[:2]
        width = self.width * 1.4
        layer = Layer(self.img)
        col = tuple(int(v) for v in fill)
        for poly in polys:
            pts = np.asarray(poly, dtype=np.int64).tolist()
            mx, my = min(x for x, _ in pts), min(y for _, y in pts)
            xy = np.array([(ax.left + (x - mx) * ax.sx, ax.top + (ax.y1 - ax.y0 - y + my) * ax.sy) for x, y in pts])
            dx, dy = int((mx - ax.x0) * ax.sx), -int((my - ax.y0) * ax.sy)
            key = xy.tobytes()
            (fx, fy), mask = polygon_raster(key)
            paint(self.img, fx + dx, fy + dy, mask, col)
            ox, oy, cover = outline_coverage(H, W, key, width, True, False)
            layer.mask(cover, ox + dx, oy + dy, edge)
        layer.flush()
        return self

    def outlined(self, polys, fills, edge: Color) -> Plot:
        """Filled polygons with integer corners, each outlined (`polylines`' width, round joins), on a grid
        of whole pixels per unit (``whole``): all the fills from one mask, then the outlines from cached
        segment stamps (`_raster.outlined_polygons`)."""
        ax = self.ax
        if ax.sx != int(ax.sx) or ax.sy != int(ax.sy) or ax.left != int(ax.left) or ax.top != int(ax.top):
            raise ValueError("Plot.outlined needs a grid of whole pixels per unit (Plot(..., whole=True))")
        self._blank = None
        sx, sy, left, top = int(ax.sx), int(ax.sy), int(ax.left) - ax.x0 * int(ax.sx), int(ax.top) + ax.y1 * int(ax.sy)
        corners = [[(left + x * sx, top - y * sy) for x, y in np.asarray(poly, dtype=np.int64).tolist()] for poly in polys]
        outlined_polygons(self.img, corners, fills, edge, self.width * 0.7)
        return self

    def lines(self, segs, color: Color = INK, width: float | None = None, dash: bool = False) -> Plot:
        """Segments ``(xa, ya, xb, yb)`` in data coordinates."""
        self._blank = None
        s = np.asarray(segs, dtype=float).reshape(-1, 4)
        xa, ya = self.ax.px(s[:, 0], s[:, 1])
        xb, yb = self.ax.px(s[:, 2], s[:, 3])
        w = width or self.width * 1.4
        Layer(self.img).lines(np.stack([xa, ya, xb, yb], 1), w, color,
                              dash=(w * 4, w * 3) if dash else None).flush()
        return self

    def polyline(self, pts, color: Color = INK, closed: bool = False, width: float | None = None,
                 dash: bool = False) -> Plot:
        return self.polylines([pts], color, closed, width, dash)

    def polylines(self, polys, color: Color = INK, closed: bool = False, width: float | None = None,
                  dash: bool = False, cached: bool = False) -> Plot:
        """Several polylines (or closed outlines) in one colour, composited in one pass. ``cached``:
        each outline's coverage is kept per process (`outline_coverage`), for outlines that recur."""
        self._blank = None
        w = width or self.width * 1.4
        layer = Layer(self.img)
        H, W = self.img.shape[:2]
        polys, allxy = self._pixels(polys)
        if not polys:
            return self
        if cached:
            at = 0
            for poly in polys:
                xy = allxy[at:at + len(poly)]
                at += len(poly)
                x0, y0, m = outline_coverage(H, W, xy.tobytes(), w, closed, dash)
                layer.mask(m, x0, y0, color)
        else:  # the marks of one `polyline` call per outline, in one pass
            segs, groups = outline_segments(allxy, [len(poly) for poly in polys], w, closed, not dash)
            layer.lines(segs, w, color, (w * 4, w * 3) if dash else None, groups=groups)
        layer.flush()
        return self

    def circle(self, cx: float, cy: float, r: float, color: Color = INK, dash: bool = False) -> Plot:
        self._blank = None
        x, y = self.ax.px(cx, cy)
        w = self.width * 1.4
        Layer(self.img).circle(float(x), float(y), r * self.ax.sx, w, color, dash=(w * 4, w * 3) if dash else None).flush()
        return self

    def infinite_lines(self, slopes, intercepts, colors) -> list[np.ndarray]:
        """Lines y = a x + b clipped to the grid; returns each one's visible segment in data coordinates."""
        self._blank = None
        ax = self.ax
        segs = []
        for a, b in zip(slopes, intercepts):
            xs = np.array([ax.x0, ax.x1], dtype=float)
            if a:
                lo, hi = sorted(((ax.y0 - b) / a, (ax.y1 - b) / a))
                xs = np.clip(xs, lo, hi)
            segs.append(np.array([xs[0], a * xs[0] + b, xs[1], a * xs[1] + b]))
        layer = Layer(self.img)
        H, W = self.img.shape[:2]
        for s, col in zip(segs, colors):
            xa, ya = ax.px(s[0], s[1])
            xb, yb = ax.px(s[2], s[3])
            # one segment: its coverage (cached, lines recur) has no pixel twice, as its own mark has not
            seg = np.array([(float(xa), float(ya)), (float(xb), float(yb))])
            x0, y0, m = outline_coverage(H, W, seg.tobytes(), self.width * 1.6, False, False, True)
            layer.mask(m, x0, y0, tuple(int(v) for v in col))
        layer.flush()
        return segs

    def points(self, pts, labels=None, color: Color = POINT, label_color: Color = LABEL) -> Plot:
        """Dots at data points, each with its label beside it, away from its nearest neighbours."""
        self._blank = None
        p = np.asarray(pts, dtype=float).reshape(-1, 2)
        x, y = self.ax.px(p[:, 0], p[:, 1])
        m = disc_mask(round(self.radius * 2) / 2, 0.0)  # the marks of `Layer.disc` at each point, in one batch
        half = m.shape[0] // 2
        xs, ys = np.asarray(x, dtype=float).tolist(), np.asarray(y, dtype=float).tolist()
        Layer(self.img).masks([m] * len(xs), [int(round(a)) - half for a in xs], [int(round(b)) - half for b in ys],
                              color).flush()
        self.spots += list(zip(xs, ys))
        if labels is not None:
            self.labels(np.stack([x, y], 1), labels, label_color, near=self.radius)
        return self

    def labels(self, spots, texts, color: Color = LABEL, near: float = 0.0, size: int | None = None,
               centred: bool = False) -> list[tuple[int, int, int, int]]:
        """Labels on a white halo, centred on pixel spots or beside them: on the side (of eight) that
        points away from the other marks nearby (the sum of inverse-square pushes), inside the frame.
        ``color``: one colour, or a list of one per label."""
        self._blank = None
        size = size or self.font
        spots = np.asarray(spots, dtype=float).reshape(-1, 2)
        dims = np.array([text_mask(t, size, True).shape[::-1] for t in texts], dtype=float).reshape(-1, 2)
        centres = spots if centred else self._beside(spots, dims, near)
        layer = Layer(self.img)
        centres = np.asarray(centres, dtype=float).tolist()  # plain floats: the same sums, cheaper
        halos, hx, hy = [], [], []  # the marks of `Layer.rect` (a white halo) per label, in one batch
        for (cx, cy), (w, h) in zip(centres, dims.tolist()):
            a, b = int(round(cx - w / 2 - 1)), int(round(cx + w / 2 + 1))
            c, d = int(round(cy - h / 2 - 1)), int(round(cy + h / 2 + 1))
            if a < b and c < d:
                halos.append(_solid(d - c, b - a, int(0.8 * 255 + 0.5)))
                hx.append(a)
                hy.append(c)
        layer.masks(halos, hx, hy, WHITE).flush()
        colors = color if isinstance(color, list) else [color] * len(texts)
        out, run = [], []  # the marks of `Layer.text` per label; runs of one colour in one batch
        for (cx, cy), t, c in zip(centres, texts, colors):
            m = text_mask(t, int(size), True)
            h, w = m.shape
            x, y = int(round(cx - w / 2)), int(round(cy - h / 2))
            if run and c != run[0][3]:
                layer.masks([r[0] for r in run], [r[1] for r in run], [r[2] for r in run], run[0][3])
                run = []
            run.append((m, x, y, c))
            out.append((x, y, x + w, y + h))
        if run:
            layer.masks([r[0] for r in run], [r[1] for r in run], [r[2] for r in run], run[0][3])
        layer.flush()
        self.spots += [(cx, cy) for cx, cy in centres]
        return out

    def stamped_labels(self, spots, texts, color: Color = LABEL) -> Plot:
        """Labels centred on pixel ``spots`` (as `labels` with ``centred=True``), each one's white halo (a
        pixel wider than its letters all round) and letters blended as one stamp (cached per text), all
        in one pass; where two labels overlap (keep them apart), the later one shows."""
        self._blank = None
        self.spots += [(float(cx), float(cy)) for cx, cy in spots]
        blend_stamps(self.img, self._label_stamps(spots, texts, color))
        return self

    def _label_stamps(self, centres, texts, color: Color) -> list:
        """The `blend_stamps` stamps of labels centred on ``centres``: each one's white halo (a pixel wider
        than its letters all round) and letters as one stamp, cached per text."""
        size, W = int(self.font), self.img.shape[1]
        col = tuple(int(v) for v in color)
        out = []
        for (cx, cy), t in zip(centres, texts):
            terms = _stamp_terms(W, t, size, col)
            h, w = terms[5] - 2, terms[6] - 2  # the letters' box
            out.append((terms, int(round(cx - w / 2)) - 1, int(round(cy - h / 2)) - 1))
        return out

    def _beside(self, spots: np.ndarray, dims: np.ndarray, near: float) -> np.ndarray:
        """Label centres for labels ``dims`` (w, h) beside pixel ``spots``: on the side (of eight) that
        points away from the other marks nearby (the sum of inverse-square pushes), inside the frame."""
        others = np.asarray(self.spots, dtype=float).reshape(-1, 2)
        diff = spots[:, None, :] - others[None, :, :]
        d2 = (diff ** 2).sum(-1)
        d2[d2 < 1e-6] = np.inf
        push = (diff / d2[..., None] ** 1.5).sum(axis=1)  # away from the neighbours
        push /= np.maximum(np.hypot(push[:, 0], push[:, 1]), 1e-12)[:, None]
        dirs = _PLACES / np.hypot(_PLACES[:, 0], _PLACES[:, 1])[:, None]
        off = spots[:, None, :] + _PLACES[None, :, :] * (near + 2 + dims[:, None, :] / 2)
        H, W = self.img.shape[:2]
        half = dims[:, None, :] / 2
        outside = ((off - half < 0) | (off + half > (W, H))).any(axis=-1)
        score = push @ dirs.T - 10 * outside - np.arange(len(_PLACES)) * 0.01
        return off[np.arange(len(spots)), np.argmax(score, axis=1)]

    def labelled_points(self, pts, labels, color: Color = POINT, label_color: Color = LABEL) -> Plot:
        """`points` with labels, placed as `labels` places them and blended onto the frame in one pass:
        each label's white halo and letters come as one stamp (cached per text), each dot as another.
        Where two stamps overlap (rare: labels keep clear of the other points), the later one shows."""
        self._blank = None
        p = np.asarray(pts, dtype=float).reshape(-1, 2)
        x, y = self.ax.px(p[:, 0], p[:, 1])
        spots = np.stack([x, y], 1)
        self.spots += [tuple(s) for s in spots.tolist()]
        size = int(self.font)
        dims = np.array([text_mask(t, size, True).shape[::-1] for t in labels], dtype=float).reshape(-1, 2)
        centres = self._beside(spots, dims, self.radius).tolist()
        H, W = self.img.shape[:2]
        r = round(self.radius * 2) / 2
        dot = _stamp_terms(W, "dot", r, tuple(int(v) for v in color))
        half = disc_mask(r, 0.0).shape[0] // 2
        stamps = [(dot, int(round(a)) - half, int(round(b)) - half) for a, b in spots.tolist()]
        stamps += self._label_stamps(centres, labels, label_color)
        self.spots += [(cx, cy) for cx, cy in centres]
        blend_stamps(self.img, stamps)
        return self

    def frame(self) -> np.ndarray:
        return self.img


_STATIC: dict[tuple, np.ndarray] = {}  # (name, size, range) -> the grid with a task's fixed marks (read-only)
_RECURRING: dict[tuple, tuple] = {}  # (grid, key) -> a box of the blank grid with a layout drawn (read-only)
_RECURRING_BYTES = [0]  # the pixels `_RECURRING` holds, in bytes
_RECURRING_LIMIT = 24 << 20


def centres_px(ax, polys) -> list[tuple[float, float]]:
    """The pixel of each integer-cornered polygon's mean corner: ``ax.px(*poly.mean(axis=0))`` on plain
    floats (the corners' sums are exact, so the means and pixels are the same numbers)."""
    out = []
    for poly in polys:
        pts = poly.tolist()
        mx, my = sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
        out.append((ax.left + (mx - ax.x0) * ax.sx, ax.top + (ax.y1 - my) * ax.sy))
    return out


_PLACES = np.array([(1, -1), (-1, -1), (1, 1), (-1, 1), (0, -1), (0, 1), (1, 0), (-1, 0)], dtype=float)


def distinct_points(rng: np.random.Generator, n: int, lo: int, hi: int, min_gap: float = 1.0,
                    taken=()) -> np.ndarray:
    """``n`` integer points in ``[lo, hi]^2``, at least ``min_gap`` apart (and from ``taken``): grid
    points in a random order, each kept unless it lies within ``min_gap`` of one kept before."""
    side = hi - lo + 1
    reach = int(np.ceil(min_gap))
    near = [(dx, dy) for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)
            if dx * dx + dy * dy < min_gap * min_gap]
    wide = side + 2 * reach  # the grid and a margin of `reach`, row-major, as flat flags: blocked or not
    offsets = [dy * wide + dx for dx, dy in near]
    for _ in range(20):
        blocked = bytearray(wide * wide)
        for x, y in taken:
            for dx, dy in near:
                bx, by = int(x) + dx - lo + reach, int(y) + dy - lo + reach
                if 0 <= bx < wide and 0 <= by < wide:
                    blocked[by * wide + bx] = 1
        out = []
        for k in rng.permutation(side * side).tolist():
            cy, cx = divmod(k, side)
            at = (cy + reach) * wide + cx + reach
            if not blocked[at]:
                out.append((lo + cx, lo + cy))
                if len(out) == n:
                    return np.array(out, dtype=np.int64)
                for o in offsets:
                    blocked[at + o] = 1
    raise RuntimeError(f"distinct_points: no room for {n} points {min_gap} apart in [{lo}, {hi}]^2")


class GeometryQuestion(SingleTurnEnv):
    """Base of the geometry tasks: the grid range and a `Plot` to draw on."""

    default_obs_size: ClassVar[tuple[int, int]] = (512, 512)

    def plot(self, x0: int, x1: int, y0: int, y1: int, square: bool = True,
             static: tuple[str, Callable[[Plot], object]] | None = None, whole: bool = False) -> Plot:
        return Plot(self.obs_size, x0, x1, y0, y1, square, static, whole)
