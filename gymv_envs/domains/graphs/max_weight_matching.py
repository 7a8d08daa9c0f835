"""Maximum weight matching: disjoint edges of a weighted graph with the largest total weight."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import GraphQuestion, fmt_edges, parse_edges, planar_graph
from gymv_envs.domains.graphs._render import Picture

SIZES = {0: (6, 8), 1: (8, 12), 2: (10, 15)}  # vertices, edges


@functools.lru_cache(maxsize=1)  # one class
def _plain_graph() -> type:
    """A `networkx.Graph` whose ``G[v]`` is the plain dict of v's neighbours (to their edge data) rather than
    networkx's read-only AtlasView over it: the blossom algorithm reads ``G[v][w]`` in its inner loop (slack),
    and the views cost most of that. Used read-only (only networkx's matching reads it), so the same answers."""
    import networkx as nx

    class PlainGraph(nx.Graph):
        def __getitem__(self, n):
            return self._adj[n]

        def add_weighted(self, weighted) -> None:
            """The edges ``((u, v), w)`` with their ``weight``, as `add_weighted_edges_from` adds them (the same
            nodes and neighbours in the same order, one data dict per edge) without its per-edge checks."""
            adj, node = self._adj, self._node
            for (u, v), w in weighted:
                if u not in node:
                    adj[u], node[u] = {}, {}
                if v not in node:
                    adj[v], node[v] = {}, {}
                adj[u][v] = adj[v][u] = {"weight": w}

    return PlainGraph


def best_matching(pos: np.ndarray, w: dict[tuple[int, int], int]) -> tuple[frozenset, bool]:
    """A matching of largest total weight (positive weights ``w`` per edge ``(u, v)``, u < v) and whether another
    matching reaches that total too: exact, by dynamic programming over the sets of vertices left (each set's
    first vertex is left out or matched to a later one; about 30 sets reached at 10 vertices, taken top to
    bottom on the layout ``pos``). Of several optima it gives the first it meets: at each set, the first vertex
    left out where that keeps the optimum, else matched to its first such neighbour. A unique optimum is what
    networkx's blossom algorithm returns too."""
    n = len(pos)
    order = sorted(range(n), key=pos[:, 1].tolist().__getitem__)
    rank = [0] * n
    for i, v in enumerate(order):
        rank[v] = i
    later: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # per rank: (bit of a later neighbour, weight)
    for (u, v), weight in w.items():
        a, b = (rank[u], rank[v]) if rank[u] < rank[v] else (rank[v], rank[u])
        later[a].append((1 << b, weight))
    memo = [-1] * (1 << n)  # per set of ranks: 2 * its best total, plus 1 where several matchings reach it
    memo[0] = 0

    def best(mask: int) -> int:
        low = mask & -mask
        rest = mask ^ low
        r = memo[rest]
        if r < 0:
            r = best(rest)
        for bit, weight in later[low.bit_length() - 1]:
            if rest & bit:
                r2 = memo[rest ^ bit]
                if r2 < 0:
                    r2 = best(rest ^ bit)
                r2 += 2 * weight
                if r2 >> 1 > r >> 1:
                    r = r2
                elif r2 >> 1 == r >> 1:
                    r |= 1
        memo[mask] = r
        return r

    mask = (1 << n) - 1
    r = best(mask)
    several = bool(r & 1)
    r >>= 1
    out = []
    while mask:  # the first optimal choice at each set
        low = mask & -mask
        rest = mask ^ low
        if memo[rest] >> 1 == r:
            mask = rest
            continue
        for bit, weight in later[low.bit_length() - 1]:
            if rest & bit and (memo[rest ^ bit] >> 1) + weight == r:
                u, v = order[low.bit_length() - 1], order[bit.bit_length() - 1]
                out.append((u, v) if u < v else (v, u))
                mask = rest ^ bit
                r -= weight
                break
    return frozenset(out), several


class MaxWeightMatching(GraphQuestion):
    """Give a matching of largest total weight in a weighted graph.

    ## Description
    A connected graph with lettered vertices and an integer weight 1-9 on each edge is drawn. A
    matching is a set of edges no two of which share a vertex. The answer is a matching whose
    weights add up to the most; any optimal matching is accepted (an exact dynamic program finds one; the
    verifier compares the integer totals exactly).

    ## Action Space
    ``answer_format="open"``: `Text`, the matched edges as letter pairs (``A-B, C-D``).
    ``"mcq"``: `Discrete(k)`; wrong options are a matching with the most edges (not the most
    weight), the greedy heaviest-edge-first matching, the answer less one edge, and the answer
    with one edge exchanged for a neighbouring one.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the graph with its weights.

    ## Rewards
    1.0 for a set of drawn edges that is a matching of maximum total weight, else 0.0.

    ## Starting State
    A random planar graph with random weights.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 6 vertices, 1: 8, 2: 10), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: each edge's weight sits at its middle: the layout leaves it room (edges too short to hold it clear of
      both vertices, or passing near another vertex, edge or weight, are never drawn), so a weight never
      touches a vertex ring; new levels.
    - v2: where several matchings reach the largest total (about one level in six at difficulties 1 and 2), the
      oracle names the first the dynamic program meets (v1: the one networkx's blossom algorithm returns, which
      cost more than the rest of the level's generation): the same levels, pictures and accepted answers.
    """

    extras = ("graphs",)
    answer_hint = "the matched edges as letter pairs, for example `X-Y, Z-W`"

    def _generate(self, rng: np.random.Generator) -> None:
        n, m = SIZES[self.difficulty]
        self._name_labels(n)
        self.pos, self.edges = planar_graph(rng, n, m, weighted="undirected")
        self.weights = [int(w) for w in rng.integers(1, 10, len(self.edges))]
        self.w = {e: w for e, w in zip(self.edges, self.weights)}
        self.matching, _ = best_matching(self.pos, self.w)
        self.best = self._total(self.matching)

    def _graph(self):
        """The level's weighted graph for networkx's matching (built when needed, not kept: its class is made at
        run time, so an env holding one would not pickle). Weights as floats (exact: small integers, the duals
        halves of them): networkx then skips its per-edge integer test and its integer-only self-check, the
        same matching."""
        g = _plain_graph()()
        g.add_weighted(((e, float(w)) for e, w in self.w.items()))
        return g

    def _total(self, pairs) -> int:
        return sum(self.w[p] for p in pairs)

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels, weights=[str(w) for w in self.weights],
                       centred_weights=True)

    def _task_text(self) -> str:
        return ("The image shows an undirected graph; the number on each edge is its weight. Choose edges no two of "
                "which share a vertex (a matching) so that the total weight of the chosen edges is as large as "
                "possible. Give the chosen edges.")

    def _parse_answer(self, text: str):
        pairs = parse_edges(text, self.labels)
        if not pairs:
            return None
        out = frozenset(tuple(sorted(p)) for p in pairs)
        return out if len(out) == len(pairs) else None

    def _check(self, answer) -> bool:
        ends = [v for e in answer for v in e]
        return all(e in self.w for e in answer) and len(ends) == len(set(ends)) and self._total(answer) == self.best

    def _format(self, answer) -> str:
        return fmt_edges(sorted(answer), self.labels)

    def _solve(self):
        return self.matching

    def _near_misses(self, rng: np.random.Generator) -> list:
        import networkx as nx

        out = [frozenset(tuple(sorted(e)) for e in nx.max_weight_matching(self._graph(), maxcardinality=True))]
        greedy, used = [], set()
        for e in sorted(self.edges, key=lambda e: -self.w[e]):
            if not set(e) & used:
                greedy.append(e)
                used |= set(e)
        out.append(frozenset(greedy))
        best = sorted(self.matching)
        out += [frozenset(best[:i] + best[i + 1:]) for i in range(len(best))]
        for i, e in enumerate(best):
            for f in self.edges:
                if f not in self.matching and set(f) & set(e):
                    rest = [g for g in best[:i] + best[i + 1:] if not set(g) & set(f)]
                    out.append(frozenset(rest + [f]))
        return out


SPECS = (
    TaskSpec(name="MaxWeightMatching", version=2, entry_point=MaxWeightMatching, max_episode_steps=1,
             tags=("graph", "matching", "weighted")),
)
