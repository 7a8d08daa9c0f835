"""Campsite's solver: rows as bit masks, searched row by row with column-count pruning, up to a limit of solutions."""

from __future__ import annotations

import functools

from gymv_envs.domains.logic._grid import Budget


@functools.cache
def row_masks(n: int) -> tuple[tuple[int, ...], ...]:
    """Per count k, the masks of a row of ``n`` cells holding k ones, no two side by side."""
    out: list[list[int]] = [[] for _ in range(n + 1)]
    for m in range(1 << n):
        if not m & m >> 1:
            out[m.bit_count()].append(m)
    return tuple(tuple(x) for x in out)


@functools.cache
def spread_masks(n: int) -> tuple[int, ...]:
    """Per row mask, its cells as one per four bits (column c at bit 4c): what a row takes off the column counts."""
    return tuple(sum(1 << 4 * c for c in range(n) if m >> c & 1) for m in range(1 << n))


@functools.lru_cache(maxsize=1 << 16)
def column_room(n: int, rest: int, left: int) -> tuple[int, int, int] | None:
    """For camps ``left`` still needed per column (four bits per column) and ``rest`` rows below the
    next one: ``None`` when a column, or two side by side, need more than they can still hold (every
    other row: camps in neighbouring columns touch unless two rows apart), else the columns that need
    none, those that must take a camp in the next row and those (bit c) that must take one there in
    column c - 1 or c (as masks)."""
    hi, lo = rest // 2 + 1, (rest + 1) // 2
    zero = need = pairs = before = 0
    for c in range(n):
        v = left >> 4 * c & 15
        if v + before > hi:
            return None
        if not v:
            zero |= 1 << c
        elif v > lo:
            need |= 1 << c
        if v + before > lo:
            pairs |= 1 << c
        before = v
    return zero, need, pairs


@functools.lru_cache(maxsize=1 << 16)
def row_fits(n: int, count: int, block: int, must: int, pairs: int) -> tuple[int, ...]:
    """The rows of `row_masks` with ``count`` camps, none in ``block``, all of ``must``, one in column c - 1
    or c for each bit c of ``pairs``, in that order."""
    return tuple(m for m in row_masks(n)[count] if not m & block and m & must == must
                 and (m | m << 1) & pairs == pairs) if 0 <= count <= n else ()


def solve(n: int, row_counts: list[int], col_counts: list[int], ones: list[int] | None = None,
          zeros: list[int] | None = None, limit: int = 2, budget: int = 200_000,
          dead: set[tuple[int, int, int]] | None = None) -> list[tuple[int, ...]]:
    """Up to ``limit`` solutions as row masks (bit c = column c), row by row.

    A row is a mask with its count of ones and none side by side, none next to (or diagonal to) a
    one of the row above; ``ones``/``zeros`` (row masks) are given cells. A column whose count
    can no longer be met by the rows left (at most every other cell) prunes the branch; states (row,
    row above, counts left) without a completion are remembered in ``dead`` and not searched again
    (pass the set of an earlier call whose givens were a subset of these: its dead states stay dead).
    """
    ones = ones or [0] * n
    zeros = zeros or [0] * n
    full = (1 << n) - 1
    spread = spread_masks(n)
    rows: list[int] = []
    out: list[tuple[int, ...]] = []
    nodes = [0]
    dead = set() if dead is None else dead

    def rec(r: int, prev: int, left: int) -> None:
        # left: the camps each column still needs, four bits per column (column c at bit 4c)
        if r == n:
            if not left:
                out.append(tuple(rows))
            return
        key = (r, prev, left)
        if key in dead:
            return
        found = len(out)
        room = column_room(n, n - r - 1, left)
        if room is None:
            return
        fits = row_fits(n, row_counts[r], (prev | prev << 1 | prev >> 1) & full | room[0] | zeros[r], ones[r] | room[1],
                        room[2])
        for m in fits:
            nodes[0] += 1
            if nodes[0] > budget:
                raise Budget
            rows.append(m)
            rec(r + 1, m, left - spread[m])
            rows.pop()
            if len(out) >= limit:
                return
        if len(out) == found:  # no completion from here: skip this state when it comes again
            dead.add(key)

    if max(col_counts, default=0) > 15:
        return out
    rec(0, 0, sum(v << 4 * c for c, v in enumerate(col_counts)))
    return out
