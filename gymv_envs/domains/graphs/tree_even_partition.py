"""Even partition of a tree: which edges to cut so that every piece has exactly k vertices."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import (
    GraphQuestion,
    adjacency,
    fmt_edges,
    parse_edges,
    random_tree,
    tree_parents,
    tree_positions,
)
from gymv_envs.domains.graphs._render import Picture

LEVELS = {0: ((2, 3), (3, 2)), 1: ((2, 4), (3, 3), (4, 2)), 2: ((2, 6), (3, 4), (4, 3))}  # (piece size, pieces)


def cut_edges(n: int, edges, k: int) -> frozenset | None:
    """The edges whose removal leaves pieces of exactly k vertices (those under which a multiple of k
    vertices hang), or None when no such cut exists. The cut is unique when it exists."""
    parent, order = tree_parents(n, edges, 0)
    size = [1] * n
    for v in reversed(order):
        if parent[v] >= 0:
            size[parent[v]] += size[v]
    if n % k:
        return None
    cut = frozenset(tuple(sorted((parent[v], v))) for v in order if parent[v] >= 0 and size[v] % k == 0)
    return cut if len(cut) == n // k - 1 else None


class TreeEvenPartition(GraphQuestion):
    """Cut a tree into pieces of equal size.

    ## Description
    A tree with lettered vertices is drawn; the instruction gives a piece size ``k``. The answer is
    the set of edges whose removal splits the tree into connected pieces of exactly ``k`` vertices
    each. Such a cut exists for every level and is unique: it is the set of edges below which a
    multiple of ``k`` vertices hang.

    ## Action Space
    ``answer_format="open"``: `Text`, the edges to cut as pairs of letters (``A-B, C-D``; either
    order inside a pair, any order of pairs). ``"mcq"``: `Discrete(k)`; wrong options miss one cut
    edge, add one, or move one cut to a neighbouring edge.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the tree.

    ## Rewards
    1.0 for a set of tree edges whose removal leaves only pieces of ``k`` vertices, else 0.0.

    ## Starting State
    Random pieces of ``k`` vertices (each a random tree) joined by random edges into one tree.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 6 vertices, 1: 8-9, 2: 12), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the edges to cut as letter pairs, for example `X-Y, Y-Z`"

    def _generate(self, rng: np.random.Generator) -> None:
        options = LEVELS[self.difficulty]
        self.k, parts = options[int(rng.integers(len(options)))]
        n = self.k * parts
        self._name_labels(n)
        perm = [int(v) for v in rng.permutation(n)]
        edges = []
        for p in range(parts):  # each piece a random tree, then each piece hangs from an earlier one
            mine = perm[p * self.k:(p + 1) * self.k]
            edges += [(mine[a], mine[b]) for a, b in random_tree(rng, self.k)]
            if p:
                edges.append((perm[int(rng.integers(p * self.k))], mine[int(rng.integers(self.k))]))
        self.edges = sorted(tuple(sorted(e)) for e in edges)
        self.cut = cut_edges(n, self.edges, self.k)
        self.adj = adjacency(n, self.edges)
        self.pos = tree_positions(n, self.edges, int(rng.integers(n)))

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels, keep_aspect=False)

    def _task_text(self) -> str:
        return (f"The image shows a tree with {len(self.labels)} vertices. Remove some edges so that every remaining "
                f"piece (connected part) has exactly {self.k} vertices. Which edges must be removed?")

    def _caption(self) -> list:
        return [f"Cut into pieces of {self.k}: which edges?"]

    def _parse_answer(self, text: str):
        pairs = parse_edges(text, self.labels)
        if not pairs:
            return None
        return frozenset(tuple(sorted(p)) for p in pairs)

    def _check(self, answer) -> bool:
        return answer == self.cut  # the cut is unique

    def _format(self, answer) -> str:
        return fmt_edges(sorted(answer), self.labels)

    def _solve(self):
        return self.cut

    def _near_misses(self, rng: np.random.Generator) -> list:
        cut = sorted(self.cut)
        other = [e for e in self.edges if e not in self.cut]
        out = [frozenset(cut[:i] + cut[i + 1:]) for i in range(len(cut)) if len(cut) > 1]
        out += [frozenset(cut + [e]) for e in other]
        for i, (u, v) in enumerate(cut):  # a cut slid to an edge next to it
            for e in other:
                if set(e) & {u, v}:
                    out.append(frozenset(cut[:i] + [e] + cut[i + 1:]))
        return [out[int(j)] for j in rng.permutation(len(out))]


SPECS = (
    TaskSpec(name="TreeEvenPartition", entry_point=TreeEvenPartition, max_episode_steps=1,
             tags=("graph", "trees", "partition")),
)
