"""Nonograms: the runs of a line, every placement of a clue, and the line-by-line solver.

A clue is the tuple of run lengths of one row or column, top to bottom or left to right.
"""

from __future__ import annotations

import functools


def runs(line) -> tuple[int, ...]:
    """Lengths of the runs of shaded cells along ``line``."""
    out, k = [], 0
    for v in line:
        if v:
            k += 1
        elif k:
            out.append(k)
            k = 0
    if k:
        out.append(k)
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def placements(clue: tuple[int, ...], length: int) -> tuple[int, ...]:
    """Every way to lay out ``clue`` on a line of ``length`` cells, as bit masks (bit i = cell i)."""
    if not clue:
        return (0,)
    first, rest = clue[0], clue[1:]
    need = sum(rest) + len(rest)
    out = []
    for start in range(length - need - first + 1):
        block = ((1 << first) - 1) << start
        skip = start + first + 1
        for tail in placements(rest, max(0, length - skip)) if rest else (0,):
            out.append(block | (tail << skip))
    return tuple(out)


def line_solve(rows: list, cols: list, n: int) -> list[list[int]] | None:
    """Solve by single-line deduction alone; ``None`` if that leaves a cell unknown (or contradicts).

    A puzzle this completes has exactly one solution.
    """
    full = (1 << n) - 1
    on_r, off_r = [0] * n, [0] * n  # known shaded / known empty cells per row (bit c)
    on_c, off_c = [0] * n, [0] * n  # the same per column (bit r), kept alongside
    changed = True
    while changed:
        changed = False
        for axis in (0, 1):
            for i in range(n):
                if axis == 0:
                    on, off, clue = on_r[i], off_r[i], rows[i]
                else:
                    on, off, clue = on_c[i], off_c[i], cols[i]
                if (on | off) == full:
                    continue
                fits = [p for p in placements(clue, n) if p & off == 0 and p & on == on]
                if not fits:
                    return None
                all_on, all_off = full, full
                for p in fits:
                    all_on &= p
                    all_off &= ~p
                new_on, new_off = (on | all_on) & ~on, (off | (all_off & full)) & ~off
                if not (new_on or new_off):
                    continue
                changed = True
                on_a, off_a, on_b, off_b = (on_r, off_r, on_c, off_c) if axis == 0 else (on_c, off_c, on_r, off_r)
                on_a[i] |= new_on
                off_a[i] |= new_off
                bit = 1 << i
                for j in range(n):
                    if new_on >> j & 1:
                        on_b[j] |= bit
                    if new_off >> j & 1:
                        off_b[j] |= bit
    if any((on_r[r] | off_r[r]) != full for r in range(n)):
        return None
    return [[on_r[r] >> c & 1 for c in range(n)] for r in range(n)]
