"""The Eulerian circuit solver: orient a mixed graph's edges to balance it, then Hierholzer's walk."""

from __future__ import annotations


def hierholzer(out: dict[int, list[int]], start: int, undirected: bool = False) -> list[int]:
    """An Euler circuit from ``start`` of a directed multigraph (``out[v]``: heads of v's arcs, consumed), or
    with ``undirected`` of an undirected one (``out[v]``: v's neighbours, an edge listed at both its ends).
    From each vertex the walk goes on along the last arc (edge) left in its list."""
    stack, circuit = [start], []
    while stack:
        v = stack[-1]
        if out.get(v):
            w = out[v].pop()
            if undirected:
                out[w].remove(v)
            stack.append(w)
        else:
            circuit.append(stack.pop())
    return circuit[::-1]


def orient_mixed(n: int, arcs, edges) -> list[tuple[int, int]] | None:
    """Directions for the undirected ``edges`` that balance every vertex's in- and out-degree (with the
    fixed ``arcs``): start anywhere and reverse paths of undirected edges from a vertex with surplus to one
    with deficit until none is left. None when impossible."""
    way = [tuple(e) for e in edges]
    bal = [0] * n
    for u, v in list(arcs) + way:
        bal[u] += 1
        bal[v] -= 1
    if any(b % 2 for b in bal):
        return None
    while any(bal):
        src = next(v for v in range(n) if bal[v] > 0)
        leaving: list[list[int]] = [[] for _ in range(n)]  # the undirected edges out of each vertex as now oriented
        for k, (a, _) in enumerate(way):
            leaving[a].append(k)
        prev, queue = {src: None}, [src]
        for x in queue:  # breadth-first along them
            for k in leaving[x]:
                b = way[k][1]
                if b not in prev:
                    prev[b] = k
                    queue.append(b)
        dst = next((v for v in queue if bal[v] < 0), None)
        if dst is None:
            return None
        v = dst
        while v != src:
            k = prev[v]
            a, b = way[k]
            way[k] = (b, a)
            v = a
        bal[src] -= 2
        bal[dst] += 2
    return way
