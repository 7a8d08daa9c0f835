"""A native library of composable grid transformations for the ARC-style tasks.

Grids are 2-D ``int8`` arrays of colour digits 0-9 (0 is the background). A `Scene` is a grid and,
when its generator placed objects, the objects (single-colour 4-connected components, kept apart
by the generators so that 4- and 8-connectivity agree); `label` finds them in any grid.

Every transformation is a pure function ``grid -> grid`` (object-wise ones take a `Scene` and also
return ``src``: for each output cell the index of the input object it came from, or -1), so the
hypothesis search in `_search` can compose them and a learned recolouring can be keyed by the
source object's size or colour.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

BG = 0
# D4, the symmetries of the square: index -> name; d4(d4(g, k), D4_INVERSE[k]) == g
D4_NAMES = ("identity", "rotate 90 clockwise", "rotate 180", "rotate 90 anticlockwise",
            "mirror left-right", "mirror top-bottom", "transpose", "anti-transpose")
D4_INVERSE = (0, 3, 2, 1, 4, 5, 6, 7)
DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


class Obj:
    """One object: its colour, cell coordinates (row-major order), size and box (r0, c0, r1, c1)."""

    __slots__ = ("colour", "rows", "cols", "size", "bbox")

    def __init__(self, colour: int, rows: np.ndarray, cols: np.ndarray,
                 bbox: tuple[int, int, int, int] | None = None) -> None:
        self.colour, self.rows, self.cols = colour, rows, cols
        self.size = int(rows.size)
        self.bbox = bbox if bbox is not None else (int(rows.min()), int(cols.min()), int(rows.max()) + 1,
                                                   int(cols.max()) + 1)

    def __getstate__(self):
        return tuple(getattr(self, k) for k in self.__slots__)

    def __setstate__(self, state) -> None:
        for k, v in zip(self.__slots__, state):
            setattr(self, k, v)


@dataclass
class Scene:
    """A grid with its objects (found by `label` when not given) and a per-scene cache."""

    grid: np.ndarray
    _objects: list[Obj] | None = None
    cache: dict = field(default_factory=dict)

    @property
    def objects(self) -> list[Obj]:
        if self._objects is None:
            self._objects = label(self.grid)
        return self._objects


def d4(g: np.ndarray, k: int) -> np.ndarray:
    """The grid under symmetry ``k`` of `D4_NAMES` (a contiguous copy for k > 0)."""
    if k == 0:
        return g
    if k == 1:
        out = g[::-1].T
    elif k == 2:
        out = g[::-1, ::-1]
    elif k == 3:
        out = g[:, ::-1].T
    elif k == 4:
        out = g[:, ::-1]
    elif k == 5:
        out = g[::-1]
    elif k == 6:
        out = g.T
    else:
        out = g[::-1, ::-1].T
    return np.ascontiguousarray(out)


def label(grid: np.ndarray) -> list[Obj]:
    """Single-colour 4-connected components of the non-background cells, in reading order."""
    h, w = grid.shape
    flat = grid.ravel().tolist()
    seen = [False] * (h * w)
    out: list[Obj] = []
    for start, colour in enumerate(flat):
        if colour == BG or seen[start]:
            continue
        seen[start] = True
        stack, cells = [start], []
        while stack:
            i = stack.pop()
            cells.append(i)
            r, c = divmod(i, w)
            for j, ok in ((i - w, r > 0), (i + w, r < h - 1), (i - 1, c > 0), (i + 1, c < w - 1)):
                if ok and not seen[j] and flat[j] == colour:
                    seen[j] = True
                    stack.append(j)
        idx = np.array(sorted(cells))
        out.append(Obj(colour, idx // w, idx % w))
    return out


def object_index(scene: Scene) -> np.ndarray:
    """For each cell the index of its object in ``scene.objects``, -1 on the background (cached)."""
    src = scene.cache.get("src")
    if src is None:
        src = np.full(scene.grid.shape, -1, dtype=np.int16)
        for i, o in enumerate(scene.objects):
            src[o.rows, o.cols] = i
        scene.cache["src"] = src
    return src


# ----------------------------------------------------------------------------- cell-wise
def recolour(g: np.ndarray, table: dict[int, int]) -> np.ndarray:
    lut = np.arange(10, dtype=np.int8)
    for a, b in table.items():
        lut[a] = b
    return lut[g]


def translate(g: np.ndarray, dr: int, dc: int) -> np.ndarray:
    """Shift every cell by (dr, dc); cells pushed off the grid are lost, new cells are background."""
    h, w = g.shape
    out = np.zeros((h, w), dtype=g.dtype) if g.flags.c_contiguous else np.zeros_like(g)
    if abs(dr) < h and abs(dc) < w:
        r0, r1 = (dr, 0) if dr > 0 else (0, -dr)
        c0, c1 = (dc, 0) if dc > 0 else (0, -dc)
        out[r0:h - r1, c0:w - c1] = g[r1:h - r0, c1:w - c0]
    return out


def gravity(g: np.ndarray, direction: str) -> np.ndarray:
    """Every coloured cell slides as far as it can towards ``direction``; each line keeps its order."""
    h, w = g.shape
    if direction in ("down", "up"):
        order = ((g != BG) if direction == "down" else (g == BG)).argsort(axis=0, kind="stable")
        return g[order, np.arange(w)]
    order = ((g != BG) if direction == "right" else (g == BG)).argsort(axis=1, kind="stable")
    return g[np.arange(h)[:, None], order]


# ----------------------------------------------------------------------------- regions and lines
def outside(g: np.ndarray) -> np.ndarray:
    """Background cells 4-connected to the border through background (the rest is enclosed)."""
    h, w = g.shape
    flat = (g.ravel() == BG).tolist()
    seen = [False] * (h * w)
    stack = [i for i in range(h * w) if flat[i] and (i < w or i >= (h - 1) * w or i % w in (0, w - 1))]
    for i in stack:
        seen[i] = True
    while stack:
        i = stack.pop()
        r, c = divmod(i, w)
        for j, ok in ((i - w, r > 0), (i + w, r < h - 1), (i - 1, c > 0), (i + 1, c < w - 1)):
            if ok and flat[j] and not seen[j]:
                seen[j] = True
                stack.append(j)
    return np.array(seen, dtype=bool).reshape(h, w)


def segments(g: np.ndarray, axis: int) -> list[tuple[int, int, int, int]]:
    """Gaps between two same-coloured cells with only background between, along rows (axis 1) or
    columns (axis 0): (line, first, last, colour), first < last the two marker positions."""
    t = g if axis == 1 else g.T
    out = []
    for r, row in enumerate(t.tolist()):
        prev = None
        for c, v in enumerate(row):
            if v == BG:
                continue
            if prev is not None and row[prev] == v and c - prev > 1:
                out.append((r, prev, c, v))
            prev = c
    return out


def connect(g: np.ndarray, axes: tuple[int, ...], colour: int | None, segs: dict | None = None) -> np.ndarray:
    """Draw a line between every aligned pair of same-coloured markers (``colour`` None: the
    markers' colour). With both axes, vertical lines are drawn over horizontal ones. ``segs``
    caches `segments` per axis."""
    out = g.copy()
    for axis in axes:
        if segs is not None and axis not in segs:
            segs[axis] = segments(g, axis)
        for line, a, b, v in (segments(g, axis) if segs is None else segs[axis]):
            c = v if colour is None else colour
            if axis == 1:
                out[line, a + 1:b] = c
            else:
                out[a + 1:b, line] = c
    return out


# ----------------------------------------------------------------------------- patterns
def tile(g: np.ndarray, reps: tuple[int, int], scheme: str) -> np.ndarray | None:
    """The pattern repeated reps[0] x reps[1] times; ``scheme`` "repeat", "mirror" (odd columns
    mirrored left-right, odd rows top-bottom) or "rotate" (tile (i, j) turned (i + j) quarter turns;
    square patterns only: None otherwise)."""
    if scheme == "rotate" and g.shape[0] != g.shape[1]:
        return None
    rows = []
    for i in range(reps[0]):
        row = []
        for j in range(reps[1]):
            if scheme == "repeat":
                t = g
            elif scheme == "mirror":
                t = g[::-1] if i % 2 else g
                t = t[:, ::-1] if j % 2 else t
            else:
                t = d4(g, (i + j) % 4)  # D4 indices 0-3 are 0-3 clockwise quarter turns
            row.append(t)
        rows.append(np.concatenate(row, axis=1))
    return np.ascontiguousarray(np.concatenate(rows, axis=0))


SYMMETRIES = {  # name -> the D4 elements whose images must agree (the group generated)
    "left-right": (0, 4), "top-bottom": (0, 5), "both mirrors": (0, 4, 5, 2),
    "half turn": (0, 2), "quarter turn": (0, 1, 2, 3), "diagonal": (0, 6),
}


def complete_symmetry(g: np.ndarray, kind: str, mask: int = BG) -> np.ndarray | None:
    """Fill the ``mask`` cells from their images under the symmetry ``kind``; None when some masked
    cell has no unmasked image or the images disagree, or the symmetry does not fit the shape."""
    if g.shape[0] != g.shape[1] and any(k in (1, 3, 6, 7) for k in SYMMETRIES[kind]):
        return None
    imgs = g.ravel()[_images_index(*g.shape, kind)]
    known = imgs != mask
    filled = np.where(known, imgs, -1).max(axis=0)  # -1: no unmasked image
    if (filled < 0).any() or ((imgs != filled) & known).any():  # an unmasked image below the largest
        return None
    return filled.astype(np.int8).reshape(g.shape)


@functools.lru_cache(maxsize=256)
def _images_index(h: int, w: int, kind: str) -> np.ndarray:
    """The flat indices of an h x w grid's images under the symmetry ``kind``, one row per
    element of the group: ``g.ravel()[index[i]]`` is the flat ``d4(g, k)`` of its i-th element
    (read-only, cached)."""
    cells = np.arange(h * w).reshape(h, w)
    index = np.stack([d4(cells, k).ravel() for k in SYMMETRIES[kind]])
    index.setflags(write=False)
    return index


def crop(g: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    r0, c0, r1, c1 = box
    return np.ascontiguousarray(g[r0:r1, c0:c1])


def mask_box(g: np.ndarray, mask: int = BG) -> tuple[int, int, int, int] | None:
    rows, cols = np.nonzero(g == mask)
    if rows.size == 0:
        return None
    return int(rows.min()), int(cols.min()), int(rows.max()) + 1, int(cols.max()) + 1


# ----------------------------------------------------------------------------- objects
def object_cells(scene: Scene) -> list[tuple[list[tuple[int, int]], tuple[int, int, int, int]]]:
    """Each object's cells as (row, col) pairs and the lead of each direction (-max row, min row,
    -max col, min col: down, up, right, left), cached in the scene."""
    hit = scene.cache.get("cells")
    if hit is None:
        hit = []
        for o in scene.objects:
            rs, cs = o.rows.tolist(), o.cols.tolist()
            hit.append((list(zip(rs, cs)), (-max(rs), min(rs), -max(cs), min(cs))))
        scene.cache["cells"] = hit
    return hit


_LEAD = {"down": 0, "up": 1, "right": 2, "left": 3}


def move_until_contact(scene: Scene, direction: str, movers: list[int]) -> np.ndarray:
    """Objects ``movers`` (indices) slide towards ``direction`` one after another, the one nearest
    the far side first, each until the next step would leave the grid or touch a filled cell."""
    if not movers:
        return scene.grid.copy()
    objs = scene.objects
    dr, dc = DIRECTIONS[direction]
    g = scene.grid
    h, w = g.shape
    # the cells as bytes (colours 0-9 of an int8 grid): read and written by index, one array at the end
    as_bytes = g.dtype == np.int8
    flat = bytearray(g.tobytes()) if as_bytes else g.ravel().tolist()
    cells = object_cells(scene)
    lead = _LEAD[direction]
    d = dr * w + dc
    for i in sorted(movers, key=lambda i: cells[i][1][lead]):
        pts = cells[i][0]
        for r, c in pts:
            flat[r * w + c] = BG
        # the object moves as far as its most hindered cell can: each cell's run of free cells ahead
        step = h + w
        if as_bytes:  # the run as the zero bytes at the near end of the line of cells ahead (a slice)
            for r, c in pts:
                j = r * w + c
                if dc > 0:
                    ahead = flat[j + 1:j - c + w]
                elif dc < 0:
                    ahead = flat[j - c:j]
                elif dr > 0:
                    ahead = flat[j + w::w]
                else:
                    ahead = flat[c:j:w]
                k = len(ahead) - len(ahead.lstrip(b"\0") if d > 0 else ahead.rstrip(b"\0"))
                if k < step:
                    step = k
        else:
            for r, c in pts:
                k, rr, cc, j = 0, r + dr, c + dc, r * w + c + d
                while 0 <= rr < h and 0 <= cc < w and not flat[j] and k < step:
                    k += 1
                    rr += dr
                    cc += dc
                    j += d
                step = k
        colour = objs[i].colour
        shift = step * d
        for r, c in pts:
            flat[r * w + c + shift] = colour
    if as_bytes:
        return np.frombuffer(flat, dtype=np.int8).reshape(h, w)
    return np.array(flat, dtype=np.int8).reshape(h, w)


def keep_objects(scene: Scene, keep: list[bool]) -> np.ndarray:
    """The grid with every object whose ``keep`` flag is False erased."""
    out = scene.grid.copy()
    for o, k in zip(scene.objects, keep):
        if not k:
            out[o.rows, o.cols] = BG
    return out


@functools.lru_cache(maxsize=1024)
def count_strip(n: int, colour: int) -> np.ndarray | None:
    """The count drawn ARC-style: a 1 x n strip of ``colour`` (None for n = 0); read-only, cached."""
    if n <= 0:
        return None
    strip = np.full((1, n), colour, dtype=np.int8)
    strip.setflags(write=False)
    return strip


def hollow(scene: Scene) -> tuple[np.ndarray, np.ndarray]:
    """Each object keeps only its border cells (cells with a 4-neighbour outside the object)."""
    g, src = scene.grid, object_index(scene)
    pad = np.full((src.shape[0] + 2, src.shape[1] + 2), -1, dtype=src.dtype)
    pad[1:-1, 1:-1] = src
    inner = ((pad[:-2, 1:-1] == src) & (pad[2:, 1:-1] == src) & (pad[1:-1, :-2] == src)
             & (pad[1:-1, 2:] == src) & (src >= 0))
    return np.where(inner, BG, g).astype(np.int8), np.where(inner, -1, src)


def fill_boxes(scene: Scene) -> tuple[np.ndarray, np.ndarray] | None:
    """Each object fills its bounding box with its colour (None when boxes overlap)."""
    objs = scene.objects
    boxes = [o.bbox for o in objs]
    for i, (r0, c0, r1, c1) in enumerate(boxes):  # a box meets an earlier one: the filled cells overlap
        for a0, b0, a1, b1 in boxes[:i]:
            if r0 < a1 and a0 < r1 and c0 < b1 and b0 < c1:
                return None
    g = scene.grid
    out = np.zeros(g.shape, dtype=g.dtype) if g.flags.c_contiguous else np.zeros_like(g)
    src = np.full(g.shape, -1, dtype=np.int16)
    for i, (o, (r0, c0, r1, c1)) in enumerate(zip(objs, boxes)):
        out[r0:r1, c0:c1] = o.colour
        src[r0:r1, c0:c1] = i
    return out, src
