"""Longest simple path: the path with the most edges that never repeats a vertex."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import (
    GraphQuestion,
    adjacency,
    bfs_hops,
    fmt_sequence,
    parse_sequence,
    pick_planar,
    planar_candidates,
)
from gymv_envs.domains.graphs._render import Picture, spread_points

SIZES = {0: (6, 6), 1: (8, 9), 2: (10, 12)}  # vertices, most edges (v0: 7 and 10 at difficulties 0 and 1)


def longest_simple_path(n: int, edges) -> list[int]:
    """A simple path with the most edges (depth-first search over simple paths from every vertex, the first
    found of the most vertices; the search stops once a path has as many as one can have)."""
    nb = [sorted(a) for a in adjacency(n, edges)]
    most = n - max(0, sum(len(a) == 1 for a in nb) - 2)  # a vertex of one edge can only end a path
    best: list[int] = [0]
    path: list[int] = []

    def grow(v: int, used: int) -> None:
        nonlocal best
        path.append(v)
        if len(path) > len(best):
            best = path[:]
        if len(best) < most:
            for w in nb[v]:
                if not used >> w & 1:
                    grow(w, used | 1 << w)
        path.pop()

    for s in range(n):
        grow(s, 1 << s)
        if len(best) == most:
            break
    return best


class LongestPath(GraphQuestion):
    """Give a longest simple path of a drawn graph.

    ## Description
    A connected undirected graph with lettered vertices is drawn. A simple path follows edges and
    never visits a vertex twice; its length is its number of edges. The answer is a simple path of
    the greatest length, anywhere in the graph; any such path is accepted. The graph never has a
    path through all its vertices.

    ## Action Space
    ``answer_format="open"``: `Text`, the path's vertex letters in order. ``"mcq"``: `Discrete(k)`;
    wrong options are the path less its last vertex, a longest shortest path (the diameter), the
    path with a vertex swapped, and the path running on through a vertex it has visited.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the graph.

    ## Rewards
    1.0 for a simple path along drawn edges with the greatest number of edges, else 0.0.

    ## Starting State
    A random sparse planar graph without a Hamiltonian path: points on a jittered grid, then random
    non-crossing short edges among them (redrawn on the same points until no path visits every vertex).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 6 vertices, at most 6 edges; 1: 8, 9; 2: 10, 12), ``answer_format``, ``num_options``,
    ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: a level redraws only the edges (up to 4 times, then new points) while its graph has a
      Hamiltonian path, and has at most 6 / 9 edges at difficulties 0 / 1 (v0: 7 / 10, where 89% / 76%
      of graphs had one): generation is 2-3x cheaper there (v0 drew about 9 layouts per level at 0).
    """

    answer_hint = "the letters of a longest simple path, in order, separated by spaces"

    def _generate(self, rng: np.random.Generator) -> None:
        n, m = SIZES[self.difficulty]
        self._name_labels(n)
        found = False
        while not found:  # graphs on one layout until one has no Hamiltonian path (a new layout after 4)
            self.pos = spread_points(rng, n)
            cand = planar_candidates(self.pos)
            for _ in range(4):
                self.edges = pick_planar(rng, cand, m)
                if self.edges is None:
                    break
                self.best = longest_simple_path(n, self.edges)
                if len(self.best) < n:
                    found = True
                    break
        self.adj = adjacency(n, self.edges)

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels)

    def _task_text(self) -> str:
        return ("The image shows an undirected graph. Find a longest simple path: a path along the edges that never "
                "visits a vertex twice and has as many edges as possible. It may start and end at any vertices.")

    def _parse_answer(self, text: str):
        seq = parse_sequence(text, self.labels)
        return tuple(seq) if seq else None

    def _check(self, answer) -> bool:
        return (len(answer) == len(self.best) and len(set(answer)) == len(answer)
                and all(b in self.adj[a] for a, b in zip(answer, answer[1:])))

    def _format(self, answer) -> str:
        return fmt_sequence(answer, self.labels)

    def _solve(self):
        return tuple(self.best)

    def _near_misses(self, rng: np.random.Generator) -> list:
        n, best = len(self.labels), list(self.best)
        out = [tuple(best[:-1]), tuple(best[1:])]
        far = max(((s, t, d) for s in range(n) for t, d in bfs_hops(self.adj, s).items()), key=lambda x: x[2])
        prev, hops = {far[0]: None}, [far[0]]
        for v in hops:
            for w in sorted(self.adj[v]):
                if w not in prev:
                    prev[w] = v
                    hops.append(w)
        path, v = [], far[1]
        while v is not None:
            path.append(v)
            v = prev[v]
        out.append(tuple(path))
        for i in range(1, len(best) - 1):
            for w in range(n):
                if w not in best:
                    out.append(tuple(best[:i] + [w] + best[i + 1:]))
        for w in sorted(self.adj[best[-1]]):
            out.append(tuple(best + [w]))
        return out


SPECS = (
    TaskSpec(name="LongestPath", version=1, entry_point=LongestPath, max_episode_steps=1,
             tags=("graph", "np-hard", "path")),
)
