"""Polyomino geometry for PolyominoTiling: the pieces, their orientations, region growing and an exact-cover solver."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.bits import set_bits
from gymv_envs.core.rng import ScalarDraws

Cells = frozenset[tuple[int, int]]
TETROMINOES = {"I": ("####",), "O": ("##", "##"), "T": ("###", ".#."), "S": (".##", "##."), "L": ("#..", "###")}
PENTOMINOES = {"F": (".##", "##.", ".#."), "I": ("#####",), "L": ("#...", "####"), "N": ("##..", ".###"),
               "P": ("##", "##", "#."), "T": ("###", ".#.", ".#."), "U": ("#.#", "###"), "V": ("#..", "#..", "###"),
               "W": ("#..", "##.", ".##"), "X": (".#.", "###", ".#."), "Y": (".#..", "####"), "Z": ("##.", ".#.", ".##")}


def cells_of(rows: tuple[str, ...]) -> Cells:
    return frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#")


def normal(cells) -> Cells:
    """The shape moved to the origin (its top row and left column at 0)."""
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
            shape = normal(cur)
            if shape not in out:
                out.append(shape)
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def _placeable(shape: Cells) -> tuple[tuple[tuple[tuple[int, int], ...], int, int], ...]:
    """Per orientation: its cells in reading order, its last row and its last column."""
    return tuple((tuple(sorted(o)), max(r for r, _ in o), max(c for _, c in o)) for o in orientations(shape))


@functools.lru_cache(maxsize=1024)
def _offsets(shape: Cells, stride: int) -> tuple[tuple[int, ...], ...]:
    """Per orientation of `_placeable`, its cells' bit offsets from the placement's own bit on a board
    of ``stride`` bits a row."""
    return tuple(tuple(r * stride + c for r, c in o) for o, _, _ in _placeable(shape))


@functools.lru_cache(maxsize=1024)
def _masks(shape: Cells, stride: int) -> tuple[int, ...]:
    """Per orientation of `_placeable`, its cells as bits at bit 0 on a board of ``stride`` bits a row."""
    return tuple(sum(1 << off for off in offs) for offs in _offsets(shape, stride))


def canonical(cells) -> tuple[tuple[int, int], ...]:
    """One name for a shape and all its rotations and reflections."""
    return min(tuple(sorted(o)) for o in orientations(normal(cells)))


def connected(cells: set[tuple[int, int]]) -> bool:
    todo, seen = [next(iter(cells))], set()
    while todo:
        r, c = todo.pop()
        if (r, c) not in seen:
            seen.add((r, c))
            todo += [n for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if n in cells]
    return len(seen) == len(cells)


def grow_region(rng: np.random.Generator | ScalarDraws, shapes: list[Cells], box: tuple[int, int],
                budget: int = 40) -> list[Cells] | None:
    """Place the shapes one by one, the larger first, each touching the ones before along as many
    edges as possible, inside a ``box`` (rows, cols); the placed cells of each (in the order of
    ``shapes``), or None when no way was found. Each piece takes a random one of its best
    placements; when the pieces after it find no place, it takes the next one (in their order,
    round) and so on, trying at most ``budget`` placements.

    Cells are bits of a board with room for the box on every side of the first piece (cell (r, c)
    is bit ``origin + r * stride + c``), so a translation is a shift."""
    stride = 3 * box[1] + 2
    origin = box[0] * stride + box[1]
    order = sorted(range(len(shapes)), key=lambda i: -len(shapes[i]))
    first = int(rng.integers(len(orientations(shapes[order[0]]))))
    o, h, w = _placeable(shapes[order[0]])[first]
    placed = [(o, 0, 0)]  # per piece placed: its orientation's cells and its translation
    left = [budget]

    def place(taken: int, bounds: tuple[int, int, int, int]) -> bool:
        if len(placed) == len(shapes):
            return True
        tops, count = _best_placements(shapes[order[len(placed)]], stride, origin, box, taken, bounds)
        k = int(rng.integers(count)) if count else 0
        for j in range(count):
            if left[0] == 0:
                return False
            left[0] -= 1
            cells, h, w, mask, at = _nth(tops, (k + j) % count)
            dr, dc = divmod(at - origin + box[1], stride)
            dc -= box[1]
            placed.append((cells, dr, dc))
            r_lo, r_hi, c_lo, c_hi = bounds
            if place(taken | mask << at, (min(r_lo, dr), max(r_hi, dr + h), min(c_lo, dc), max(c_hi, dc + w))):
                return True
            placed.pop()
        return False

    if not place(_masks(shapes[order[0]], stride)[first] << origin, (0, h, 0, w)):
        return None
    r0, c0 = min(dr for _, dr, _ in placed), min(dc for _, _, dc in placed)
    out: list[Cells] = [frozenset()] * len(shapes)
    for i, (cells, dr, dc) in zip(order, placed):
        out[i] = frozenset((r + dr - r0, c + dc - c0) for r, c in cells)
    return out


def _nth(tops: list, n: int) -> tuple:
    """The ``n``-th of the best placements (orientations in order, then translations by bit): its
    orientation's cells, last row and last column, its cell bits at the origin and its bit."""
    for o, mask, live in tops:
        count = live.bit_count()
        if n < count:
            for _ in range(n):
                live &= live - 1
            return (*o, mask, (live & -live).bit_length() - 1)
        n -= count
    raise IndexError(n)


@functools.lru_cache(maxsize=4096)
def _window_rows(stride: int, rows: int) -> int:
    """Bit 0 of each of ``rows`` rows ``stride`` bits apart (a line times this is a block)."""
    return sum(1 << (i * stride) for i in range(rows))


def _best_placements(shape: Cells, stride: int, origin: int, box: tuple[int, int], taken: int,
                     bounds: tuple[int, int, int, int]) -> tuple[list, int]:
    """The placements of ``shape`` that share the most edges with the ``taken`` cells among those that
    touch them, overlap none and keep the union (whose first and last rows and columns are
    ``bounds``) in the box: per orientation that has some, `_placeable`'s entry, its cells' bits at
    the origin and its best translations as bits; and how many there are.

    Every translation of an orientation is scored at once: bit ``origin + dr * stride + dc`` of a
    plane stands for the translation by (dr, dc), and the shared-edge counts are added as bit planes
    (a binary counter over all translations), whose largest value over the placements that fit is
    read from the top plane down. A cell with four taken neighbours is in no placement that fits
    (its piece would have to be that cell alone), so a cell's count is taken as 0 to 3 (two planes),
    and a piece shares at most 12 edges (a pentomino's outline), so the counter has four planes."""
    r_lo, r_hi, c_lo, c_hi = bounds
    s0, s1, s2, s3 = taken << stride, taken >> stride, taken << 1, taken >> 1
    # per cell, the number of its edges shared with taken cells, as bit planes n0 + 2 n1 (mod 4)
    x1, x2 = s0 ^ s1, s2 ^ s3
    n0, n1 = x1 ^ x2, (s0 & s1) ^ (s2 & s3) ^ (x1 & x2)
    # the cells a placement may use: untaken, in the window that keeps the union inside the box
    top, left = r_hi - box[0] + 1, c_hi - box[1] + 1
    line = ((1 << (c_lo + box[1] - left)) - 1) << (origin + top * stride + left)
    free = line * _window_rows(stride, r_lo + box[0] - top) & ~taken
    best, tops, count = 0, [], 0  # the best score, per orientation that reaches it its translations
    for o, offs, mask in zip(_placeable(shape), _offsets(shape, stride), _masks(shape, stride)):
        fits = -1
        for off in offs:
            fits &= free >> off
        if not fits:
            continue
        a0 = a1 = a2 = a3 = 0  # per translation, the shared edges so far: a0 + 2 a1 + 4 a2 + 8 a3
        for off in offs:
            m0, m1 = n0 >> off, n1 >> off
            carry = a0 & m0
            a0 ^= m0
            t = a1 ^ m1
            carry, a1 = (a1 & m1) | (t & carry), t ^ carry
            carry, a2 = a2 & carry, a2 ^ carry
            a3 ^= carry
        live = fits & (a0 | a1 | a2 | a3)  # fits and touches
        if not live:
            continue
        score = 0
        for weight, plane in ((8, a3), (4, a2), (2, a1), (1, a0)):
            if live & plane:
                live &= plane
                score += weight
        if score < best:
            continue
        if score > best:
            best, tops, count = score, [], 0
        tops.append((o, mask, live))
        count += live.bit_count()
    return tops, count


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


@functools.lru_cache(maxsize=1024)
def _representative(cells: Cells) -> Cells:
    """One orientation standing for all of a shape's (the one `canonical` names), so that the solver
    tries a piece's placements in one order whichever orientation it is shown in."""
    return frozenset(canonical(cells))


@functools.lru_cache(maxsize=4096)
def _anchored(shape: Cells, rows: int, cols: int) -> dict[int, tuple[int, ...]]:
    """Per cell bit of a rows x cols box, the placements of a shape (as `_placements` lists them) whose
    first cell in reading order it is (read-only by convention)."""
    out: dict[int, list[int]] = {}
    for mask in _placements(shape, rows, cols):
        out.setdefault(mask & -mask, []).append(mask)
    return {anchor: tuple(masks) for anchor, masks in out.items()}


def solve_tiling(region: Cells, rows: int, cols: int, shapes: list[Cells]) -> list[Cells] | None:
    """A tiling of ``region`` (inside a rows x cols box) using every shape once (rotated or reflected),
    by backtracking over bitmasks: the first uncovered cell in reading order is covered by each
    unused piece that fits there, the larger pieces first; a placement that leaves an uncovered cell
    with no uncovered neighbour is not tried further. The reading order runs along the shorter side
    (a region wider than tall is solved as its mirror image across the diagonal), which fills the
    region in shorter lines and meets dead ends sooner."""
    if cols > rows:
        # (the pieces stay as they are: each is placed in every orientation, in the order of one
        # orientation standing for all of them)
        tiling = solve_tiling(frozenset((c, r) for r, c in region), cols, rows, shapes)
        return None if tiling is None else [frozenset((c, r) for r, c in t) for t in tiling]
    full = sum(1 << (r * cols + c) for r, c in region)
    inner_left = _inner_left(rows, cols)
    inner_right = inner_left >> 1  # not in the last column
    gets = [_anchored(_representative(s), rows, cols).get for s in shapes]
    chosen = [0] * len(shapes)

    def search(blocked: int, unused: tuple[int, ...]) -> bool:
        free = full & ~blocked  # covered or outside the region: blocked
        anchor = free & -free
        for k, i in enumerate(unused):
            for mask in gets[i](anchor, ()):
                if not mask & blocked:
                    rest = free ^ mask
                    if rest and rest & ~((rest << cols) | (rest >> cols) | ((rest & inner_right) << 1)
                                         | ((rest & inner_left) >> 1)):
                        continue  # a cell left with no free neighbour can never be covered
                    if not rest or search(blocked | mask, unused[:k] + unused[k + 1:]):
                        chosen[i] = mask
                        return True
        return False

    order = tuple(sorted(range(len(shapes)), key=lambda i: -len(shapes[i])))
    if not full or not search(~full, order):
        return None
    return [frozenset(divmod(i, cols) for i in set_bits(m)) for m in chosen]


@functools.lru_cache(maxsize=64)
def _inner_left(rows: int, cols: int) -> int:
    """The cells of a rows x cols box not in column 0, as bits."""
    return sum(1 << (r * cols + c) for r in range(rows) for c in range(1, cols))
