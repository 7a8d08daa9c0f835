"""Spanning tree count: how many spanning trees a drawn graph has (Kirchhoff's theorem, exact integers)."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import CountQuestion, int_near_misses, planar_graph
from gymv_envs.domains.graphs._render import Picture

SIZES = {0: (5, 5, 7), 1: (7, 8, 11), 2: (9, 11, 15)}  # vertices, fewest and most edges


def bareiss_det(a: list[list[int]]) -> int:
    """The determinant of an integer matrix, exactly (fraction-free Gaussian elimination)."""
    m = [row[:] for row in a]
    n, sign, prev = len(m), 1, 1
    for k in range(n - 1):
        if m[k][k] == 0:
            swap = next((i for i in range(k + 1, n) if m[i][k]), None)
            if swap is None:
                return 0
            m[k], m[swap] = m[swap], m[k]
            sign = -sign
        for i in range(k + 1, n):
            for j in range(k + 1, n):
                m[i][j] = (m[i][j] * m[k][k] - m[i][k] * m[k][j]) // prev
        prev = m[k][k]
    return sign * m[-1][-1] if n else 1


def spanning_trees(n: int, edges) -> int:
    """Kirchhoff: the number of spanning trees is any cofactor of the Laplacian."""
    lap = [[0] * n for _ in range(n)]
    for u, v in edges:
        lap[u][u] += 1
        lap[v][v] += 1
        lap[u][v] -= 1
        lap[v][u] -= 1
    return bareiss_det([row[1:] for row in lap[1:]])


class SpanningTreeCount(CountQuestion):
    """Count the spanning trees of a drawn graph.

    ## Description
    A connected undirected graph with lettered vertices and non-crossing edges is drawn. A
    spanning tree is a set of ``n - 1`` of its edges that connects every vertex without a cycle;
    the answer is how many different spanning trees the graph has. The count is exact: a
    cofactor of the graph's Laplacian, computed with integer (fraction-free) elimination.

    ## Action Space
    ``answer_format="open"``: `Text`, one integer. ``"mcq"``: `Discrete(k)`; wrong options are the
    count after deleting one edge, the count plus or minus one or two, and the number of edges.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the graph.

    ## Rewards
    1.0 for the exact count, else 0.0.

    ## Starting State
    A random connected planar graph with ``n`` vertices and a random number of edges.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 vertices and 5-7 edges, 1: 7 and 8-11, 2: 9 and 11-15), ``answer_format``,
    ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the number of spanning trees, one integer"

    def _generate(self, rng: np.random.Generator) -> None:
        n, lo, hi = SIZES[self.difficulty]
        self._name_labels(n)
        self.pos, self.edges = planar_graph(rng, n, int(rng.integers(lo, hi + 1)))
        self.count = spanning_trees(n, self.edges)

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels)

    def _task_text(self) -> str:
        return ("The image shows an undirected graph. A spanning tree is a set of its edges that connects all the "
                "vertices and contains no cycle. How many different spanning trees does the graph have?")

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        n = len(self.labels)
        drops = [spanning_trees(n, [e for e in self.edges if e != d]) for d in self.edges]
        return int_near_misses(rng, self.count, *sorted(set(drops), reverse=True)[:2], len(self.edges), low=1)


SPECS = (
    TaskSpec(name="SpanningTreeCount", entry_point=SpanningTreeCount, max_episode_steps=1,
             tags=("graph", "counting", "linear-algebra")),
)
