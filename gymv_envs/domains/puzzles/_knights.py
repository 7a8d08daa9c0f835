"""Several knights on a small board with blocked squares: a breadth-first search over their squares.

A state is the squares of ``k`` distinguishable knights, encoded as one integer (knight 0 the
highest base-``n*n`` digit). The search runs a whole layer at a time on bit masks: bit ``s`` of a
layer is "state ``s`` is at this distance". A layer moves by shifting the states from which a
knight's jump stays on the board (one mask and shift per knight and jump, built once per
(side, knights)); a level only marks which states are allowed (knights on free squares, never two
on one). A path is read back from the layers, each state's parent the lowest state of the layer
before that jumps to it.
"""

from __future__ import annotations

import functools

import numpy as np

JUMPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
Square = tuple[int, int]
Move = tuple[Square, Square]


def _bits(flags: np.ndarray) -> int:
    """The integer whose bit ``i`` is ``flags[i]``."""
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


@functools.lru_cache(maxsize=16)
def _tables(n: int, knights: int) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...], int]:
    """Per knight and jump, the states from which the jump stays on the board and the shift it makes;
    per knight and square, the states with that knight on that square; the states with no two knights
    on one square."""
    size = n * n
    states = np.arange(size ** knights, dtype=np.int64)
    digits = [states // size ** (knights - 1 - i) % size for i in range(knights)]
    moves, on = [], []
    for i, d in enumerate(digits):
        scale = size ** (knights - 1 - i)
        r, c = d // n, d % n
        for dr, dc in JUMPS:
            ok = (0 <= r + dr) & (r + dr < n) & (0 <= c + dc) & (c + dc < n)
            moves.append((_bits(ok), (dr * n + dc) * scale))
        on.append(tuple(_bits(d == a) for a in range(size)))
    apart = np.ones(states.size, bool)
    for i, d in enumerate(digits):
        for e in digits[:i]:
            apart &= d != e
    return tuple(moves), tuple(on), _bits(apart)


def encode(squares: tuple[Square, ...], n: int) -> int:
    out = 0
    for r, c in squares:
        out = out * n * n + r * n + c
    return out


def decode(state: int, n: int, knights: int) -> tuple[Square, ...]:
    out = []
    for _ in range(knights):
        state, sq = divmod(state, n * n)
        out.append(divmod(sq, n))
    return tuple(reversed(out))


def layers(n: int, blocked: frozenset, start: tuple[Square, ...], goal: tuple[Square, ...]) -> list[int] | None:
    """The breadth-first layers (bit masks of states) from ``start`` up to the one that holds ``goal``
    (knight ``i`` on ``goal[i]``), one knight moving per step; None when ``goal`` cannot be reached."""
    k = len(start)
    moves, on, allowed = _tables(n, k)
    for r, c in blocked:
        for i in range(k):
            allowed &= ~on[i][r * n + c]
    layer, target = 1 << encode(start, n), 1 << encode(goal, n)
    seen, out = layer, [layer]
    while not layer & target:
        reach = 0
        for mask, shift in moves:
            part = layer & mask
            if part:
                reach |= part << shift if shift >= 0 else part >> -shift
        layer = reach & allowed & ~seen
        if not layer:
            return None
        seen |= layer
        out.append(layer)
    return out


def shortest_moves(n: int, blocked: frozenset, start: tuple[Square, ...], goal: tuple[Square, ...]) -> list[Move] | None:
    """A fewest-move list of (from, to) jumps taking the knights from ``start`` to ``goal`` (knight ``i``
    to ``goal[i]``), one knight per move; None when no list exists."""
    found = layers(n, blocked, start, goal)
    if found is None:
        return None
    k = len(start)
    moves = _tables(n, k)[0]
    path, s = [], encode(goal, n)
    for before in reversed(found[:-1]):
        p = min(s - shift for mask, shift in moves if s - shift >= 0 and (mask & before) >> (s - shift) & 1)
        a, b = decode(p, n, k), decode(s, n, k)
        i = next(i for i in range(k) if a[i] != b[i])
        path.append((a[i], b[i]))
        s = p
    return path[::-1]


def replay(n: int, blocked: frozenset, start: tuple[Square, ...], moves: list[Move]) -> tuple[Square, ...] | None:
    """The knights' squares after the moves, or None at the first illegal one (no knight on the from-square,
    not a knight's jump, off the board, onto a blocked or occupied square)."""
    at = list(start)
    for frm, to in moves:
        if frm not in at or to in at or to in blocked or not (0 <= to[0] < n and 0 <= to[1] < n):
            return None
        if (abs(frm[0] - to[0]), abs(frm[1] - to[1])) not in ((1, 2), (2, 1)):
            return None
        at[at.index(frm)] = to
    return tuple(at)
