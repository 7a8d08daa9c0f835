"""Pixel helpers of the geometry plot (`_plot.Plot`), in plain numpy and PIL: solid fills set as rows
of bytes (`paint`, `polygon_raster`), label and dot stamps blended in one gather and scatter
(`_stamp_terms`, `blend_stamps`), the marks of outlines (`outline_segments`, `outline_coverage`),
and outlined fills on a grid of whole pixels (`segment_stamp`, `outlined_polygons`). The caches here
hold pure functions' results, bounded by entry counts."""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image, ImageDraw

from gymv_envs.core.canvas import text_mask
from gymv_envs.core.vector import Layer, disc_mask


def fill_polygon(img: np.ndarray, pts: np.ndarray, color, box: tuple[int, int, int, int]) -> None:
    """Set the pixels of ``img`` (an (H, W, 3) uint8 frame) that PIL's polygon fill through the pixel
    points ``pts`` (k, 2) covers (pixel centres, as `polygon_raster`) to ``color``, within the pixel box
    ``box`` (x0, y0, x1, y1). PIL fills a one-byte mask of the polygon's box; four pixels of it (one
    32-bit word) make the three words of their 12 frame bytes, and the box's bytes take the colour
    where the mask is set (bitwise, whole rows at a time): no 3- or 4-byte pixels go through PIL."""
    H, W = img.shape[:2]
    (xa, ya), (xb, yb) = pts.min(axis=0).tolist(), pts.max(axis=0).tolist()
    x0, y0 = max(int(np.floor(xa)), box[0], 0), max(int(np.floor(ya)), box[1], 0)
    x1, y1 = min(int(np.ceil(xb)) + 2, box[2], W), min(int(np.ceil(yb)) + 2, box[3], H)
    if x0 >= x1 or y0 >= y1:
        return
    w, h = x1 - x0, y1 - y0
    q = (w + 3) // 4  # words of four mask bytes per row (the mask's columns past w are not used)
    mask = Image.new("L", (4 * q, h), 0)
    ImageDraw.Draw(mask).polygon([(x - x0 - 0.5, y - y0 - 0.5) for x, y in pts.tolist()], fill=255)
    m = np.asarray(mask).view("<u4")  # bytes b0 b1 b2 b3 (0 or 255) of four pixels
    words = np.empty((h, q, 3), dtype="<u4")  # their frame bytes: b0 b0 b0 b1 | b1 b1 b2 b2 | b2 b3 b3 b3
    words[:, :, 0] = (m & 0xFF) * 0x0101 | m << 16
    words[:, :, 1] = ((m >> 8) & 0xFF | m & 0xFF0000) * 0x0101
    words[:, :, 2] = (m >> 24) * 0x01010000 | m >> 16
    inside = words.view(np.uint8).reshape(h, 12 * q)[:, :3 * w]
    sub = img.reshape(H, 3 * W)[y0:y1, 3 * x0:3 * x1]
    change = sub ^ _plane_of(tuple(int(v) for v in color), H, W)[y0:y1, 3 * x0:3 * x1]
    change &= inside
    sub ^= change


@functools.lru_cache(maxsize=16)
def _plane_of(color: tuple[int, int, int], H: int, W: int) -> np.ndarray:
    """An H x W frame of one colour as (H, 3 W) bytes (read-only; at most 16 of them): a box of it has
    the strides of the same box of a frame, so the two combine row by row without a buffer."""
    plane = np.tile(np.array(color, dtype=np.uint8), (H, W))
    plane.setflags(write=False)
    return plane


def paint(img: np.ndarray, x0: int, y0: int, mask: np.ndarray, color) -> None:
    """Set the pixels of a mask placed with its top-left at (x0, y0) to ``color`` (clipped). ``img``:
    an (H, W, 3) uint8 frame; ``mask``: bool, (h, 3 w), each pixel's column repeated for its three
    bytes (as `polygon_raster` gives it), so the frame's rows are written as rows of bytes: several
    times faster than a masked assignment of 3-byte pixels."""
    H, W = img.shape[:2]
    h, w = mask.shape[0], mask.shape[1] // 3
    a, b, c, d = max(x0, 0), max(y0, 0), min(x0 + w, W), min(y0 + h, H)
    if a < c and b < d:
        np.copyto(img.reshape(H, 3 * W)[b:d, 3 * a:3 * c], _row_of(tuple(color), c - a),
                  where=mask[b - y0:d - y0, 3 * (a - x0):3 * (c - x0)])


@functools.lru_cache(maxsize=1024)
def _row_of(color: tuple[int, int, int], n: int) -> np.ndarray:
    """``n`` pixels of one colour as a row of bytes (read-only)."""
    row = np.tile(np.array(color, dtype=np.uint8), n)
    row.setflags(write=False)
    return row


@functools.lru_cache(maxsize=512)
def _stamp_terms(W: int, text: str, size: float, color: tuple[int, int, int]) -> tuple:
    """A stamp for `blend_stamps` in a frame ``W`` px wide: a dot (``text="dot"``, ``size`` its radius,
    as `vector.disc_mask`) or a label (its letters at ``size`` in ``color`` on a white halo of 80%,
    a pixel wider than the letters all round). Per byte of each covered pixel: its offset from the
    top-left byte, ``keep`` and ``add`` with blend(byte) = (byte * keep + add) >> 16 (blending the
    halo, then the letters, with `vector.Layer.flush`'s 8-bit weights, rounded once); and the
    covered pixels' rows and columns, and the stamp's height and width."""
    if text == "dot":
        ink = disc_mask(size, 0.0).astype(np.uint32)
        halo = np.zeros_like(ink)
    else:
        m = text_mask(text, int(size), True)
        ink = np.zeros((m.shape[0] + 2, m.shape[1] + 2), dtype=np.uint32)
        ink[1:-1, 1:-1] = m
        halo = np.full_like(ink, int(0.8 * 255 + 0.5))
    a1, a2 = halo + (halo >> 7), ink + (ink >> 7)
    keep = (256 - a1) * (256 - a2)
    rows, cols = np.nonzero(keep < 65536)
    keep, a1, a2 = keep[rows, cols], a1[rows, cols], a2[rows, cols]
    add = np.stack([255 * a1 * (256 - a2) + c * a2 * 256 for c in color], 1).ravel()
    offset = ((rows * W + cols) * 3)[:, None] + np.arange(3)
    terms = (offset.ravel().astype(np.intp), np.repeat(keep, 3), add, rows, cols, *ink.shape)
    for t in terms[:5]:
        t.setflags(write=False)
    return terms


def blend_stamps(img: np.ndarray, stamps) -> None:
    """Blend stamps of `_stamp_terms` (each with its top-left pixel ``x, y``) onto ``img`` in one
    gather and one scatter of bytes; pixels off the frame are dropped; a pixel under two stamps takes
    the later one."""
    H, W = img.shape[:2]
    parts, starts = [], []
    for terms, x, y in stamps:
        off, keep, add, rows, cols, h, w = terms
        if not (x >= 0 and y >= 0 and x + w <= W and y + h <= H):  # (rare) a stamp at the frame's edge
            ok = np.repeat((rows + y >= 0) & (rows + y < H) & (cols + x >= 0) & (cols + x < W), 3)
            off, keep, add = off[ok], keep[ok], add[ok]
        parts.append((off, keep, add))
        starts.append(3 * (y * W + x))
    if not parts:
        return
    at = np.concatenate([p[0] for p in parts])
    at += np.repeat(np.array(starts, dtype=np.intp), [len(p[0]) for p in parts])
    flat = img.reshape(-1)
    v = flat.take(at).astype(np.uint32)
    v *= np.concatenate([p[1] for p in parts])
    v += np.concatenate([p[2] for p in parts])
    v >>= 16
    flat[at] = v


def outline_segments(xy: np.ndarray, sizes: list[int], width: float, closed: bool,
                     extend: bool) -> tuple[np.ndarray, np.ndarray]:
    """The segments ``(k, 4)`` and their outline numbers that `vector.Layer.polylines` makes of the
    outlines whose points lie one after another in ``xy`` (``sizes`` points each), in one go: each
    piece from a point to the next (and the last to the first where ``closed``), ``extend``: run
    half a width past both ends (undashed), with the same arithmetic per piece."""
    n = len(sizes)
    starts = np.zeros(n, dtype=np.intp)
    np.cumsum(sizes[:-1], out=starts[1:])
    count = np.asarray(sizes, dtype=np.intp) - (0 if closed else 1)
    ends = np.cumsum(count)
    first = np.repeat(starts - (ends - count), count)
    a_at = np.arange(int(ends[-1]), dtype=np.intp) + first
    b_at = a_at + 1
    if closed:
        b_at[ends[count > 0] - 1] = starts[count > 0]
    a, b = xy[a_at], xy[b_at]
    if extend:
        d = b - a
        d *= (width / 2 / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9))[:, None]
        a, b = a - d, b + d
    return np.hstack([a, b]), np.repeat(np.arange(n), count)


@functools.lru_cache(maxsize=2048)
def outline_coverage(H: int, W: int, pts: bytes, width: float, closed: bool, dash: bool,
                     segment: bool = False) -> tuple[int, int, np.ndarray]:
    """The coverage (uint8, read-only, with its top-left pixel) of a one-colour `vector.Layer.polyline`
    through the float64 (k, 2) pixel points ``pts`` in an H x W frame, as that layer's flush applies
    it: 255 where some piece covers a pixel fully, else the coverage of the last piece over it (so
    `Layer.mask` with it, in a one-colour layer, gives the same pixels). Read from the marks the layer
    collects (nothing is drawn). ``segment``: the two points are one `Layer.lines` segment (no
    half-width extension at its ends)."""
    w = float(width)
    p = np.frombuffer(pts, dtype=np.float64).reshape(-1, 2)
    layer = Layer(np.empty((H, W, 3), dtype=np.uint8))  # only its size matters: the marks are read, not flushed
    if segment:
        layer.lines(p.reshape(1, 4), w, (255, 0, 0))
    else:
        layer.polyline(p, w, (255, 0, 0), closed=closed, dash=(w * 4, w * 3) if dash else None)
    pix = np.concatenate([c[0] for c in layer._chunks]) if layer._chunks else np.zeros(0, dtype=np.intp)
    if not len(pix):
        return 0, 0, np.zeros((1, 1), dtype=np.uint8)
    alpha = np.concatenate([c[1] for c in layer._chunks])
    ys, xs = np.divmod(pix, W)
    y0, y1, x0, x1 = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
    cover = np.zeros((y1 - y0, x1 - x0), dtype=np.uint8)
    cover[ys - y0, xs - x0] = alpha  # the last mark over a pixel sets its blend
    full = alpha == 255
    cover[ys[full] - y0, xs[full] - x0] = 255
    cover.setflags(write=False)
    return x0, y0, cover


@functools.lru_cache(maxsize=4096)
def polygon_raster(pts: bytes) -> tuple[tuple[int, int], np.ndarray]:
    """The pixels a filled polygon covers, as `vector.Layer.polygon` rasterises it (PIL, pixel
    centres): its top-left pixel and a read-only bool mask, each column repeated three times (one per
    byte of a pixel, for `paint`). ``pts`` is the float64 (k, 2) outline's bytes."""
    p = np.frombuffer(pts, dtype=np.float64).reshape(-1, 2)
    lo = np.floor(p.min(axis=0)).astype(int)
    hi = np.ceil(p.max(axis=0)).astype(int) + 1
    img = Image.new("L", (int(hi[0] - lo[0]) + 1, int(hi[1] - lo[1]) + 1), 0)
    ImageDraw.Draw(img).polygon([(float(x - lo[0] - 0.5), float(y - lo[1] - 0.5)) for x, y in p], fill=255)
    mask = np.repeat(np.asarray(img) > 0, 3, axis=1)
    mask.setflags(write=False)
    return (int(lo[0]), int(lo[1])), mask



@functools.lru_cache(maxsize=256)
def segment_stamp(dx: int, dy: int, half: float, W: int, color: tuple[int, int, int]) -> tuple[tuple, int, int]:
    """A `blend_segments` stamp of a line ``half`` px wide each side with round caps (a capsule with the
    one-pixel ramp of `vector.Layer` marks, its coverage in 128ths) in ``color``, from a pixel
    corner to the corner ``(dx, dy)`` px away, in a frame ``W`` px wide; and its top-left pixel
    relative to the start. Whole-pixel steps give the same stamp anywhere (`_plot.make_axes`
    ``whole``). Only the pixels near the line are computed: along its longer axis, a window across it
    per pixel; a step down is the mirror image of the step up. At most 256 stamps of 52 bytes per
    covered pixel (under 0.2 MB each at 512 px)."""
    if dy < 0 < dx:  # the mirror image of the step (dx, -dy) across its start's row: the same blends
        (_, keep, add, rows, cols, h, w), ox, oy = segment_stamp(dx, -dy, half, W, color)
        rows = (h - 1) - rows
        at, offset = (rows * W + cols) * 3, np.empty(len(keep), dtype=np.intp)
        for k in range(3):
            offset[k::3] = at + k
        terms = offset, keep, add, rows, cols, h, w
        for arr in (offset, rows):
            arr.setflags(write=False)
        return terms, ox, -oy - h
    reach = half + 0.5  # coverage is reach - distance, clipped to [0, 1]
    ends = int(np.ceil(reach)) + 1
    steep = abs(dy) > abs(dx)
    along, across = (dy, dx) if steep else (dx, dy)
    u = np.arange(min(0, along) - ends + 0.5, max(0, along) + ends)  # pixel centres along the longer axis
    v = (np.floor(np.clip(u / along, 0.0, 1.0) * across)[:, None]
         + np.arange(0.5 - ends, ends + 1.0)).ravel()  # and a window of them across it, around the line
    u = np.repeat(u, 2 * ends + 1)
    x, y = (v, u) if steep else (u, v)
    t = (x * dx + y * dy) / (dx * dx + dy * dy)
    np.clip(t, 0.0, 1.0, out=t)
    ex, ey = x - t * dx, y - t * dy
    ex *= ex
    ey *= ey
    ex += ey
    a = reach - np.sqrt(ex, out=ex)
    near = np.flatnonzero(a >= 1 / 256)
    a = (np.minimum(a.take(near), 1.0) * 128 + 0.5).astype(np.uint16)  # in 128ths
    cols, rows = (x.take(near) - 0.5).astype(np.intp), (y.take(near) - 0.5).astype(np.intp)
    ox, oy = int(cols.min()), int(rows.min())
    rows -= oy
    cols -= ox
    n = len(a)
    offset, keep, add = np.empty(3 * n, dtype=np.intp), np.empty(3 * n, dtype=np.uint16), np.empty(3 * n, dtype=np.uint16)
    at = (rows * W + cols) * 3
    inv = 128 - a
    for k in range(3):  # each pixel's three bytes in turn
        offset[k::3] = at + k
        keep[k::3] = inv
        add[k::3] = a * color[k]
    terms = offset, keep, add, rows, cols, int(rows.max()) + 1, int(cols.max()) + 1
    for arr in terms[:5]:
        arr.setflags(write=False)
    return terms, ox, oy


def outlined_polygons(img: np.ndarray, polys: list[list[tuple[int, int]]], fills, edge, half: float) -> None:
    """Filled polygons through whole-pixel corners (pixel corners, not centres), outlined with a line
    ``half`` px wide each side in ``edge`` (`segment_stamp`: round joins). The fills go first, one after
    another: PIL draws all of them in one mask at three columns per pixel (off by under half a pixel
    at the edge, which the line covers), and each box of the frame takes its colour where its part of
    the mask is set (bitwise, on whole rows). Then the outlines, blended in passes in which no two
    segments of a polygon meet (every other segment, and an odd polygon's last one alone), where a
    pixel under two segments takes both, as two strokes would give it."""
    H, W = img.shape[:2]
    rows = img.reshape(H, 3 * W)
    boxes = []
    for pts in polys:
        xs, ys = [x for x, _ in pts], [y for _, y in pts]
        boxes.append((min(xs), min(ys), max(xs) + 1, max(ys) + 1))
    wide = 3 * max(b[2] - b[0] for b in boxes)
    mask = Image.new("L", (wide, sum(b[3] - b[1] + 2 for b in boxes)), 0)
    draw, top = ImageDraw.Draw(mask), 0
    for pts, (x0, y0, _, y1) in zip(polys, boxes):  # each polygon in its own band of rows, 2 apart
        draw.polygon([(3 * (x - x0) - 0.5, y - y0 + top - 0.5) for x, y in pts], fill=255)
        top += y1 - y0 + 2
    bands, top = np.frombuffer(mask.tobytes(), dtype=np.uint8).reshape(mask.height, wide), 0  # (one copy, not two)
    for fill, (x0, y0, x1, y1) in zip(fills, boxes):
        a, b, c, d = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
        if a < c and b < d:
            sub = rows[b:d, 3 * a:3 * c]
            flip = np.bitwise_xor(sub, _row_of(tuple(int(k) for k in fill), c - a))
            flip &= bands[top + b - y0:top + d - y0, 3 * (a - x0):3 * (c - x0)]
            sub ^= flip
        top += y1 - y0 + 2
    col = tuple(int(k) for k in edge)
    passes: list[list] = [[], [], []]
    for pts in polys:
        n = len(pts)
        for i, ((xa, ya), (xb, yb)) in enumerate(zip(pts, pts[1:] + pts[:1])):
            if (xb, yb) < (xa, ya):  # one stamp per step and its reverse
                xa, ya, xb, yb = xb, yb, xa, ya
            terms, ox, oy = segment_stamp(xb - xa, yb - ya, half, W, col)
            passes[2 if n % 2 and i == n - 1 else i % 2].append((terms, xa + ox, ya + oy))
    flat = img.reshape(-1)
    for stamps in passes:
        if stamps:
            blend_segments(flat, H, W, stamps)


def blend_segments(flat: np.ndarray, H: int, W: int, stamps) -> None:
    """Blend `segment_stamp` stamps (each with its top-left pixel ``x, y``) onto the bytes ``flat`` of an
    H x W frame in one gather and one scatter, in uint16: ``(byte * keep + add) >> 7``; pixels off
    the frame are dropped; a pixel under two stamps takes the later one."""
    offs, keeps, adds = [], [], []
    for (off, keep, add, rows, cols, h, w), x, y in stamps:
        if not (x >= 0 and y >= 0 and x + w <= W and y + h <= H):  # (rare) a stamp at the frame's edge
            ok = np.repeat((rows + y >= 0) & (rows + y < H) & (cols + x >= 0) & (cols + x < W), 3)
            off, keep, add = off[ok], keep[ok], add[ok]
        offs.append(off + 3 * (y * W + x))
        keeps.append(keep)
        adds.append(add)
    at = np.concatenate(offs)
    v = flat.take(at).astype(np.uint16)
    v *= np.concatenate(keeps)
    v += np.concatenate(adds)
    v >>= 7
    flat[at] = v
