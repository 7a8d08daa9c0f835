"""A search for Latin squares under line and cage constraints, and the fewest-clues loop around it.

`latin_search` finds the same solutions, in the same order and with the same branch count, as
`_grid.latin_solve` over the same tables (rows, then columns, then cages): it keeps every table arc
consistent and branches on the table with the fewest codes left, codes in their given order. The
work is laid out for Latin squares: a line's live codes are one bit mask over the ``n!`` permutations
of `_grid.permutations`, filtered by per-position masks shared by every line (a value leaving a cell
is one AND, with nothing built per puzzle), cells keep ``n``-bit domains, and a cage's codes are
one-hot over its own cells (``bit k * n + v - 1``: its k-th cell holds v), so a cage's table depends
only on its shape's rule and target, not on where it lies.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from gymv_envs.domains.logic._grid import Budget, Grid, permutations


class Perms:
    """The permutations of 1..n as bit masks over their indices in `_grid.permutations`.

    ``sup[k][v]``: those holding ``v + 1`` at position k; ``allow[k][d]``: those whose value at
    position k lies in the ``n``-bit domain ``d``; ``less[i][j]``: those with ``p[i] < p[j]``;
    ``seen[0][s]`` / ``seen[1][s]``: those showing ``s`` rising values from their start / end (of
    ``p[:k]``, a value above every earlier one; `skyscrapers.visible`).
    """

    def __init__(self, n: int) -> None:
        perms = permutations(n)
        self.n, self.full, self.dfull = n, (1 << len(perms)) - 1, (1 << n) - 1
        sup = [[0] * n for _ in range(n)]
        seen = [[0] * (n + 1), [0] * (n + 1)]
        for idx, p in enumerate(perms):
            bit = 1 << idx
            for k, v in enumerate(p):
                sup[k][v - 1] |= bit
            for side, line in enumerate((p, p[::-1])):
                top = count = 0
                for h in line:
                    if h > top:
                        top, count = h, count + 1
                seen[side][count] |= bit
        self.sup, self.seen = sup, seen
        self.by_bit = [{1 << v: s[v] for v in range(n)} for s in sup]  # sup[k] keyed by the value's bit
        self.allow = [[functools.reduce(int.__or__, (s[v] for v in range(n) if d >> v & 1), 0) for d in range(1 << n)]
                      for s in sup]
        self.less = [[self._less(perms, i, j) for j in range(n)] for i in range(n)]
        self.values = [tuple(1 << (v - 1) for v in p) for p in perms]

    @staticmethod
    def _less(perms, i: int, j: int) -> int:
        return sum(1 << idx for idx, p in enumerate(perms) if p[i] < p[j])


@functools.lru_cache(maxsize=8)
def perms(n: int) -> Perms:
    """`Perms` of side n (n = 6: about 0.5 MB; cached for 8 sides)."""
    return Perms(n)


@functools.lru_cache(maxsize=8)
def _lines(n: int) -> tuple[list[tuple[int, ...]], list[tuple[int, int]]]:
    """The cells of each line (rows, then columns), and each cell's row and column."""
    lines = [tuple(r * n + k for k in range(n)) for r in range(n)] + [tuple(k * n + c for k in range(n)) for c in range(n)]
    return lines, [(r, n + c) for r in range(n) for c in range(n)]


@functools.lru_cache(maxsize=8)
def _tables(n: int) -> tuple[list[tuple[tuple[int, list[int], dict[int, int]], ...]], list[tuple[int, ...]]]:
    """Per line, per position: its cell, `Perms.allow` and `Perms.by_bit` of the position; per n-bit
    domain, its bits (shares `perms(n)`'s tables)."""
    P, (lines, _) = perms(n), _lines(n)
    return ([tuple(zip(cells, P.allow, P.by_bit)) for cells in lines],
            [tuple(1 << v for v in range(n) if d >> v & 1) for d in range(1 << n)])


@functools.lru_cache(maxsize=4096)
def _projection(n: int, mask: int) -> tuple[int, ...]:
    """The values each position of the permutations in ``mask`` holds, as n-bit domains (cached: 4,096
    masks, about 1 MB; Futoshiki and Skyscrapers lines have a few hundred)."""
    by_bit = perms(n).by_bit
    return tuple(sum(b for b, s in by_bit[k].items() if mask & s) for k in range(n))


def latin_search(n: int, lines: Sequence[int], cages: Sequence[tuple[tuple[int, ...], Sequence[int]]] = (),
                 givens: dict[tuple[int, int], int] | None = None, limit: int = 2, budget: int = 20_000,
                 other_than: Grid | None = None, base: tuple | None = None, keep: list | None = None) -> list[Grid]:
    """Latin squares over 1..n that keep ``givens``, in which line i (rows 0..n-1, then columns) reads a
    permutation of the mask ``lines[i]`` (over `Perms`) and each cage ``(cells, codes)`` (flat cells
    ``r * n + c``) holds one of its one-hot codes; at most ``limit``, raising `Budget` after ``budget``
    branches. The same answer, order and branch count as `_grid.latin_solve` over the same tables.
    ``other_than``: a solution not to report (the planted one, when the question is whether there is
    another). ``keep``: a list to which the consistent state reached before the first branch is appended
    (nothing when there is none), which a later search whose givens and line masks are at least as tight (and
    whose cages are none) takes as ``base`` and starts from: the state it reaches is the same, so its
    answer and branch count are too."""
    P = perms(n)
    dfull, values = P.dfull, P.values
    nl = 2 * n
    cage_cells = tuple(c for c, _ in cages)
    cells_of, on = _lines(n)
    tabs, bits = _tables(n)
    if cages:  # a cell's tables: its row, its column, its cages
        on = [list(x) for x in on]
        for t, cells in enumerate(cage_cells):
            for x in cells:
                on[x].append(nl + t)
    ntab = nl + len(cages)
    out: list[Grid] = []
    nodes = [0]
    avoid = None if other_than is None else [1 << (v - 1) for row in other_than for v in row]
    order = list(range(nl, ntab)) + [t for k in range(n) for t in (k, n + k)]  # cages (cheap) first; rows and columns alternate

    def settle(dom: list, live: list, cands: list, dirty: list) -> bool:
        """Arc consistency, looking again at every ``dirty`` table in sweeps (each line's mask has been
        projected onto its cells, which hold no value it lacks); False when a table has nothing left."""
        again = True
        while again:
            again = False
            for t in order:
                if not dirty[t]:
                    continue
                dirty[t] = False
                if t < nl:
                    line = tabs[t]
                    m = was = live[t]
                    for x, ak, _ in line:
                        d = dom[x]
                        if d != dfull:
                            m &= ak[d]
                    if m == was:
                        continue
                    if not m:
                        return False
                    live[t] = m
                    for x, _, s in line:
                        d = dom[x]
                        if d & (d - 1):
                            nd = 0
                            for low in bits[d]:
                                if m & s[low]:
                                    nd |= low
                            if nd != d:
                                dom[x] = nd
                                for u in on[x]:
                                    dirty[u] = True
                                dirty[t] = False
                                again = True
                else:
                    cells = cage_cells[t - nl]
                    loc = 0
                    for k, x in enumerate(cells):
                        loc |= dom[x] << k * n
                    bad = ~loc
                    cs = [p for p in cands[t - nl] if not p & bad]
                    if not cs:
                        return False
                    cands[t - nl] = cs
                    u = 0
                    for p in cs:
                        u |= p
                    for k, x in enumerate(cells):
                        nd = u >> k * n & dfull
                        if nd != dom[x]:
                            dom[x] = nd
                            for v in on[x]:
                                dirty[v] = True
                            dirty[t] = False
                            again = True
        return True

    def rec(dom: list, live: list, cands: list, dirty: list) -> None:
        if settle(dom, live, cands, dirty):
            branch(dom, live, cands)

    def branch(dom: list, live: list, cands: list) -> None:
        best, size = -1, 1 << 30
        for i in range(nl):
            k = live[i].bit_count()
            if 1 < k < size:
                best, size = i, k
        for i, c in enumerate(cands):
            k = len(c)
            if 1 < k < size:
                best, size = nl + i, k
        if best < 0:
            if dom != avoid:
                flat = [d.bit_length() for d in dom]
                out.append(tuple(tuple(flat[r:r + n]) for r in range(0, n * n, n)))
            return
        if best < nl:  # the line's live permutations in index order
            cells, rest = cells_of[best], live[best]
            branches = []
            while rest:
                low = rest & -rest
                branches.append((low, values[low.bit_length() - 1]))
                rest ^= low
        else:
            cells = cage_cells[best - nl]
            branches = [(p, tuple(p >> k * n & dfull for k in range(len(cells)))) for p in cands[best - nl]]
        for code, vals in branches:
            nodes[0] += 1
            if nodes[0] > budget:
                raise Budget
            sub, sl, sc = list(dom), list(live), list(cands)
            if best < nl:
                sl[best] = code
            else:
                sc[best - nl] = [code]
            dirty = [False] * ntab
            for x, v in zip(cells, vals):
                if sub[x] != v:
                    sub[x] = v
                    for u in on[x]:
                        dirty[u] = True
            dirty[best] = False
            rec(sub, sl, sc, dirty)
            if len(out) >= limit:
                return

    if base is None:
        dom = [dfull] * (n * n)
        for (r, c), v in (givens or {}).items():
            dom[r * n + c] &= 1 << (v - 1)
        for t, m in enumerate(lines):  # each line's first projection, from a cache
            for x, d in zip(cells_of[t], _projection(n, m)):
                dom[x] &= d
        live, dirty = list(lines), [True] * ntab
    else:  # tighten a consistent state: only the tables round what changed need another look
        dom, live, dirty = list(base[0]), list(base[1]), [False] * ntab
        for (r, c), v in (givens or {}).items():
            x = r * n + c
            d = dom[x] & 1 << (v - 1)
            if d != dom[x]:
                dom[x] = d
                for u in on[x]:
                    dirty[u] = True
        for t, m in enumerate(lines):
            m &= live[t]
            if m == live[t]:
                continue
            live[t] = m
            for x, _, s in tabs[t]:
                nd = 0
                for low in bits[dom[x]]:
                    if m & s[low]:
                        nd |= low
                if nd != dom[x]:
                    dom[x] = nd
                    for u in on[x]:
                        dirty[u] = True
            dirty[t] = True
    if 0 in dom:
        return out
    cands = [list(c) for _, c in cages]
    if not settle(dom, live, cands, dirty):
        return out
    if keep is not None:
        keep.append((dom, live))
    branch(dom, live, cands)
    return out


def fewest_clues(lo: int, hi: int, others: Callable[[int, tuple | None, list], Sequence[Grid]],
                 first_broken: Callable[[Grid], int | None], first: int | None = None) -> int:
    """`_grid.fewest_clues` for a puzzle planted on a known solution: the fewest k in [lo, hi] for which
    ``others(k, base, keep)``, the solutions of the puzzle with its first k clues other than the planted
    one (one is enough), is empty (``hi`` when none below is), running out of budget counting as not
    empty. ``base`` and ``keep`` are `latin_search`'s: each probe starts from the state kept by the
    probe of the most clues not above k. It learns from the solutions it meets: one whose first broken
    clue is ``first_broken(grid)`` = j solves every puzzle of j clues or fewer, so k > j, and k = j + 1
    is probed next (it often is the answer: then one search proves it). The first probe is at
    ``first`` (default: halfway); the answer is the same k wherever the probes fall (the rule is
    monotone), only the work differs: a probe below the answer finds a solution at once, one above it
    searches the whole tree."""
    kept: dict[int, tuple] = {}
    mid = (lo + hi) // 2 if first is None else min(max(first, lo), hi - 1)
    while lo < hi:
        below = [j for j in kept if j <= mid]
        keep: list = []
        try:
            sols = others(mid, kept[max(below)] if below else None, keep)
        except Budget:
            sols = None
        finally:
            if keep:
                kept[mid] = keep[0]
        if sols is not None and not sols:
            hi = mid
            mid = (lo + hi) // 2
            continue
        lo = mid + 1
        for s in sols or ():
            j = first_broken(s)
            if j is not None and j + 1 > lo:
                lo = min(j + 1, hi)
        mid = lo if sols else (lo + hi) // 2
    return lo
