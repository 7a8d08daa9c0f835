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


@functools.lru_cache(maxsize=1 << 15)
def _line_step(clue: tuple[int, ...], n: int, on: int, off: int) -> tuple[int, int] | None:
    """What single-line deduction adds to a line of ``n`` cells with ``on`` known shaded and ``off`` known
    empty: the cells every placement of ``clue`` that fits shades (new shaded bits) and leaves empty (new
    empty bits); ``None`` when no placement fits."""
    full = (1 << n) - 1
    all_on, all_off, fits = full, full, False
    for p in placements(clue, n):
        if p & off == 0 and p & on == on:
            all_on &= p
            all_off &= ~p
            fits = True
    if not fits:
        return None
    return (on | all_on) & ~on, (off | (all_off & full)) & ~off


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
        for on_a, off_a, on_b, off_b, clues in ((on_r, off_r, on_c, off_c, rows), (on_c, off_c, on_r, off_r, cols)):
            for i in range(n):
                on, off = on_a[i], off_a[i]
                if (on | off) == full:
                    continue
                step = _line_step(clues[i], n, on, off)
                if step is None:
                    return None
                new_on, new_off = step
                if not (new_on or new_off):
                    continue
                changed = True
                on_a[i] = on | new_on
                off_a[i] = off | new_off
                bit = 1 << i
                while new_on:
                    low = new_on & -new_on
                    on_b[low.bit_length() - 1] |= bit
                    new_on ^= low
                while new_off:
                    low = new_off & -new_off
                    off_b[low.bit_length() - 1] |= bit
                    new_off ^= low
    if any((on_r[r] | off_r[r]) != full for r in range(n)):
        return None
    return [[on_r[r] >> c & 1 for c in range(n)] for r in range(n)]
