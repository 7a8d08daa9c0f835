"""Star Battle's solver: the solutions of a region map, region with the fewest open cells first."""

from __future__ import annotations

import functools

import numpy as np


@functools.cache
def _blocks(n: int) -> tuple[int, ...]:
    """Per cell ``i``, the bit mask of the cells a star there leaves open: all but its row, its column
    and its neighbours (``open & _blocks(n)[i]``; non-negative, which Python ands faster)."""
    full, out = (1 << n * n) - 1, []
    for r in range(n):
        for c in range(n):
            m = 0
            for k in range(n):
                m |= 1 << (r * n + k) | 1 << (k * n + c)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if 0 <= r + dr < n and 0 <= c + dc < n:
                        m |= 1 << ((r + dr) * n + c + dc)
            out.append(full & ~m)
    return tuple(out)


def region_masks(regions: np.ndarray) -> list[int]:
    """Per region ``k``, the bit mask of its cells (bit ``r * n + c``)."""
    masks = [0] * regions.shape[0]
    for i, k in enumerate(regions.ravel().tolist()):
        masks[k] |= 1 << i
    return masks


def count_solutions(regions: np.ndarray, limit: int = 2, skip: frozenset[tuple[int, int]] = frozenset()
                    ) -> list[frozenset[tuple[int, int]]]:
    """Up to ``limit`` solutions other than ``skip``, searching the region with the fewest open cells
    first; the solutions come in the same order whatever ``skip`` is."""
    n = regions.shape[0]
    return solutions(region_masks(regions), limit, sum(1 << (r * n + c) for r, c in skip))


def solutions(masks: list[int], limit: int, skip_mask: int = 0) -> list[frozenset[tuple[int, int]]]:
    """`count_solutions` on the regions' `region_masks`, leaving out the solution of mask ``skip_mask`` (``limit`` >= 1)."""
    n = len(masks)
    keep = _blocks(n)
    out: list[frozenset[tuple[int, int]]] = []
    chosen: list[int] = []  # the stars placed, in the order placed (the order a solution's set is built in)

    def search(open_: int, regs: list[int], placed: int) -> None:
        # open_: the cells still open to a star; regs: the regions still without one, in region order (ties go
        # to the first). A region with one open cell takes its star in this loop, with no branch (that is
        # what the search would do next anyway: one open cell is the fewest)
        regs = regs.copy()
        while True:
            low, best = 99, 0  # the fewest open cells, in region best; a region left without one is a dead end
            for m in regs:
                c = (open_ & m).bit_count()
                if c < low:
                    if not c:
                        return
                    low, best = c, m
            regs.remove(best)  # region masks are distinct: the first with the fewest goes
            best_open = open_ & best
            if len(regs) == 1:
                break
            if low == 1:
                i = best_open.bit_length() - 1
                open_ &= keep[i]
                placed |= best_open
                chosen.append(i)
                continue
            mark = len(chosen)
            while best_open:
                low = best_open & -best_open
                best_open ^= low
                i = low.bit_length() - 1
                chosen.append(i)
                search(open_ & keep[i], regs, placed | low)
                del chosen[mark:]
                if len(out) >= limit:
                    return
            return
        other = open_ & regs[0]  # two regions left: a star here leaves the other one row and one column, one cell
        while best_open:
            low = best_open & -best_open
            best_open ^= low
            i = low.bit_length() - 1
            last = other & keep[i]
            if last and placed | low | last != skip_mask:
                out.append(frozenset(divmod(j, n) for j in (*chosen, i, last.bit_length() - 1)))
                if len(out) >= limit:
                    return

    if n == 1:
        return [frozenset({(0, 0)})][:limit] if skip_mask != 1 else []
    search((1 << n * n) - 1, masks, 0)
    return out
