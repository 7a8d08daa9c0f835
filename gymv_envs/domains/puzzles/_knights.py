"""Several knights on a small board with blocked squares: a breadth-first search over their squares.

A state is the squares of ``k`` distinguishable knights, encoded as one integer (knight 0 the
highest base-``n*n`` digit). The jump table of every state is built once per (side, knights) and
reused; a level only marks which states are allowed (knights on free squares, never two on one).
"""

from __future__ import annotations

import functools

import numpy as np

JUMPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
Square = tuple[int, int]
Move = tuple[Square, Square]


@functools.lru_cache(maxsize=8)
def _jump_table(n: int, knights: int) -> np.ndarray:
    """``(states, knights * 8)`` int32: the state after knight ``i`` makes jump ``j`` (-1 off the board)."""
    size = n * n
    land = np.full((size, 8), -1, np.int64)  # square -> square after each jump
    for r in range(n):
        for c in range(n):
            for j, (dr, dc) in enumerate(JUMPS):
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    land[r * n + c, j] = (r + dr) * n + c + dc
    states = np.arange(size ** knights, dtype=np.int64)
    cols = []
    for i in range(knights):
        scale = size ** (knights - 1 - i)
        digit = states // scale % size
        to = land[digit]  # (states, 8)
        cols.append(np.where(to >= 0, states[:, None] + (to - digit[:, None]) * scale, -1))
    table = np.concatenate(cols, axis=1).astype(np.int32)
    table.setflags(write=False)
    return table


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


def allowed_states(n: int, knights: int, blocked: frozenset) -> np.ndarray:
    """Boolean per state: every knight on a free square, no two on one square."""
    size = n * n
    free = np.ones(size, bool)
    for r, c in blocked:
        free[r * n + c] = False
    states = np.arange(size ** knights, dtype=np.int64)
    digits = [states // size ** (knights - 1 - i) % size for i in range(knights)]
    ok = np.ones(states.size, bool)
    for i, d in enumerate(digits):
        ok &= free[d]
        for e in digits[:i]:
            ok &= d != e
    return ok


def shortest_moves(n: int, blocked: frozenset, start: tuple[Square, ...], goal: tuple[Square, ...]) -> list[Move] | None:
    """A fewest-move list of (from, to) jumps taking the knights from ``start`` to ``goal`` (knight ``i``
    to ``goal[i]``), one knight per move; None when no list exists."""
    k = len(start)
    table, ok = _jump_table(n, k), allowed_states(n, k, blocked)
    a, b = encode(start, n), encode(goal, n)
    parent = np.full(ok.size, -1, np.int64)
    parent[a] = a
    frontier = np.array([a], np.int64)
    while frontier.size and parent[b] < 0:
        nxt = table[frontier].astype(np.int64)  # (F, 8k)
        src = np.broadcast_to(frontier[:, None], nxt.shape)
        keep = nxt >= 0
        nxt, src = nxt[keep], src[keep]
        keep = ok[nxt] & (parent[nxt] < 0)
        nxt, idx = np.unique(nxt[keep], return_index=True)
        parent[nxt] = src[keep][idx]
        frontier = nxt
    if parent[b] < 0:
        return None
    path, s = [], b
    while s != a:
        p = int(parent[s])
        before, after = decode(p, n, k), decode(s, n, k)
        i = next(i for i in range(k) if before[i] != after[i])
        path.append((before[i], after[i]))
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
