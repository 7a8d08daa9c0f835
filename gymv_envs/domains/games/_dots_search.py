"""Dots and Boxes line geometry and exact endgame search for DotsAndBoxes: lines, box completion, value."""

from __future__ import annotations

import functools


@functools.cache
def geometry(n: int):
    """Lines of an n x n box board: endpoints (dot row, dot col) per line and the 4-line mask of each box."""
    ends = [((r, c), (r, c + 1)) for r in range(n + 1) for c in range(n)]
    ends += [((r, c), (r + 1, c)) for r in range(n) for c in range(n + 1)]
    idx = {e: i for i, e in enumerate(ends)}
    boxes = []
    for r in range(n):
        for c in range(n):
            lines = (idx[((r, c), (r, c + 1))], idx[((r + 1, c), (r + 1, c + 1))], idx[((r, c), (r + 1, c))], idx[((r, c + 1), (r + 1, c + 1))])
            boxes.append(sum(1 << i for i in lines))
    touching = [tuple(b for b in range(n * n) if boxes[b] >> i & 1) for i in range(len(ends))]
    return tuple(ends), tuple(boxes), tuple(touching)


def closes(n: int, drawn: int, line: int) -> tuple[int, ...]:
    """The boxes that drawing ``line`` completes."""
    _, boxes, touching = geometry(n)
    after = drawn | 1 << line
    return tuple(b for b in touching[line] if after & boxes[b] == boxes[b])


# The endgame values found so far, per board size, keyed by the drawn lines: a plain dict costs about a quarter of
# the memory of an lru_cache entry (no key tuple, no list links): a million positions take about 70 MB instead of
# 280. A pure function's memo, emptied when full.
MEMO_LIMIT = 1 << 20
_memo: dict[int, dict[int, int]] = {}


def value(n: int, drawn: int) -> int:
    """Boxes the player to move can still win minus those the other can, both playing perfectly."""
    memo = _memo.get(n)
    if memo is None:
        memo = _memo.setdefault(n, {})
    return _value(drawn, memo, _line_boxes(n), (1 << 2 * n * (n + 1)) - 1)


@functools.cache
def _line_boxes(n: int) -> tuple[tuple[int, ...], ...]:
    """Per line: the 4-line masks of the boxes it is a side of (the `geometry` boxes, by line, for `_value`)."""
    _, boxes, touching = geometry(n)
    return tuple(tuple(boxes[b] for b in on) for on in touching)


def _value(drawn: int, memo: dict[int, int], line_boxes: tuple[tuple[int, ...], ...], full: int) -> int:
    best = memo.get(drawn)
    if best is not None:
        return best
    free = full & ~drawn
    while free:   # the undrawn lines, lowest first
        bit = free & -free
        free ^= bit
        after = drawn | bit
        got = 0   # len(closes(n, drawn, line)), inline: the search's inner loop
        for box in line_boxes[bit.bit_length() - 1]:
            if after & box == box:
                got += 1
        v = got + _value(after, memo, line_boxes, full) if got else -_value(after, memo, line_boxes, full)
        if best is None or v > best:
            best = v
    best = 0 if best is None else best
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[drawn] = best
    return best
