"""Bridges island-graph checks and solver for Bridges: candidate edges, crossings, connectivity, search."""

from __future__ import annotations

Cell = tuple[int, int]


def candidate_edges(islands: dict[Cell, int], n: int) -> list[tuple[Cell, Cell]]:
    """Pairs of islands that see each other along a row or column (nearest island only)."""
    out = []
    for (r, c) in islands:
        for dr, dc in ((1, 0), (0, 1)):
            rr, cc = r + dr, c + dc
            while 0 <= rr < n and 0 <= cc < n and (rr, cc) not in islands:
                rr, cc = rr + dr, cc + dc
            if 0 <= rr < n and 0 <= cc < n:
                out.append(((r, c), (rr, cc)))
    return sorted(out)


def crosses(a: tuple[Cell, Cell], b: tuple[Cell, Cell]) -> bool:
    (r1, c1), (r2, c2) = a
    (s1, d1), (s2, d2) = b
    if r1 == r2 and d1 == d2:  # a horizontal, b vertical
        return c1 < d1 < c2 and s1 < r1 < s2
    if c1 == c2 and s1 == s2:  # a vertical, b horizontal
        return r1 < s1 < r2 and d1 < c1 < d2
    return False


def connected(islands: dict[Cell, int], bridges: dict[tuple[Cell, Cell], int]) -> bool:
    start = next(iter(islands))
    seen, stack = {start}, [start]
    adj: dict[Cell, list[Cell]] = {}
    for (a, b), k in bridges.items():
        if k:
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
    while stack:
        for nb in adj.get(stack.pop(), ()):
            if nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return len(seen) == len(islands)


def bridge_solutions(islands: dict[Cell, int], n: int, limit: int) -> list[dict[tuple[Cell, Cell], int]]:
    """Up to ``limit`` bridge layouts meeting every number, crossing nothing and joining all islands."""
    edges = candidate_edges(islands, n)
    cross = [[j for j, f in enumerate(edges) if crosses(e, f)] for e in edges]
    touching: dict[Cell, list[int]] = {}
    for j, (a, b) in enumerate(edges):
        touching.setdefault(a, []).append(j)
        touching.setdefault(b, []).append(j)
    need = dict(islands)
    value = [-1] * len(edges)
    out: list[dict[tuple[Cell, Cell], int]] = []

    def room(island: Cell) -> int:
        return sum(2 for j in touching.get(island, ()) if value[j] < 0 and not any(value[x] > 0 for x in cross[j]))

    def search(i: int) -> None:
        if len(out) >= limit:
            return
        if i == len(edges):
            layout = {e: v for e, v in zip(edges, value) if v}
            if all(v == 0 for v in need.values()) and connected(islands, layout):
                out.append(layout)
            return
        a, b = edges[i]
        for v in (0, 1, 2):
            if v > min(need[a], need[b]) or (v and any(value[x] > 0 for x in cross[i])):
                continue
            value[i] = v
            need[a] -= v
            need[b] -= v
            if all(need[x] <= room(x) for x in {a, b, *(p for x in cross[i] for p in edges[x])}):
                search(i + 1)
            need[a] += v
            need[b] += v
        value[i] = -1

    search(0)
    return out
