"""Grids of distinct numbers with line sums (Magic square, Survo): completion search and cell hiding.

`fill_lines` fills the open cells with the unused values: a line's open cells must reach its sum with its
count of the smallest or largest unused values, the last open cell of a line is forced, and a branch tries
only the values that every line through the cell still allows. `most_open` finds how many cells can be
opened with one filling left: a second filling found with k cells open also fits every opening that still
contains the cells where it differs, so the count jumps below the last of them (the count a binary search
over k finds, as the openings are nested).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate
from operator import itemgetter

from gymv_envs.domains.logic._grid import Budget, hide_cells


def fill_lines(cells: Sequence[int], lines: Sequence[Sequence[int]], totals: Sequence[int], values: Iterable[int],
               limit: int = 2, budget: int = 20_000) -> list[tuple[int, ...]]:
    """Fillings of the open cells (0) of ``cells`` with the unused ``values`` (positive), each once, so that
    the cells of ``lines[i]`` sum to ``totals[i]``; every cell must lie on some line.

    Per line, the values its open cells may take (as bit masks): the one value left when one cell is
    open, the unused v whose partner need - v is unused too when two are, else those that leave a sum
    the smallest and largest unused values can make. A cell may take what all its lines allow; the
    search branches on the open cell with the fewest values. Raises `Budget` after ``budget`` branches.
    """
    g = list(cells)
    avail = sorted(set(values) - set(g))
    top = max(totals) + 1
    bits = sum([1 << v for v in avail])  # the unused values, and mirrored (bit top - v), for need - v
    mirror = sum([1 << (top - v) for v in avail])
    getters, on = _incidence(tuple(map(tuple, lines)), len(g))
    sums = [get(g) for get in getters]
    need = [t - sum(v) for v, t in zip(sums, totals, strict=True)]
    opens = [v.count(0) for v in sums]
    todo = [i for i, v in enumerate(g) if not v]
    allow = [0] * len(lines)
    out, nodes = [], 0

    def rec() -> None:
        nonlocal bits, mirror, nodes
        m = len(avail)
        small = [0, *accumulate(avail)]  # small[k]: the k smallest unused values' sum
        every = small[m]
        for li, k in enumerate(opens):
            s = need[li]
            if k == 0:
                if s:
                    return
                continue
            if s < small[k] or s > every - small[m - k]:
                return
            if k == 1:
                allow[li] = 1 << s
            elif k == 2:
                allow[li] = mirror >> (top - s) & ~(1 << (s >> 1) if s & 1 == 0 else 0)
            else:  # the other k - 1 cells take at least small[k - 1] and at most every - small[m - k + 1]
                hi, lo = s - small[k - 1], s - every + small[m - k + 1]
                allow[li] = (1 << hi + 1) - (1 << lo) if hi >= lo > 0 else (1 << hi + 1) - 2 if hi > 0 else 0
        best, few, dom = -1, 99, 0
        for i in todo:
            if g[i]:
                continue
            d = bits
            for li in on[i]:
                d &= allow[li]
            c = d.bit_count()
            if c < few:
                if c == 0:
                    return
                best, few, dom = i, c, d
                if c == 1:
                    break
        if best < 0:
            out.append(tuple(g))
            return
        mine = on[best]
        while dom:
            low = dom & -dom
            dom ^= low
            v = low.bit_length() - 1
            nodes += 1
            if nodes > budget:
                raise Budget
            g[best] = v
            for li in mine:
                need[li] -= v
                opens[li] -= 1
            pos = avail.index(v)
            del avail[pos]
            bits ^= low
            mirror ^= 1 << (top - v)
            rec()
            mirror ^= 1 << (top - v)
            bits ^= low
            avail.insert(pos, v)
            for li in mine:
                need[li] += v
                opens[li] += 1
            g[best] = 0
            if len(out) >= limit:
                return

    rec()
    return out


@functools.lru_cache(maxsize=64)
def _incidence(lines: tuple[tuple[int, ...], ...], cells: int) -> tuple[list, list[tuple[int, ...]]]:
    """Per line, a getter of its cells' values (as a tuple); per cell, the lines through it."""
    on: list[tuple[int, ...]] = [() for _ in range(cells)]
    for li, ln in enumerate(lines):
        for j in ln:
            on[j] += (li,)
    return [itemgetter(*ln) if len(ln) > 1 else (lambda g, j=ln[0]: (g[j],)) for ln in lines], on


def most_open(full: Sequence[int], order: Sequence[int], hi: int,
              fillings: Callable[[list[int]], Sequence[Sequence[int]]]) -> int:
    """The most cells k <= ``hi`` of ``order`` that can be opened in ``full`` (``fillings`` of
    ``hide_cells(full, order, k)`` finds no second filling; running out of budget counts as one).

    """
    k = hi
    while k > 0:
        try:
            found = fillings(hide_cells(full, order, k))
        except Budget:
            k -= 1
            continue
        other = next((f for f in found if any(a != b for a, b in zip(f, full, strict=True))), None)
        if other is None:
            return k
        k = max(j for j in range(k) if other[order[j]] != full[order[j]])
    return 0
