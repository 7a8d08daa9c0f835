"""Sokoban's solver: push distances to the goals, the player's reach, A* over pushes and its plan."""

from __future__ import annotations

import heapq
from collections import deque

MAX_NODES, INF = 50_000, 1 << 30   # MAX_NODES: search cap of the oracle's plans


def push_distances(floor, goals, offsets) -> list[int]:
    """Fewest pushes from each cell to the nearest goal, other boxes ignored (INF: a dead cell)."""
    dist, queue = [INF] * len(floor), deque(goals)
    for g in goals:
        dist[g] = 0
    while queue:
        t = queue.popleft()
        for d in offsets:  # a box at t - d, pushed from t - 2d, reaches t
            if floor[t - d] and floor[t - 2 * d] and dist[t - d] == INF:
                dist[t - d] = dist[t] + 1
                queue.append(t - d)
    return dist


def reachable(floor, offsets, p: int, boxes) -> set[int]:
    """The cells the player at p can walk to without moving a box."""
    seen, stack = {p}, [p]
    while stack:
        s = stack.pop()
        for t in (s + d for d in offsets):
            if floor[t] and t not in seen and t not in boxes:
                seen.add(t)
                stack.append(t)
    return seen


def search(floor, offsets, goals, goal_dist: list[int], player: int, boxes: tuple[int, ...],
           limit: int = MAX_NODES) -> dict | None:
    """A* over pushes (heuristic: push distances to the nearest goals), pushes onto dead cells pruned.

    A node is (boxes, the player's walkable region), so no (player, boxes) state repeats in a plan
    and the plan can be stored as a map from state to action.
    """
    gd = goal_dist
    h0 = sum(gd[b] for b in boxes)
    if h0 >= INF:
        return None
    start = (min(reachable(floor, offsets, player, set(boxes))), boxes)
    best, parent, heap = {start: 0}, {start: None}, [(h0, 0, start, player)]
    while heap and len(best) < limit:
        _, g, node, p = heapq.heappop(heap)
        bx = node[1]
        if g > best[node]:
            continue
        if all(b in goals for b in bx):
            return unfold(floor, offsets, node, parent, player)
        bset = set(bx)
        reach = reachable(floor, offsets, p, bset)
        for i, b in enumerate(bx):
            for d in offsets:
                to = b + d
                if b - d not in reach or not floor[to] or to in bset or gd[to] >= INF:
                    continue
                nb = tuple(sorted(bx[:i] + (to,) + bx[i + 1:]))
                nxt = (min(reachable(floor, offsets, b, nb)), nb)
                if g + 1 < best.get(nxt, INF):
                    best[nxt], parent[nxt] = g + 1, (node, b, d)
                    heapq.heappush(heap, (g + 1 + sum(gd[x] for x in nb), g + 1, nxt, b))
    return None


def unfold(floor, offsets, node, parent, player: int) -> dict:
    """The plan {(player, boxes): action}: for each push, a shortest walk behind the box, then the push."""
    chain = []
    while parent[node] is not None:
        node, b, d = parent[node][0], parent[node][1], parent[node][2]
        chain.append((node[1], b, d))
    plan, act, p = {}, {d: a for a, d in enumerate(offsets)}, player
    for bx, b, d in reversed(chain):
        prev, queue = {p: p}, deque([p])
        while b - d not in prev:
            s = queue.popleft()
            for t in (s + o for o in offsets):
                if floor[t] and t not in prev and t not in bx:
                    prev[t] = s
                    queue.append(t)
        path, s = [act[d]], b - d
        while s != p:
            path.append(act[s - prev[s]])
            s = prev[s]
        for a in reversed(path):
            plan[(p, bx)] = a
            p += offsets[a]
    return plan
