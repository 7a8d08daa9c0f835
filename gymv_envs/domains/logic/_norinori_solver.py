"""Norinori's solver on bit masks (bit ``r * n + c`` is cell ``(r, c)``): shadings in which every region
holds two shaded cells and the shaded cells are dominoes that never touch along a side."""

from __future__ import annotations

import functools
from collections.abc import Callable

from gymv_envs.core.bits import edge_masks, flood
from gymv_envs.domains.logic._placement import bits, neighbours4


@functools.lru_cache(maxsize=16)
def board(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, int, int]:
    """For side ``n``: each cell's neighbours, each cell with its neighbours (its ring, a mask), and
    `edge_masks` (every cell, those not in the first column, those not in the last). 16 sides kept."""
    nbrs = neighbours4(n, n)
    return (nbrs, tuple(1 << j | sum(1 << q for q in nb) for j, nb in enumerate(nbrs))) + edge_masks(n, n)


@functools.lru_cache(maxsize=16)
def _links(n: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per cell ``x`` of side ``n``, per neighbour ``y``: ``y``, the rings of both, and the domino (masks)."""
    nbrs, rings = board(n)[:2]
    return tuple(tuple((y, rings[x] | rings[y], 1 << x | 1 << y) for y in nb) for x, nb in enumerate(nbrs))


def shadings(n: int, masks: list[int], reg: list[int], blank: int, limit: int) -> list[int]:
    """Up to ``limit`` shadings (bit masks) of the regions ``masks`` (``reg``: each cell's region) that
    leave ``blank`` unshaded.

    The search takes the region with the fewest cells left that could still be shaded (open, beside
    another open cell) and its first such cell: either a domino covers it (one branch per side) or it
    stays blank. Placing a domino closes the cells round it, and a region with its two cells closes
    the rest; a region with too few cells left ends the branch.
    """
    nbrs, rings, full, no_first, no_last = board(n)
    k = len(masks)
    count = [0] * k
    out: list[int] = []
    regions_k = range(k)

    def search(shaded: int, closed: int) -> bool:
        open_ = full & ~closed
        live = open_ & ((open_ << 1 & no_first) | (open_ >> 1 & no_last) | open_ << n | open_ >> n)
        best, fewest, cells = -1, 99, 0
        for g in regions_k:
            need = 2 - count[g]
            if need:
                free = masks[g] & live
                f = free.bit_count()
                if f < need:
                    return False
                if f < fewest:
                    best, fewest, cells = g, f, free
        if best < 0:
            out.append(shaded)
            return len(out) >= limit
        x = (cells & -cells).bit_length() - 1
        for y in nbrs[x]:
            if not live >> y & 1:
                continue
            gy = reg[y]
            if gy == best:
                if count[best]:
                    continue
            elif count[gy] == 2:
                continue
            count[best] += 1
            count[gy] += 1
            shut = closed | rings[x] | rings[y]
            if count[best] == 2:
                shut |= masks[best]
            if count[gy] == 2:
                shut |= masks[gy]
            stop = search(shaded | 1 << x | 1 << y, shut)
            count[best] -= 1
            count[gy] -= 1
            if stop:
                return True
        return search(shaded, closed | 1 << x)

    search(0, blank)
    return out


def dot_pass(n: int, masks: list[int], reg: list[int], truth: int, pick: Callable[[int], int]) -> int:
    """Dots (a mask of cells outside ``truth``) that leave ``truth`` the only shading: one search over
    all shadings (`shadings`' order) that puts a dot on a cell of each other shading it meets
    (``pick(choices)`` chooses it among the cells of its first domino off ``truth``) and backs out of
    what the dot rules out. Every shading it has not met holds a dot, so ``truth`` is left alone."""
    full, no_first, no_last = board(n)[2:]
    k = len(masks)
    need = [2] * k
    regions_k = range(k)
    dots = 0
    links = _links(n)

    def search(shaded: int, closed: int, off: int) -> None:
        """Shadings with ``shaded`` and without ``closed``; ``off``: the first domino placed off the truth."""
        nonlocal dots
        if shaded & dots:  # a dot on a cell shaded on the way here
            return
        while True:  # each turn: one cell of the most constrained region gets a domino, else stays blank
            open_ = full & ~(closed | dots)
            live = open_ & ((open_ << 1 & no_first) | (open_ >> 1 & no_last) | open_ << n | open_ >> n)
            best, fewest = -1, 99
            for g in regions_k:
                q = need[g]
                if q:
                    f = (masks[g] & live).bit_count()
                    if f < q:
                        return
                    if f < fewest:
                        best, fewest = g, f
            if best < 0:
                if off:
                    dots |= pick(off & ~truth)
                return
            cells = masks[best] & live
            x = (cells & -cells).bit_length() - 1
            for y, ring, pair in links[x]:
                if not live >> y & 1:
                    continue
                gy = reg[y]
                if gy == best:
                    if need[best] < 2:
                        continue
                elif not need[gy]:
                    continue
                need[best] -= 1
                need[gy] -= 1
                shut = closed | ring
                if not need[best]:
                    shut |= masks[best]
                if not need[gy]:
                    shut |= masks[gy]
                search(shaded | pair, shut, off or pair & ~truth and pair)
                need[best] += 1
                need[gy] += 1
                if shaded & dots:
                    return
            closed |= 1 << x

    search(0, 0, 0)
    return dots


def local_repair(draw: Callable[[int], int], n: int, masks: list[int], reg: list[int], pairs: list[int], tries: int) -> None:
    """Move cells between regions (``masks`` and ``reg``, in place) to rule out the other shadings that
    move one domino of the truth (``pairs[g]``: region ``g``'s domino, a mask) inside its region.

    Each round finds every such domino (bit-parallel: the cells of a region clear of the other dominoes
    and their sides), takes one of their cells off the truth and beside another region, and hands it,
    with the part of its region the move cuts off, to one of those regions (``draw(k)``: a random index
    below ``k``). Stops after ``tries`` rounds or when none is left.
    """
    nbrs, rings, full, no_first, no_last = board(n)
    k = len(masks)
    around = [rings[(p & -p).bit_length() - 1] | rings[p.bit_length() - 1] for p in pairs]
    before, after = [0] * (k + 1), [0] * (k + 1)
    for g in range(k):
        before[g + 1] = before[g] | around[g]
        after[k - 1 - g] = after[k - g] | around[k - 1 - g]
    sides = [before[g] | after[g + 1] for g in range(k)]  # the truth's other dominoes and the cells beside them
    truth = sum(pairs)

    def movable(g: int) -> int:
        """The cells off the truth of region ``g``'s other domino places, beside another region."""
        here = masks[g]
        free = here & ~sides[g]
        across = free & free >> 1 & no_last
        down = free & free >> n
        if not across | down:
            return 0
        out = full & ~here
        edge = here & ((out << 1 & no_first) | (out >> 1 & no_last) | out << n | out >> n)
        return (across | across << 1 | down | down << n) & edge & ~truth

    found = [movable(g) for g in range(k)]  # inside their regions, so apart: their sum is their union
    for _ in range(tries):
        off = sum(found)
        if not off:
            return
        for _ in range(draw(off.bit_count())):  # a random cell of them: drop the lowest that many times
            off &= off - 1
        x = (off & -off).bit_length() - 1
        old = reg[x]
        beside = [reg[y] for y in nbrs[x] if reg[y] != old]  # never empty: x lies on its region's edge
        new = beside[draw(len(beside))]
        rest = masks[old] & ~(1 << x)
        if (rest & rings[x]).bit_count() < 2:  # x is an end of its region: the rest stays joined
            moved = 1 << x
        else:
            moved = masks[old] & ~flood(pairs[old], rest, n, n)
        masks[old] ^= moved
        masks[new] |= moved
        for j in bits(moved):
            reg[j] = new
        found[old], found[new] = movable(old), movable(new)

