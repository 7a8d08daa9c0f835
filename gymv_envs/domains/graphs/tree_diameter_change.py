"""Tree diameter after one change: remove an edge, add another (still a tree), make the diameter smallest."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import (
    GraphQuestion,
    adjacency,
    int_near_misses,
    parse_int,
    random_tree,
    relabel,
    tree_positions,
)
from gymv_envs.domains.graphs._render import Picture

SIZES = {0: (6, 7), 1: (8, 10), 2: (11, 13)}  # fewest and most vertices


def diameter(adj, verts) -> int:
    """Edges on a longest path in the tree of the forest ``adj`` that holds ``verts``."""
    return part_diameter(adj, next(iter(verts)), -1)


def part_diameter(adj, root: int, away: int) -> int:
    """Edges on a longest path in the part of the tree ``adj`` that holds ``root`` once its edge to the
    neighbour ``away`` is deleted (-1: none): the most, over its vertices, of the two greatest heights
    below one (rooted at ``root``) added up."""
    parent, order = [away] * len(adj), [root]
    for v in order:
        for w in adj[v]:
            if w != parent[v]:
                parent[w] = v
                order.append(w)
    first, second = [0] * len(adj), [0] * len(adj)  # the two greatest heights below each vertex
    longest = 0
    for v in reversed(order):
        longest = max(longest, first[v] + second[v])
        if v != root:
            p, h = parent[v], first[v] + 1
            if h > first[p]:
                first[p], second[p] = h, first[p]
            elif h > second[p]:
                second[p] = h
    return longest


def best_change(n: int, edges) -> tuple[int, int]:
    """(smallest, largest) diameter reachable by deleting one edge and reconnecting the two parts by one edge.

    Joining the parts' centres gives max(d1, d2, ceil(d1/2) + ceil(d2/2) + 1); joining the ends of
    their diameters gives d1 + d2 + 1."""
    lo, hi = None, None
    adj = adjacency(n, edges)
    for a, b in edges:
        d1, d2 = part_diameter(adj, a, b), part_diameter(adj, b, a)
        small = max(d1, d2, (d1 + 1) // 2 + (d2 + 1) // 2 + 1)
        lo = small if lo is None else min(lo, small)
        hi = d1 + d2 + 1 if hi is None else max(hi, d1 + d2 + 1)
    return lo, hi


class TreeDiameterChange(GraphQuestion):
    """Give the smallest diameter a tree can have after moving one of its edges.

    ## Description
    A tree with lettered vertices is drawn. Its diameter is the number of edges on its longest
    path. One edge may be deleted and one new edge added between any two vertices so that the
    result is again a tree. The answer is the smallest diameter such a change can give (found by
    trying every deleted edge and joining the centres of the two parts).

    ## Action Space
    ``answer_format="open"``: `Text`, one integer. ``"mcq"``: `Discrete(k)`; wrong options are the
    diameter now, the largest diameter a change can give, and the answer plus or minus one.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the tree.

    ## Rewards
    1.0 for the exact smallest diameter, else 0.0.

    ## Starting State
    A random tree whose diameter a change can shorten.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 6-7 vertices, 1: 8-10, 2: 11-13), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the smallest possible diameter, one integer"

    def _generate(self, rng: np.random.Generator) -> None:
        lo, hi = SIZES[self.difficulty]
        n = int(rng.integers(lo, hi + 1))
        self._name_labels(n)
        while True:
            self.edges = relabel(rng, n, random_tree(rng, n, max_children=int(rng.integers(2, 4))))
            self.now = diameter(adjacency(n, self.edges), set(range(n)))
            self.best, self.worst = best_change(n, self.edges)
            if self.best < self.now:
                break
        self.pos = tree_positions(n, self.edges, int(rng.integers(n)))

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels, keep_aspect=False)

    def _task_text(self) -> str:
        return ("The image shows a tree. Its diameter is the number of edges on its longest path. You may delete "
                "one edge and add one new edge between any two vertices, as long as the result is again a tree. "
                "What is the smallest diameter the new tree can have?")

    def _parse_answer(self, text: str):
        return parse_int(text)

    def _check(self, answer) -> bool:
        return answer == self.best

    def _solve(self) -> int:
        return self.best

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        return int_near_misses(rng, self.best, self.now, self.worst, low=1)


SPECS = (
    TaskSpec(name="TreeDiameterChange", entry_point=TreeDiameterChange, max_episode_steps=1,
             tags=("graph", "trees", "diameter")),
)
