"""Minimum Hamiltonian path: the lightest path through every vertex of a weighted graph exactly once."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import (
    GraphQuestion,
    fmt_sequence,
    parse_sequence,
    planar_graph,
)
from gymv_envs.domains.graphs._render import Picture

SIZES = {0: (5, 8), 1: (6, 10), 2: (7, 12)}  # vertices, edges
MISSING = 10**6


@functools.lru_cache(maxsize=8)
def permutations(n: int) -> np.ndarray:
    """Every ordering of n vertices that starts with a smaller vertex than it ends (one per path), read-only."""
    perms = np.array([p for p in itertools.permutations(range(n)) if p[0] < p[-1]], dtype=np.intp)
    perms.setflags(write=False)
    return perms


@functools.lru_cache(maxsize=8)
def _steps(n: int) -> np.ndarray:
    """The flat (u * n + v) index of step i of ordering j of `permutations` at [i, j] (steps as rows: their
    sum over the long axis is ~5x faster than over a row of n - 1), read-only."""
    p = permutations(n)
    flat = np.ascontiguousarray((p[:, :-1] * n + p[:, 1:]).T)
    flat.setflags(write=False)
    return flat


def path_costs(weight: np.ndarray) -> np.ndarray:
    """The length of every Hamiltonian path (``MISSING`` or more where an edge is absent), per ordering."""
    return weight.ravel().take(_steps(len(weight))).sum(axis=0)


class HamiltonianPath(GraphQuestion):
    """Give a shortest path that visits every vertex of a weighted graph exactly once.

    ## Description
    A connected weighted graph with lettered vertices is drawn; each edge carries a length 1-9.
    A Hamiltonian path visits every vertex exactly once along edges, starting and ending
    anywhere. The answer is one of least total length; any optimal path, in either direction, is
    accepted. The optimum is exact: every ordering of the vertices is scored at once.

    ## Action Space
    ``answer_format="open"``: `Text`, all vertex letters in path order. ``"mcq"``: `Discrete(k)`;
    wrong options are the next-lightest Hamiltonian paths, the greedy nearest-neighbour path and
    the answer with two vertices swapped.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the graph with its edge lengths.

    ## Rewards
    1.0 for a Hamiltonian path along drawn edges of minimum total length, else 0.0.

    ## Starting State
    A random planar graph that has at least three Hamiltonian paths of different lengths.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 vertices, 1: 6, 2: 7), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "all the vertex letters in the order of the path, separated by spaces"

    def _generate(self, rng: np.random.Generator) -> None:
        n, m = SIZES[self.difficulty]
        self._name_labels(n)
        while True:
            self.pos, self.edges = planar_graph(rng, n, m, max_len=2.8)
            self.weights = [int(w) for w in rng.integers(1, 10, len(self.edges))]
            self.weight = np.full((n, n), MISSING, dtype=np.int64)
            for (u, v), w in zip(self.edges, self.weights):
                self.weight[u, v] = self.weight[v, u] = w
            self.costs = path_costs(self.weight)
            valid = self.costs[self.costs < MISSING]
            if len(valid) >= 3:  # three different lengths: the least, the next, one more
                least = valid.min()
                rest = valid[valid != least]
                if len(rest) >= 2 and (rest != rest.min()).any():
                    break
        self.best = int(least)

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels, weights=[str(w) for w in self.weights])

    def _task_text(self) -> str:
        return ("The image shows an undirected graph; the number on each edge is its length. Find a path along the "
                "edges that visits every vertex exactly once (it may start and end anywhere) and has the smallest "
                "total length.")

    def _parse_answer(self, text: str):
        seq = parse_sequence(text, self.labels)
        return tuple(seq) if seq else None

    def _check(self, answer) -> bool:
        n = len(self.labels)
        if len(answer) != n or set(answer) != set(range(n)):
            return False
        return int(sum(self.weight[u, v] for u, v in zip(answer, answer[1:]))) == self.best

    def _format(self, answer) -> str:
        return fmt_sequence(answer, self.labels)

    def _solve(self):
        return tuple(int(v) for v in permutations(len(self.labels))[int(np.argmin(self.costs))])

    def _near_misses(self, rng: np.random.Generator) -> list:
        perms = permutations(len(self.labels))
        ok = np.flatnonzero(self.costs < MISSING)
        out = [tuple(int(v) for v in perms[i]) for i in ok[np.argsort(self.costs[ok], kind="stable")][1:12]]
        start, path = int(np.argmin(self.weight.min(axis=1))), []
        while start >= 0:  # nearest neighbour from the end of the lightest edge
            path.append(start)
            free = [v for v in range(len(self.labels)) if v not in path and self.weight[start, v] < MISSING]
            start = min(free, key=lambda v: self.weight[path[-1], v]) if free else -1
        out.append(tuple(path))
        a = list(self._solution)
        for i in range(len(a) - 1):
            b = a[:]
            b[i], b[i + 1] = b[i + 1], b[i]
            out.append(tuple(b))
        return out


SPECS = (
    TaskSpec(name="HamiltonianPath", entry_point=HamiltonianPath, max_episode_steps=1,
             tags=("graph", "np-hard", "path", "weighted")),
)
