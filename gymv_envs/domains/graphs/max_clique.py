"""Maximum clique: the largest set of vertices of a drawn graph that are all joined to each other."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import (
    GraphQuestion,
    _bit_weights,
    add_short_edges,
    bitsets,
    fmt_set,
    pair_geometry,
    pair_index,
    parse_set,
    planar_edges,
)
from gymv_envs.domains.graphs._render import Picture, spread_points

LEVELS = {0: (7, 3, 3), 1: (9, 4, 4), 2: (12, 5, 6)}  # vertices, planted clique size, extra short edges


class MaxClique(GraphQuestion):
    """Name a largest clique of a drawn graph.

    ## Description
    An undirected graph with lettered vertices is drawn. A clique is a set of vertices every two
    of which are joined by an edge. The answer is a clique with as many vertices as possible; any
    maximum clique is accepted.

    ## Action Space
    ``answer_format="open"``: `Text`, the clique's vertex letters (``A, C, F``; any order and
    separators). ``"mcq"``: `Discrete(k)`; wrong options are the clique less one vertex, the clique
    with one vertex swapped for a neighbour (no longer a clique), smaller maximal cliques, and the
    clique plus a vertex.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the graph; edges may cross where the clique needs them.

    ## Rewards
    1.0 for a set of vertices that is a clique of the maximum size, else 0.0.

    ## Starting State
    A random planar graph with a few more short edges, and a clique planted on a vertex and its
    nearest neighbours (skipping a neighbour whose clique edge would pass near another vertex).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 7 vertices, clique of 3 planted; 1: 9 vertices, 4; 2: 12 vertices, 5),
    ``answer_format``, ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: the points are redrawn (before any edge is chosen) until some vertex's clique edges would pass
      no other vertex (v0 drew the whole graph first and redrew it, about 2 graphs a level at
      difficulty 2): the same kind of levels, about 1.2x cheaper to generate.
    - v2: the clique is planted on one drawing of the points: from a centre, its nearest vertices are taken in
      turn, skipping one whose clique edge would pass near another vertex (v1 redrew all the points until some
      centre's nearest vertices all fitted, 2.1 point sets a level at difficulty 2); the same sizes and clique
      sizes, new levels.
    """

    extras = ("graphs",)
    answer_hint = "the letters of a largest clique, separated by commas"

    def _generate(self, rng: np.random.Generator) -> None:
        import networkx as nx

        n, k, extra = LEVELS[self.difficulty]
        self._name_labels(n)
        index = pair_index(n)
        while True:  # a graph, then a centre whose nearest neighbours can all be joined passing no vertex
            self.pos = spread_points(rng, n)
            geometry = pair_geometry(self.pos)
            edges = planar_edges(rng, self.pos, int(1.6 * n), geometry=geometry)
            if edges is None:
                continue
            edges = add_short_edges(rng, self.pos, edges, extra, geometry=geometry)
            clique = self._plant(rng, geometry, index, k)
            if clique is not None:
                break
        self.edges = sorted({*edges, *((a, b) for a in clique for b in clique if a < b)})  # the clique planted
        self.nb = bitsets(n, self.edges)
        g = nx.Graph()  # (filled directly: cheaper than from an edge list; the same cliques)
        g.add_nodes_from(range(n))
        g.add_edges_from(self.edges)
        self.cliques = sorted((frozenset(c) for c in nx.find_cliques(g)), key=lambda c: (-len(c), sorted(c)))
        self.size = len(self.cliques[0])

    @staticmethod
    def _plant(rng: np.random.Generator, geometry, index: np.ndarray, k: int) -> list[int] | None:
        """``k`` vertices to join into a clique: the first centre, in a random order, from which the nearest
        vertices one by one, skipping any whose edge to a vertex already taken would pass near another vertex,
        reach ``k``; None where no centre does."""
        n = len(index)
        # per vertex, as a bit mask: the vertices the segment to which passes no other vertex
        clear = ((geometry.clearance > 0.3)[index] @ _bit_weights(n)).tolist()
        dist = geometry.length[index]
        near = np.argsort(dist, axis=1).tolist()  # per vertex: the vertices nearest first (itself, not at 0: skipped)
        for c in rng.permutation(n).tolist():
            taken, bits = [c], 1 << c
            for v in near[c]:
                if v != c and clear[v] & bits == bits:
                    taken.append(v)
                    bits |= 1 << v
                    if len(taken) == k:
                        return taken
        return None

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels)

    def _task_text(self) -> str:
        return ("The image shows an undirected graph. A clique is a set of vertices in which every two vertices "
                "are joined by an edge. Give a clique with as many vertices as possible.")

    def _is_clique(self, vs) -> bool:
        return all(self.nb[v] >> w & 1 for v in vs for w in vs if v != w)

    def _parse_answer(self, text: str):
        return parse_set(text, self.labels)

    def _check(self, answer) -> bool:
        return len(answer) == self.size and self._is_clique(answer)

    def _format(self, answer) -> str:
        return fmt_set(answer, self.labels)

    def _solve(self):
        return self.cliques[0]

    def _near_misses(self, rng: np.random.Generator) -> list:
        best = sorted(self._solution)
        n = len(self.labels)
        out = [frozenset(best[:i] + best[i + 1:]) for i in range(len(best))]
        for i in range(len(best)):
            for w in range(n):
                if w not in best and self.nb[best[(i + 1) % len(best)]] >> w & 1:
                    out.append(frozenset(best[:i] + [w] + best[i + 1:]))
        out += [c for c in self.cliques[1:] if len(c) >= 2]
        out += [frozenset(best + [w]) for w in range(n) if w not in best]
        order = rng.permutation(len(out))
        return [out[int(i)] for i in order]


SPECS = (
    TaskSpec(name="MaxClique", version=2, entry_point=MaxClique, max_episode_steps=1,
             tags=("graph", "np-hard", "subgraph")),
)
