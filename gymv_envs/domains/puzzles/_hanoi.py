"""Tower of Hanoi on three pegs, a state being each disk's peg (disk 0 the smallest): legal moves and the fewest-move distances."""

from __future__ import annotations

import functools
import itertools
from collections import deque


def apply_move(state: tuple[int, ...], move: tuple[int, int]) -> tuple[int, ...] | None:
    """The state after moving the top disk of peg ``move[0]`` onto peg ``move[1]``; None if illegal."""
    p, q = move
    on_p = [d for d, at in enumerate(state) if at == p]
    if p == q or not on_p or any(at == q and d < on_p[0] for d, at in enumerate(state)):
        return None
    d = on_p[0]
    return state[:d] + (q,) + state[d + 1:]


def neighbours(state: tuple[int, ...]) -> list[tuple[int, ...]]:
    """States one legal move away; ``state[d]`` is the peg of disk d (0 is the smallest)."""
    tops = {}
    for d, p in enumerate(state):
        tops.setdefault(p, d)
    out = []
    for p, d in tops.items():
        for q in range(3):
            if q != p and (q not in tops or tops[q] > d):
                out.append(state[:d] + (q,) + state[d + 1:])
    return out


@functools.cache
def distances(disks: int) -> dict[tuple[int, ...], dict[tuple[int, ...], int]]:
    """The fewest legal moves between every two states of ``disks`` disks (one breadth-first search from each)."""
    states = list(itertools.product(range(3), repeat=disks))
    out = {}
    for a in states:
        seen, queue = {a: 0}, deque([a])
        while queue:
            s = queue.popleft()
            for t in neighbours(s):
                if t not in seen:
                    seen[t] = seen[s] + 1
                    queue.append(t)
        out[a] = seen
    return out
