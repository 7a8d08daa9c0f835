"""Nurikabe board tables, sea check and island-shape solver for Nurikabe."""

from __future__ import annotations

import bisect
import functools

from gymv_envs.core.bits import edge_masks, grow4, is_connected
from gymv_envs.domains.logic._placement import NEIGHBOURS4, bits


def neighbours(i: int, n: int) -> tuple[int, ...]:
    return _NEIGHBOURS(n)[i]


@functools.cache
def BLOCKS(n: int) -> tuple[int, ...]:  # noqa: N802 - a cached table
    return tuple((0b11 << (r * n + c)) | (0b11 << ((r + 1) * n + c)) for r in range(n - 1) for c in range(n - 1))


@functools.cache
def _NEIGHBOURS(n: int) -> tuple[tuple[int, ...], ...]:  # noqa: N802 - a cached table
    return tuple(tuple((r + dr) * n + c + dc for dr, dc in NEIGHBOURS4 if 0 <= r + dr < n and 0 <= c + dc < n)
                 for r in range(n) for c in range(n))


@functools.cache
def _LOCAL(n: int) -> tuple[tuple[tuple[int, int, int, int], ...], tuple[bool, ...]]:  # noqa: N802 - a cached table
    """Per cell, where its 3x3 window lies in a bit mask (shift, and the window bits on the board), and
    per 9-bit window (bit ``3 * dr + dc``) whether the centre's orthogonal neighbours in it stay joined
    through the window's other cells once the centre leaves."""
    cells = []
    for r in range(n):
        for c in range(n):
            on = sum(1 << (3 * (dr + 1) + dc + 1) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                     if 0 <= r + dr < n and 0 <= c + dc < n)
            cells.append((r * n + c - n - 1, n, 2 * n, on))
    ok = []
    for w in range(512):
        keep = w & ~(1 << 4)
        sides = keep & 0b010101010
        if not sides:
            ok.append(False)
            continue
        low = sides & -sides
        reach = low
        while True:  # 4-connected flood inside the 3x3 window
            grown = reach | (reach << 1 & 0b110110110) | (reach >> 1 & 0b011011011) | reach << 3 | reach >> 3
            grown &= keep
            if grown == reach:
                break
            reach = grown
        ok.append(sides & reach == sides)
    return tuple(cells), tuple(ok)


def stays_connected(sea: int, x: int, n: int) -> bool:
    """Whether the connected sea (bit mask) stays connected when cell ``x`` of it leaves: at once when the
    cells round ``x`` join its sea neighbours, else by a flood."""
    cells, ok = _LOCAL(n)
    base, one, two, on = cells[x]
    if base >= 0:
        w = (sea >> base & 7) | (sea >> (base + one) & 7) << 3 | (sea >> (base + two) & 7) << 6
    else:
        w = (sea << -base & 7) | (sea >> (base + one) & 7 if base + one >= 0 else sea << -(base + one) & 7) << 3 | (sea >> (base + two) & 7) << 6
    if ok[w & on]:
        return True
    rest = sea & ~(1 << x)
    return bool(rest) and fill(rest & -rest, rest, n) == rest


@functools.cache
def _NOT_LAST(n: int) -> int:  # noqa: N802 - a cached table
    return edge_masks(n, n)[2]


@functools.cache
def block_corners(n: int) -> int:
    """The 2x2 blocks' top-left cells: a block is all sea when its top-left cell and the cells right,
    below and right-below are sea."""
    return sum(b & -b for b in BLOCKS(n))


def fill(seed: int, within: int, n: int) -> int:
    """`flood` on an ``n x n`` board in fewer rounds: each round fills every row run rightwards at once
    (an add carries through the run) and grows one cell left, up and down."""
    right = within & _NOT_LAST(n)  # runs broken before the last column: no carry into the next row
    region = seed & within
    while True:
        grown = region | ((right + (region & right)) ^ right) & within
        grown = (grown | (grown >> 1 & right) | grown << n | grown >> n) & within
        if grown == region:
            return region
        region = grown


_CHUNKS = tuple(tuple(tuple(6 * k + b for b in range(6) if v >> b & 1) for v in range(64)) for k in range(6))


def cells_of(mask: int) -> tuple[int, ...]:
    """The set bits of a mask of up to 36 cells, lowest first (`bits` as a tuple, from 6-bit tables)."""
    t = _CHUNKS
    return (t[0][mask & 63] + t[1][mask >> 6 & 63] + t[2][mask >> 12 & 63] + t[3][mask >> 18 & 63]
            + t[4][mask >> 24 & 63] + t[5][mask >> 30 & 63])


def sea_ok(sea: int, n: int) -> bool:
    """The shaded cells (bit mask) are connected and hold no 2x2 block."""
    for block in BLOCKS(n):
        if sea & block == block:
            return False
    return not sea or is_connected(sea, n, n)


@functools.lru_cache(maxsize=512)  # (n, cell, size) for n = 5, 6: 432 tables, under 10 MB
def shape_table(n: int, cell: int, size: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple, int,
                                                       tuple[int, ...], tuple[int, ...]]:
    """Every connected set (bit mask) of ``size`` cells of the board holding ``cell`` (sorted); per
    board cell a bit mask over those shapes: the shapes that hold it (cover), that hold it or a
    neighbour of it (touch); each shape's cells; the cells some shape holds; each shape with its
    neighbours (halo); and per 2x2 block's top-left cell the shapes holding a cell of the block."""
    layer = {1 << cell}
    for _ in range(size - 1):
        layer = {s | 1 << k for s in layer for k in bits(grow4(s, n, n) & ~s)}
    shapes = tuple(sorted(layer))
    cover = [0] * (n * n)
    for t, s in enumerate(shapes):
        for c in bits(s):
            cover[c] |= 1 << t
    nbrs = _NEIGHBOURS(n)
    touch = tuple(cover[c] | functools.reduce(int.__or__, (cover[q] for q in nbrs[c]), 0) for c in range(n * n))
    block = tuple(cover[b] | cover[b + 1] | cover[b + n] | cover[b + n + 1] if b % n < n - 1 and b < n * (n - 1) else 0
                  for b in range(n * n))
    return (shapes, tuple(cover), touch, tuple(tuple(bits(s)) for s in shapes), functools.reduce(int.__or__, shapes),
            tuple(grow4(s, n, n) for s in shapes), block)


def _union(shapes: tuple[int, ...], cover: tuple[int, ...], alive: int, cells: int) -> int:
    """The cells of ``cells`` that some shape of ``alive`` (bit mask over ``shapes``) holds."""
    if alive.bit_count() <= 6:
        out = 0
        while alive:
            low = alive & -alive
            out |= shapes[low.bit_length() - 1]
            alive ^= low
        return out
    left = cells
    while left:
        low = left & -left
        left ^= low
        if not alive & cover[low.bit_length() - 1]:
            cells ^= low
    return cells


def number_cells(n: int, islands: list[int], i: int) -> int:
    """The cells of island ``i`` (bit masks) that no other shape of it holds in a solution where every
    other island keeps its shape: where its number can stand without such a second solution."""
    full = (1 << (n * n)) - 1
    corners, wide = block_corners(n), n + 1
    mask = islands[i]
    size, others = mask.bit_count(), sum(islands) ^ mask
    if size == 1:
        return mask
    near = cells_of(others)
    open_sea = full & ~others
    pools = open_sea & (open_sea >> 1) & (open_sea >> n) & (open_sea >> wide) & corners  # all sea without island i
    free = taken = 0
    for p in cells_of(mask):
        if taken >> p & 1:
            continue
        shapes, cover, touch, _, _, _, block = shape_table(n, p, size)
        kill = 1 << bisect.bisect_left(shapes, mask)  # its own shape, those touching another island,
        for c in near:
            kill |= touch[c]
        for c in cells_of(free):  # and those holding a cell no other shape of it holds
            kill |= cover[c]
        alive = (1 << len(shapes)) - 1 & ~kill
        need = pools
        while need and alive:  # the shape takes a cell of each 2x2 block that is sea without it
            low = need & -need
            need ^= low
            alive &= block[low.bit_length() - 1]
        while alive:
            low = alive & -alive
            alive ^= low
            shape = shapes[low.bit_length() - 1]
            sea = open_sea & ~shape
            if fill(sea & -sea, sea, n) == sea:
                taken |= shape & mask
                break
        else:
            free |= 1 << p
    return free


def nurikabe_solutions(n: int, numbers: dict[int, int], limit: int, known: int | None = None,
                       islands: list[int] | None = None) -> list[int]:
    """Up to ``limit`` sea masks (shaded cells) that solve the puzzle, other than ``known`` (a solution
    whose island shapes are then tried first: other solutions close to it come soon; ``islands``, if
    given, are its islands in the numbers' order).

    Places one island shape per number, islands never touching: all islands with one shape left at
    once, else the island with the fewest shapes that fit beside those placed, keeping only its shapes
    that take a cell of each 2x2 block no other island can reach. A partial placement is dropped when
    an island has no shape left, when a 2x2 block can no longer get any land, or when the cells no
    shape left can cover (sure to be sea) cannot all be joined through cells that are not land. The
    shapes that fit are kept as bit masks over each island's `shape_table`, with the cells they may
    cover (worked out again once six or fewer shapes are left; until then a few too many).
    """
    full = (1 << (n * n)) - 1
    skip = -1 if known is None else known
    state = []
    for h, (i, size) in enumerate(numbers.items()):
        shapes, cover, touch, _, reach, _, _ = table = shape_table(n, i, size)
        kill = 0  # the shapes that hold or touch another number
        for j in numbers:
            if j != i:
                kill |= touch[j]
        alive = (1 << len(shapes)) - 1 & ~kill
        if not alive:
            return []
        last = 0  # the bit of the known solution's shape for this island
        if known is not None:
            own = islands[h] if islands is not None else fill(1 << i, full & ~known, n)
            t = bisect.bisect_left(shapes, own)
            if t < len(shapes) and shapes[t] == own:
                last = 1 << t
        state.append((alive.bit_count(), alive, _union(shapes, cover, alive, reach), table, last))
    out: list[int] = []
    corners = block_corners(n)
    wide = n + 1

    left = _NOT_LAST(n)  # cells with a right neighbour

    def dead(maybe: int, land: int) -> bool:
        """Whether a 2x2 block can get no land, or the sure sea cannot be joined through non-land."""
        sea = full ^ maybe  # (the cells no island can cover)
        if sea & (sea >> 1) & (sea >> n) & (sea >> wide) & corners:
            return True
        within, reach = full ^ land, sea & -sea
        runs = within & left
        while reach & sea != sea:  # a flood from one sure sea cell through non-land (as `fill`)
            grown = reach | ((runs + (reach & runs)) ^ runs) & within
            grown |= (grown << n | grown >> n) & within  # (a second row up and down: fewer rounds)
            grown = (grown | (grown >> 1 & runs) | grown << n | grown >> n) & within
            if grown == reach:
                return True
            reach = grown
        return False

    def narrow(rest: list, placed: tuple[int, ...], halo: int) -> list | None:
        """The other islands' shapes that do not touch the cells placed (with their neighbours, halo)."""
        sub = []
        for x in rest:
            _, fit, union, table, last = x
            if union & halo:  # some shape of it touches them
                touch = table[2]
                kill = 0
                for c in placed:
                    kill |= touch[c]
                gone = fit & kill
                if gone:
                    fit ^= gone
                    if not fit:
                        return None
                    have = fit.bit_count()
                    if have <= 6:  # (else the cells its shapes can hold are kept: a few too many at most)
                        union = _union(table[0], table[1], fit, union)
                    x = (have, fit, union, table, last)
            sub.append(x)
        return sub

    def search(state: list, land: int) -> None:
        maybe = land
        for x in state:
            maybe |= x[2]
        if dead(maybe, land):
            return
        if not state:
            if full ^ maybe != skip:
                out.append(full ^ maybe)
            return
        k, fewest = 0, state[0][0]
        for i in range(1, len(state)):
            if state[i][0] < fewest:
                k, fewest = i, state[i][0]
        if fewest == 1:  # every island with one shape left takes it at once
            shape = halo = 0
            rest = []
            for x in state:
                if x[0] != 1:
                    rest.append(x)
                    continue
                table, t = x[3], x[1].bit_length() - 1
                if table[0][t] & halo:
                    return  # it touches another one placed with it
                shape |= table[0][t]
                halo |= table[5][t]
            sub = narrow(rest, cells_of(shape), halo)
            if sub is not None:
                search(sub, land | shape)
            return
        _, alive, _, (shapes, _, _, shape_cells, _, halos, block), last = state[k]
        rest = state[:k] + state[k + 1:]
        sea = land
        for x in rest:
            sea |= x[2]
        sea = full ^ sea
        blocks = sea & (sea >> 1) & (sea >> n) & (sea >> wide) & corners
        while blocks and alive:  # the shape must take a cell of each 2x2 block no other island can reach
            low = blocks & -blocks
            blocks ^= low
            alive &= block[low.bit_length() - 1]
        if not rest:  # the last island: each shape completes a placement
            for t in bits(alive):
                done = land | shapes[t]
                if full ^ done != skip and not dead(done, done):
                    out.append(full ^ done)
                    if len(out) >= limit:
                        return
            return
        first = alive & last  # the known solution's shape first: other solutions near it come soon
        alive ^= first
        while first or alive:
            low = first or alive & -alive
            if first:
                first = 0
            else:
                alive ^= low
            t = low.bit_length() - 1
            sub = narrow(rest, shape_cells[t], halos[t])
            if sub is not None:
                search(sub, land | shapes[t])
                if len(out) >= limit:
                    return

    search(state, 0)
    return out
