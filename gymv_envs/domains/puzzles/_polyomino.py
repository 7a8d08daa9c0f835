"""Polyomino geometry for PolyominoTiling: the pieces, their orientations, region growing and an exact-cover solver."""

from __future__ import annotations

import functools

import numpy as np

Cells = frozenset[tuple[int, int]]
TETROMINOES = {"I": ("####",), "O": ("##", "##"), "T": ("###", ".#."), "S": (".##", "##."), "L": ("#..", "###")}
PENTOMINOES = {"F": (".##", "##.", ".#."), "I": ("#####",), "L": ("#...", "####"), "N": ("##..", ".###"),
               "P": ("##", "##", "#."), "T": ("###", ".#.", ".#."), "U": ("#.#", "###"), "V": ("#..", "#..", "###"),
               "W": ("#..", "##.", ".##"), "X": (".#.", "###", ".#."), "Y": (".#..", "####"), "Z": ("##.", ".#.", ".##")}


def cells_of(rows: tuple[str, ...]) -> Cells:
    return frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#")


def _normal(cells) -> Cells:
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


@functools.lru_cache(maxsize=1024)
def orientations(cells: Cells) -> tuple[Cells, ...]:
    """The distinct rotations and reflections of a shape, normalised to the origin, in a fixed order."""
    out: list[Cells] = []
    for flip in (False, True):
        cur = [(r, -c) if flip else (r, c) for r, c in cells]
        for _ in range(4):
            cur = [(c, -r) for r, c in cur]
            shape = _normal(cur)
            if shape not in out:
                out.append(shape)
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def _placeable(shape: Cells) -> tuple[tuple[tuple[tuple[int, int], ...], int, int], ...]:
    """Per orientation: its cells in reading order, its last row and its last column."""
    return tuple((tuple(sorted(o)), max(r for r, _ in o), max(c for _, c in o)) for o in orientations(shape))


@functools.lru_cache(maxsize=1024)
def _placed_bits(shape: Cells, stride: int, origin: int) -> tuple[int, ...]:
    """Per orientation of `_placeable`, its cells as bits of `grow_region`'s board."""
    return tuple(sum(1 << (origin + r * stride + c) for r, c in o) for o, _, _ in _placeable(shape))


def canonical(cells) -> tuple[tuple[int, int], ...]:
    """One name for a shape and all its rotations and reflections."""
    return min(tuple(sorted(o)) for o in orientations(_normal(cells)))


def connected(cells: set[tuple[int, int]]) -> bool:
    todo, seen = [next(iter(cells))], set()
    while todo:
        r, c = todo.pop()
        if (r, c) not in seen:
            seen.add((r, c))
            todo += [n for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if n in cells]
    return len(seen) == len(cells)


def grow_region(rng: np.random.Generator, shapes: list[Cells], box: tuple[int, int]) -> list[Cells] | None:
    """Place the shapes one by one, each touching the ones before along as many edges as possible,
    inside a ``box`` (rows, cols); the placed cells of each, or None when one does not fit.

    Cells are bits of a board with room for the box on every side of the first piece (cell (r, c)
    is bit ``(r + box rows) * stride + c + box cols``), so a translation is a shift."""
    stride = 3 * box[1] + 2
    origin = box[0] * stride + box[1]

    def bits_of(cells) -> int:
        return sum(1 << (origin + r * stride + c) for r, c in cells)

    first = orientations(shapes[0])
    placed = [first[int(rng.integers(len(first)))]]
    taken = bits_of(placed[0])
    r_lo, r_hi = min(r for r, _ in placed[0]), max(r for r, _ in placed[0])
    c_lo, c_hi = min(c for _, c in placed[0]), max(c for _, c in placed[0])
    for shape in shapes[1:]:
        # per cell, the edges it shares with taken cells, one direction at a time
        s0, s1, s2, s3 = taken << stride, taken >> stride, taken << 1, taken >> 1
        near = s0 | s1 | s2 | s3
        best, tops = -1, []  # the placements sharing the most edges (each orientation's cells are its own)
        for (o, h, w), base in zip(_placeable(shape), _placed_bits(shape, stride, origin)):
            # translations that keep the union inside the box
            for dr in range(r_hi - box[0] + 1, r_lo + box[0] - h):
                for dc in range(c_hi - box[1] + 1, c_lo + box[1] - w):
                    shift = dr * stride + dc
                    mask = base << shift if shift >= 0 else base >> -shift
                    if mask & taken or not mask & near:
                        continue
                    score = (mask & s0).bit_count() + (mask & s1).bit_count() + (mask & s2).bit_count() + (mask & s3).bit_count()
                    if score > best:
                        best, tops = score, [(o, dr, dc)]
                    elif score == best:
                        tops.append((o, dr, dc))
        if not tops:
            return None
        top = sorted(tuple((r + dr, c + dc) for r, c in o) for o, dr, dc in tops)
        cells = frozenset(top[int(rng.integers(len(top)))])
        placed.append(cells)
        taken |= bits_of(cells)
        r_lo, r_hi = min(r_lo, *(r for r, _ in cells)), max(r_hi, *(r for r, _ in cells))
        c_lo, c_hi = min(c_lo, *(c for _, c in cells)), max(c_hi, *(c for _, c in cells))
    r0, c0 = r_lo, c_lo
    return [frozenset((r - r0, c - c0) for r, c in p) for p in placed]


@functools.lru_cache(maxsize=4096)
def _placements(shape: Cells, rows: int, cols: int) -> tuple[int, ...]:
    """Every placement of a shape in a rows x cols box as a bit mask (bit r * cols + c): orientations in
    order, then row and column offsets."""
    out = []
    for o in orientations(shape):
        h, w = max(r for r, _ in o) + 1, max(c for _, c in o) + 1
        base = sum(1 << (r * cols + c) for r, c in o)
        out += [base << (dr * cols + dc) for dr in range(rows - h + 1) for dc in range(cols - w + 1)]
    return tuple(out)


def solve_tiling(region: Cells, rows: int, cols: int, shapes: list[Cells]) -> list[Cells] | None:
    """A tiling of ``region`` using every shape once (rotated or reflected), by backtracking
    over bitmasks: the first uncovered cell in reading order is covered by each piece that fits."""
    full = sum(1 << (r * cols + c) for r, c in region)
    chosen = [0] * len(shapes)
    inner_left = sum(1 << (r * cols + c) for r in range(rows) for c in range(1, cols))  # not in column 0
    inner_right = sum(1 << (r * cols + c) for r in range(rows) for c in range(cols - 1))

    # per anchor cell (the first one a placement covers), every (piece, placement) inside the region:
    # pieces in order, each piece's placements by orientation, then row and column offset
    at_anchor: dict[int, list[tuple[int, int, int]]] = {}
    outside = ~full
    for i, shape in enumerate(shapes):
        bit = 1 << i
        for mask in _placements(_normal(shape), rows, cols):
            if not mask & outside:
                at_anchor.setdefault(mask & -mask, []).append((bit, i, mask))

    def search(filled: int, unused: int) -> bool:
        if filled == full:
            return True
        free = full & ~filled
        touching = (free << cols) | (free >> cols) | ((free & inner_right) << 1) | ((free & inner_left) >> 1)
        if free & ~touching:  # a free cell with no free neighbour can never be covered
            return False
        for bit, i, mask in at_anchor.get(free & -free, ()):
            if unused & bit and not mask & filled:
                chosen[i] = mask
                if search(filled | mask, unused & ~bit):
                    return True
        return False

    if not search(0, (1 << len(shapes)) - 1):
        return None
    return [frozenset(divmod(i, cols) for i in range(rows * cols) if m >> i & 1) for m in chosen]
