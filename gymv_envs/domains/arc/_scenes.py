"""Random inputs for the ARC-style families: scattered cells, separated objects, colour tables."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.domains.arc._transforms import BG, Obj, Scene


def colours(rng: np.random.Generator, k: int, avoid: tuple[int, ...] = ()) -> list[int]:
    """``k`` distinct colours from 1-9, none of ``avoid``."""
    pool = [c for c in range(1, 10) if c not in avoid]
    return [pool[int(i)] for i in rng.permutation(len(pool))[:k]]


def colour_table(rng: np.random.Generator, used: list[int], changes: int = 1) -> tuple[tuple[int, int], ...]:
    """A full colour map (every digit a key) that changes ``changes`` of the ``used`` colours:
    to another used colour (a swap) or to a new one."""
    table = {c: c for c in range(10)}
    for a in [used[int(i)] for i in rng.permutation(len(used))[:changes]]:
        b = pick(rng, [c for c in range(1, 10) if c != a])
        table[a] = b
    return tuple(sorted(table.items()))


def scatter(rng: np.random.Generator, h: int, w: int, density: float, palette: list[int]) -> Scene:
    """Cells coloured at random from ``palette`` with probability ``density``, else background."""
    on = rng.random((h, w)) < density
    grid = np.where(on, np.asarray(palette, dtype=np.int8)[rng.integers(len(palette), size=(h, w))], BG)
    return Scene(grid.astype(np.int8))


_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@functools.cache
def polyominoes(cells: int, max_side: int) -> tuple[np.ndarray, ...]:
    """Every fixed polyomino of ``cells`` cells that fits in max_side x max_side, as read-only bool
    masks cropped to their boxes (a per-process table: drawing a shape is one index)."""
    level = {((0, 0),)}
    for _ in range(cells - 1):
        grown = set()
        for shape in level:
            have = set(shape)
            for r, c in shape:
                for dr, dc in _STEPS:
                    p = (r + dr, c + dc)
                    if p not in have:
                        pts = [*shape, p]
                        r0, c0 = min(q[0] for q in pts), min(q[1] for q in pts)
                        grown.add(tuple(sorted((q[0] - r0, q[1] - c0) for q in pts)))
        level = {s for s in grown if max(q[0] for q in s) < max_side and max(q[1] for q in s) < max_side}
    out = []
    for shape in sorted(level):
        rs, cs = np.array(shape).T
        m = np.zeros((rs.max() + 1, cs.max() + 1), dtype=bool)
        m[rs, cs] = True
        m.setflags(write=False)
        out.append(m)
    return tuple(out)


def blob(rng: np.random.Generator, cells: int, max_side: int = 3) -> np.ndarray:
    """A random 4-connected shape of ``cells`` cells fitting in max_side x max_side (bool mask)."""
    table = polyominoes(cells, max_side)
    return table[0] if len(table) == 1 else table[int(rng.integers(len(table)))]  # one shape: no draw (as numpy)


def free_spots(busy: np.ndarray, sh: int, sw: int, gap: int, margin: int = 0) -> np.ndarray:
    """Flat indices (over top-left corners r * W + c) where an sh x sw box, grown by ``gap`` on
    every side, covers no busy cell, at least ``margin`` from the edge."""
    h, w = busy.shape
    P = np.zeros((h + 2 * gap + 1, w + 2 * gap + 1), dtype=np.int32)
    P[1 + gap:h + gap + 1, 1 + gap:w + gap + 1] = busy
    P = P.cumsum(0).cumsum(1)
    wh, ww = sh + 2 * gap, sw + 2 * gap
    S = P[wh:, ww:] - P[:-wh, ww:] - P[wh:, :-ww] + P[:-wh, :-ww]
    ok = np.zeros((h, w), dtype=bool)
    ok[margin:h - sh - margin + 1, margin:w - sw - margin + 1] = S[margin:h - sh - margin + 1, margin:w - sw - margin + 1] == 0
    return np.flatnonzero(ok)


_CELLS: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def cells_of(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero`` of a bool mask, cached for read-only (table) masks."""
    hit = _CELLS.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1], hit[2]
    rs, cs = np.nonzero(m)
    if not m.flags.writeable:
        if len(_CELLS) > 8192:
            _CELLS.clear()
        _CELLS[id(m)] = (m, rs, cs)
    return rs, cs


@functools.lru_cache(maxsize=1024)
def _corners(h: int, w: int, sh: int, sw: int, gap: int, margin: int) -> int:
    """The allowed top-left corners of an sh x sw box as the bits of one int laid out as in
    `_free_spots` (row stride w + 2 * gap, a margin of gap rows and columns)."""
    stride = w + 2 * gap
    cols = ((1 << (w - sw - margin + 1)) - 1) ^ ((1 << margin) - 1)
    out = 0
    for r in range(margin, h - sh - margin + 1):
        out |= cols << ((r + gap) * stride + gap)
    return out


def _free_spots(bits: list[int], h: int, w: int, sh: int, sw: int, gap: int, margin: int) -> list[int]:
    """`free_spots` over the rows' bits (each row's busy cells as the bits of one int), in the same
    order (see `_free_corners`)."""
    stride = w + 2 * gap
    busy = 0
    for r, b in enumerate(bits):
        if b:
            busy |= b << ((r + gap) * stride + gap)
    return _free_corners(busy, h, w, sh, sw, gap, margin)


def _free_corners(busy: int, h: int, w: int, sh: int, sw: int, gap: int, margin: int) -> list[int]:
    """The free top-left corners (flat r * w + c, in reading order) of an sh x sw box: those whose
    box grown by ``gap`` holds no busy cell. ``busy`` is the grid's busy cells as one int, rows of
    w + 2 * gap bits framed by gap empty rows and columns (cell (r, c) at bit (r + gap) * stride +
    c + gap), so that no shift below reaches a neighbouring row from an allowed corner; it is grown
    over the box's columns, then its rows, by a few shifts, and the free corners are its clear bits
    among the allowed ones."""
    out: list[int] = []
    if w - sw - margin < margin:
        return out
    stride = w + 2 * gap
    grown = 0
    for d in range(-gap, sw + gap):  # corner column c is blocked by a busy cell in [c - gap, c + sw + gap)
        grown |= busy >> d if d >= 0 else busy << -d
    blocked = 0
    for d in range(-gap, sh + gap):
        blocked |= grown >> d * stride if d >= 0 else grown << -d * stride
    free = _corners(h, w, sh, sw, gap, margin) & ~blocked
    while free:
        low = free & -free
        r, c = divmod(low.bit_length() - 1, stride)
        out.append((r - gap) * w + c - gap)
        free ^= low
    return out


@functools.lru_cache(maxsize=1024)
def _box_bits(rows: int, cols: int, stride: int) -> int:
    """A rows x cols block of bits in rows of ``stride`` bits, its top-left at bit 0."""
    line = (1 << cols) - 1
    return sum(line << (i * stride) for i in range(rows))


_SHAPES: dict[int, tuple] = {}


def _shape_info(m: np.ndarray) -> tuple:
    """(mask, rows, cols, first row, first col, rows by offset, cols by offset, flat offsets by
    width) of a bool mask's cells, cached for read-only masks: the dicts hold the cells moved by an
    offset (read-only arrays) and the cells' flat offsets in a grid of a width, made on first use."""
    hit = _SHAPES.get(id(m))
    if hit is not None and hit[0] is m:
        return hit
    rs, cs = cells_of(m)
    hit = (m, rs, cs, int(rs[0]), int(cs[0]), {}, {}, {})
    if not m.flags.writeable:
        if len(_SHAPES) > 8192:
            _SHAPES.clear()
        _SHAPES[id(m)] = hit
    return hit


@functools.lru_cache(maxsize=64)
def box_mask(h: int, w: int) -> np.ndarray:
    """A solid h x w rectangle as a bool mask (read-only, cached: `place` then reuses its cells)."""
    m = np.ones((h, w), dtype=bool)
    m.setflags(write=False)
    return m


def place(rng: np.random.Generator, h: int, w: int, shapes: list[np.ndarray], palette: list[int],
          margin: int = 0, gap: int = 1, base: np.ndarray | None = None,
          base_objects: list[Obj] | None = None) -> Scene | None:
    """Put each bool-mask shape at a random free spot, coloured from ``palette`` in turn, with at
    least ``gap`` background cells (8-neighbourhood) between the objects' boxes and ``margin``
    from the edge, over ``base`` (whose objects are ``base_objects``, or found by labelling when
    not given). Returns None when some shape does not fit."""
    # the busy cells (the objects' boxes) as the bits of one int, laid out as `_free_corners` reads
    # them: a try is one AND with the shape's box grown by gap, shifted to the corner
    stride = w + 2 * gap
    busy = 0
    if base_objects is not None and base is not None:  # the base's cells are its objects' cells
        for o in base_objects:
            r0, c0, r1, c1 = o.bbox
            if o.size == (r1 - r0) * (c1 - c0):  # a full box (a wall): one block of bits
                busy |= _box_bits(r1 - r0, c1 - c0, stride) << ((r0 + gap) * stride + c0 + gap)
            else:
                for r, c in zip(o.rows.tolist(), o.cols.tolist()):
                    busy |= 1 << ((r + gap) * stride + c + gap)
    elif base is not None:
        if w <= 62:  # each row's bits as one int64: one product with the powers of two
            bits = ((base != BG).astype(np.int64) @ (np.int64(1) << np.arange(w, dtype=np.int64))).tolist()
        else:
            packed = np.packbits(base != BG, axis=1, bitorder="little")
            raw, nb = packed.tobytes(), packed.shape[1]
            bits = [int.from_bytes(raw[i * nb:(i + 1) * nb], "little") for i in range(h)]
        for i, b in enumerate(bits):
            if b:
                busy |= b << ((i + gap) * stride + gap)
    objs: list[Obj] = []
    keys: list[tuple[int, int]] = []
    paint: list[tuple[np.ndarray, dict, int, int, int]] = []  # (mask, offsets, row, col, colour), drawn at the end
    tries = rng.integers(0, 1 << 30, size=12 * len(shapes)).tolist()
    order = sorted(range(len(shapes)), key=lambda i: -shapes[i].size) if len(shapes) > 1 else [0]
    for k in order:  # big ones first: fewer failures
        m = shapes[k]
        sh, sw = m.shape
        if sh + 2 * margin > h or sw + 2 * margin > w:
            return None
        r = c = -1
        span_r, span_c = h - sh - 2 * margin + 1, w - sw - 2 * margin + 1
        grown = _box_bits(sh + 2 * gap, sw + 2 * gap, stride)  # its top-left at the corner's bit less gap, gap
        for x in tries[12 * k:12 * k + 12]:
            rr, cc = margin + x % span_r, margin + (x >> 10) % span_c
            if not busy & grown << (rr * stride + cc):
                r, c = rr, cc
                break
        if r < 0:
            spots = _free_corners(busy, h, w, sh, sw, gap, margin)
            if not spots:
                return None
            r, c = divmod(spots[int(rng.integers(len(spots)))], w)
        _, rs0, cs0, r_first, c_first, rows_at, cols_at, offsets = _shape_info(m)
        keys.append((r + r_first, c + c_first))
        rs, cs = rows_at.get(r), cols_at.get(c)
        if rs is None:
            rs = rows_at[r] = rs0 + r
            rs.setflags(write=False)
        if cs is None:
            cs = cols_at[c] = cs0 + c
            cs.setflags(write=False)
        colour = palette[k % len(palette)]
        paint.append((m, offsets, r, c, colour))
        busy |= _box_bits(sh, sw, stride) << ((r + gap) * stride + c + gap)
        objs.append(Obj(colour, rs, cs, (r, c, r + sh, c + sw)))
    if base is None or (base.dtype == np.int8 and base.shape == (h, w)):  # the cells written into bytes: one array at the end
        buf = bytearray(h * w) if base is None else bytearray(base.tobytes())
        for m, offsets, r, c, colour in paint:
            offs = offsets.get(w)
            if offs is None:
                rs0, cs0 = cells_of(m)
                offs = offsets[w] = (rs0 * w + cs0).tolist()
            at = r * w + c
            for o in offs:
                buf[at + o] = colour
        grid = np.frombuffer(buf, dtype=np.int8).reshape(h, w)
    else:
        grid = base.copy()
        for m, _, r, c, colour in paint:
            sh, sw = m.shape
            grid[r:r + sh, c:c + sw][m] = colour
    if base is not None:
        if base_objects is None:
            return Scene(grid)
        keys += [(int(o.rows[0]), int(o.cols[0])) for o in base_objects]
        objs += base_objects
    # the first cell of each object (of each placed one known without reading its arrays), in reading order
    objs = [o for _, o in sorted(zip(keys, objs), key=lambda t: t[0])]
    return Scene(grid, objs)


def pad(scene: Scene, top: int, bottom: int, left: int, right: int) -> Scene:
    """The scene with background rows and columns added around it. Its objects are found again
    when asked (`label` finds the placed ones: 4-connected shapes kept apart)."""
    h, w = scene.grid.shape
    grid = np.zeros((h + top + bottom, w + left + right), dtype=np.int8)
    grid[top:top + h, left:left + w] = scene.grid
    return Scene(grid)


def draw_int(rng: np.random.Generator, low: int, high: int) -> int:
    """``int(rng.integers(low, high))``; of one value, that value without the call (numpy draws nothing then)."""
    return low if high - low == 1 else int(rng.integers(low, high))


def pick(rng: np.random.Generator, items):
    """One of ``items`` (``rng.integers(len(items))``; of one item, that item: numpy draws nothing then)."""
    return items[0] if len(items) == 1 else items[int(rng.integers(len(items)))]
