"""Maximum flow: the most that can flow from the source to the sink of a capacitated network."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import GraphQuestion, int_near_misses, parse_int, planar_graph
from gymv_envs.domains.graphs._render import Picture

SIZES = {0: (5, 7), 1: (7, 11), 2: (9, 15)}  # vertices, arcs
SOURCE_FILL, SINK_FILL = (190, 235, 190), (250, 200, 200)


def widest_path(n: int, caps: dict, s: int, t: int) -> int:
    """The largest bottleneck of a single path from s to t (what one path alone can carry)."""
    best = [0] * n
    best[s] = 10**9
    for _ in range(n):
        for (u, v), c in caps.items():
            best[v] = max(best[v], min(best[u], c))
    return best[t]


@functools.lru_cache(maxsize=1)  # one class
def _plain_digraph() -> type:
    """A `networkx.DiGraph` whose ``G.succ``, ``G.pred`` and ``G[u]`` are its plain dicts rather than networkx's
    read-only views over them: Edmonds-Karp reads ``R.succ[u][v]`` and ``R.pred[v][u]`` in its inner loops, and
    the views cost most of that (the same dicts, so the same flow)."""
    import networkx as nx

    class PlainDiGraph(nx.DiGraph):
        succ = property(lambda self: self._succ)
        pred = property(lambda self: self._pred)

        def __getitem__(self, n):
            return self._succ[n]

    return PlainDiGraph


def residual_network(n: int, caps: dict):
    """The residual network networkx's Edmonds-Karp works on for arcs ``caps`` (arc: capacity) on vertices
    0..n-1, filled in at once: what `build_residual_network` builds from a network of these arcs (none is a
    self-loop or has a reverse twin): each arc with its capacity, its reverse with capacity 0, one data dict per
    arc shared by its tail's successors and its head's predecessors."""
    res = _plain_digraph()()
    succ, pred, node = res._succ, res._pred, res._node
    for v in range(n):
        succ[v], pred[v], node[v] = {}, {}, {}
    for (u, v), c in caps.items():
        succ[u][v] = pred[v][u] = {"capacity": c}
    for u, v in caps:
        succ[v][u] = pred[u][v] = {"capacity": 0}
    res.graph["inf"] = 3 * sum(caps.values())
    return res


class MaxFlow(GraphQuestion):
    """Give the maximum flow value of a drawn network.

    ## Description
    A directed network is drawn: each arc has an arrowhead and an integer capacity 1-9; the green
    vertex is the source and the red one the sink. A flow sends along each arc at most its
    capacity, and into every other vertex as much as out of it. The answer is the largest amount
    that can flow from the source to the sink (networkx's Edmonds-Karp; exact integers).

    ## Action Space
    ``answer_format="open"``: `Text`, one integer. ``"mcq"``: `Discrete(k)`; wrong options are the
    most a single path can carry, the capacity out of the source and into the sink, and the answer
    plus or minus one or two.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the network with its capacities.

    ## Rewards
    1.0 for the exact maximum flow value, else 0.0.

    ## Starting State
    A random planar network, source at the far left and sink at the far right; arcs mostly point
    rightwards.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 vertices, 1: 7, 2: 9), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: arrowheads come from cached stamps (directions to 1/128 of a turn, tips to a quarter pixel): the
      same levels and answers, arrowheads moved by at most about half a pixel.
    - v2: each edge's weight sits at its middle: the layout leaves it room (edges too short to hold it clear of
      both vertices and their arrowheads, or passing near another vertex, edge or weight, are never drawn), so a weight never
      touches a vertex ring or an arrowhead; the network is laid out in a square (v1: 1.5 times as wide as high);
      new levels.
    """

    extras = ("graphs",)
    answer_hint = "the maximum flow value, one integer"
    directed = True

    def _generate(self, rng: np.random.Generator) -> None:
        from networkx.algorithms.flow import edmonds_karp

        n, m = SIZES[self.difficulty]
        self._name_labels(n)
        while True:
            self.pos, edges = planar_graph(rng, n, m, aspect=1.0, weighted="directed")
            x = self.pos[:, 0]
            self.source, self.sink = int(np.argmin(x)), int(np.argmax(x))
            xs = x.tolist()
            flips = rng.random(len(edges)).tolist()  # (the same draws as one `rng.random()` per edge)
            arcs = [(u, v) if (xs[u] < xs[v]) != (f < 0.2) else (v, u) for (u, v), f in zip(edges, flips)]
            arcs = [(v, u) if v == self.source or u == self.sink else (u, v) for u, v in arcs]
            self.edges = arcs
            self.weights = [int(c) for c in rng.integers(1, 10, len(arcs))]
            self.caps = dict(zip(arcs, self.weights))
            res = residual_network(n, self.caps)
            self.flow = int(edmonds_karp(res, self.source, self.sink, residual=res, value_only=True).graph["flow_value"])
            if self.flow > 0:
                break

    def _picture(self) -> Picture:
        fills = [SOURCE_FILL if v == self.source else SINK_FILL if v == self.sink else None for v in range(len(self.labels))]
        return Picture(self.pos, self.edges, self.labels, weights=[str(c) for c in self.weights], directed=True,
                       fills=fills, stamped_heads=True, centred_weights=True)

    def _task_text(self) -> str:
        return ("The image shows a directed network; the number on each arc is its capacity. The green vertex is the "
                "source and the red vertex the sink. Each arc can carry at most its capacity in the arrow's "
                "direction, and every other vertex passes on exactly what it receives. What is the maximum total "
                "flow from the source to the sink?")

    def _parse_answer(self, text: str):
        return parse_int(text)

    def _check(self, answer) -> bool:
        return answer == self.flow

    def _solve(self) -> int:
        return self.flow

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        out_s = sum(c for (u, _), c in self.caps.items() if u == self.source)
        in_t = sum(c for (_, v), c in self.caps.items() if v == self.sink)
        one = widest_path(len(self.labels), self.caps, self.source, self.sink)
        return int_near_misses(rng, self.flow, one, out_s, in_t, low=1)


SPECS = (
    TaskSpec(name="MaxFlow", version=2, entry_point=MaxFlow, max_episode_steps=1,
             tags=("graph", "directed", "flow", "weighted")),
)
