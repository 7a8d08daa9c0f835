"""Maximum independent set of a grid graph: the most grid vertices with no two neighbours chosen."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import GraphQuestion, adjacency, fmt_set, parse_set
from gymv_envs.domains.graphs._render import Picture, grid_layout, letters

SIZES = {0: (3, 4, 0.2), 1: (4, 5, 0.2), 2: (5, 5, 0.15)}  # rows, cols, share of vertices removed


def bipartite_mis(n: int, edges, side: list[int]) -> frozenset[int]:
    """A maximum independent set of a bipartite graph (``side[v]`` 0 or 1): the complement of a
    minimum vertex cover, built from a maximum matching by Konig's theorem."""
    adj = adjacency(n, edges)
    left = [v for v in range(n) if side[v] == 0]
    match: dict[int, int] = {}

    def augment(v: int, seen: set[int]) -> bool:
        for w in sorted(adj[v]):
            if w not in seen:
                seen.add(w)
                if w not in match or augment(match[w], seen):
                    match[w] = v
                    return True
        return False

    for v in left:
        augment(v, set())
    matched_left = set(match.values())
    # Konig: Z = vertices reachable from unmatched left vertices by alternating paths
    reach, stack = set(), [v for v in left if v not in matched_left]
    reach |= set(stack)
    while stack:
        v = stack.pop()
        for w in adj[v]:
            if w not in reach and side[w] == 1:
                reach.add(w)
                if w in match and match[w] not in reach:
                    reach.add(match[w])
                    stack.append(match[w])
    cover = {v for v in left if v not in reach} | {v for v in range(n) if side[v] == 1 and v in reach}
    return frozenset(set(range(n)) - cover)


class MaxIndependentSetGrid(GraphQuestion):
    """Name a maximum independent set of a grid graph.

    ## Description
    A grid graph is drawn: vertices on the points of a rectangular grid (a few points left out),
    edges between horizontal and vertical neighbours. The answer is as many vertices as possible
    with no two of them joined by an edge. Grid graphs are bipartite, so the optimum is found
    exactly from a maximum matching (Konig's theorem); any maximum set is accepted.

    ## Action Space
    ``answer_format="open"``: `Text`, the chosen vertices' letters. ``"mcq"``: `Discrete(k)`;
    wrong options are the checkerboard colour classes (when not optimal), the set less one
    vertex, and the set with one vertex moved next to another.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid graph drawn as a grid.

    ## Rewards
    1.0 for an independent set of the maximum size, else 0.0.

    ## Starting State
    A ``rows x cols`` grid with a random share of points removed (the rest still connected).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3x4, 1: 4x5, 2: 5x5), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the letters of a largest independent set, separated by commas"

    def _generate(self, rng: np.random.Generator) -> None:
        rows, cols, drop = SIZES[self.difficulty]
        while True:
            keep = rng.random(rows * cols) >= drop
            cells = [i for i in range(rows * cols) if keep[i]]
            index = {c: k for k, c in enumerate(cells)}
            edges = [(index[c], index[c + d]) for c in cells for d in (1, cols)
                     if c + d in index and (d == cols or (c + 1) % cols)]
            n = len(cells)
            if n >= 4 and len({v for e in edges for v in e}) == n and self._connected(n, edges):
                break
        self.labels = letters(n)
        self.pos = grid_layout(rows, cols)[cells]
        self.edges = edges
        self.adj = adjacency(n, edges)
        self.side = [(c // cols + c % cols) % 2 for c in cells]
        self.best = bipartite_mis(n, edges, self.side)

    @staticmethod
    def _connected(n, edges) -> bool:
        adj, seen, stack = adjacency(n, edges), {0}, [0]
        while stack:
            for w in adj[stack.pop()]:
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
        return len(seen) == n

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels)

    def _task_text(self) -> str:
        return ("The image shows a grid graph: vertices on grid points, edges between horizontal and vertical "
                "neighbours. Choose as many vertices as possible such that no two chosen vertices are joined by "
                "an edge. Give the chosen vertices.")

    def _parse_answer(self, text: str):
        return parse_set(text, self.labels)

    def _check(self, answer) -> bool:
        return len(answer) == len(self.best) and all(w not in answer for v in answer for w in self.adj[v])

    def _format(self, answer) -> str:
        return fmt_set(answer, self.labels)

    def _solve(self):
        return self.best

    def _near_misses(self, rng: np.random.Generator) -> list:
        n, best = len(self.labels), sorted(self.best)
        out = [frozenset(v for v in range(n) if self.side[v] == p) for p in (0, 1)]
        out += [frozenset(best[:i] + best[i + 1:]) for i in rng.permutation(len(best))]
        for v in best:
            for w in sorted(self.adj[v]):
                out.append(frozenset(best) - {v} | {w})
        return out


SPECS = (
    TaskSpec(name="MaxIndependentSetGrid", entry_point=MaxIndependentSetGrid, max_episode_steps=1,
             tags=("graph", "grid", "bipartite", "matching")),
)
