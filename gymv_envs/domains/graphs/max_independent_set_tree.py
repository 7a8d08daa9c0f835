"""Maximum independent set of a tree: the most vertices of a drawn tree with no two adjacent."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import (
    GraphQuestion,
    adjacency,
    fmt_set,
    parse_set,
    random_tree,
    relabel,
    tree_parents,
    tree_positions,
)
from gymv_envs.domains.graphs._render import Picture

SIZES = {0: 7, 1: 10, 2: 14}


def tree_mis(n: int, edges, root: int = 0) -> tuple[int, frozenset[int]]:
    """Size of a maximum independent set of a tree and one such set (take / skip dynamic programme)."""
    parent, order = tree_parents(n, edges, root)
    take, skip = [1] * n, [0] * n
    for v in reversed(order):
        p = parent[v]
        if p >= 0:
            take[p] += skip[v]
            skip[p] += max(take[v], skip[v])
    chosen, stack = set(), [(root, True)]
    kids = [[w for w in range(n) if parent[w] == v] for v in range(n)]
    while stack:
        v, free = stack.pop()
        pick = free and take[v] >= skip[v]
        if pick:
            chosen.add(v)
        stack += [(w, not pick) for w in kids[v]]
    return max(take[root], skip[root]), frozenset(chosen)


class MaxIndependentSetTree(GraphQuestion):
    """Name a maximum independent set of a drawn tree.

    ## Description
    A tree with lettered vertices is drawn top-down. An independent set is a set of vertices no two
    of which are joined by an edge; the answer is one with as many vertices as possible (a tree
    dynamic programme finds the size). Any maximum independent set is accepted.

    ## Action Space
    ``answer_format="open"``: `Text`, the set's letters (``A, C, F``; any order).
    ``"mcq"``: `Discrete(k)`; wrong options are the set less one vertex, the set with a vertex
    swapped for a neighbour (two adjacent), the vertices on alternate levels, and the leaves.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the tree, drawn in layers.

    ## Rewards
    1.0 for an independent set of the maximum size, else 0.0.

    ## Starting State
    A random tree (each vertex hangs under an earlier one with fewer than three children).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 7 vertices, 1: 10, 2: 14), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the letters of a largest independent set, separated by commas"

    def _generate(self, rng: np.random.Generator) -> None:
        n = SIZES[self.difficulty]
        self._name_labels(n)
        self.edges = relabel(rng, n, random_tree(rng, n))
        self.root = int(rng.integers(n))
        self.pos = tree_positions(n, self.edges, self.root)
        self.adj = adjacency(n, self.edges)
        self.size, self.best = tree_mis(n, self.edges, self.root)

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels, keep_aspect=False)

    def _task_text(self) -> str:
        return ("The image shows a tree. Choose as many vertices as possible such that no two chosen vertices are "
                "joined by an edge (a maximum independent set). Give the chosen vertices.")

    def _parse_answer(self, text: str):
        return parse_set(text, self.labels)

    def _check(self, answer) -> bool:
        return len(answer) == self.size and all(w not in answer for v in answer for w in self.adj[v])

    def _format(self, answer) -> str:
        return fmt_set(answer, self.labels)

    def _solve(self):
        return self.best

    def _near_misses(self, rng: np.random.Generator) -> list:
        best, n = sorted(self.best), len(self.labels)
        out = [frozenset(best[:i] + best[i + 1:]) for i in range(len(best))]
        for v in best:
            for w in sorted(self.adj[v]):
                out.append(frozenset(best) - {v} | {w, next(iter(self.adj[w] - {v}), w)})
                out.append(frozenset(best) | {w})
        depth = {self.root: 0}
        for _ in range(n):
            for u, v in self.edges:
                if u in depth and v not in depth:
                    depth[v] = depth[u] + 1
                if v in depth and u not in depth:
                    depth[u] = depth[v] + 1
        out += [frozenset(v for v in range(n) if depth[v] % 2 == p) for p in (0, 1)]
        out.append(frozenset(v for v in range(n) if len(self.adj[v]) == 1))
        return [out[int(i)] for i in rng.permutation(len(out))]


SPECS = (
    TaskSpec(name="MaxIndependentSetTree", entry_point=MaxIndependentSetTree, max_episode_steps=1,
             tags=("graph", "trees", "dynamic-programming")),
)
