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


def crossing(edges: list[tuple[Cell, Cell]]) -> list[list[int]]:
    """For each edge, the indices of the edges it `crosses` (a horizontal and a vertical one), in order."""
    flat = [j for j, ((r1, _), (r2, _)) in enumerate(edges) if r1 == r2]
    upright = [j for j, ((_, c1), (_, c2)) in enumerate(edges) if c1 == c2 and edges[j][0][0] != edges[j][1][0]]
    out: list[list[int]] = [[] for _ in edges]
    for i in flat:
        (r, c1), (_, c2) = edges[i]
        for j in upright:
            (s1, d), (s2, _) = edges[j]
            if c1 < d < c2 and s1 < r < s2:
                out[i].append(j)
                out[j].append(i)
    for lst in out:
        lst.sort()
    return out


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


def bridge_solutions(islands: dict[Cell, int], n: int, limit: int, edges: list[tuple[Cell, Cell]] | None = None,
                     cross: list[list[int]] | None = None) -> list[dict[tuple[Cell, Cell], int]]:
    """Up to ``limit`` bridge layouts meeting every number, crossing nothing and joining all islands.

    Decides the `candidate_edges` in order (0, 1 or 2 bridges each); a choice is dropped when an island
    it touches (or one at the end of an edge it blocks) needs more bridges than its open edges, those
    not yet decided and not crossed by a bridge, can still bring (two each). ``edges``: the candidate
    edges when already known, and ``cross`` their `crossing`.
    """
    edges = candidate_edges(islands, n) if edges is None else edges
    names = list(islands)
    index = {c: k for k, c in enumerate(names)}
    ends = [(index[a], index[b]) for a, b in edges]
    cross = crossing(edges) if cross is None else cross
    need = [islands[c] for c in names]
    # open edges at each island: not decided and not crossed by a bridge (kept up to date)
    open_ = [0] * len(names)
    for a, b in ends:
        open_[a] += 1
        open_[b] += 1
    blocked = [0] * len(edges)  # bridges crossing each edge
    value = [-1] * len(edges)
    watch = [tuple({a, b, *[k for x in cross[i] for k in ends[x]]}) if cross[i] else (a, b) for i, (a, b) in enumerate(ends)]
    out: list[dict[tuple[Cell, Cell], int]] = []

    def search(i: int) -> None:
        if len(out) >= limit:
            return
        if i == len(edges):
            if not any(need):
                layout = {e: v for e, v in zip(edges, value) if v}
                if connected(islands, layout):
                    out.append(layout)
            return
        a, b = ends[i]
        free = not blocked[i]
        if free:  # edge i is decided from here on
            open_[a] -= 1
            open_[b] -= 1
        for v in (0, 1, 2):
            if v > need[a] or v > need[b] or (v and not free):
                continue
            value[i] = v
            need[a] -= v
            need[b] -= v
            if v:
                for x in cross[i]:
                    blocked[x] += 1
                    if blocked[x] == 1 and value[x] < 0:
                        p, q = ends[x]
                        open_[p] -= 1
                        open_[q] -= 1
            for k in watch[i]:
                if need[k] > 2 * open_[k]:
                    break
            else:
                search(i + 1)
            if v:
                for x in cross[i]:
                    blocked[x] -= 1
                    if not blocked[x] and value[x] < 0:
                        p, q = ends[x]
                        open_[p] += 1
                        open_[q] += 1
            need[a] += v
            need[b] += v
        value[i] = -1
        if free:
            open_[a] += 1
            open_[b] += 1

    search(0)
    return out
