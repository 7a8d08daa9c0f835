"""Tree components: how many of a drawn graph's connected pieces are trees."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.graphs._graphs import (
    CountQuestion,
    adjacency,
    int_near_misses,
    planar_graph,
)
from gymv_envs.domains.graphs._render import Picture

SIZES = {0: (8, 3), 1: (12, 4), 2: (16, 6)}  # vertices, pieces


def components(n: int, edges) -> list[tuple[set[int], int]]:
    """Each connected component as (its vertices, its number of edges)."""
    adj = adjacency(n, edges)
    seen: set[int] = set()
    out = []
    for s in range(n):
        if s in seen:
            continue
        comp, stack = {s}, [s]
        while stack:
            for w in adj[stack.pop()]:
                if w not in comp:
                    comp.add(w)
                    stack.append(w)
        seen |= comp
        out.append((comp, sum(1 for u, v in edges if u in comp)))
    return out


class TreeComponentCount(CountQuestion):
    """Count the connected components of a drawn graph that are trees.

    ## Description
    An undirected graph in several separate pieces (connected components) is drawn. A piece is a
    tree when it has no cycle, i.e. one edge fewer than vertices; a lone vertex is a tree too. The
    answer is how many pieces are trees.

    ## Action Space
    ``answer_format="open"``: `Text`, one integer. ``"mcq"``: `Discrete(k)`; wrong options are the
    number of pieces, the number of pieces with a cycle, and the count plus or minus one.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the graph.

    ## Rewards
    1.0 for the exact count, else 0.0.

    ## Starting State
    A random planar graph is split into regions grown from random seeds (edges between regions are
    removed); each region keeps only a spanning tree or also some of its other edges.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 8 vertices in 3 pieces, 1: 12 in 4, 2: 16 in 6), ``answer_format``,
    ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the number of pieces that are trees, one integer"

    def _generate(self, rng: np.random.Generator) -> None:
        n, parts = SIZES[self.difficulty]
        self._name_labels(n)
        self.pos, edges = planar_graph(rng, n, 3 * n)
        adj = adjacency(n, edges)
        owner = [-1] * n
        seeds = [int(rng.integers(n))]
        apart = np.hypot(*(self.pos[:, None, :] - self.pos[None, :, :]).transpose(2, 0, 1))  # [v, s]: v from s
        gap = apart[:, seeds[0]]  # each point's distance to the nearest seed
        while len(seeds) < parts:  # far apart: each next seed is the point farthest from the others
            seeds.append(int(np.argmax(gap + rng.uniform(0, 0.5, n))))
            gap = np.minimum(gap, apart[:, seeds[-1]])
        members: list[list[int]] = [[] for _ in range(parts)]
        for k, v in enumerate(seeds):
            owner[v] = k
        for v in range(n):
            if owner[v] >= 0:
                members[owner[v]].append(v)
        grew = True
        while grew:  # the regions take turns to claim one free neighbouring vertex each
            grew = False
            for k in rng.permutation(parts).tolist():
                free = sorted({w for v in members[k] for w in adj[v] if owner[w] < 0})
                if free:
                    w = free[int(rng.integers(len(free)))]
                    owner[w] = k
                    members[k].append(w)
                    grew = True
        inner = [(u, v) for u, v in edges if owner[u] == owner[v]]
        keep = []
        with ScalarDraws(rng) as d:  # the draws of `rng.random` / `rng.integers` one by one, at Python speed
            for k in range(parts):  # a spanning tree of each region, and for some regions a few more edges
                mine = [e for e in inner if owner[e[0]] == k]
                tree, extra = self._tree_of(mine, k, owner, d)
                keep += tree
                if extra and d.random() < 0.5:
                    keep += extra[: 1 + d.integers(len(extra))]
        self.edges = sorted(keep)
        self.comps = components(n, self.edges)
        self.count = sum(1 for comp, m in self.comps if m == len(comp) - 1)

    @staticmethod
    def _tree_of(mine, k, owner, rng):
        """A spanning tree of one region (edges added while they join new vertices) and the rest."""
        verts = {v for e in mine for v in e} or {owner.index(k)}
        reach = {min(verts)}
        tree, rest = [], list(mine)
        grew = True
        while grew:
            grew = False
            for e in sorted(rest, key=lambda _: rng.random()):
                if (e[0] in reach) != (e[1] in reach):
                    tree.append(e)
                    reach |= set(e)
                    rest.remove(e)
                    grew = True
        return tree, rest

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels)

    def _task_text(self) -> str:
        return ("The image shows an undirected graph made of several separate pieces (connected components). "
                "A piece is a tree if it contains no cycle; a single vertex on its own is also a tree. "
                "How many of the pieces are trees?")

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        return int_near_misses(rng, self.count, len(self.comps), len(self.comps) - self.count)


SPECS = (
    TaskSpec(name="TreeComponentCount", entry_point=TreeComponentCount, max_episode_steps=1,
             tags=("graph", "counting", "trees")),
)
