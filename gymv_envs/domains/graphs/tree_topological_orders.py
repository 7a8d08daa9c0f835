"""Topological orders of a rooted tree: how many orderings put every vertex after its parent."""

from __future__ import annotations

import math

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import (
    CountQuestion,
    int_near_misses,
    random_tree,
    tree_parents,
    tree_positions,
)
from gymv_envs.domains.graphs._render import Picture

SIZES = {0: 5, 1: 7, 2: 9}


def count_orders(n: int, edges, root: int) -> int:
    """Orderings of the vertices with each vertex after its parent: n! / (product of subtree sizes)."""
    parent, order = tree_parents(n, edges, root)
    size = [1] * n
    for v in reversed(order):
        if parent[v] >= 0:
            size[parent[v]] += size[v]
    return math.factorial(n) // math.prod(size)


class TreeTopologicalOrders(CountQuestion):
    """Count the orderings of a rooted tree's vertices in which every parent comes before its children.

    ## Description
    A rooted tree is drawn top-down with its root at the top (edges point from parent to child).
    The answer is how many orderings of all the vertices put every vertex after its parent, that
    is ``n!`` divided by the product of all subtree sizes.

    ## Action Space
    ``answer_format="open"``: `Text`, one integer. ``"mcq"``: `Discrete(k)`; wrong options are the
    count that forgets the root's subtree (``n`` times too many), ``n!``, the number of orders of
    the leaves, and the count plus or minus one.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the tree with arrows from parents to children.

    ## Rewards
    1.0 for the exact count, else 0.0.

    ## Starting State
    A random tree (up to three children a vertex).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 vertices, 1: 7, 2: 9), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the number of orderings, one integer"
    directed = True

    def _generate(self, rng: np.random.Generator) -> None:
        n = SIZES[self.difficulty]
        self._name_labels(n)
        perm = [int(v) for v in rng.permutation(n)]
        self.root = perm[0]
        self.edges = [(perm[u], perm[v]) for u, v in random_tree(rng, n)]  # parent first
        self.count = count_orders(n, self.edges, self.root)
        self.pos = tree_positions(n, self.edges, self.root)

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels, directed=True, keep_aspect=False)

    def _task_text(self) -> str:
        return ("The image shows a rooted tree, root at the top, with arrows from each parent to its children. In "
                "how many ways can all the vertices be put in a sequence so that every vertex comes after its parent?")

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        n = len(self.labels)
        leaves = sum(1 for v in range(n) if all(u != v for u, _ in self.edges))
        return int_near_misses(rng, self.count, self.count * n, math.factorial(n), math.factorial(leaves), low=1)


SPECS = (
    TaskSpec(name="TreeTopologicalOrders", entry_point=TreeTopologicalOrders, max_episode_steps=1,
             tags=("graph", "trees", "counting", "combinatorics")),
)
