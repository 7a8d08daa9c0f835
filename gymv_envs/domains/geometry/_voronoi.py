"""The Voronoi pieces' diagram and marks: borders cut to a square from one scipy diagram, and the
three marks of a picture drawn straight into the frame's bytes, each in a few numpy calls:
borders as anti-aliased strokes (`strokes`), the shaded piece (`fill_convex`) and the lettered sites
(`site_tiles`). Plain floats on the few dozen borders (each numpy call costs as much as a hundred of
them); the caches hold pure functions' results, bounded by entry counts."""

from __future__ import annotations

import functools
import math

import numpy as np
from PIL import Image, ImageDraw

from gymv_envs.core.canvas import PIXEL, text_mask
from gymv_envs.core.vector import disc_mask


def cut_ridges(sites: np.ndarray, lo: float, hi: float) -> list[tuple]:
    """The borders two regions of the sites' Voronoi diagram (scipy.spatial.Voronoi) share inside
    the square [lo, hi]^2: one ``(i, j, length, (x0, y0, x1, y1), u, v)`` per ridge that reaches the
    square (or comes within 1e-9 of it), cut to it; ``u``, ``v`` are scipy's indices of its ends, or
    -1 for an end cut at a side. A ridge scipy leaves open (between two sites of the hull) runs from
    its corner along the two sites' bisector, away from the sites' mean, past the square."""
    from scipy.spatial import Voronoi

    vor = Voronoi(sites)
    corner = vor.vertices.tolist()
    cx, cy = sites.mean(axis=0).tolist()
    sites = sites.tolist()
    out = []
    for (i, j), (u, v) in zip(vor.ridge_points.tolist(), vor.ridge_vertices):
        if u < 0 or v < 0:
            u = v if u < 0 else u
            v = -1
            ax, ay = corner[u]
            (px, py), (qx, qy) = sites[i], sites[j]
            nx, ny = py - qy, qx - px  # along the bisector, outwards
            if ((px + qx) / 2 - cx) * nx + ((py + qy) / 2 - cy) * ny < 0:
                nx, ny = -nx, -ny
            reach = (abs(ax - cx) + abs(ay - cy) + 4 * (hi - lo)) / math.hypot(nx, ny)
            bx, by = ax + reach * nx, ay + reach * ny
        else:
            (ax, ay), (bx, by) = corner[u], corner[v]
            if lo <= ax <= hi and lo <= ay <= hi and lo <= bx <= hi and lo <= by <= hi:  # inside: nothing to cut
                out.append((i, j, math.hypot(bx - ax, by - ay), (ax, ay, bx, by), u, v))
                continue
        dx, dy = bx - ax, by - ay
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


def piece(cut: list[tuple], sites: np.ndarray, t: int, lo: float, hi: float) -> list[tuple[float, float]]:
    """Site ``t``'s piece as a convex polygon: the ends of its borders (a corner once) and the square's
    corners nearest to it, in order of angle around their mean."""
    pts = {}
    for i, j, _, (x0, y0, x1, y1), u, v in cut:
        if i == t or j == t:
            pts[u if u >= 0 else (x0, y0)] = (x0, y0)
            pts[v if v >= 0 else (x1, y1)] = (x1, y1)
    corners = np.array([(lo, lo), (hi, lo), (hi, hi), (lo, hi)], dtype=np.float64)
    nearest = ((corners[:, None, :] - sites[None]) ** 2).sum(-1).argmin(axis=1).tolist()
    out = list(pts.values()) + [(x, y) for (x, y), k in zip(corners.tolist(), nearest) if k == t]
    mx, my = sum(p[0] for p in out) / len(out), sum(p[1] for p in out) / len(out)
    return sorted(out, key=lambda p: math.atan2(p[1] - my, p[0] - mx))


# ---------------------------------------------------------------------------------------- marks
def strokes(img: np.ndarray, segs: list[tuple], width: float, color: tuple[int, int, int],
            shade: tuple[int, int, int]) -> None:
    """Anti-aliased strokes ``width`` px wide of pixel segments ``(xa, ya, xb, yb, grow_a, grow_b, side)``
    on white: each run ``grow`` px past its ends, ``side`` the side of it (+1 or -1, by the cross product
    of b - a and a point there; 0: none) whose rim blends over ``shade`` instead of white. Per column of
    a segment's major axis, the pixels its band covers fully take ``color``, and the one at each edge
    the blend by the part it covers (rims first, so a band's core lies over a neighbour's rim; one
    scatter of 3-byte pixels per kind, ``img`` C-contiguous). Pixels may fall a few px past the ends
    (clip them after)."""
    H, W = img.shape[:2]
    h = width / 2
    rows = []  # per segment: rows of the band between its rims (at most), columns, v at column 0, slope, half band,
    # strides, rim keys
    for xa, ya, xb, yb, ga, gb, side in segs:
        dx, dy = xb - xa, yb - ya
        length = math.hypot(dx, dy)
        if length < 1e-9:
            continue
        steep = abs(dy) > abs(dx)
        if steep:
            u0, v0, u1, v1 = ya - dy * ga / length, xa - dx * ga / length, yb + dy * gb / length, xb + dx * gb / length
        else:
            u0, v0, u1, v1 = xa - dx * ga / length, ya - dy * ga / length, xb + dx * gb / length, yb + dy * gb / length
        if u1 < u0:
            u0, v0, u1, v1 = u1, v1, u0, v0
        slope = (v1 - v0) / (u1 - u0)
        first = math.ceil(u0 - 0.5)
        n = math.floor(u1 - 0.5) - first + 1
        if n <= 0:
            continue
        # the shaded rim: the one at smaller v if the point a - (1, 0) (steep: v is x) or a - (0, 1) lies on `side`
        up = side and (1 if ((dy if steep else -dx) > 0) == (side > 0) else 2)
        half = h * math.sqrt(1 + slope * slope)
        rows.append((int(2 * half), n, first, v0 + slope * (0.5 - u0), slope, half, W if steep else 1, 1 if steep else W,
                     257.5 if up == 1 else 0.5, 257.5 if up == 2 else 0.5))
    if not rows:
        return
    rows.sort(key=lambda r: r[0])  # the bands with fewer rows between their rims first
    table = np.array([v for r in rows for v in r[2:]]).reshape(-1, 8)
    counts = [r[1] for r in rows]
    at = 0
    for k, r in enumerate(rows):  # (the first column of each segment, less the columns before it)
        table[k, 0] -= at
        at += r[1]
    p = np.repeat(table, counts, axis=0).T.copy()  # per column, its segment's row
    u = np.arange(at, dtype=np.float64)
    u += p[0]
    vc = p[2] * u
    vc += p[1]
    top = vc - p[3]
    vc += p[3]  # the band's far edge
    rt = np.floor(top)
    rb = np.floor(vc)
    key = np.empty(2 * at)  # the rims: the part of their pixel they cover, in 256ths, over white (0-256) or shade (257-)
    np.subtract(rt + 1, top, out=key[:at])
    np.subtract(vc, rb, out=key[at:])
    key *= 256
    key[:at] += p[6]
    key[at:] += p[7]
    major = (u * p[4]).astype(np.intp)
    minor = p[5].astype(np.intp)
    rims = np.empty(2 * at, dtype=np.intp)
    first, last = rims[:at], rims[at:]
    np.multiply(rt.astype(np.intp), minor, out=first)
    first += major  # the top rim's pixel
    np.multiply(rb.astype(np.intp), minor, out=last)
    last += major  # the bottom rim's pixel
    # the rows between, fully covered: as many a column as its band has at most (one less where its top rim lies
    # low), so the last is repeated where fewer
    starts, at = [], 0
    for r in rows:
        while len(starts) < r[0]:
            starts.append(at)
        at += r[1]
    inner = np.empty(sum(at - c for c in starts), dtype=np.intp)
    row = first + minor
    below = last - minor
    put = 0
    for j, c in enumerate(starts):
        if j:
            row += minor
        np.minimum(row[c:], below[c:], out=inner[put:put + at - c])
        put += at - c
    pixels = img.reshape(-1).view(PIXEL)
    pixels.put(rims, _rim_colours(color, shade).take(key.astype(np.intp)))
    pixels.put(inner, np.frombuffer(bytes(color), dtype=PIXEL))  # (one value: every index takes it)


@functools.lru_cache(maxsize=16)
def _rim_colours(color: tuple[int, int, int], shade: tuple[int, int, int]) -> np.ndarray:
    """``color`` blended at coverage k / 256 over white (entries k = 0..256) and over ``shade``
    (entries 257 + k), rounded, as 3-byte pixels (read-only)."""
    a = np.arange(257)[:, None] / 256
    color_, shade_ = np.array(color), np.array(shade)
    lut = np.concatenate([255 + a * (color_ - 255), shade_ + a * (color_ - shade_)])
    lut = np.ascontiguousarray(np.rint(lut).astype(np.uint8)).view(PIXEL)[:, 0]
    lut.setflags(write=False)
    return lut


def fill_convex(img: np.ndarray, pts: list[tuple[float, float]], color: tuple[int, int, int],
                box: tuple[int, int, int, int]) -> None:
    """Set the pixels of a convex polygon (pixel points ``pts``, PIL's fill of pixel centres) to
    ``color``, within the pixel box ``box`` (x0, y0, x1, y1, ends excluded). PIL fills a mask three
    bytes wide per pixel (so a pixel at the outline may come out part filled: draw the outline over
    it), and the box's bytes take the colour where it is set, bitwise, whole rows at a time."""
    H, W = img.shape[:2]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    x0, y0 = max(math.floor(min(xs)), box[0]), max(math.floor(min(ys)), box[1])
    x1, y1 = min(math.ceil(max(xs)) + 2, box[2]), min(math.ceil(max(ys)) + 2, box[3])
    if x0 >= x1 or y0 >= y1:
        return
    mask = Image.new("L", (3 * (x1 - x0), y1 - y0), 0)
    ImageDraw.Draw(mask).polygon([(3 * (x - x0) - 1.5, y - y0 - 0.5) for x, y in pts], fill=255)
    sub = img.reshape(H, 3 * W)[y0:y1, 3 * x0:3 * x1]
    change = sub ^ _plane(color, H, W)[y0:y1, 3 * x0:3 * x1]
    change &= np.frombuffer(mask.tobytes(), dtype=np.uint8).reshape(sub.shape)  # (one copy, not two)
    sub ^= change


@functools.lru_cache(maxsize=8)
def _plane(color: tuple[int, int, int], H: int, W: int) -> np.ndarray:
    """An H x W frame of one colour as (H, 3 W) bytes (read-only; 8 at most)."""
    plane = np.tile(np.array(color, dtype=np.uint8), (H, W))
    plane.setflags(write=False)
    return plane


def site_tiles(img: np.ndarray, centres: list[tuple[float, float]], radius: float, ring: float, size: int,
               ink: tuple[int, int, int], letter: tuple[int, int, int]) -> None:
    """The sites as lettered discs centred on pixel ``centres``: a white disc of ``radius`` px with a
    rim ``ring`` px wide in ``ink``, and the site's letter (A, B, ... in order) in bold ``letter`` at
    ``size`` px, each blended over the frame as a square tile (`_tiles`), all in one pass."""
    keep, add = _tiles(radius, ring, size, ink, letter)
    n, side = len(centres), keep.shape[1]
    half = side // 2
    H, W = img.shape[:2]
    at = [(min(max(int(round(x)) - half, 0), W - side), min(max(int(round(y)) - half, 0), H - side)) for x, y in centres]
    boxes = np.stack([img[y:y + side, x:x + side] for x, y in at]).astype(np.uint16)
    boxes *= keep[:n]
    boxes += add[:n]
    boxes >>= 8
    out = boxes.astype(np.uint8)
    for k, (x, y) in enumerate(at):
        img[y:y + side, x:x + side] = out[k]


@functools.lru_cache(maxsize=8)
def _tiles(radius: float, ring: float, size: int, ink: tuple[int, int, int],
           letter: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Per letter A-Z, a tile's blend over a pixel ``p``: (p * keep + add) >> 8, as two (26, s, s, 3)
    uint16 arrays (read-only): the white disc, then its rim, then the letter, with coverage
    weights in 256ths (`vector.disc_mask`, `canvas.text_mask`)."""
    glyphs = [text_mask(chr(65 + k), size, True) / 255.0 for k in range(26)]
    ring_mask = disc_mask(round(radius * 2) / 2, round(ring * 2) / 2)
    side = max(ring_mask.shape[0], max(max(g.shape) for g in glyphs) | 1)  # (odd: centred on a pixel)
    disc, rim = np.zeros((side, side)), np.zeros((side, side))
    at = (side - ring_mask.shape[0]) // 2
    disc[at:side - at, at:side - at] = disc_mask(round(radius * 2) / 2, 0.0) / 255.0
    rim[at:side - at, at:side - at] = ring_mask / 255.0
    keep = np.empty((26, side, side, 3))
    add = np.empty((26, side, side, 3))
    for k, m in enumerate(glyphs):
        glyph = np.zeros((side, side))
        h, w = m.shape
        y, x = (side - h) // 2, (side - w) // 2
        glyph[y:y + h, x:x + w] = m
        k_all = (1 - disc) * (1 - rim) * (1 - glyph)
        for c in range(3):
            keep[k, :, :, c] = k_all
            add[k, :, :, c] = ((255 * disc * (1 - rim) + ink[c] * rim) * (1 - glyph) + letter[c] * glyph)
    keep16 = np.rint(keep * 256).astype(np.uint16)
    add16 = np.rint(add * 256).astype(np.uint16)
    keep16.setflags(write=False)
    add16.setflags(write=False)
    return keep16, add16
