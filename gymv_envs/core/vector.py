"""Anti-aliased vector drawing on numpy frames, batched: thick and dashed lines, polylines, circles,
discs, rings, arrowheads, filled polygons and text.

Marks are collected in a `Layer` and composited onto the frame in one pass by `Layer.flush`
(one gather, one blend, one scatter for the whole layer), so a frame of a few hundred marks
costs a handful of numpy calls. Marks of one layer that cover the same pixel do not stack (the
last one wins there); draw what must lie on top in a later layer::

    >>> from gymv_envs.core.canvas import new_frame
    >>> img = new_frame(64, 64)
    >>> Layer(img).lines([(4, 4, 60, 40)], width=3, color=(0, 0, 0)).flush()
    >>> int(img[22, 32].min()) < 100
    True

Coverage is computed per pixel centre: a line is a capsule (round caps) of the given width, a
disc a circle of the given radius, with a one-pixel linear ramp at the border.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

import numpy as np
from PIL import Image, ImageDraw

from gymv_envs.core.canvas import PIXEL, Color, text_mask

Point = tuple[float, float]


@functools.lru_cache(maxsize=1024)
def disc_mask(radius: float, ring: float = 0.0) -> np.ndarray:
    """Coverage mask (uint8, read-only) of a disc of ``radius`` px, or of a ring ``ring`` px wide
    inside that radius, centred in a square of odd side."""
    half = int(np.ceil(radius + 1))
    c = np.arange(-half, half + 1, dtype=np.float32)
    d = np.sqrt(c[:, None] ** 2 + c[None, :] ** 2)
    a = np.clip(radius + 0.5 - d, 0, 1)
    if ring > 0:
        a = np.minimum(a, np.clip(d - (radius - ring) + 0.5, 0, 1))
    mask = np.ascontiguousarray((a * 255 + 0.5).astype(np.uint8))
    mask.setflags(write=False)
    return mask


@functools.lru_cache(maxsize=1024)
def _solid(h: int, w: int, alpha: int) -> np.ndarray:
    """A uniform h x w coverage mask (read-only, cached)."""
    m = np.full((h, w), alpha, dtype=np.uint8)
    m.setflags(write=False)
    return m


@functools.lru_cache(maxsize=64)
def _line_profile(h: float) -> tuple[np.ndarray, int, int, int]:
    """Coverage of the rows around a line's centre, by (1 - cos of the slope) in 64ths ``c`` and the
    centre's sub-pixel offset in eighths ``f``: entry ``8 c + f`` holds rows ``lo .. lo + k - 1`` from the
    centre's pixel row, zero-padded to ``2 ** shift`` bytes, as one opaque item (a gather of entries is a
    plain copy); returns (entries, lo, k, shift)."""
    cos = 1 - np.arange(20)[:, None, None] / 64
    span = int(np.ceil(h / cos.min() + 2))
    frac = (np.arange(8)[None, :, None] + 0.5) / 8
    rows = np.arange(-span, span + 1)[None, None, :] + 0.5
    d = np.abs(rows - frac) * cos
    table = (np.clip(h + 0.5 - d, 0, 1) * 255 + 0.5).astype(np.uint8)
    used = np.flatnonzero(table.any(axis=(0, 1)))
    k, shift = len(used), max(3, (len(used) - 1).bit_length())
    padded = np.zeros((160, 1 << shift), dtype=np.uint8)
    padded[:, :k] = table[:, :, used[0]:used[-1] + 1].reshape(-1, k)  # entry 8 c + f
    entries = padded.view(np.dtype((np.void, 1 << shift))).ravel()
    entries.setflags(write=False)
    return entries, int(used[0]) - span, k, shift


def _cos_steps() -> np.ndarray:
    """The smallest squared slopes s2 at which rint((1 - 1 / sqrt(1 + s2)) * 64) reaches 1, ..., 19 (bisected on
    the floats' bits): it never falls as s2 grows (each step rounds monotonically), so it counts those <= s2."""
    step = np.arange(1, 20)
    lo, hi = np.zeros(19, dtype=np.int64), np.full(19, np.float64(1).view(np.int64))  # 0.0, 1.0 as bits
    while (hi - lo > 1).any():
        mid = (lo + hi) // 2
        up = np.rint((1 - 1 / np.sqrt(1 + mid.view(np.float64))) * 64) >= step
        lo, hi = np.where(up, lo, mid), np.where(up, mid, hi)
    return hi.view(np.float64)


_COS_STEPS = _cos_steps()
_SPARSE: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}


def _sparse(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, cols, alpha) of a mask's nonzero pixels; cached for read-only (cached) masks."""
    hit = _SPARSE.get(id(mask))
    if hit is not None and hit[0] is mask:
        return hit[1], hit[2], hit[3]
    ys, xs = np.nonzero(mask)
    out = (ys.astype(np.int32), xs.astype(np.int32), mask[ys, xs])
    if not mask.flags.writeable:
        if len(_SPARSE) > 8192:
            _SPARSE.clear()
        _SPARSE[id(mask)] = (mask, *out)
    return out


_STAMPS: dict[tuple[int, int], tuple] = {}


def _stamp(mask: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray, int, int]:
    """(flat offsets in a frame ``width`` px wide, coverage, height, width) of a mask's nonzero
    pixels; cached for read-only (cached) masks."""
    key = (id(mask), width)
    hit = _STAMPS.get(key)
    if hit is not None and hit[0] is mask:
        return hit[1]
    ys, xs, alpha = _sparse(mask)
    out = (ys.astype(np.intp) * width + xs, alpha, mask.shape[0], mask.shape[1])
    if not mask.flags.writeable:
        if len(_STAMPS) > 8192:
            _STAMPS.clear()
        _STAMPS[key] = (mask, out)
    return out


def _rgb(color):
    """One colour as a tuple of ints, or per-pixel colours as a (n, 3) uint8 array."""
    if isinstance(color, tuple) and len(color) == 3 and all(type(v) is int for v in color):
        return color
    arr = np.asarray(color, dtype=np.uint8)
    return tuple(arr.tolist()) if arr.ndim == 1 else arr


# (segments, profile, frame size) -> (pixels, coverage) of the layouts drawn more than once (fixed ones), and the keys of
# those drawn once so far: a random layout, drawn once, keeps no arrays (holding on to them slows every later frame)
_LINES: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
_SEEN: dict[tuple, None] = {}
_NEXT = [1, 2, 0]  # each corner of a triangle to the next
_STEEP = [1, 0, 3, 2]  # (x0, y0, x1, y1) -> (y0, x0, y1, x1)
_SWAP = [2, 3, 0, 1]  # the two ends exchanged


def dash_segments(segs: np.ndarray, dash: float, gap: float) -> tuple[np.ndarray, np.ndarray]:
    """Each segment of ``segs`` (k, 4) cut into dashes ``dash`` px long with ``gap`` px between;
    returns the dashes and, for each, the index of the segment it came from."""
    segs = np.asarray(segs, dtype=np.float64).reshape(-1, 4)
    d = segs[:, 2:] - segs[:, :2]
    length = np.hypot(d[:, 0], d[:, 1])
    period = dash + gap
    count = np.maximum(1, np.ceil((length + gap) / period)).astype(int)
    src = np.repeat(np.arange(len(segs)), count)
    k = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
    t0 = np.minimum(k * period, length[src])
    t1 = np.minimum(t0 + dash, length[src])
    unit = d[src] / np.maximum(length[src], 1e-9)[:, None]
    start = segs[src, :2] + unit * t0[:, None]
    end = segs[src, :2] + unit * t1[:, None]
    return np.concatenate([start, end], axis=1), src


def _line_pixels(segs: np.ndarray, h: float, W: int, H: int, groups):
    """The covered pixels of `Layer.lines` (flat indices, coverage 0-255) in the order of its marks (segment by
    segment, column by column along the major axis, row by row; pixels off the frame dropped), and a function
    giving each one's segment."""
    entries, lo, k, shift = _line_profile(h)
    n = len(segs)
    d = np.abs(segs[:, 2:] - segs[:, :2])
    steep = d[:, 1] > d[:, 0]
    n_steep = int(np.count_nonzero(steep))
    own = None  # the source segment of each one drawn, where they are drawn out of order
    if 0 < n_steep < n:  # the flat ones first, then the steep ones (per group where groups are given)
        own = np.argsort(steep, kind="stable") if groups is None else np.lexsort((steep, np.asarray(groups)))
        segs, steep = segs[own], steep[own]
    # (u0, v0, u1, v1): u along the major axis, v along the minor one, u0 <= u1
    uv = segs if n_steep == 0 else segs[:, _STEEP] if n_steep == n else np.where(steep[:, None], segs[:, _STEEP], segs)
    swap = uv[:, 2] < uv[:, 0]
    if swap.any():
        uv = np.where(swap[:, None], uv[:, _SWAP], uv)
    per = np.empty((n, 4))  # u0, v0, slope, the first column's u less its index among all the columns
    per[:, :2] = uv[:, :2]
    span = uv[:, 2] - per[:, 0]
    np.maximum(span, 1e-9, out=span)
    slope = np.subtract(uv[:, 3], per[:, 1], out=per[:, 2])
    slope /= span
    first = np.ceil(per[:, 0] - 0.5)  # the columns whose centres lie in [u0, u1]
    last = np.floor(uv[:, 2] - 0.5)
    count = (last - first + 1).astype(np.int64)
    np.maximum(count, 0, out=count)
    ends = np.cumsum(count)
    np.subtract(first, ends - count, out=per[:, 3])
    row = 8 * _COS_STEPS.searchsorted(slope * slope, side="right")  # 8 rint((1 - cos) 64), cos = 1 / sqrt(1 + slope²)
    per = np.repeat(per, count, axis=0)  # (columns, 4): each segment's constants, repeated in one call
    uf = np.arange(len(per), dtype=np.float64)
    uf += per[:, 3]
    u = uf.astype(np.int64)
    uf += 0.5
    uf -= per[:, 0]  # the line's centre in each column: v0 + slope (u + 0.5 - u0)
    uf *= per[:, 2]
    uf += per[:, 1]
    base = np.floor(uf)
    uf -= base
    uf *= 8
    ci = uf.astype(np.intp)
    ci += np.repeat(row, count)
    base = base.astype(np.int64) + lo  # each column's first profile row
    cover = entries.take(ci, mode="clip").view(np.uint8)  # each column's rows base .. base + k - 1, then zeros
    keep = (cover != 0).nonzero()[0]  # (a bool array's nonzero: ~3x faster than a uint8 one's)
    c = keep >> shift
    j = keep & ((1 << shift) - 1)
    lim = min(W, H)  # lines at least a pixel inside the frame's every row and column (none is clipped) skip this
    if keep.size and (segs.min() < 1 - lo or segs.max() > lim - (k + lo) - 1):
        lim_u = np.where(np.repeat(steep, count).take(c), H, W)  # at the frame's border: drop what is off it
        uc, r = u.take(c), base.take(c) + j
        ok = np.flatnonzero((uc >= 0) & (uc < lim_u) & (r >= 0) & (r < W + H - lim_u))
        keep, c, j = keep.take(ok), c.take(ok), j.take(ok)
    alpha = cover.take(keep, mode="clip")
    if n_steep == 0:
        base *= W
        base += u
        pix = base.take(c, mode="clip")
        j *= W
    elif n_steep == n:
        u *= W
        u += base
        pix = u.take(c)
    elif groups is None:  # the flat lines' columns, then the steep ones'
        cs = int(ends[n - n_steep - 1])
        flat, tail = base[:cs], base[cs:]  # (views: `view *= x` on a slice would copy it onto itself again)
        np.multiply(flat, W, out=flat)
        np.add(flat, u[:cs], out=flat)
        u *= W
        np.add(tail, u[cs:], out=tail)
        pix = base.take(c, mode="clip")
        jflat = j[:np.searchsorted(keep, cs << shift)]
        np.multiply(jflat, W, out=jflat)
    else:  # flat and steep columns alternate
        step = np.where(np.repeat(steep, count), 1, W)
        base *= step
        base += np.where(step == 1, u * W, u)
        pix = base.take(c)
        j *= step.take(c)
    pix += j

    def src() -> np.ndarray:
        seg = np.repeat(np.arange(n), count).take(c)
        return seg if own is None else own.take(seg)
    return pix, alpha, src


class Layer:
    """A batch of anti-aliased marks on ``frame``, composited by `flush` (which also empties it)."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame
        self.H, self.W = frame.shape[:2]
        # (flat pixel indices, coverage 0-255, one RGB tuple or a (n, 3) array of one per pixel)
        self._chunks: list[tuple[np.ndarray, np.ndarray, tuple | np.ndarray]] = []

    # ------------------------------------------------------------------ lines
    def lines(self, segs, width: float, color, dash: tuple[float, float] | None = None,
              caps: bool = False, groups=None) -> Layer:
        """Segments ``(x0, y0, x1, y1)`` of ``width`` px; ``color`` one RGB or one per segment;
        ``dash=(on, off)`` in px draws them dashed. The ends are cut square to the major axis (hidden
        under the discs and arrowheads that usually sit there); ``caps=True`` rounds them.
        ``groups`` (a non-decreasing group number per segment): the marks come out as one call per
        group would give them, one group after another (the pixels of separate polylines, in one pass)."""
        segs = np.asarray(segs, dtype=np.float64).reshape(-1, 4)
        cols = np.asarray(color, dtype=np.uint8)
        if dash is not None and len(segs):
            segs, src = dash_segments(segs, *dash)
            if cols.ndim == 2:
                cols = cols[src]
            if groups is not None:
                groups = np.asarray(groups)[src]
        if not len(segs):
            return self
        h = max(0.5, width / 2)
        hq = round(h * 4) / 4
        W, H = self.W, self.H
        key = None
        if cols.ndim == 1 and not caps:  # the same segments again (a fixed layout): their pixels are known
            key = (segs.tobytes(), hq, W, H, None if groups is None else np.asarray(groups).tobytes())
            hit = _LINES.get(key)
            if hit is not None:
                self._chunks.append((hit[0], hit[1], _rgb(cols)))
                return self
        pix, alpha, src = _line_pixels(segs, hq, W, H, groups)
        if cols.ndim == 2:
            self._chunks.append((pix, alpha, cols.take(src(), axis=0)))
        else:
            self._chunks.append((pix, alpha, _rgb(cols)))
            if key is not None and key in _SEEN:  # drawn before: kept from now on
                if len(_LINES) >= 64:
                    _LINES.pop(next(iter(_LINES)))
                pix.setflags(write=False)
                alpha.setflags(write=False)
                _LINES[key] = (pix, alpha)
            elif key is not None:
                if len(_SEEN) >= 256:
                    _SEEN.pop(next(iter(_SEEN)))
                _SEEN[key] = None
        if caps:
            for x, y in np.concatenate([segs[:, :2], segs[:, 2:]]):
                self.disc(x, y, h, tuple(cols) if cols.ndim == 1 else (0, 0, 0))
        return self

    def polyline(self, pts: Sequence[Point], width: float, color: Color, closed: bool = False,
                 dash: tuple[float, float] | None = None) -> Layer:
        p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        if closed:
            p = np.vstack([p, p[:1]])
        a, b = p[:-1], p[1:]
        if dash is None:  # each piece runs half a width past its joints, so corners close
            d = b - a
            d *= (width / 2 / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9))[:, None]
            a, b = a - d, b + d
        return self.lines(np.hstack([a, b]), width, color, dash)

    def polylines(self, polys: Sequence[Sequence[Point]], width: float, color: Color, closed: bool = False,
                  dash: tuple[float, float] | None = None) -> Layer:
        """Several polylines in one colour: the marks of one `polyline` call each, in order, in one pass."""
        segs, groups = [], []
        for g, pts in enumerate(polys):
            p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
            if closed:
                p = np.vstack([p, p[:1]])
            a, b = p[:-1], p[1:]
            if dash is None:
                d = b - a
                d *= (width / 2 / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9))[:, None]
                a, b = a - d, b + d
            segs.append(np.hstack([a, b]))
            groups.append(np.full(len(a), g))
        if not segs:
            return self
        return self.lines(np.concatenate(segs), width, color, dash, groups=np.concatenate(groups))

    def circle(self, cx: float, cy: float, r: float, width: float, color: Color,
               dash: tuple[float, float] | None = None) -> Layer:
        """The outline of a circle (a fine polygon, so any radius costs about its perimeter)."""
        n = int(np.clip(r * 0.8, 24, 256))
        ang = np.linspace(0, 2 * np.pi, n + 1)
        return self.polyline(np.stack([cx + r * np.cos(ang), cy + r * np.sin(ang)], 1), width, color, dash=dash)

    # ------------------------------------------------------------------ masks
    def mask(self, mask: np.ndarray, x: int, y: int, color: Color) -> Layer:
        """A coverage mask with its top-left at (x, y) in one colour (cached masks are cheapest)."""
        offsets, alpha, h, w = _stamp(mask, self.W)
        if x >= 0 and y >= 0 and x + w <= self.W and y + h <= self.H:
            self._chunks.append((offsets + (y * self.W + x), alpha, color if type(color) is tuple else _rgb(color)))
            return self
        ys, xs, alpha = _sparse(mask)
        return self._add(ys + y, xs + x, alpha, color)

    def masks(self, masks: Sequence[np.ndarray], xs: Sequence[int], ys: Sequence[int], color) -> Layer:
        """Several coverage masks (top-left corners ``xs``, ``ys``) in one colour: the same marks as one
        `mask` call each, in order, gathered into as few chunks as the frame's border allows."""
        W, H = self.W, self.H
        offsets: list[np.ndarray] = []
        alphas: list[np.ndarray] = []
        for m, x, y in zip(masks, xs, ys):
            off, alpha, h, w = _stamp(m, W)
            if x >= 0 and y >= 0 and x + w <= W and y + h <= H:
                offsets.append(off + (y * W + x))
                alphas.append(alpha)
                continue
            if offsets:  # what came before goes in first: the marks keep their order
                self._chunks.append((np.concatenate(offsets), np.concatenate(alphas), _rgb(color)))
                offsets, alphas = [], []
            self.mask(m, x, y, color)
        if offsets:
            self._chunks.append((np.concatenate(offsets) if len(offsets) > 1 else offsets[0],
                                 np.concatenate(alphas) if len(alphas) > 1 else alphas[0], _rgb(color)))
        return self

    def _add(self, ys: np.ndarray, xs: np.ndarray, alpha: np.ndarray, color) -> Layer:
        """Pixels (rows, cols, coverage) in one colour or one per pixel; those off the frame are dropped."""
        cols = _rgb(color)
        ok = (ys >= 0) & (ys < self.H) & (xs >= 0) & (xs < self.W)
        if not ok.all():
            ys, xs, alpha = ys[ok], xs[ok], alpha[ok]
            cols = cols[ok] if isinstance(cols, np.ndarray) else cols
        self._chunks.append((ys.astype(np.intp) * self.W + xs, alpha, cols))
        return self

    def disc(self, cx: float, cy: float, r: float, color: Color, ring: float = 0.0) -> Layer:
        """A filled disc of radius ``r`` (or a ring ``ring`` px wide inside it) centred on (cx, cy)."""
        m = disc_mask(round(r * 2) / 2, round(ring * 2) / 2)
        half = m.shape[0] // 2
        return self.mask(m, int(round(cx)) - half, int(round(cy)) - half, color)

    def text(self, text: str, xy: Point, size: int, color: Color = (30, 30, 35), anchor: str = "mm",
             bold: bool = False, mono: bool = False) -> tuple[int, int, int, int]:
        """Text anchored at ``xy`` (anchor as in `canvas.draw_text`); returns its pixel box."""
        m = text_mask(text, int(size), bold, mono)
        h, w = m.shape
        ax, ay = anchor
        x = int(round(xy[0] if ax == "l" else xy[0] - w / 2 if ax == "m" else xy[0] - w))
        y = int(round(xy[1] if ay == "t" else xy[1] - h / 2 if ay == "m" else xy[1] - h))
        self.mask(m, x, y, color)
        return x, y, x + w, y + h

    def rect(self, x0: float, y0: float, x1: float, y1: float, color: Color, alpha: float = 1.0) -> Layer:
        """A filled pixel box [x0, x1) x [y0, y1) (clipped), optionally translucent."""
        a, b = int(round(x0)), int(round(x1))
        c, d = int(round(y0)), int(round(y1))
        if a >= b or c >= d:
            return self
        return self.mask(_solid(d - c, b - a, int(alpha * 255 + 0.5)), a, c, color)

    def triangles(self, tris, color) -> Layer:
        """Filled anti-aliased triangles, ``tris`` (k, 3, 2) in px; small ones (arrowheads) are cheap."""
        tris = np.asarray(tris, dtype=np.float64).reshape(-1, 3, 2)
        if not len(tris):
            return self
        lo = np.floor(tris.min(axis=1)).astype(np.int64) - 1
        side = int(np.ceil((tris.max(axis=1) - lo).max())) + 2
        g = np.arange(side)
        gx = lo[:, 0, None, None] + g[None, None, :] + 0.5
        gy = lo[:, 1, None, None] + g[None, :, None] + 0.5
        area = ((tris[:, 1, 0] - tris[:, 0, 0]) * (tris[:, 2, 1] - tris[:, 0, 1])
                - (tris[:, 1, 1] - tris[:, 0, 1]) * (tris[:, 2, 0] - tris[:, 0, 0]))
        sign = np.where(area >= 0, 1.0, -1.0)[:, None, None, None]
        # the signed distance of every pixel centre to each edge i (from corner i to corner i + 1), all at once:
        # sign * (ex (gy - py) - ey (gx - px)) / |e|; sign is +-1, so sign * (a - b) is exactly (sign a) - (sign b)
        p = tris
        e = tris[:, _NEXT] - p  # (k, 3, 2)
        n = np.hypot(e[..., 0], e[..., 1]) + 1e-9
        dist = sign * (e[:, :, 0, None, None] * (gy[:, None] - p[:, :, 1, None, None]))
        dist = dist - sign * (e[:, :, 1, None, None] * (gx[:, None] - p[:, :, 0, None, None]))
        dist /= n[:, :, None, None]
        cover = np.minimum(dist[:, 0], dist[:, 1])
        np.minimum(cover, dist[:, 2], out=cover)
        cover += 0.5
        # the covered pixels by flat index (a 3-D nonzero costs far more), in the same order; their coverage
        # clipped to [0, 1] (above 0.02, so only the top clip acts)
        idx = np.flatnonzero(cover > 0.02)
        a = cover.ravel().take(idx)
        np.minimum(a, 1, out=a)
        cols = np.asarray(color, dtype=np.uint8)
        W, H = self.W, self.H
        if lo.min() >= 0 and lo[:, 0].max() + side <= W and lo[:, 1].max() + side <= H:  # all inside the frame
            offsets = (lo[:, 1] * W + lo[:, 0])[:, None] + (g[:, None] * W + g).ravel()
            self._chunks.append((offsets.ravel().take(idx), (a * 255 + 0.5).astype(np.uint8),
                                 cols.take(idx // (side * side), axis=0) if cols.ndim == 2 else _rgb(cols)))
            return self
        t = idx // (side * side)
        rem = idx - t * (side * side)
        iy = rem // side
        ix = rem - iy * side
        ys, xs = lo[t, 1] + iy, lo[t, 0] + ix
        if cols.ndim == 2:
            cols = cols[t]
        return self._add(ys, xs, (a * 255 + 0.5).astype(np.uint8), cols)

    def arrowheads(self, tips, dirs, length: float, width: float, color) -> Layer:
        """Filled arrowheads with their points at ``tips`` (k, 2), pointing along ``dirs`` (k, 2)."""
        tips = np.asarray(tips, dtype=np.float64).reshape(-1, 2)
        d = np.asarray(dirs, dtype=np.float64).reshape(-1, 2)
        d = d / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
        perp = np.stack([-d[:, 1], d[:, 0]], 1)
        base = tips - d * length
        tris = np.stack([tips, base + perp * width / 2, base - perp * width / 2], 1)
        return self.triangles(tris, color)

    def polygon(self, pts: Sequence[Point], color: Color, alpha: float = 1.0) -> Layer:
        """A filled simple polygon (pixel-exact fill; draw its outline with `polyline` for smooth edges)."""
        p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        lo = np.floor(p.min(axis=0)).astype(int)
        hi = np.ceil(p.max(axis=0)).astype(int) + 1
        img = Image.new("L", (int(hi[0] - lo[0]) + 1, int(hi[1] - lo[1]) + 1), 0)
        ImageDraw.Draw(img).polygon([(float(x - lo[0] - 0.5), float(y - lo[1] - 0.5)) for x, y in p],
                                    fill=int(alpha * 255 + 0.5))
        ys, xs, a = _sparse(np.asarray(img))
        return self._add(ys + lo[1], xs + lo[0], a, color)

    # ------------------------------------------------------------------ compositing
    def flush(self, dedupe: bool = True, under: Color | None = None) -> None:
        """Blend every mark onto the frame in one pass and empty the layer. ``dedupe=False`` skips
        resolving pixels that several marks cover (faster; for marks known not to overlap).
        ``under``: every mark lies on pixels of this one colour (a plain background), so each pixel's
        result is looked up in a table by its coverage instead of blended (fastest)."""
        if not self._chunks:
            return
        if under is not None:
            return self._flush_over(tuple(int(v) for v in under))
        chunks, self._chunks = self._chunks, []
        pix = np.concatenate([c[0] for c in chunks]) if len(chunks) > 1 else chunks[0][0]
        alpha = np.concatenate([c[1] for c in chunks]) if len(chunks) > 1 else chunks[0][1]
        first = chunks[0][2]
        cols = None  # per channel, one colour value per pixel (None: all pixels have colour ``first``)
        if all(isinstance(c[2], tuple) for c in chunks):
            if not all(c[2] == first for c in chunks):
                per = np.array([c[2] for c in chunks], dtype=np.uint16).T
                counts = [len(c[0]) for c in chunks]
                cols = [np.repeat(per[ch], counts) for ch in range(3)]
        else:
            full = np.concatenate([np.broadcast_to(np.array(c[2], dtype=np.uint8), (len(c[0]), 3))
                                   if isinstance(c[2], tuple) else c[2] for c in chunks]).T.astype(np.uint16)
            cols = list(full)
        if dedupe and cols is not None:  # where marks overlap, every copy of a pixel takes the largest coverage
            # (one colour needs none: fully covered pixels are set first, and rims blend over them)
            buf = _scratch(self.H * self.W)
            np.maximum.at(buf, pix, alpha)
            alpha = buf[pix]
            buf[pix] = 0
        rgb = self.frame.reshape(-1, 3)
        if cols is None:  # one colour: fully covered pixels are just set (one put of whole pixels), only the rims blend
            solid = alpha == 255
            if solid.any():  # (flat takes: several times faster than boolean masks)
                rgb.view(PIXEL).ravel().put(pix.take(np.flatnonzero(solid)), np.array(first, dtype=np.uint8).view(PIXEL))
                rim = np.flatnonzero(~solid)
                pix, alpha = pix.take(rim), alpha.take(rim)
        # out = (pixel * (256 - a) + colour * a) >> 8 with a = alpha + alpha >> 7 (0..256: exact at both ends);
        # per channel (numpy's loops over whole pixels, 3 values long, run far slower)
        a = alpha.astype(np.uint16)
        a += a >> 7
        inv = 256 - a
        for ch in range(3):
            plane = rgb[:, ch]
            v = plane[pix].astype(np.uint16)
            v *= inv
            v += a * first[ch] if cols is None else a * cols[ch]
            v >>= 8
            plane[pix] = v.astype(np.uint8)  # (same dtype: numpy's fast scatter, no cast per element)

    def _flush_over(self, under: Color) -> None:
        chunks, self._chunks = self._chunks, []
        if any(not isinstance(c[2], tuple) for c in chunks):  # per-pixel colours: blend them instead
            self._chunks = chunks
            return self.flush()
        flat = self.frame.reshape(-1, 3).view(PIXEL).ravel()
        if len(chunks) * 1024 <= sum(len(c[0]) for c in chunks):  # a few large chunks: one put each, in order (the
            # same pixels as one put of them all, without first copying them into one array)
            for pix, alpha, colour in chunks:
                flat.put(pix, _over_pixels((colour,), under).take(alpha, mode="clip"), mode="wrap")
            return
        colours = list(dict.fromkeys(c[2] for c in chunks))
        index = {c: i for i, c in enumerate(colours)}
        table = _over_pixels(tuple(colours), under)  # colour k at coverage a is row 256 k + a
        if len(chunks) == 1:  # (one colour: coverage is the row)
            pix, key = chunks[0][0], chunks[0][1]
        else:
            pix = np.concatenate([c[0] for c in chunks])
            key = np.concatenate([c[1] for c in chunks], dtype=np.intp)
        if len(colours) > 1:  # colour k's marks index rows 256 k + coverage: one slice per chunk
            at = 0
            for c in chunks:
                size = len(c[0])
                k = index[c[2]]
                if k:
                    key[at:at + size] += 256 * k
                at += size
        flat.put(pix, table.take(key, mode="clip"), mode="wrap")


@functools.lru_cache(maxsize=256)
def _over_table(colours: tuple[Color, ...], under: Color) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per channel, the blend of each colour over ``under`` at every coverage 0-255 (same rounding as `Layer.flush`)."""
    a = np.arange(256, dtype=np.uint16)
    a = a + (a >> 7)
    out = []
    for ch in range(3):
        out.append(np.concatenate([((np.uint16(under[ch]) * (256 - a) + np.uint16(col[ch]) * a) >> 8).astype(np.uint8)
                                   for col in colours]))
    return tuple(out)


@functools.lru_cache(maxsize=256)
def _over_pixels(colours: tuple[Color, ...], under: Color) -> np.ndarray:
    """`_over_table` as one 3-byte item a row (read-only)."""
    out = np.ascontiguousarray(np.stack(_over_table(colours, under), 1)).view(PIXEL).ravel()
    out.setflags(write=False)
    return out


_SCRATCH: dict[int, np.ndarray] = {}


def _scratch(n: int) -> np.ndarray:
    """A zeroed uint8 buffer of n entries, reused (callers zero what they touched)."""
    buf = _SCRATCH.get(n)
    if buf is None:
        if len(_SCRATCH) > 8:
            _SCRATCH.clear()
        buf = _SCRATCH[n] = np.zeros(n, dtype=np.uint8)
    return buf

@functools.lru_cache(maxsize=64)
def point_pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The pairs i < j of ``n`` points in loop order (i, then j), as `np.triu_indices(n, 1)`: the first
    and the second ends, each read-only and contiguous (cached)."""
    i, j = np.triu_indices(n, 1)
    i.setflags(write=False)
    j.setflags(write=False)
    return i, j


def segments_cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """For segments ``a`` (k, 4) and ``b`` (m, 4): a (k, m) bool array, True where they properly cross
    (intersect at a point interior to both; touching at an end does not count)."""
    if b is a:  # every segment against every other: each orientation is computed once
        return _segments_cross_self(np.asarray(a, dtype=np.float64).reshape(-1, 4))
    a = np.asarray(a, dtype=np.float64).reshape(-1, 4)[:, None, :]
    b = np.asarray(b, dtype=np.float64).reshape(-1, 4)[None, :, :]

    def orient(px, py, qx, qy, rx, ry):
        return np.sign((qx - px) * (ry - py) - (qy - py) * (rx - px))

    o1 = orient(a[..., 0], a[..., 1], a[..., 2], a[..., 3], b[..., 0], b[..., 1])
    o2 = orient(a[..., 0], a[..., 1], a[..., 2], a[..., 3], b[..., 2], b[..., 3])
    o3 = orient(b[..., 0], b[..., 1], b[..., 2], b[..., 3], a[..., 0], a[..., 1])
    o4 = orient(b[..., 0], b[..., 1], b[..., 2], b[..., 3], a[..., 2], a[..., 3])
    return (o1 * o2 < 0) & (o3 * o4 < 0)


def _segments_cross_self(s: np.ndarray) -> np.ndarray:
    """`segments_cross(s, s)`: the side of every segment's start and end point from every segment's line,
    ``o[i, j]`` (start of j) and ``o[i, k + j]`` (end of j), each sign the same product as there."""
    k = len(s)
    px, py = s[:, 0:1], s[:, 1:2]
    rx = np.concatenate([s[:, 0], s[:, 2]])
    ry = np.concatenate([s[:, 1], s[:, 3]])
    o = np.sign((s[:, 2:3] - px) * (ry - py) - (s[:, 3:4] - py) * (rx - px))
    both = o[:, :k] * o[:, k:]  # both[i, j] < 0: the ends of j lie on either side of i's line
    return (both < 0) & (both.T < 0)


def point_segment_distance(pts: np.ndarray, segs: np.ndarray) -> np.ndarray:
    """Distances (k, m) from points ``pts`` (k, 2) to segments ``segs`` (m, 4)."""
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    s = np.asarray(segs, dtype=np.float64).reshape(-1, 4)
    px, py = p[:, 0:1], p[:, 1:2]
    ax, ay = s[:, 0], s[:, 1]
    dx, dy = s[:, 2] - ax, s[:, 3] - ay
    d2 = squared_segment_distance(px, py, ax, ay, dx, dy, np.maximum(dx * dx + dy * dy, 1e-12))
    return np.sqrt(d2, out=d2)


def squared_segment_distance(px: np.ndarray, py: np.ndarray, ax: np.ndarray, ay: np.ndarray, dx: np.ndarray,
                             dy: np.ndarray, len2: np.ndarray) -> np.ndarray:
    """Squared distances from points (columns ``px``, ``py``) to segments from (``ax``, ``ay``) along
    (``dx``, ``dy``) of squared length ``len2`` (at least a tiny positive number), broadcast (k, m)."""
    return squared_distance_from_offsets(px - ax, py - ay, dx, dy, len2)


def squared_distance_from_offsets(rx: np.ndarray, ry: np.ndarray, dx: np.ndarray, dy: np.ndarray,
                                  len2: np.ndarray) -> np.ndarray:
    """`squared_segment_distance` from the points' offsets to each segment's first end (``rx``, ``ry``, both
    overwritten: ``rx`` is returned)."""
    t = rx * dx
    t += ry * dy
    t /= len2
    np.maximum(t, 0, out=t)  # clipped to [0, 1]
    np.minimum(t, 1, out=t)
    rx -= t * dx
    ry -= t * dy
    rx *= rx
    ry *= ry
    rx += ry
    return rx


def bounds(points: Iterable[Point]) -> tuple[float, float, float, float]:
    """(xmin, ymin, xmax, ymax) of some points."""
    p = np.asarray(list(points), dtype=np.float64).reshape(-1, 2)
    return float(p[:, 0].min()), float(p[:, 1].min()), float(p[:, 0].max()), float(p[:, 1].max())
