"""Shortest path: a minimum-length route between two named vertices of a weighted road map, or none."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import (
    GraphQuestion,
    adjacency,
    bfs_hops,
    fmt_sequence,
    parse_sequence,
    planar_graph,
)
from gymv_envs.domains.graphs._render import Picture

SIZES = {0: (6, 8), 1: (9, 14), 2: (12, 19)}  # vertices, edges
NO_PATH_RATE = 0.15
NONE = ()
_NONE = re.compile(r"(?i)^\s*(?:none|no\s+path|no\s+route|impossible|unreachable|not\s+reachable|no\s+such\s+path|-)\s*\.?$")


class ShortestPath(GraphQuestion):
    """Give a shortest path between two vertices of a weighted undirected graph.

    ## Description
    A connected road map of ``n`` lettered vertices with non-crossing edges, each labelled with an
    integer length 1-9, is drawn; the instruction names a start and a goal vertex. In about 15% of
    levels the map falls into two parts with the goal on the other side, and the answer is
    ``none``. Any path whose total length is the minimum is accepted.

    ## Action Space
    ``answer_format="open"``: `Text`, the path as vertex letters in order (``A D C F``; commas or
    arrows between them are fine) or ``none``. ``"mcq"``: `Discrete(k)`; wrong options are the path
    with the fewest edges (when longer), the next-shortest paths, a path with one vertex swapped,
    and ``none``.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the graph, vertices as lettered circles, lengths on the edges.

    ## Rewards
    1.0 for a shortest path (a walk along drawn edges from start to goal of minimum total length)
    or for ``none`` when the goal cannot be reached, else 0.0.

    ## Starting State
    Random planar graph; the start and goal are at least two edges apart.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 6 vertices, 1: 9, 2: 12), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: each edge's weight sits at its middle: the layout leaves it room (edges too short to hold it clear of
      both vertices, or passing near another vertex, edge or weight, are never drawn), so a weight never
      touches a vertex ring; new levels.
    """

    extras = ("graphs",)
    answer_hint = "a shortest path as vertex letters from start to goal (for example `X Y Z`), or `none`"

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        import networkx as nx

        n, m = SIZES[self.difficulty]
        self._name_labels(n)
        cut_off = rng.random() < NO_PATH_RATE
        while True:
            self.pos, edges = planar_graph(rng, n, m, weighted="undirected")
            self.cut = []
            if cut_off:  # a ball of vertices loses every road out of it
                ball = self._ball(edges, int(rng.integers(n)), n // 3 + int(rng.integers(2)))
                self.cut = [e for e in edges if (e[0] in ball) != (e[1] in ball)]
                edges = [e for e in edges if e not in self.cut]
                if len({v for e in edges for v in e}) < n:
                    continue  # no vertex left alone
            adj = adjacency(n, edges)
            self.start = int(rng.integers(n))
            hops = bfs_hops(adj, self.start)
            goals = [t for t in range(n) if (t not in hops if cut_off else hops.get(t, 0) >= 2)]
            if goals:
                break
        self.goal = goals[int(rng.integers(len(goals)))]
        self.edges = edges
        self.weights = [int(w) for w in rng.integers(1, 10, len(edges))]
        g = nx.Graph()
        g.add_nodes_from(range(n))
        g.add_weighted_edges_from((u, v, w) for (u, v), w in zip(edges, self.weights))
        self.graph = g
        self.best, self._path = None, None  # the minimum length, and the path the oracle gives (one Dijkstra)
        if not cut_off:
            self.best, self._path = nx.single_source_dijkstra(g, self.start, self.goal)

    @staticmethod
    def _ball(edges, centre: int, size: int) -> set[int]:
        ball, frontier = {centre}, [centre]
        while frontier and len(ball) < size:
            v = frontier.pop(0)
            for a, b in edges:
                for x, y in ((a, b), (b, a)):
                    if x == v and y not in ball and len(ball) < size:
                        ball.add(y)
                        frontier.append(y)
        return ball

    # -- draw
    def _picture(self) -> Picture:
        fills = [(190, 235, 190) if v == self.start else (250, 200, 200) if v == self.goal else None
                 for v in range(len(self.labels))]
        return Picture(self.pos, self.edges, self.labels, weights=[str(w) for w in self.weights], fills=fills,
                       centred_weights=True)

    def _task_text(self) -> str:
        s, t = self.labels[self.start], self.labels[self.goal]
        return (f"The image shows an undirected graph whose lettered vertices are joined by roads; the number on "
                f"each road is its length. Give a shortest path from {s} (green) to {t} (red): the vertices "
                f"along the way, from {s} to {t}, with the smallest total length. If {t} cannot be reached "
                f"from {s}, answer `none`.")

    def _caption(self) -> list:
        return [f"Shortest path {self.labels[self.start]} to {self.labels[self.goal]}?"]

    # -- verify
    def _parse_answer(self, text: str):
        if _NONE.match(text):
            return NONE
        seq = parse_sequence(text, self.labels)
        return tuple(seq) if seq else None

    def _length(self, path: tuple[int, ...]) -> float | None:
        if not path or path[0] != self.start or path[-1] != self.goal:
            return None
        total = 0
        for u, v in zip(path, path[1:]):
            if not self.graph.has_edge(u, v):
                return None
            total += self.graph[u][v]["weight"]
        return total

    def _check(self, answer) -> bool:
        if answer == NONE:
            return self.best is None
        return self.best is not None and self._length(answer) == self.best

    def _format(self, answer) -> str:
        return "none" if answer == NONE else fmt_sequence(answer, self.labels)

    # -- oracle
    def _solve(self):
        return NONE if self.best is None else tuple(self._path)

    def _near_misses(self, rng: np.random.Generator) -> list:
        import networkx as nx

        g, s, t = self.graph, self.start, self.goal
        out: list = []
        if self.best is None:  # the routes there would be if the missing roads existed
            whole = g.copy()
            whole.add_edges_from(self.cut, weight=1)
            paths = nx.shortest_simple_paths(whole, s, t)
            out += [tuple(p) for _, p in zip(range(6), paths)]
            n = len(self.labels)
            for _ in range(6):
                mid = [int(v) for v in rng.permutation(n) if v not in (s, t)][: int(rng.integers(1, 3))]
                out.append((s, *mid, t))
            return out
        out.append(tuple(nx.shortest_path(g, s, t)))  # fewest edges, ignoring lengths
        for _, p in zip(range(5), nx.shortest_simple_paths(g, s, t, weight="weight")):
            out.append(tuple(p))
        sol = list(self._solution)
        for i in range(1, len(sol) - 1):
            for w in sorted(g[sol[i - 1]]):
                if w != sol[i] and w not in sol:
                    out.append(tuple(sol[:i] + [w] + sol[i + 1:]))
        out.append(NONE)
        out.append(tuple(reversed(sol)))
        return out


SPECS = (
    TaskSpec(name="ShortestPath", version=1, entry_point=ShortestPath, max_episode_steps=1,
             tags=("graph", "path", "weighted")),
)
