"""Hex board graph for Hex: cell adjacency, edges, reach, winning cells, connection and distance."""

from __future__ import annotations

import functools
from collections import deque

from gymv_envs.domains.games._board import ME

STEPS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))


@functools.cache
def adjacency(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple((r + dr) * n + c + dc for dr, dc in STEPS if 0 <= r + dr < n and 0 <= c + dc < n)
                 for r, c in (divmod(i, n) for i in range(n * n)))


def _reach(b: tuple[int, ...], p: int, n: int, start: list[int]) -> set[int]:
    """Stones of ``p`` connected to the ``start`` stones."""
    adj, seen = adjacency(n), set(start)
    todo = deque(start)
    while todo:
        for j in adj[todo.popleft()]:
            if b[j] == p and j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def edges(p: int, n: int) -> tuple[list[int], list[int]]:
    """The two edges ``p`` must join: red top and bottom rows, blue left and right columns."""
    if p == ME:
        return list(range(n)), list(range(n * (n - 1), n * n))
    return list(range(0, n * n, n)), list(range(n - 1, n * n, n))


def winning_cells(b: tuple[int, ...], p: int, n: int) -> list[int]:
    """Empty cells where a stone of ``p`` would join its two edges."""
    adj = adjacency(n)
    e1, e2 = edges(p, n)
    a = _reach(b, p, n, [i for i in e1 if b[i] == p])
    z = _reach(b, p, n, [i for i in e2 if b[i] == p])
    near_a = {i for i in e1 if b[i] == 0} | {j for i in a for j in adj[i] if b[j] == 0}
    near_z = {i for i in e2 if b[i] == 0} | {j for i in z for j in adj[i] if b[j] == 0}
    return sorted(near_a & near_z)


def connected(b: tuple[int, ...], p: int, n: int) -> bool:
    e1, e2 = edges(p, n)
    return bool(_reach(b, p, n, [i for i in e1 if b[i] == p]) & set(e2))


def distance(b: tuple[int, ...], p: int, n: int) -> int:
    """Fewest empty cells ``p`` still needs to join its edges (0-1 BFS)."""
    adj, (e1, e2) = adjacency(n), edges(p, n)
    dist, todo = {}, deque()
    for i in e1:
        if b[i] != 3 - p:
            dist[i] = 0 if b[i] == p else 1
            (todo.appendleft if b[i] == p else todo.append)(i)
    goal, best = set(e2), n * n
    while todo:
        i = todo.popleft()
        if i in goal:
            best = min(best, dist[i])
        for j in adj[i]:
            if b[j] == 3 - p:
                continue
            d = dist[i] + (b[j] != p)
            if d < dist.get(j, n * n):
                dist[j] = d
                (todo.appendleft if b[j] == p else todo.append)(j)
    return best
