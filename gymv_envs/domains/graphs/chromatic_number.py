"""Chromatic number: the fewest colours that colour a drawn graph with no edge inside one colour."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import (
    GraphQuestion,
    adjacency,
    bfs_hops,
    bitsets,
    chromatic_number,
    colourable,
    int_near_misses,
    pair_geometry,
    pair_index,
    parse_int,
    planar_edges,
    planar_graph,
    vertex_pairs,
)
from gymv_envs.domains.graphs._render import Picture, spread_points

LEVELS = {0: (6, (2, 3, 4)), 1: (8, (2, 3, 4)), 2: (10, (3, 4, 5))}  # vertices, chromatic numbers aimed at


class ChromaticNumber(GraphQuestion):
    """Give the chromatic number of a drawn graph.

    ## Description
    An undirected graph with lettered vertices is drawn. A proper colouring gives every vertex a
    colour so that the two ends of every edge differ; the chromatic number is the fewest colours a
    proper colouring needs. It is computed exactly by backtracking over colourings with
    1, 2, 3, ... colours.

    ## Action Space
    ``answer_format="open"``: `Text`, one integer. ``"mcq"``: `Discrete(k)`; wrong options are the
    size of the largest clique and the largest degree plus one (when they differ), and the answer
    plus or minus one or two.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the graph.

    ## Rewards
    1.0 for the exact chromatic number, else 0.0.

    ## Starting State
    A chromatic number is aimed at (2-4, or 3-5 at difficulty 2): a random planar graph keeps only
    the edges between alternate layers of a breadth-first tree (2), or gets a clique of that size on
    a vertex and its nearest neighbours (which may cross other edges, but pass no vertex); the exact
    value decides.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 6 vertices, 1: 8, 2: 10), ``answer_format``,
    ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: the clique's vertex is drawn among those whose clique edges pass no other vertex, right after
      the points (v0 drew any vertex after the whole graph and redrew everything, about 5 graphs a level
      at difficulty 2, when an edge passed over a vertex): the same kind of levels, about 3x cheaper to
      generate.
    """

    answer_hint = "the chromatic number, one integer"

    def _generate(self, rng: np.random.Generator) -> None:
        n, aims = LEVELS[self.difficulty]
        self._name_labels(n)
        aim = aims[int(rng.integers(len(aims)))]
        for attempt in range(100):
            if aim == 2:  # keep the edges across the layers of a breadth-first tree: bipartite
                self.pos, edges = planar_graph(rng, n, 2 * n)
                depth = bfs_hops(adjacency(n, edges), 0)
                edges = [(u, v) for u, v in edges if (depth[u] - depth[v]) % 2]
            else:  # a clique of the aimed size on a vertex and its nearest neighbours
                self.pos, near, edges = self._clique_layout(rng, n, aim)
                edges = sorted({*edges, *((a, b) for a in near for b in near if a < b)})  # the clique planted
            self.edges = edges
            self.nb = bitsets(n, edges)
            # aim colours at least: the planted clique needs them (aim 2: any edge does)
            if edges and attempt < 30:  # only whether aim colours do: more is a redraw
                colouring = colourable(self.nb, aim)
                if colouring is not None:
                    self.chi, self.colouring = aim, colouring
                    return
                continue
            self.chi, self.colouring = chromatic_number(self.nb, least=aim if edges else 1)
            if self.chi == aim or attempt >= 30:  # the aim is a preference; the exact value decides
                return

    @staticmethod
    def _clique_layout(rng: np.random.Generator, n: int, k: int) -> tuple[np.ndarray, list[int], list]:
        """Points, a vertex and its k - 1 nearest neighbours whose joining edges pass no other vertex
        (drawn among the vertices where that holds; new points while none), and a planar graph on them."""
        pk, index = vertex_pairs(k), pair_index(n)
        while True:
            pos = spread_points(rng, n)
            geometry = pair_geometry(pos)
            ok = geometry.clearance > 0.28  # per pair of vertex_pairs(n): its segment passes no vertex
            dist = geometry.length[index]
            np.fill_diagonal(dist, 0)
            nearest = np.argsort(dist, axis=1)[:, :k]
            fits = np.flatnonzero(ok[index[nearest[:, pk[:, 0]], nearest[:, pk[:, 1]]]].all(axis=1))
            if not len(fits):
                continue
            near = nearest[int(fits[int(rng.integers(len(fits)))])].tolist()
            edges = planar_edges(rng, pos, 2 * n, geometry=geometry)
            if edges is not None:
                return pos, near, edges

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels)

    def _task_text(self) -> str:
        return ("The image shows an undirected graph. Colour its vertices so that the two ends of every edge get "
                "different colours. What is the smallest number of colours that makes this possible (the "
                "chromatic number)?")

    def _parse_answer(self, text: str):
        return parse_int(text)

    def _check(self, answer) -> bool:
        return answer == self.chi

    def _solve(self) -> int:
        return self.chi

    def _clique_number(self) -> int:
        n, best = len(self.nb), 1

        def grow(clique: int, cand: int, size: int) -> None:
            nonlocal best
            best = max(best, size)
            while cand:
                v = cand.bit_length() - 1
                cand &= ~(1 << v)
                grow(clique | 1 << v, cand & self.nb[v], size + 1)

        grow(0, (1 << n) - 1, 0)
        return best

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        top = max(bin(x).count("1") for x in self.nb) + 1
        return int_near_misses(rng, self.chi, self._clique_number(), top, low=1)


SPECS = (
    TaskSpec(name="ChromaticNumber", version=1, entry_point=ChromaticNumber, max_episode_steps=1,
             tags=("graph", "np-hard", "colouring")),
)
