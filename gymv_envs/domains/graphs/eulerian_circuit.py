"""Eulerian circuit in a mixed graph: a closed walk using every arc (in its direction) and every edge once."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._euler_solver import hierholzer, orient_mixed
from gymv_envs.domains.graphs._graphs import (
    GraphQuestion,
    adjacency,
    fmt_sequence,
    parse_sequence,
    planar_graph,
    reach,
)
from gymv_envs.domains.graphs._render import Picture, letters

SIZES = {0: (6, 9, 5), 1: (8, 13, 7), 2: (10, 17, 9)}  # vertices drawn from, edges, fewest edges kept


class EulerianCircuit(GraphQuestion):
    """Give an Eulerian circuit of a mixed graph.

    ## Description
    A connected mixed graph is drawn: some connections are arcs (with an arrowhead, usable only in
    their direction), the others are plain edges (usable either way). The answer is a closed walk
    that uses every arc and every edge exactly once; any such circuit, from any starting vertex,
    is accepted. One always exists. The solver orients the plain edges so that every vertex has as
    many arcs in as out (reversing paths of edges from surplus to deficit) and then follows
    Hierholzer's algorithm.

    ## Action Space
    ``answer_format="open"``: `Text`, the walk's vertex letters, ending where it started
    (``A C B A``). ``"mcq"``: `Discrete(k)`; wrong options are the circuit reversed (which runs
    arcs backwards), the circuit with one connection skipped and the circuit with two stops swapped.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the mixed graph.

    ## Rewards
    1.0 for a closed walk along the drawn connections that uses each exactly once (arcs forwards),
    else 0.0.

    ## Starting State
    The even part of random cycles of a planar graph (a sum of fundamental cycles) is walked once
    to direct it, then about half of its connections lose their direction. Some vertex has four
    connections or more (the graph is more than one cycle); up to four sums of cycles are tried on one
    planar graph before another is drawn.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: about 5 connections or more, 1: 7, 2: 9), ``answer_format``, ``num_options``,
    ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: a sum of cycles too small (or a single cycle) is drawn again on the same planar graph, up to
      four times, before a new graph is drawn (v0 drew a new graph each time, 1.4-1.9 graphs a level):
      the same kind of levels, other seeds, cheaper to generate.
    - v2: arrowheads come from cached stamps (directions to 1/128 of a turn, tips to a quarter pixel), as in the
      other directed graph tasks: the same levels and answers, arrowheads moved by at most about half a pixel.
    """

    answer_hint = "the closed walk as vertex letters, ending at its first vertex"

    def _generate(self, rng: np.random.Generator) -> None:
        n0, m, least = SIZES[self.difficulty]
        piece = 0
        while not piece:
            pos, edges = planar_graph(rng, n0, m)
            cycles = self._fundamental_cycles(n0, edges)
            for _ in range(4):  # a few sums of cycles on one graph before drawing another
                piece, nb, chosen = self._even_part(rng, n0, edges, cycles)
                degrees = [nb[v].bit_count() for v in range(n0) if piece >> v & 1]
                if sum(degrees) >= 2 * least and max(degrees) >= 4:  # more than one cycle meets somewhere
                    break
                piece = 0
        verts = [v for v in range(n0) if piece >> v & 1]
        index = {v: i for i, v in enumerate(verts)}
        n = len(verts)
        self.labels = letters(n)
        self.pos = pos[verts]
        out: dict[int, list[int]] = {v: [] for v in range(n)}  # per vertex: its neighbours, first edge last
        while chosen:  # the piece's edges in order (edges are sorted)
            low = chosen & -chosen
            u, v = edges[low.bit_length() - 1]
            chosen ^= low
            if piece >> u & 1:
                u, v = index[u], index[v]
                out[u].insert(0, v)
                out[v].insert(0, u)
        # walk it once (undirected Hierholzer, each vertex's first unused edge) to give every connection a
        # direction: the circuit read backwards
        walk = hierholzer(out, 0, undirected=True)[::-1]
        arcs = list(zip(walk, walk[1:]))
        plain = rng.random(len(arcs)) < 0.5
        plain[int(rng.integers(len(arcs)))] = False  # at least one arc
        self.edges = [(min(a), max(a)) if p else a for a, p in zip(arcs, plain.tolist())]
        self.is_arc = [not p for p in plain.tolist()]

    @staticmethod
    def _fundamental_cycles(n: int, edges: list[tuple[int, int]]) -> list[int]:
        """Per edge off a breadth-first tree from vertex 0 (neighbours in order), in the order of ``edges``: the
        edges of its fundamental cycle, as a bit mask over the positions in ``edges``."""
        adj = adjacency(n, edges)
        parent: list[int] = [-1] * n
        parent[0] = 0
        order = [0]
        for v in order:
            for w in sorted(adj[v]):
                if parent[w] < 0:
                    parent[w] = v
                    order.append(w)
        depth = [0] * n
        for v in order[1:]:
            depth[v] = depth[parent[v]] + 1
        at = {e: k for k, e in enumerate(edges)}
        up = [0] * n  # the bit of the tree edge from each vertex to its parent
        for v in order[1:]:
            up[v] = 1 << at[(min(v, parent[v]), max(v, parent[v]))]
        tree = 0
        for b in up:
            tree |= b
        cycles = []
        for k, (u, v) in enumerate(edges):
            if tree >> k & 1:
                continue
            mask = 1 << k
            while u != v:  # climb from the deeper end until both ends meet
                if depth[u] >= depth[v]:
                    mask ^= up[u]
                    u = parent[u]
                else:
                    mask ^= up[v]
                    v = parent[v]
            cycles.append(mask)
        return cycles

    @staticmethod
    def _even_part(rng, n, edges, cycles) -> tuple[int, list[int], int]:
        """The largest connected piece of a random sum of fundamental ``cycles`` (even degrees; the first
        largest from vertex 0 up): its vertices as a bit mask, the neighbours of each vertex in the sum as bit
        masks, and the sum's edges as a bit mask over ``edges``."""
        chosen = 0
        for mask, x in zip(cycles, rng.random(len(cycles)).tolist()):  # (the same draws as one per cycle)
            if x < 0.7:
                chosen ^= mask
        nb = [0] * n
        rest = chosen
        while rest:
            low = rest & -rest
            u, v = edges[low.bit_length() - 1]
            nb[u] |= 1 << v
            nb[v] |= 1 << u
            rest ^= low
        best = size = seen = 0
        for s in range(n):
            if seen >> s & 1:
                continue
            comp = reach(nb, 1 << s)
            seen |= comp
            if comp.bit_count() > size:
                best, size = comp, comp.bit_count()
        return (best if size > 1 else 0), nb, chosen

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels, directed=self.is_arc, stamped_heads=True)

    def _task_text(self) -> str:
        return ("The image shows a mixed graph: connections with an arrowhead are one-way arcs (use them only in the "
                "arrow's direction), plain lines are two-way edges. Give a closed walk that uses every connection "
                "exactly once, as the sequence of vertices it passes, ending at the vertex where it started.")

    def _parse_answer(self, text: str):
        seq = parse_sequence(text, self.labels)
        return tuple(seq) if seq and len(seq) >= 2 else None

    def _check(self, answer) -> bool:
        if len(answer) != len(self.edges) + 1 or answer[0] != answer[-1]:
            return False
        left = {(e if arc else (min(e), max(e))): arc for e, arc in zip(self.edges, self.is_arc)}
        for u, v in zip(answer, answer[1:]):
            if (u, v) in left and left[(u, v)]:
                del left[(u, v)]
            elif (min(u, v), max(u, v)) in left and not left[(min(u, v), max(u, v))]:
                del left[(min(u, v), max(u, v))]
            else:
                return False
        return not left

    def _format(self, answer) -> str:
        return fmt_sequence(answer, self.labels)

    def _solve(self):
        n = len(self.labels)
        arcs = [e for e, a in zip(self.edges, self.is_arc) if a]
        plain = [e for e, a in zip(self.edges, self.is_arc) if not a]
        way = orient_mixed(n, arcs, plain)
        out: dict[int, list[int]] = {}
        for u, v in sorted(arcs + way, reverse=True):
            out.setdefault(u, []).append(v)
        return tuple(hierholzer(out, arcs[0][0]))

    def _near_misses(self, rng: np.random.Generator) -> list:
        sol = list(self._solution)
        out = [tuple(reversed(sol))]
        for i in range(1, len(sol) - 1):
            out.append(tuple(sol[:i] + sol[i + 1:]))
            b = sol[:]
            b[i], b[i + 1] = b[i + 1], b[i]
            if i + 1 < len(sol) - 1:
                out.append(tuple(b))
        return [out[0]] + [out[1 + int(j)] for j in rng.permutation(len(out) - 1)]


SPECS = (
    TaskSpec(name="EulerianCircuit", version=2, entry_point=EulerianCircuit, max_episode_steps=1,
             tags=("graph", "directed", "euler", "path")),
)
