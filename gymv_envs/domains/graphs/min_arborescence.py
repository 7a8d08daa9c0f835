"""Minimum arborescence: the lightest set of arcs that reaches every vertex from the root, one arc into each."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import (
    GraphQuestion,
    adjacency,
    bfs_hops,
    fmt_edges,
    parse_edges,
    planar_graph,
    reach,
)
from gymv_envs.domains.graphs._render import Picture

SIZES = {0: (5, 7), 1: (7, 11), 2: (9, 14)}  # vertices, arcs
ROOT_FILL = (190, 235, 190)


def edmonds(n: int, arcs: list[tuple[int, int, int]], root: int) -> set[int] | None:
    """Indices of the arcs ``(u, v, weight)`` of a minimum spanning arborescence rooted at ``root``
    (Chu-Liu/Edmonds: cheapest arc into each vertex, contract a cycle, recurse), or None."""
    best: dict[int, int] = {}
    for i, (u, v, w) in enumerate(arcs):
        if v != root and u != v and (v not in best or w < arcs[best[v]][2]):
            best[v] = i
    if len(best) < n - 1:
        return None
    cycle: list[int] = []
    state = [0] * n  # 0 unseen, 1 on the current walk, 2 done
    for s in range(n):
        walk, v = [], s
        while v != root and state[v] == 0:
            state[v] = 1
            walk.append(v)
            v = arcs[best[v]][0]
        if v != root and state[v] == 1:
            cycle = walk[walk.index(v):]
        for x in walk:
            state[x] = 2
        if cycle:
            break
    if not cycle:
        return set(best.values())
    inside = set(cycle)
    new_id, k = {}, 0
    for v in range(n):
        if v not in inside:
            new_id[v] = k
            k += 1
    c = k
    sub_arcs, origin = [], []
    for i, (u, v, w) in enumerate(arcs):
        nu, nv = new_id.get(u, c), new_id.get(v, c)
        if nu != nv:
            sub_arcs.append((nu, nv, w - (arcs[best[v]][2] if v in inside else 0)))
            origin.append(i)
    sub = edmonds(k + 1, sub_arcs, new_id[root])
    if sub is None:
        return None
    chosen = {origin[j] for j in sub}
    enter = next(i for i in chosen if arcs[i][1] in inside)
    return chosen | {best[v] for v in cycle if v != arcs[enter][1]}


def reaches_all(n: int, arcs: list[tuple[int, int]], root: int) -> bool:
    """Whether every vertex can be reached from ``root`` along ``arcs`` (a spanning arborescence exists)."""
    out = [0] * n
    for u, v in arcs:
        out[u] |= 1 << v
    return reach(out, 1 << root) == (1 << n) - 1


class MinArborescence(GraphQuestion):
    """Give a minimum-weight spanning arborescence of a weighted directed graph.

    ## Description
    A directed graph with lettered vertices is drawn; each arc has an arrowhead and an integer
    weight 1-9, and the root is the green vertex. A spanning arborescence is a set of arcs with
    exactly one arc into every vertex except the root (none into the root) through which every
    vertex can be reached from the root. The answer is one of least total weight; any optimal one
    is accepted (the Chu-Liu/Edmonds algorithm gives the optimum, in exact integers).

    ## Action Space
    ``answer_format="open"``: `Text`, the chosen arcs as ``A->B, A->C, ...``. ``"mcq"``:
    `Discrete(k)`; wrong options are the cheapest arc into each vertex (which may close a cycle),
    the answer with one vertex's arc swapped for another arc into it, and the answer with one arc
    reversed.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the directed graph with its weights; the root filled green.

    ## Rewards
    1.0 for a spanning arborescence rooted at the green vertex of minimum total weight, else 0.0.

    ## Starting State
    A random planar graph whose edges point away from the root along a breadth-first tree and
    randomly elsewhere, so every vertex can be reached.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 vertices, 1: 7, 2: 9), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: arrowheads come from cached stamps (directions to 1/128 of a turn, tips to a quarter pixel): the
      same levels and answers, arrowheads moved by at most about half a pixel.
    - v2: each edge's weight sits at its middle: the layout leaves it room (edges too short to hold it clear of
      both vertices and their arrowheads, or passing near another vertex, edge or weight, are never drawn), so a weight never
      touches a vertex ring or an arrowhead; new levels.
    """

    answer_hint = "the chosen arcs, for example `X->Y, X->Z`"
    directed = True

    def _generate(self, rng: np.random.Generator) -> None:
        n, m = SIZES[self.difficulty]
        self._name_labels(n)
        self.pos, edges = planar_graph(rng, n, m, weighted="directed")
        self.root = int(rng.integers(n))
        depth = bfs_hops(adjacency(n, edges), self.root)
        arcs = []
        for (u, v), x in zip(edges, rng.random(len(edges)).tolist()):  # (the same draws as one per edge)
            forward = (depth[u] < depth[v]) != (x < 0.3) if depth[u] != depth[v] else x < 0.5
            arcs.append((u, v) if forward else (v, u))
        while True:
            weights = rng.integers(1, 10, len(arcs)).tolist()
            if reaches_all(n, arcs, self.root):  # (Edmonds finds an arborescence exactly then)
                break
            up = [k for k, (u, v) in enumerate(arcs) if depth[v] < depth[u]]
            for k, x in zip(up, rng.random(len(up)).tolist()):  # (the same draws as one per arc pointing up)
                if x < 0.5:
                    arcs[k] = arcs[k][::-1]
        self.edges, self.weights = arcs, weights
        self.w = {a: w for a, w in zip(arcs, weights)}
        chosen = edmonds(n, [(u, v, w) for (u, v), w in zip(arcs, weights)], self.root)
        self.best_arcs = frozenset(arcs[i] for i in chosen)
        self.best = sum(self.w[a] for a in self.best_arcs)

    def _picture(self) -> Picture:
        fills = [ROOT_FILL if v == self.root else None for v in range(len(self.labels))]
        return Picture(self.pos, self.edges, self.labels, weights=[str(w) for w in self.weights],
                       directed=True, fills=fills, stamped_heads=True, centred_weights=True)

    def _task_text(self) -> str:
        return ("The image shows a directed graph; each arrow is an arc with its weight, and the green vertex is the "
                "root. Choose arcs so that every vertex except the root has exactly one chosen arc coming in, the "
                "root has none, and every vertex can be reached from the root along chosen arcs. Make the total "
                "weight of the chosen arcs as small as possible.")

    def _parse_answer(self, text: str):
        pairs = parse_edges(text, self.labels)
        if not pairs or len(set(pairs)) != len(pairs):
            return None
        return frozenset(pairs)

    def _valid(self, arcs) -> bool:
        n = len(self.labels)
        if len(arcs) != n - 1 or not all(a in self.w for a in arcs):
            return False
        into = [v for _, v in arcs]
        if self.root in into or len(set(into)) != n - 1:
            return False
        reach, stack = {self.root}, [self.root]
        while stack:
            u = stack.pop()
            for a, b in arcs:
                if a == u and b not in reach:
                    reach.add(b)
                    stack.append(b)
        return len(reach) == n

    def _check(self, answer) -> bool:
        return self._valid(answer) and sum(self.w[a] for a in answer) == self.best

    def _format(self, answer) -> str:
        return fmt_edges(sorted(answer), self.labels, arrow="->")

    def _solve(self):
        return self.best_arcs

    def _near_misses(self, rng: np.random.Generator) -> list:
        n = len(self.labels)
        cheapest = {}
        for a in self.edges:
            if a[1] != self.root and (a[1] not in cheapest or self.w[a] < self.w[cheapest[a[1]]]):
                cheapest[a[1]] = a
        out = [frozenset(cheapest.values())]
        best = sorted(self.best_arcs)
        for i, (_, v) in enumerate(best):
            for a in self.edges:
                if a[1] == v and a not in self.best_arcs:
                    out.append(frozenset(best[:i] + [a] + best[i + 1:]))
        out += [frozenset(best[:i] + [(b, a)] + best[i + 1:]) for i, (a, b) in enumerate(best)]
        out += [frozenset(best[:i] + best[i + 1:]) for i in range(n - 1)]
        return out


SPECS = (
    TaskSpec(name="MinArborescence", version=2, entry_point=MinArborescence, max_episode_steps=1,
             tags=("graph", "directed", "spanning-tree", "weighted")),
)
