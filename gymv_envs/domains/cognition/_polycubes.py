"""Polycube figures for mental rotation: the cube's 24 turns, one key for all turns of a figure, Shepard-Metzler
chains, and which turns of a figure show every cube once drawn (`_iso`)."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from gymv_envs.domains.cognition import _iso

Cells = tuple[tuple[int, int, int], ...]
MIN_VISIBLE = 0.18  # every cube shows at least this share of its outline


@functools.lru_cache(maxsize=1)
def rotations() -> tuple[np.ndarray, ...]:
    """The 24 rotation matrices of the cube."""
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3), dtype=np.int64)
            for i, (p, sgn) in enumerate(zip(perm, signs)):
                m[i, p] = sgn
            if round(np.linalg.det(m)) == 1:
                out.append(m)
    return tuple(out)


def normal(cells: np.ndarray | list[tuple[int, int, int]]) -> Cells:
    """The cells moved to the origin (each coordinate's least value 0), sorted: in Python, as the
    figures have a few cubes."""
    c = cells.tolist() if isinstance(cells, np.ndarray) else cells
    mx, my, mz = map(min, zip(*c))
    return tuple(sorted([(x - mx, y - my, z - mz) for x, y, z in c]))


@functools.lru_cache(maxsize=1)
def rotation_stack() -> np.ndarray:
    """The 24 rotations transposed, (24, 3, 3): ``cells @ stack`` turns (n, 3) cells by each one,
    ``(24, n, 3)`` (one integer matmul; read-only)."""
    out = np.ascontiguousarray(np.stack(rotations()).transpose(0, 2, 1))
    out.setflags(write=False)
    return out


@functools.lru_cache(maxsize=1)
def _turn_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per turn r (of `rotations`), as float matrices (read-only): ``codes`` (6, 24) maps a cube's row
    (x - min x, y - min y, z - min z, max x - x, max y - y, max z - z) to its cell code (32 x 32
    weights) in turn r moved to the origin; ``pair`` (6, 48): ``codes``, then the codes of the mirror
    image's turns (its rows are the figure's with the first and fourth swapped)."""
    codes = np.zeros((6, 24))
    for r, m in enumerate(rotations()):
        for k in range(3):  # turned coordinate k is sign * x_p: its least value is 0 or minus the greatest
            p = int(np.flatnonzero(m[k])[0])
            codes[p if m[k, p] > 0 else p + 3, r] = (1024, 32, 1)[k]
    pair = np.concatenate([codes, codes[[3, 1, 2, 0, 4, 5]]], axis=1)
    for a in (codes, pair):
        a.setflags(write=False)
    return codes, pair


@functools.lru_cache(maxsize=8192)
def canonical(cells: Cells) -> bytes:
    """The same key for every turned copy of a figure: the smallest sorted cell code over the 24 turns
    (each turn's codes as int64 bytes; one small float matmul, exact for these whole numbers)."""
    lo, hi = [min(v) for v in zip(*cells)], [max(v) for v in zip(*cells)]
    rows = [v for x, y, z in cells for v in (x - lo[0], y - lo[1], z - lo[2], hi[0] - x, hi[1] - y, hi[2] - z)]
    codes = np.sort(np.array(rows, dtype=float).reshape(-1, 6) @ _turn_tables()[0], axis=0).T.astype(np.int64)
    raw, size = codes.tobytes(), codes.shape[1] * codes.itemsize  # each turn's bytes: a slice of the whole
    return min(raw[i:i + size] for i in range(0, len(raw), size))


@functools.lru_cache(maxsize=4096)
def chiral_keys(cells: Cells) -> tuple[bytes, bytes]:
    """``(canonical(cells), canonical(mirrored(cells)))`` from one float matmul."""
    lo, hi = [min(v) for v in zip(*cells)], [max(v) for v in zip(*cells)]
    rows = [v for x, y, z in cells for v in (x - lo[0], y - lo[1], z - lo[2], hi[0] - x, hi[1] - y, hi[2] - z)]
    codes = np.sort(np.array(rows, dtype=float).reshape(-1, 6) @ _turn_tables()[1], axis=0).T.astype(np.int64)
    raw, size = codes.tobytes(), codes.shape[1] * codes.itemsize  # each turn's bytes: a slice of the whole
    keys = [raw[i:i + size] for i in range(0, len(raw), size)]
    return min(keys[:24]), min(keys[24:])


def mirrored(cells: Cells) -> Cells:
    return normal([(-x, y, z) for x, y, z in cells])


_UNIT = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
_NEXT_AXIS = {a: tuple(b for b in range(3) if b != a) for a in (-1, 0, 1, 2)}  # a run turns off its axis
_STEPS = tuple((tuple(-v for v in unit), unit) for unit in _UNIT)  # per axis: the step for bit 4 clear, set


def chain(rng: np.random.Generator, n: int, arms: int) -> Cells | None:
    """A Shepard-Metzler-like figure: ``arms`` straight runs along the axes, each turning 90 degrees
    (None when the runs cross)."""
    draws = rng.integers(0, 1 << 30, size=n + 2 * arms).tolist()
    lengths = [2] * arms
    for x in draws[:n - 1 - arms]:
        lengths[x % arms] += 1
    pos, cells, axis = (0, 0, 0), [(0, 0, 0)], -1
    for k, length in enumerate(lengths):
        x = draws[n + 2 * k]
        axis = _NEXT_AXIS[axis][x % 2]
        dx, dy, dz = _STEPS[axis][(x >> 4) % 2]
        for _ in range(length - 1):
            pos = (pos[0] + dx, pos[1] + dy, pos[2] + dz)
            if pos in cells:
                return None
            cells.append(pos)
    return normal(cells) if len(cells) == n else None


def drawn_shares(cells: Cells, s: int = 16) -> np.ndarray:
    """For each cube, the share of its outline in view once nearer cubes are painted (an id buffer
    of the real drawing, at cube edge ``s``)."""
    order = _iso.painter(cells)
    items = [(cells[i], 1, "all") for i in order]
    side = int(s * (len(cells) + 2) * 2)
    buf = _iso.id_buffer((side, side), items, s, side / 2, side / 2)
    seen = np.bincount(buf[buf >= 0].ravel(), minlength=len(cells))
    full = _iso.column(1, s, (128, 128, 128))[1].sum()
    out = np.zeros(len(cells))
    out[order] = seen / full
    return out


@functools.lru_cache(maxsize=1)
def _overlap_table() -> np.ndarray:
    """Share of a cube's outline covered by a cube drawn over it at screen offset (du, dw) in lattice
    units (du = dx - dy, dw = dx + dy - 2 dz), for |du| <= 2, |dw| <= 4 (a per-process table)."""
    table = np.zeros((5, 9))
    for du in range(-2, 3):
        for dw in range(-4, 5):
            if (du + dw) % 2 == 0:  # lattice offsets have du and dw of the same parity
                # b sits at that offset on screen and nearer: adding (1, 1, 1) keeps the screen place
                a, b = (0, 0, 0), ((du + dw) // 2 + 5, (dw - du) // 2 + 5, 5)
                table[du + 2, dw + 4] = 1 - drawn_shares((a, b), 24)[0]
    return table


_SCREEN = np.array([[1, 1, 1], [-1, 1, 1], [0, -2, 1]], dtype=np.int64)  # (x, y, z) @ it: (u, w, depth)
_SCREEN.setflags(write=False)


@functools.lru_cache(maxsize=8)
def _cover_table(span: int) -> np.ndarray:
    """Per turn r, per offset d = (dx, dy, dz) between two cubes with |dx|, |dy|, |dz| <= ``span``
    (at ``(dx + span) * w * w + (dy + span) * w + dz + span``, w = 2 span + 1): the share of the first
    cube's outline the second covers in turn r: `_overlap_table` at the turned offset's screen place
    (u = x - y, w = x + y - 2 z; 0 when the second lies behind, depth x + y + z, or off the table).
    Read-only, (24, w ** 3); 8 spans cached, about 0.6 MB at span 7."""
    r = np.arange(-span, span + 1)
    d = np.stack(np.meshgrid(r, r, r, indexing="ij"), -1).reshape(-1, 3)
    du, dw, depth = (d @ rotation_stack() @ _SCREEN).transpose(2, 0, 1)  # each (24, w ** 3)
    on = (depth > 0) & (np.abs(du) <= 2) & (np.abs(dw) <= 4)
    table = np.zeros(du.shape)
    table[on] = _overlap_table()[du[on] + 2, dw[on] + 4]
    table.setflags(write=False)
    return table


def _good_turns(cells: Cells, flips: tuple[int, ...]) -> np.ndarray:
    """Per figure ``cells`` with x times ``flip`` (one per flip: 1, or -1 for the mirror image), whether each
    of the 24 turns shows every cube, (24, len(flips)): one minus the summed covers of the cubes drawn
    over each cube (a lower bound of its share in view: the union of the covers is at most their sum)
    at least `MIN_VISIBLE`, the covers read per pair of cubes from `_cover_table` by their offset (a
    turn's offsets are the turned offsets of the figure)."""
    n = len(cells)
    span = max(map(max, cells)) - min(map(min, cells))
    w = 2 * span + 1
    mid = span * (w * w + w + 1)
    codes = []
    for flip in flips:
        keys = [flip * x * w * w + y * w + z for x, y, z in cells]
        codes += [kj - ki + mid for ki in keys for kj in keys]  # [i, j]: the offset of cube j from cube i
    cover = _cover_table(span).take(codes, axis=1).reshape(24, len(flips), n, n)
    return (1 - cover.sum(axis=-1)).min(axis=-1) >= MIN_VISIBLE


@functools.lru_cache(maxsize=4096)
def drawable_turns(cells: Cells) -> tuple[np.ndarray, np.ndarray]:
    """The figure's 24 turned copies (r, n, 3) and the indices of those whose drawing shows every cube
    (`_good_turns`)."""
    turned = np.array(cells) @ rotation_stack()
    turned.setflags(write=False)
    return turned, np.flatnonzero(_good_turns(cells, (1,))[:, 0])


@functools.lru_cache(maxsize=2048)
def drawable_pair(cells: Cells) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """`drawable_turns` of the figure and of its mirror image in one pass: the mirror's turned copies
    come from the figure with x negated, so each is `mirrored`'s turned copy shifted (`normal` removes
    the shift; the shares depend on offsets only)."""
    a = np.array(cells)
    turned = (a @ rotation_stack(), a * np.array((-1, 1, 1)) @ rotation_stack())
    good = _good_turns(cells, (1, -1))
    for t in turned:
        t.setflags(write=False)
    return (turned[0], np.flatnonzero(good[:, 0])), (turned[1], np.flatnonzero(good[:, 1]))
