"""Equidistant triads: how many sets of three vertices of a tree are pairwise the same distance apart."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import (
    CountQuestion,
    int_near_misses,
    random_tree,
    relabel,
    tree_parents,
    tree_positions,
)
from gymv_envs.domains.graphs._render import Picture

SIZES = {0: 7, 1: 10, 2: 14}


@functools.lru_cache(maxsize=16)
def triples(n: int) -> np.ndarray:
    """Every 3-subset of n items, (C(n, 3), 3), read-only."""
    out = np.array(list(itertools.combinations(range(n), 3)), dtype=np.intp).reshape(-1, 3)
    out.setflags(write=False)
    return out


def triad_counts(n: int, edges) -> tuple[int, int]:
    """(triples with all three distances equal, triples with at least two equal) in a tree."""
    parent, order = tree_parents(n, edges)
    depth = [0] * n
    for v in order[1:]:
        depth[v] = depth[parent[v]] + 1
    inside = [[v] for v in range(n)]  # the vertices of each vertex's subtree
    for v in reversed(order[1:]):
        inside[parent[v]] += inside[v]
    rows = [depth] * n  # the root's distances are its depths; every other row comes from its parent's:
    for v in order[1:]:  # one more to the vertices outside v's subtree, one fewer to those inside
        row = [x + 1 for x in rows[parent[v]]]
        for w in inside[v]:
            row[w] -= 2
        rows[v] = row
    dist = np.array(rows)
    t = triples(n)
    a, b, c = dist[t[:, 0], t[:, 1]], dist[t[:, 0], t[:, 2]], dist[t[:, 1], t[:, 2]]
    return int(((a == b) & (b == c)).sum()), int(((a == b) | (b == c) | (a == c)).sum())


class EquidistantTriads(CountQuestion):
    """Count the triples of tree vertices that are pairwise equidistant.

    ## Description
    A tree with lettered vertices is drawn; the distance between two vertices is the number of
    edges on the path between them. The answer is the number of unordered sets of three distinct
    vertices whose three pairwise distances are all equal (for example three leaves hanging from
    one vertex, all at distance 2 from each other).

    ## Action Space
    ``answer_format="open"``: `Text`, one integer. ``"mcq"``: `Discrete(k)`; wrong options are the
    number of triples with at least two equal distances, the count as ordered triples, and the
    count plus or minus one or two.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the tree.

    ## Rewards
    1.0 for the exact count, else 0.0.

    ## Starting State
    A random bushy tree (up to four children a vertex) with at least one such triple.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 7 vertices, 1: 10, 2: 14), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the number of equidistant triples, one integer"

    def _generate(self, rng: np.random.Generator) -> None:
        n = SIZES[self.difficulty]
        self._name_labels(n)
        while True:
            self.edges = relabel(rng, n, random_tree(rng, n, max_children=4))
            self.count, self.iso = triad_counts(n, self.edges)
            if self.count:
                break
        self.pos = tree_positions(n, self.edges, int(rng.integers(n)))

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels, keep_aspect=False)

    def _task_text(self) -> str:
        return ("The image shows a tree; the distance between two vertices is the number of edges on the path "
                "between them. How many sets of three different vertices are there in which all three pairwise "
                "distances are equal?")

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        return int_near_misses(rng, self.count, self.iso, 6 * self.count)


SPECS = (
    TaskSpec(name="EquidistantTriads", entry_point=EquidistantTriads, max_episode_steps=1,
             tags=("graph", "trees", "counting")),
)
