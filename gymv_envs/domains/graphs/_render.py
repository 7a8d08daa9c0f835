"""The one graph renderer of the graphs domain, and the layouts it draws.

`draw_graph` fits a `Picture` (vertex positions in any layout coordinates, edges, labels,
optional weights, directions, colours) into a box of a frame and draws it with the
anti-aliased primitives of `core.vector`: edges first, then vertices (a filled disc with a dark
ring and its label), then edge weights in small white boxes on their edges. Vertices never
overlap: the radius shrinks to a third of the closest pair's distance. Weights go to the point of
their edge (near the middle, else further along) whose box clears every vertex, every other
edge and every weight placed before. Directed edges end in an arrowhead at the target's ring.

Layouts (all cheap, none iterative): `spread_points` (a jittered grid, so graphs built on it by
`_graphs.planar_edges` are drawn without crossings), `tree_layout` (layers, children under their
parent in order), `binary_tree_layout` (x = in-order rank) and `grid_layout`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from gymv_envs.core.canvas import BACKGROUND, INK, PIXEL, Color, fit_text_size, new_frame, text_mask
from gymv_envs.core.vector import (
    Layer,
    _over_pixels,
    _over_table,
    _stamp,
    disc_mask,
    squared_segment_distance,
)

EDGE = (70, 72, 84)
WEIGHT_INK = (20, 60, 160)
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def letters(n: int) -> list[str]:
    """Vertex names ``A, B, C, ...`` (``A1 ...`` past 26)."""
    return [LETTERS[i] if n <= 26 else f"{LETTERS[i % 26]}{i // 26 + 1}" for i in range(n)]


@dataclass
class Picture:
    """What to draw: ``pos`` (n, 2) layout coordinates (y grows downwards), ``edges`` as vertex
    index pairs, a label per vertex; per edge optionally a weight text, a direction flag
    (arrow from the first vertex to the second), a colour and a dashed flag; per vertex a fill
    colour (None: the background shows through)."""

    pos: np.ndarray
    edges: Sequence[tuple[int, int]]
    labels: Sequence[str]
    weights: Sequence[str | None] | None = None
    directed: bool | Sequence[bool] = False
    edge_colors: Sequence[Color] | None = None
    dashed: Sequence[bool] | None = None
    fills: Sequence[Color | None] | None = None
    label_colors: Sequence[Color] | None = None
    keep_aspect: bool = True
    title: str | None = None
    stamped_heads: bool = False  # arrowheads from cached stamps (`_head_stamps`), not drawn one by one
    centred_weights: bool = False  # each weight at its edge's middle, unchecked: the layout leaves it room (`label_room`)


@dataclass
class Placed:
    """Where `draw_graph` put things, in pixels: vertex centres, the vertex radius, and the boxes
    (x0, y0, x1, y1) of vertex labels and of weights (None for an edge without one)."""

    centers: np.ndarray
    radius: float
    label_boxes: list[tuple[int, int, int, int]] = field(default_factory=list)
    weight_boxes: list[tuple[int, int, int, int] | None] = field(default_factory=list)
    segments: np.ndarray | None = None


# ------------------------------------------------------------------ layouts
def spread_points(rng: np.random.Generator, n: int, aspect: float = 1.0, slack: float = 1.5) -> np.ndarray:
    """``n`` points in a box ``aspect`` wide and 1 high, one per cell of a jittered grid with about
    ``slack`` cells per point, so any two are more than half a cell apart."""
    cols = max(1, math.ceil(math.sqrt(n * slack * aspect)))
    rows = max(1, math.ceil(n * slack / cols))
    while rows * cols < n:
        rows += 1
    cells = rng.permutation(rows * cols)[:n]
    jitter = rng.uniform(-0.22, 0.22, size=(n, 2))
    pts = np.empty((n, 2))
    pts[:, 1], pts[:, 0] = np.divmod(cells, cols)
    pts += 0.5
    pts += jitter
    return pts


def grid_layout(rows: int, cols: int) -> np.ndarray:
    """Positions of a ``rows x cols`` grid's vertices, row-major."""
    r, c = np.divmod(np.arange(rows * cols), cols)
    return np.stack([c, r], 1).astype(float)


def tree_layout(children: Sequence[Sequence[int]], root: int) -> np.ndarray:
    """Layered drawing of a rooted tree: depth down, leaves left to right in child order, each parent
    centred over its children (no two edges cross)."""
    n = len(children)
    pos = np.zeros((n, 2))
    next_x = [0.0]

    def place(v: int, depth: int) -> None:
        pos[v, 1] = depth
        if not children[v]:
            pos[v, 0] = next_x[0]
            next_x[0] += 1
            return
        for c in children[v]:
            place(c, depth + 1)
        pos[v, 0] = (pos[children[v][0], 0] + pos[children[v][-1], 0]) / 2

    place(root, 0)
    return pos


def binary_tree_layout(left: Sequence[int], right: Sequence[int], root: int) -> np.ndarray:
    """A binary tree with x = in-order rank and y = depth (a left child is always left of its parent)."""
    n = len(left)
    pos = np.zeros((n, 2))
    rank = [0]
    stack: list[tuple[int, int, bool]] = [(root, 0, False)]
    while stack:
        v, depth, seen = stack.pop()
        if v < 0:
            continue
        if seen:
            pos[v] = (rank[0], depth)
            rank[0] += 1
            continue
        stack += [(right[v], depth + 1, False), (v, depth, True), (left[v], depth + 1, False)]
    return pos


def rooted_children(n: int, edges: Sequence[tuple[int, int]], root: int) -> list[list[int]]:
    """Children lists of a tree given by undirected ``edges``, hung from ``root``."""
    adj: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    children: list[list[int]] = [[] for _ in range(n)]
    seen, stack = {root}, [root]
    while stack:
        v = stack.pop()
        for w in sorted(adj[v]):
            if w not in seen:
                seen.add(w)
                children[v].append(w)
                stack.append(w)
    return children


# ------------------------------------------------------------------ drawing
@functools.lru_cache(maxsize=256)
def _sizes(side: int) -> tuple[float, float, int, int]:
    """(default vertex radius, edge width, label font, weight font) for a box ``side`` px across."""
    r = max(2.0, 0.045 * side)
    return r, max(1.0, side / 220), max(5, int(r * 1.05)), max(5, int(r * 0.85))


@functools.lru_cache(maxsize=4096)
def _badge(text: str, r: float, ring: float, size: int) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """A vertex's ring with its label inside, as one read-only mask, and the label's box in it."""
    m = disc_mask(r, ring).copy()
    t = text_mask(text, size, True)
    th, tw = t.shape
    cy, cx = m.shape[0] // 2, m.shape[1] // 2
    y0, x0 = int(round(cy - th / 2)), int(round(cx - tw / 2))
    if y0 < 0 or x0 < 0 or y0 + th > m.shape[0] or x0 + tw > m.shape[1]:
        pad = max(-y0, -x0, y0 + th - m.shape[0], x0 + tw - m.shape[1], 0)
        m = np.pad(m, pad)
        y0, x0 = y0 + pad, x0 + pad
    np.maximum(m[y0:y0 + th, x0:x0 + tw], t, out=m[y0:y0 + th, x0:x0 + tw])
    m.setflags(write=False)
    return m, (x0, y0, tw, th)


@functools.lru_cache(maxsize=4096)
def _label_font(text: str, w: int, h: int, most: int) -> int:
    return min(most, fit_text_size(text, w, h, bold=True))


def fit(pos: np.ndarray, box: tuple[float, float, float, float], pad: float, keep_aspect: bool = True) -> np.ndarray:
    """Layout coordinates scaled (uniformly unless ``keep_aspect=False``) into ``box`` less ``pad``."""
    x0, y0, x1, y1 = box
    p = np.asarray(pos, dtype=float)
    xs, ys = p.T.tolist()  # (a few points: plain floats)
    lx, ly, hx, hy = min(xs), min(ys), max(xs), max(ys)
    sx = (x1 - x0 - 2 * pad) / max(hx - lx, 1e-9)
    sy = (y1 - y0 - 2 * pad) / max(hy - ly, 1e-9)
    if keep_aspect:
        sx = sy = min(sx, sy)
    q = np.array([(lx + hx) / 2, (ly + hy) / 2, sx if hx - lx > 1e-9 else 0.0, sy if hy - ly > 1e-9 else 0.0,
                  (x0 + x1) / 2, (y0 + y1) / 2]).reshape(3, 2)
    out = p - q[0]
    out *= q[1]
    out += q[2]
    return out


@functools.lru_cache(maxsize=512)
def _badge_row(texts: tuple[str, ...], sizes: tuple[int, ...], r: float, ring: float, width: int):
    """The badges of vertices ``texts`` (one label size each) in a frame ``width`` px wide, as one stamp:
    (flat offsets, coverage, pixels per badge, half width and half height per badge, label box offsets
    (x, y, w, h) per badge, the badges' pixels over the background as `PIXEL` items), each offset relative to its
    badge's top-left corner."""
    offsets, alpha, counts, half, box = [], [], [], [], []
    for text, size in zip(texts, sizes):
        badge, label_box = _badge(text, r, ring, size)
        off, a, h, w = _stamp(badge, width)
        offsets.append(off)
        alpha.append(a)
        counts.append(len(off))
        half.append((w // 2, h // 2, w, h))
        box.append(label_box)
    alpha = np.concatenate(alpha)
    table = _over_pixels((INK,), tuple(int(v) for v in BACKGROUND))
    out = (np.concatenate(offsets), alpha, np.array(counts), np.array(half), np.array(box), table.take(alpha))
    for arr in out:
        arr.setflags(write=False)
    return out


def draw_graph(frame: np.ndarray, pic: Picture, box: tuple[float, float, float, float] | None = None,
               layer: Layer | None = None) -> Placed:
    """Draw ``pic`` into ``box`` (default: the whole frame) and say where everything went. ``layer``: a layer of
    ``frame`` (on the plain background) to leave the marks in, for the caller to flush with those of other
    pictures in one pass; a picture with a title, filled vertices or edge colours is drawn at once."""
    if layer is not None and (pic.title or pic.fills or pic.edge_colors is not None):
        layer.flush(under=BACKGROUND)
        layer = None
    shared = layer is not None
    H, W = frame.shape[:2]
    x0, y0, x1, y1 = box if box is not None else (0, 0, W, H)
    side = int(min(x1 - x0, y1 - y0))
    r, width, label_size, weight_size = _sizes(side)
    if pic.title:
        tsize = max(5, int(label_size * 0.95))
        title = Layer(frame)
        title.text(pic.title, ((x0 + x1) / 2, y0 + tsize * 0.2), tsize, INK, anchor="mt", bold=True)
        title.flush()
        y0 += tsize * 1.5
    n = len(pic.labels)
    pad = r * 1.25 + 2
    centers = fit(pic.pos, (x0, y0, x1, y1), pad, pic.keep_aspect)
    if n > 1:
        diff = centers[:, None, :] - centers[None, :, :]
        d = np.hypot(diff[..., 0], diff[..., 1])
        d.flat[::n + 1] = np.inf
        r = min(r, 0.36 * float(d.min()))
    r = max(r, 1.5)
    label_size = min(label_size, max(5, int(r * 1.05)))
    weight_size = min(weight_size, max(5, int(r * 0.9)))
    edges = np.asarray(pic.edges, dtype=int).reshape(-1, 2)
    m = len(edges)
    if isinstance(pic.directed, (bool, np.bool_)):
        any_directed = all_directed = bool(pic.directed) and m > 0
        directed = np.full(m, any_directed)
    else:
        directed = np.broadcast_to(np.asarray(pic.directed, dtype=bool), (m,))
        any_directed = bool(directed.any())
        all_directed = False  # (where every edge is directed, the arrays below are taken whole)
    if pic.edge_colors is None:
        colors, one, pcols = None, m > 0, EDGE
    else:
        colors = np.asarray(pic.edge_colors, dtype=np.uint8).reshape(-1, 3)
        one = bool(len(colors) and (colors == colors[0]).all())
        pcols = tuple(int(v) for v in colors[0]) if one else None
    segs = np.zeros((m, 4))
    if m:
        a, b = centers[edges[:, 0]], centers[edges[:, 1]]
        vec = b - a
        dist = np.maximum(np.hypot(vec[:, 0], vec[:, 1]), 1e-9)
        unit = vec / dist[:, None]
        start = a + unit * r * 0.9
        tip = b - unit * (r + width * 0.6)
        alen, awide = max(4.0, r * 0.75), max(3.0, r * 0.6)
        if any_directed:
            end = (tip - unit * alen * 0.8 if all_directed
                   else np.where(directed[:, None], tip - unit * alen * 0.8, b - unit * r * 0.9))
        else:
            end = b - unit * r * 0.9
        segs = np.concatenate([start, end], axis=1)
    weights = list(pic.weights) if pic.weights is not None else [None] * m
    if any(weights):
        spots, radii = centers, np.full(n, r)  # what a weight's box must keep clear of: vertices, arrowheads
        if any_directed and not pic.centred_weights:
            heads = tip - unit * alen * 0.5 if all_directed else tip[directed] - unit[directed] * alen * 0.5
            spots, radii = np.vstack([centers, heads]), np.concatenate([radii, np.full(len(heads), alen * 0.5)])
        if pic.centred_weights:
            wboxes, pieces, piece_of = _centred_weights(centers, segs, edges, weights, weight_size)
        else:
            wboxes, todo, boxes = _place_weights(spots, radii, segs, edges, weights, weight_size, (W, H))
            pieces, piece_of = _cut_for_labels(segs, todo, boxes.tolist())
    else:
        wboxes, pieces, piece_of = [None] * len(weights), segs, None
    layer = layer if shared else Layer(frame)
    fills = pic.fills or [None] * n
    ring = max(1.0, r * 0.12)
    lcols = pic.label_colors or [INK] * n
    sizes = tuple(_label_font(text, int(r * 1.5), int(r * 1.15), label_size) for text in pic.labels)
    rr, rring = round(r * 2) / 2, round(ring * 2) / 2
    row = None  # every vertex's ring and label in one cached stamp, placed wholly inside the frame
    if n and all(lc == INK for lc in lcols):
        offsets, alpha, counts, half, inner, badge_px = _badge_row(tuple(pic.labels), sizes, rr, rring, W)
        xy = np.rint(centers).astype(np.int64) - half[:, :2]
        if (xy >= 0).all() and (xy[:, 0] + half[:, 2] <= W).all() and (xy[:, 1] + half[:, 3] <= H).all():
            row = xy
    filled = [i for i, f in enumerate(fills) if f is not None]
    plain = pic.edge_colors is None or one or not m  # every mark of the layer has one colour
    # a filled vertex whose disc nothing else touches is drawn at once as its fill with its badge blended over
    # it (a cached stamp of final colours, set after the layer) instead of a disc, then a badge blended later
    composed = None
    if row is not None and filled and plain:  # (what lies under a disc's rim shows through it only where marks
        # are blended, not looked up over the background)
        composed = _composed_fills(pic.labels, fills, filled, sizes, rr, rring, W, row, half, wboxes)
    # the badges and weights lie on the background and over everything drawn before them: unless the caller
    # flushes the layer, they are set as final colours after it (no blend, no look-up), the filled vertices last
    final = not shared and plain and row is not None and (composed is not None or not filled)
    if m:
        if not one:
            pcols = colors if piece_of is None else colors[piece_of]
        if pic.dashed is None or not any(pic.dashed):
            layer.lines(pieces, width, pcols)
        else:
            dashed = np.asarray(pic.dashed, dtype=bool)
            solid = ~dashed if piece_of is None else ~dashed[piece_of]
            for group, dash in ((solid, None), (~solid, (max(3.0, r * 0.5), max(2.0, r * 0.35)))):
                if group.any():
                    layer.lines(pieces[group], width, pcols if one else pcols[group], dash=dash)
        if any_directed:
            draw_heads = functools.partial(_stamp_heads, layer) if pic.stamped_heads else layer.arrowheads
            if all_directed:
                draw_heads(tip, unit, alen, awide, pcols if one else colors)
            else:
                draw_heads(tip[directed], unit[directed], alen, awide, pcols if one else colors[directed])
    if composed is None:
        for i in filled:  # uncoloured vertices show the background: no edge enters a vertex
            layer.disc(centers[i, 0], centers[i, 1], r, fills[i])
    label_boxes = None
    if row is not None:
        corner = row[:, 1] * W + row[:, 0]
        tl = row + inner[:, :2]
        label_boxes = [tuple(b) for b in np.concatenate([tl, tl + inner[:, 2:]], axis=1).tolist()]
    if final:
        layer.flush(under=BACKGROUND)
        # (whole pixels in a put: a third of the work of a fancy assignment per channel; one put per part, in order,
        # rather than copying the parts into one array first)
        flat = frame.reshape(-1, 3).view(PIXEL).ravel()
        flat.put(offsets + np.repeat(corner, counts), badge_px, mode="wrap")  # every badge (a filled one: set again)
        at: list = []
        rgb: list = []
        _weight_texts(layer, wboxes, weights, weight_size, at, rgb)
        if at:
            flat.put(at[0], np.concatenate(rgb) if len(rgb) > 1 else rgb[0], mode="wrap")
        for k, i in enumerate(filled):
            flat.put(composed[k][0] + ((row[i, 1] + half[i, 1]) * W + row[i, 0] + half[i, 0]), composed[k][1], mode="wrap")
        layer.flush(under=BACKGROUND)  # (a weight's text that the frame's border cuts, if any)
        return Placed(centers, r, label_boxes, wboxes, segs)
    # everything so far lies on the plain background, and nothing of it overlaps but at crossings; the
    # labels and weights that follow lie on it too (they replace what lies under them): where every mark
    # has one colour, both go in one pass
    if not all(type(c[2]) is tuple for c in layer._chunks):
        layer.flush(under=BACKGROUND)
    on_fill = Layer(frame)  # badges of filled vertices blend over their fill
    if row is not None:
        if not filled:
            layer._chunks.append((offsets + np.repeat(corner, counts), alpha, INK))
        else:
            which = np.ones(n, dtype=bool)
            which[filled] = False
            for target, part in ((layer, which), (None if composed is not None else on_fill, ~which)):
                if target is not None and part.any():
                    sel = np.flatnonzero(np.repeat(part, counts))
                    target._chunks.append(((offsets + np.repeat(corner, counts)).take(sel), alpha.take(sel), INK))
    if label_boxes is None:
        label_boxes = []
        for (cx, cy), text, lc, f, size in zip(centers, pic.labels, lcols, fills, sizes):
            target = layer if f is None else on_fill
            if lc == INK:  # ring and label in one cached mask
                badge, (ox, oy, bw, bh) = _badge(text, rr, rring, size)
                x, y = int(round(cx)) - badge.shape[1] // 2, int(round(cy)) - badge.shape[0] // 2
                target.mask(badge, x, y, INK)
                label_boxes.append((x + ox, y + oy, x + ox + bw, y + oy + bh))
            else:
                target.disc(cx, cy, r, INK, ring=ring)
                label_boxes.append(target.text(text, (cx, cy), size, lc, bold=True))
    _weight_texts(layer, wboxes, weights, weight_size)
    if not shared:
        layer.flush(under=BACKGROUND)
    on_fill.flush(dedupe=False)
    if composed is not None:
        at = np.concatenate([composed[k][0] + (row[i, 1] + half[i, 1]) * W + row[i, 0] + half[i, 0]
                             for k, i in enumerate(filled)])
        frame.reshape(-1, 3).view(PIXEL).ravel().put(at, np.concatenate([c[1] for c in composed]), mode="wrap")
    return Placed(centers, r, label_boxes, wboxes, segs)


def _composed_fills(labels, fills, filled, sizes, rr: float, rring: float, width: int, xy: np.ndarray,
                    half: np.ndarray, wboxes) -> list | None:
    """The `_filled_badge` stamps of the filled vertices, or None where one is missing or where another vertex's
    badge or a weight's box reaches into a filled vertex's disc (marks drawn after it: the layered way then)."""
    if not filled:
        return None
    out = []
    corners = xy.tolist()  # (a few vertices: plain ints)
    spans = half.tolist()  # per badge: half its width, half its height, its width, its height
    boxes = [b for b in wboxes if b is not None]
    for i in filled:
        stamp = _filled_badge(labels[i], sizes[i], rr, rring, tuple(int(v) for v in fills[i]), width)
        if stamp is None:
            return None
        (x, y), d = corners[i], stamp[2]
        cx, cy = x + spans[i][0], y + spans[i][1]  # the disc's square: [c - d, c - d + 2 d + 1)
        lo_x, lo_y, hi_x, hi_y = cx - d, cy - d, cx + d + 1, cy + d + 1
        if any(j != i and x0 < hi_x and x0 + w > lo_x and y0 < hi_y and y0 + h > lo_y
               for j, ((x0, y0), (_, _, w, h)) in enumerate(zip(corners, spans))):
            return None
        if any(b[0] < hi_x and b[2] > lo_x and b[1] < hi_y and b[3] > lo_y for b in boxes):
            return None
        out.append(stamp)
    return out


@functools.lru_cache(maxsize=1024)
def _filled_badge(text: str, size: int, rr: float, rring: float, fill: Color, width: int):
    """A filled vertex as it comes out of the layers: its disc of ``fill`` over the background, then its badge
    (`_badge`) blended over that as `Layer.flush` blends; (flat offsets from the vertex's pixel in a frame
    ``width`` px wide, the pixels as `PIXEL` items, the disc's half side), or None when the badge reaches
    past the disc (it would blend over what lies there)."""
    badge, _ = _badge(text, rr, rring, size)
    disc = disc_mask(rr, 0.0)
    bh, bw, d = badge.shape[0], badge.shape[1], disc.shape[0] // 2
    oy, ox = bh // 2 - d, bw // 2 - d
    if oy < 0 or ox < 0:
        return None
    under = np.zeros_like(badge)
    under[oy:oy + disc.shape[0], ox:ox + disc.shape[1]] = disc
    if ((badge > 0) & (under == 0)).any():
        return None
    at = np.flatnonzero(under)  # (flat takes: far cheaper than pairs of row and column indices)
    ys, xs = np.divmod(at, bw)
    cover = under.ravel().take(at)
    table = _over_table((tuple(int(v) for v in fill),), tuple(int(v) for v in BACKGROUND))
    a = badge.ravel().take(at).astype(np.uint16)
    a += a >> 7
    values = []
    for ch in range(3):
        v = table[ch].take(cover).astype(np.uint16)
        v *= 256 - a
        v += a * INK[ch]
        v >>= 8
        values.append(v.astype(np.uint8))
    offsets = (ys - bh // 2) * width + (xs - bw // 2)
    px = np.ascontiguousarray(np.stack(values, 1)).view(PIXEL).ravel()
    for arr in (offsets, px):
        arr.setflags(write=False)
    return offsets, px, d


_TURNS = 128  # arrowhead stamps: directions per turn


@functools.lru_cache(maxsize=8)
def _head_stamps(length: float, width: float, frame_w: int) -> list[tuple]:
    """The arrowheads of `Layer.arrowheads` (same triangle, same coverage rule) pointing in `_TURNS` directions,
    each with its tip at 4 places in its pixel (the centres of the pixel's quarters): stamp ``4 * turn + 2 * low
    + right``, as (flat offsets from the tip's pixel in a frame ``frame_w`` px wide, coverage, rows, columns: read-only
    arrays; lowest and highest row and column; pixel count); about 1 MB each (8 cached: one per size and frame width)."""
    k = np.arange(4 * _TURNS)
    ang = (k // 4) * (2 * np.pi / _TURNS)
    d = np.stack([np.cos(ang), np.sin(ang)], 1)
    tips = np.stack([0.25 + 0.5 * (k % 2), 0.25 + 0.5 * (k // 2 % 2)], 1)
    perp = np.stack([-d[:, 1], d[:, 0]], 1) * (width / 2)
    base = tips - d * length
    tris = np.stack([tips, base + perp, base - perp], 1)  # (stamps, corner, xy)
    lo = np.floor(tris.min(axis=1)).astype(np.int64) - 1
    side = int(np.ceil((tris.max(axis=1) - lo).max())) + 2
    g = np.arange(side) + 0.5
    gx, gy = lo[:, 0, None] + g, lo[:, 1, None] + g  # pixel centres (stamps, side)
    e = tris[:, [1, 2, 0]] - tris  # edge i runs from corner i to corner i + 1
    turn = e[:, 0, 0] * e[:, 1, 1] - e[:, 0, 1] * e[:, 1, 0]
    n = np.hypot(e[..., 0], e[..., 1]) * np.where(turn >= 0, 1.0, -1.0)[:, None]
    # the signed distance of pixel centre (x, y) to edge i, inside positive: (ex (y - py) - ey (x - px)) / n
    across = (e[:, :, 0, None] * (gy[:, None, :] - tris[:, :, 1, None]) / n[:, :, None])[:, :, :, None]
    along = (e[:, :, 1, None] * (gx[:, None, :] - tris[:, :, 0, None]) / n[:, :, None])[:, :, None, :]
    cover = (across - along).min(axis=1)
    cover += 0.5
    j, ys, xs = np.nonzero(cover > 0.02)
    alpha = (np.minimum(cover[j, ys, xs], 1) * 255 + 0.5).astype(np.uint8)
    ys, xs = ys + lo[j, 1], xs + lo[j, 0]
    cuts = np.searchsorted(j, np.arange(1, len(k)))
    out = []
    for a, y, x in zip(np.split(alpha, cuts), np.split(ys, cuts), np.split(xs, cuts)):
        off = y * frame_w + x
        y, x = y.astype(np.int16), x.astype(np.int16)
        for arr in (off, a, y, x):
            arr.setflags(write=False)
        out.append((off, a, y, x, int(y.min()), int(y.max()), int(x.min()), int(x.max()), len(off)))
    return out


def _stamp_heads(layer: Layer, tips: np.ndarray, dirs: np.ndarray, length: float, width: float, color) -> None:
    """`Layer.arrowheads` from `_head_stamps`: each head turned to the nearest of `_TURNS` directions, its tip
    moved to the nearest quarter-centre of its pixel (at most a quarter pixel on each axis)."""
    W, H = layer.W, layer.H
    stamps = _head_stamps(round(length * 8) / 8, round(width * 8) / 8, W)
    per_turn = _TURNS / (2 * math.pi)
    floor, atan2 = math.floor, math.atan2
    picked, offs, alphas, count, corner, xs, ys, inside = [], [], [], [], [], [], [], True
    for tx, ty, dx, dy in np.concatenate([tips, dirs], axis=1).tolist():
        hx, hy = floor(tx * 2), floor(ty * 2)
        s = stamps[4 * (round(atan2(dy, dx) * per_turn) % _TURNS) + 2 * (hy & 1) + (hx & 1)]
        x, y = hx >> 1, hy >> 1
        inside = inside and y + s[4] >= 0 and y + s[5] < H and x + s[6] >= 0 and x + s[7] < W
        picked.append(s)
        offs.append(s[0])
        alphas.append(s[1])
        count.append(s[8])
        corner.append(y * W + x)
        xs.append(x)
        ys.append(y)
    if not offs:
        return
    a = np.concatenate(alphas)
    if not isinstance(color, tuple):
        color = np.repeat(np.asarray(color, dtype=np.uint8).reshape(-1, 3), count, axis=0)
    if inside:
        pix = np.concatenate(offs)
        pix += np.repeat(corner, count)
        layer._chunks.append((pix, a, color))
    else:
        layer._add(np.concatenate([s[2] for s in picked]) + np.repeat(ys, count),
                   np.concatenate([s[3] for s in picked]) + np.repeat(xs, count), a, color)


@functools.lru_cache(maxsize=4096)
def _weight_stamp(text: str, size: int, width: int) -> tuple:
    """A weight's text as `_stamp` gives its mask (flat offsets in a frame ``width`` px wide, coverage), its width
    and height (the arrays are those `_stamp` keeps), and its pixels over the background as `PIXEL` items."""
    off, alpha, h, w = _stamp(text_mask(text, size, True), width)
    px = _over_pixels((WEIGHT_INK,), tuple(int(v) for v in BACKGROUND)).take(alpha)
    px.setflags(write=False)
    return off, alpha, w, h, px


def _weight_texts(layer: Layer, wboxes, weights, size: int, at: list | None = None, rgb: list | None = None) -> None:
    """Each weight's text centred in its box (in the gap cut out of its edge: on the background), as
    `Layer.text` puts it; those wholly inside the frame go in as one mark, in order. With ``at`` and ``rgb``:
    their pixels and final colours are appended there instead (to be set after the layer)."""
    W, H = layer.W, layer.H
    offsets, alphas, corner, count = [], [], [], []
    for bx, text in zip(wboxes, weights):
        if bx is None:
            continue
        off, alpha, w, h, values = _weight_stamp(text, size, W)
        x = int(round((bx[0] + bx[2]) / 2 - w / 2))
        y = int(round((bx[1] + bx[3]) / 2 - h / 2))
        if x >= 0 and y >= 0 and x + w <= W and y + h <= H:
            if at is not None:  # (their pixels go in as one array after the loop: one addition, not one each)
                offsets.append(off)
                corner.append(y * W + x)
                count.append(len(off))
                rgb.append(values)
                continue
            offsets.append(off)
            alphas.append(alpha)
            corner.append(y * W + x)
            count.append(len(off))
            continue
        if offsets and at is None:  # what came before goes in first: the marks keep their order
            _put_texts(layer, offsets, alphas, corner, count)
            offsets, alphas, corner, count = [], [], [], []
        layer.text(text, ((bx[0] + bx[2]) / 2, (bx[1] + bx[3]) / 2), size, WEIGHT_INK, bold=True)
    if offsets and at is not None:
        pix = np.concatenate(offsets)
        pix += np.repeat(corner, count)
        at.append(pix)
    elif offsets:
        _put_texts(layer, offsets, alphas, corner, count)


def _put_texts(layer: Layer, offsets: list, alphas: list, at: list, count: list) -> None:
    """Stamps (offsets from their top-left pixel ``at``) as one mark of `WEIGHT_INK`."""
    pix = np.concatenate(offsets)
    pix += np.repeat(at, count)
    layer._chunks.append((pix, np.concatenate(alphas), WEIGHT_INK))


@functools.lru_cache(maxsize=64)
def _upper(k: int) -> np.ndarray:
    """(k, k) bool, True above the diagonal (read-only)."""
    out = np.triu(np.ones((k, k), dtype=bool), 1)
    out.setflags(write=False)
    return out


def _cut_for_labels(segs: np.ndarray, todo: list[int], boxes: list) -> tuple[np.ndarray, np.ndarray]:
    """The segments with a gap where a weight's box (``boxes[k]`` on segment ``todo[k]``) sits on them; returns
    (pieces, source index of each). A few boxes: worked out per box in plain floats."""
    rows = segs.tolist()
    d = segs[:, 2:] - segs[:, :2]
    length = np.hypot(d[:, 0], d[:, 1]).tolist()  # (numpy's hypot: the same bits as the layers' own)
    first, second, k1, k2, cut = [], [], [], [], set()
    for i, (x0, y0, x1, y1) in zip(todo, boxes):
        px, py, qx, qy = rows[i]
        n = max(length[i], 1e-9)
        ux, uy = (qx - px) / n, (qy - py) / n
        cx, cy = (x0 + x1) / 2 - px, (y0 + y1) / 2 - py
        if not abs(cx * uy - cy * ux) < 1:  # a box beside its edge cuts nothing
            continue
        cut.add(i)
        t = cx * ux + cy * uy
        gap = abs(ux) * (x1 - x0) / 2 + abs(uy) * (y1 - y0) / 2 + 1
        if t - gap > 0.5:
            first.append((px, py, px + ux * (t - gap), py + uy * (t - gap)))
            k1.append(i)
        if t + gap < n - 0.5:
            second.append((px + ux * (t + gap), py + uy * (t + gap), qx, qy))
            k2.append(i)
    uncut = [i for i in range(len(rows)) if i not in cut]
    pieces = np.array([rows[i] for i in uncut] + first + second, dtype=float).reshape(-1, 4)
    return pieces, np.array(uncut + k1 + k2, dtype=np.intp)


def _centred_weights(centers: np.ndarray, segs: np.ndarray, edges: np.ndarray, weights: list, size: int):
    """Each weight's box centred at the middle of its edge (between its vertices' centres), and the segments with a
    gap cut where a box sits: (a box or None per edge, pieces, the source index of each piece). A few edges: worked
    out per edge in plain floats."""
    out: list = [None] * len(weights)
    xy, rows = centers.tolist(), segs.tolist()
    first, second, k1, uncut = [], [], [], []
    hypot = math.hypot
    # each text's box and its half sides (halving is exact: a * (w / 2) is (a * w) / 2 to the bit)
    box = {w: (bw, bh, bw / 2, bh / 2) for w in set(weights) if w for bw, bh in (_text_box(w, size),)}
    for i, w, (u, v), (px, py, qx, qy) in zip(range(len(rows)), weights, edges.tolist(), rows):
        if not w:
            uncut.append(i)
            continue
        bw, bh, hw, hh = box[w]
        cu, cv = xy[u], xy[v]
        x0 = round((cu[0] + cv[0] - bw) / 2)
        y0 = round((cu[1] + cv[1] - bh) / 2)
        out[i] = (x0, y0, x0 + bw, y0 + bh)
        dx = qx - px
        dy = qy - py
        n = hypot(dx, dy)
        if 1e-9 > n:  # (as max(n, 1e-9))
            n = 1e-9
        ux = dx / n
        uy = dy / n
        t = (x0 + hw - px) * ux + (y0 + hh - py) * uy
        gap = abs(ux) * hw + abs(uy) * hh + 1
        a, b = t - gap, t + gap
        first += (px, py, px + ux * a, py + uy * a)
        second += (px + ux * b, py + uy * b, qx, qy)
        k1.append(i)
    flat = [x for i in uncut for x in rows[i]] + first + second if uncut else first + second
    # (numpy reads a flat list of floats far faster than a list of rows)
    return out, np.array(flat, dtype=float).reshape(-1, 4), np.array(uncut + k1 + k1, dtype=np.intp)


def label_room(pos: np.ndarray, least: float, directed: bool, side: int = 512) -> tuple[float, ...]:
    """What a weight centred on its edge (`Picture.centred_weights`) needs, in the units of the layout ``pos`` (its
    points at least ``least`` apart) drawn into a ``side`` px square: (the radius of a circle round the box, the zone
    round a vertex it keeps out of: the ring, and any arrowhead into it where ``directed``; the distance it keeps
    from other edges' centre lines; the box's width and height). A layout whose weighted edges keep these is drawn
    with no weight touching a vertex, an arrowhead, another weight or another edge."""
    r, width, _, wsize = _sizes(side)
    pad = r * 1.25 + 2
    xs, ys = zip(*pos.tolist())
    s = (side - 2 * pad) / max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    r = max(min(r, 0.36 * least * s), 1.5)
    wsize = min(wsize, max(5, int(r * 0.9)))
    bw, bh = _digit_box(wsize)
    zone = r + max(1.0, r * 0.12) + 1
    if directed:  # an arrowhead's base corners: the farthest it reaches from its vertex's centre
        zone = math.hypot(r + width * 0.6 + max(4.0, r * 0.75), max(3.0, r * 0.6)) + 1
    # (a box's corners are rounded to whole pixels: half a pixel more each way)
    return (math.hypot(bw, bh) / 2 + 1) / s, zone / s, (width / 2 + 1) / s, (bw + 1) / s, (bh + 1) / s


@functools.lru_cache(maxsize=64)
def _digit_box(size: int) -> tuple[int, int]:
    """The largest (width, height) of a one-digit weight's box."""
    boxes = [_text_box(str(k), size) for k in range(10)]
    return max(b[0] for b in boxes), max(b[1] for b in boxes)


def _place_weights(centers: np.ndarray, r: np.ndarray, segs: np.ndarray, edges: np.ndarray,
                   weights: list[str | None], size: int, frame_wh: tuple[int, int]):
    """A box per weighted edge, on the edge at its middle where that clears the discs ``centers``/``r``
    (vertices, arrowheads), the other edges, the frame's border and the other boxes; else the best
    of a few places further along the edge or beside it. Returns (a box or None per edge, the weighted
    edges, their boxes as a (k, 4) int array)."""
    todo = [i for i, w in enumerate(weights) if w]
    out: list = [None] * len(weights)
    if not todo:
        return out, todo, None
    W, H = frame_wh
    e = np.asarray(todo)
    s = segs[e]
    dims = np.array([_text_box(weights[i], size) for i in todo], dtype=float)
    scene = _Scene(centers, r, segs, np.array([W, H], dtype=float))
    mid = (s[:, :2] + s[:, 2:]) / 2
    half = dims / 2
    lo, hi = mid - half, mid + half
    bad = scene.cost(mid, dims, lo, hi, e) > 0
    bad |= (_overlaps(lo, hi, lo, hi) & _upper(len(lo))).any(axis=0)
    if bad.any():  # the few that do not fit at the middle try the other places
        b = np.flatnonzero(bad)
        # the other places of each: along its edge (_TS), then beside it on either side
        a, d = s[b, :2], s[b, 2:] - s[b, :2]
        n = np.stack([-d[:, 1], d[:, 0]], axis=1) / (np.hypot(d[:, 0], d[:, 1]) + 1e-9)[:, None]
        db = dims[b]
        side = (np.abs(n[:, 0]) * db[:, 0] / 2 + np.abs(n[:, 1]) * db[:, 1] / 2 + 2)[:, None]
        cand = np.concatenate([a[:, None, :] + _TS[None, :, None] * d[:, None, :],
                               (mid[b] + n * side)[:, None, :], (mid[b] - n * side)[:, None, :]], axis=1)
        k = cand.shape[1]
        clo, chi = cand - db[:, None, :] / 2, cand + db[:, None, :] / 2
        # each place is costed on its own, so all of them go in one batch
        cost = scene.cost(cand.reshape(-1, 2), np.repeat(db, k, axis=0), clo.reshape(-1, 2), chi.reshape(-1, 2),
                          np.repeat(e[b], k)).reshape(-1, k) + _RANK
        # box i and a place (lo', hi') overlap where lo' < hi_i and -hi' < -lo_i on both axes
        mine = np.concatenate([clo, -chi], axis=2)
        theirs = np.concatenate([hi, -lo], axis=1)
        for q, j in enumerate(b.tolist()):
            hits = (mine[q][:, None, :] < theirs[None, :, :]).all(axis=2)
            hits[:, j] = False
            best = int(np.argmin(cost[q] + 8 * hits.sum(axis=1)))
            lo[j], hi[j] = clo[q, best], chi[q, best]
            theirs[j, :2], theirs[j, 2:] = hi[j], -lo[j]
    shift = -np.minimum(lo, 0) - np.maximum(hi - (W, H), 0)  # last resort: pushed inside the frame
    box = np.rint(np.concatenate([lo + shift, hi + shift], axis=1)).astype(int)
    for i, b in zip(todo, box.tolist()):
        out[i] = tuple(b)
    return out, todo, box


class _Scene:
    """What a weight's box must keep clear of (discs, edges, the frame's border), with the edges' parts
    that every costing needs worked out once."""

    def __init__(self, centers: np.ndarray, r: np.ndarray, segs: np.ndarray, frame_wh: np.ndarray) -> None:
        self.cx, self.cy, self.r1 = centers[:, 0], centers[:, 1], r
        self.sx, self.sy = segs[:, 0], segs[:, 1]
        self.sdx, self.sdy = segs[:, 2] - self.sx, segs[:, 3] - self.sy
        self.len2 = self.sdx * self.sdx + self.sdy * self.sdy + 1e-12
        self.wh = frame_wh

    def cost(self, cand: np.ndarray, dims: np.ndarray, lo: np.ndarray, hi: np.ndarray, own: np.ndarray) -> np.ndarray:
        """How badly boxes (centres ``cand``, sizes ``dims``, corners ``lo``/``hi``) sit: discs under them,
        other edges (all but ``own``) through them, the frame's border cutting them."""
        half2 = (dims * dims).sum(axis=1) / 4
        px, py = cand[:, 0, None], cand[:, 1, None]
        vx, vy = px - self.cx, py - self.cy
        room = np.sqrt(half2)[:, None] + self.r1 + 1
        vx *= vx
        vy *= vy
        vx += vy
        room *= room
        near_vertex = np.count_nonzero(vx < room, axis=1)
        d2 = squared_segment_distance(px, py, self.sx, self.sy, self.sdx, self.sdy, self.len2)
        close = d2 < 0.64 * half2[:, None]
        close[np.arange(len(cand)), own] = False
        off = ((lo < 0) | (hi > self.wh)).any(axis=1)
        return 4 * near_vertex + 2 * np.count_nonzero(close, axis=1) + 1000 * off


@functools.lru_cache(maxsize=4096)
def _text_box(text: str, size: int) -> tuple[int, int]:
    """(width, height) of a weight's box: its bold text plus a margin."""
    h, w = text_mask(text, size, True).shape
    return w + 6, h + 4


def _overlaps(alo: np.ndarray, ahi: np.ndarray, blo: np.ndarray, bhi: np.ndarray) -> np.ndarray:
    """(len(a), len(b)) bool: which boxes of a overlap which of b (boxes as corner arrays)."""
    return ((alo[:, None, 0] < bhi[None, :, 0]) & (ahi[:, None, 0] > blo[None, :, 0])
            & (alo[:, None, 1] < bhi[None, :, 1]) & (ahi[:, None, 1] > blo[None, :, 1]))


_TS = np.array([0.5, 0.38, 0.62, 0.28, 0.72])
_RANK = np.array([0.0, 0.1, 0.1, 0.2, 0.2, 0.5, 0.5])  # middle first, beside the edge last


def render(obs_size: tuple[int, int], pic: Picture) -> tuple[np.ndarray, Placed]:
    """A new frame of ``obs_size`` with ``pic`` drawn over all of it."""
    frame = new_frame(obs_size[0], obs_size[1], BACKGROUND)
    return frame, draw_graph(frame, pic)
