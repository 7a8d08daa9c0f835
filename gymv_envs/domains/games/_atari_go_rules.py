"""Atari Go's board rules on a tuple of points: the neighbours of each point, and groups with their liberties."""

from __future__ import annotations

import functools


@functools.cache
def adjacency(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple((r + dr) * n + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                       if 0 <= r + dr < n and 0 <= c + dc < n) for r, c in (divmod(i, n) for i in range(n * n)))


def groups(b: tuple[int, ...], n: int) -> dict[int, tuple[frozenset[int], frozenset[int]]]:
    """For each stone: (its group's stones, the group's liberties)."""
    adj, out = adjacency(n), {}
    for i, v in enumerate(b):
        if v == 0 or i in out:
            continue
        stones, libs, todo = {i}, set(), [i]
        while todo:
            for j in adj[todo.pop()]:
                if b[j] == 0:
                    libs.add(j)
                elif b[j] == v and j not in stones:
                    stones.add(j)
                    todo.append(j)
        entry = (frozenset(stones), frozenset(libs))
        for j in stones:
            out[j] = entry
    return out
