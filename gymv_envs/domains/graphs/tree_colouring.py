"""Tree colouring: paint k vertices of a weighted tree black so that same-colour pairs are as far apart as possible."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import (
    GraphQuestion,
    fmt_set,
    parse_set,
    random_tree,
    relabel,
    tree_parents,
    tree_positions,
)
from gymv_envs.domains.graphs._render import Picture

SIZES = {0: 5, 1: 7, 2: 9}


@functools.lru_cache(maxsize=64)
def k_subsets(n: int, k: int) -> np.ndarray:
    """Every k-subset of n items as a 0/1 row (read-only)."""
    rows = np.array([[1 if i in c else 0 for i in range(n)] for c in itertools.combinations(range(n), k)], dtype=np.int64)
    rows.setflags(write=False)
    return rows


def colouring_value(n: int, edges, weights, black) -> int:
    """Sum of distances over black-black pairs plus white-white pairs: each edge counts once per pair it separates."""
    parent, order = tree_parents(n, edges, 0)
    size, blk = [1] * n, [1 if v in black else 0 for v in range(n)]
    w = {(u, v): x for (u, v), x in zip(edges, weights)}
    k = len(black)
    total = 0
    for v in reversed(order):
        p = parent[v]
        if p < 0:
            continue
        b, s = blk[v], size[v]
        total += w.get((p, v), w.get((v, p))) * (b * (k - b) + (s - b) * (n - k - (s - b)))
        size[p] += s
        blk[p] += b
    return total


class TreeColouring(GraphQuestion):
    """Colour k vertices of a weighted tree black to maximise the distances within each colour.

    ## Description
    A tree with lettered vertices and an integer length on each edge is drawn; the instruction
    says how many vertices ``k`` to paint black (the rest stay white). The value of a colouring is
    the sum of the tree distances over all pairs of black vertices plus over all pairs of white
    vertices. The answer is the set of black vertices of a colouring with the largest value; any
    optimal set is accepted (every set of ``k`` vertices is scored to find the optimum).

    ## Action Space
    ``answer_format="open"``: `Text`, the ``k`` black vertices' letters. ``"mcq"``: `Discrete(k)`;
    wrong options are the best set with one vertex swapped and other sets of ``k`` vertices.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the tree with its edge lengths.

    ## Rewards
    1.0 for ``k`` distinct vertices whose colouring has the largest value, else 0.0.

    ## Starting State
    A random tree with lengths 1-9; ``k`` from 2 to ``n - 2``.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 vertices, 1: 7, 2: 9), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the letters of the vertices to paint black, separated by commas"

    def _generate(self, rng: np.random.Generator) -> None:
        n = SIZES[self.difficulty]
        self._name_labels(n)
        self.edges = relabel(rng, n, random_tree(rng, n))
        self.weights = [int(x) for x in rng.integers(1, 10, len(self.edges))]
        self.k = int(rng.integers(2, n - 1))
        self.best, self.black = self._best_set()
        self.pos = tree_positions(n, self.edges, int(rng.integers(n)))

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels, weights=[str(w) for w in self.weights], keep_aspect=False)

    def _task_text(self) -> str:
        return (f"The image shows a tree; the number on each edge is its length. Paint exactly {self.k} vertices "
                "black and the others white. The score is the sum of the distances (along the tree) between "
                "every two black vertices plus the sum of the distances between every two white vertices. "
                f"Which {self.k} vertices should be black to make the score as large as possible?")

    def _caption(self) -> list:
        return [f"Paint {self.k} black: largest score?"]

    def _parse_answer(self, text: str):
        return parse_set(text, self.labels)

    def _value(self, black) -> int:
        return colouring_value(len(self.labels), self.edges, self.weights, set(black))

    def _check(self, answer) -> bool:
        return len(answer) == self.k and self._value(answer) == self.best

    def _format(self, answer) -> str:
        return fmt_set(answer, self.labels)

    def _best_set(self) -> tuple[int, frozenset[int]]:
        """The largest value and the first k-subset reaching it: every k-subset scored at once (a subset's black
        count below each edge is one matrix product)."""
        n = len(self.labels)
        subsets = k_subsets(n, self.k)
        parent, order = tree_parents(n, self.edges, 0)
        below = np.zeros((n, n), dtype=np.int64)  # below[v, u]: u lies in v's subtree
        for v in reversed(order):
            below[v, v] = 1
            if parent[v] >= 0:
                below[parent[v]] += below[v]
        w = {(u, v): x for (u, v), x in zip(self.edges, self.weights)}
        child = [v for v in order if parent[v] >= 0]
        wts = np.array([w.get((parent[v], v), w.get((v, parent[v]))) for v in child])
        size = below[child].sum(axis=1)
        b = subsets @ below[child].T
        k = self.k
        value = (wts * (b * (k - b) + (size - b) * (n - k - size + b))).sum(axis=1)
        best = int(np.argmax(value))
        return int(value[best]), frozenset(int(v) for v in np.flatnonzero(subsets[best]))

    def _solve(self):
        return self.black

    def _near_misses(self, rng: np.random.Generator) -> list:
        n, best = len(self.labels), set(self._solution)
        out = [frozenset(best - {v} | {w}) for v in sorted(best) for w in range(n) if w not in best]
        for _ in range(8):
            out.append(frozenset(int(v) for v in rng.permutation(n)[: self.k]))
        return [out[int(i)] for i in rng.permutation(len(out))]


SPECS = (
    TaskSpec(name="TreeColouring", entry_point=TreeColouring, max_episode_steps=1,
             tags=("graph", "trees", "dynamic-programming", "weighted")),
)
