"""Patrol walk: the shortest closed walk from the depot that travels every road at least once."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._euler_solver import hierholzer
from gymv_envs.domains.graphs._graphs import (
    GraphQuestion,
    fmt_sequence,
    parse_sequence,
    planar_graph,
)
from gymv_envs.domains.graphs._render import Picture

SIZES = {0: (5, 6), 1: (6, 8), 2: (8, 11)}  # vertices, edges
DEPOT_FILL = (190, 235, 190)
INF = 10**9


def pairings(items: list[int]):
    """Every way to split an even list into pairs."""
    if not items:
        yield []
        return
    a = items[0]
    for i in range(1, len(items)):
        rest = items[1:i] + items[i + 1:]
        for p in pairings(rest):
            yield [(a, items[i])] + p


def cheapest_pairing(items: list[int], d: list[list[int]]) -> tuple[int, list[tuple[int, int]]]:
    """The least total distance ``d`` of a split of the ascending list ``items`` into pairs, and the first split
    that reaches it in the order `pairings` yields them (the first of ``sorted((cost, split) ...)``): the first
    item with each partner in turn, the rest split the same way, remembered per set of items left."""
    memo: dict[int, tuple[int, list[tuple[int, int]]]] = {0: (0, [])}

    def best(mask: int) -> tuple[int, list[tuple[int, int]]]:
        low = mask & -mask
        a, rest = items[low.bit_length() - 1], mask ^ low
        top, split, others = INF, [], rest
        while others:
            bit = others & -others
            others ^= bit
            sub = memo.get(rest ^ bit) or best(rest ^ bit)
            cost = d[a][items[bit.bit_length() - 1]] + sub[0]
            if cost < top:
                top, split = cost, [(a, items[bit.bit_length() - 1]), *sub[1]]
        memo[mask] = (top, split)
        return memo[mask]

    return best((1 << len(items)) - 1)


def floyd(n: int, w: dict) -> tuple[list[list[int]], list[list[int]]]:
    """All-pairs shortest distances and next hops."""
    d = [[0 if i == j else INF for j in range(n)] for i in range(n)]
    nxt = [[j for j in range(n)] for _ in range(n)]
    for (u, v), x in w.items():
        d[u][v] = d[v][u] = x
    for k in range(n):
        dk = d[k]  # (row k and column k do not change while k is the middle vertex)
        for i in range(n):
            di = d[i]
            dik = di[k]
            if dik >= INF:
                continue
            ni, nik = nxt[i], nxt[i][k]
            for j in range(n):
                x = dik + dk[j]
                if x < di[j]:
                    di[j] = x
                    ni[j] = nik
    return d, nxt


class PatrolWalk(GraphQuestion):
    """Give a shortest closed walk from the depot that covers every road (the Chinese postman problem).

    ## Description
    A connected road map with lettered crossings and a length 1-9 on each road is drawn; the green
    vertex is the depot. The answer is a walk that starts and ends at the depot and travels along
    every road at least once, with the smallest total length; any shortest such walk is accepted.
    The optimum is the sum of all roads plus the cheapest pairing of the odd-degree crossings by
    shortest paths (every pairing is tried).

    ## Action Space
    ``answer_format="open"``: `Text`, the walk's vertex letters from the depot back to the depot.
    ``"mcq"``: `Discrete(k)`; wrong options are covering walks built on a worse pairing of the odd
    crossings, the walk with one repeated road dropped (missing a road) and with two stops swapped.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the road map; the depot filled green.

    ## Rewards
    1.0 for a closed walk from the depot along drawn roads that covers every road and has the
    smallest total length, else 0.0.

    ## Starting State
    A random connected planar road map with random lengths and at least two odd crossings; each length
    written at its road's middle.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 crossings, 1: 6, 2: 8), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: each road's length sits at its middle, as on the other weighted road maps: the layout leaves it room
      (roads too short to hold it clear of both crossings, or passing near another crossing, road or length,
      are never drawn), so a length never touches a crossing's ring (v0 searched for a free spot beside each
      road, which cost more than the rest of the picture); the same sizes, new pictures and some new levels.
    """

    answer_hint = "the walk as vertex letters, from the green depot back to it"

    def _generate(self, rng: np.random.Generator) -> None:
        n, m = SIZES[self.difficulty]
        self._name_labels(n)
        while True:
            self.pos, self.edges = planar_graph(rng, n, m, weighted="undirected")
            odd = 0
            for u, v in self.edges:
                odd ^= 1 << u | 1 << v
            self.odd = [v for v in range(n) if odd >> v & 1]
            if self.odd:
                break
        self.weights = [int(x) for x in rng.integers(1, 10, len(self.edges))]
        self.w = dict(zip(self.edges, self.weights))
        self.depot = int(rng.integers(n))
        self.dist, self.next = floyd(n, self.w)
        self.cheapest = cheapest_pairing(self.odd, self.dist)  # the cost of the oracle's pairing, and the pairing
        self.best = sum(self.weights) + self.cheapest[0]

    @property
    def pairs(self) -> list[tuple[int, list[tuple[int, int]]]]:
        """Every pairing of the odd crossings with its cost, cheapest first (the first is ``self.cheapest``)."""
        return sorted((sum(self.dist[a][b] for a, b in p), p) for p in pairings(self.odd))

    def _picture(self) -> Picture:
        fills = [DEPOT_FILL if v == self.depot else None for v in range(len(self.labels))]
        return Picture(self.pos, self.edges, self.labels, weights=[str(w) for w in self.weights], fills=fills,
                       centred_weights=True)

    def _task_text(self) -> str:
        return ("The image shows a road map; the number on each road is its length and the green vertex is the "
                "depot. A patrol starts at the depot, must travel along every road at least once and return to the "
                "depot. Give a shortest such patrol as the sequence of vertices it visits, from the depot back to "
                "the depot.")

    def _parse_answer(self, text: str):
        seq = parse_sequence(text, self.labels)
        return tuple(seq) if seq and len(seq) >= 2 else None

    def _length(self, walk) -> int | None:
        total, seen = 0, set()
        for u, v in zip(walk, walk[1:]):
            e = (min(u, v), max(u, v))
            if e not in self.w:
                return None
            total += self.w[e]
            seen.add(e)
        return total if len(seen) == len(self.w) else None

    def _check(self, answer) -> bool:
        return answer[0] == self.depot and answer[-1] == self.depot and self._length(answer) == self.best

    def _format(self, answer) -> str:
        return fmt_sequence(answer, self.labels)

    def _walk(self, pairing) -> tuple[int, ...]:
        """A closed walk from the depot over every road, repeating the roads of the pairing's paths."""
        out: dict[int, list[int]] = {}
        multi = list(self.edges)
        for a, b in pairing:
            while a != b:
                step = self.next[a][b]
                multi.append((min(a, step), max(a, step)))
                a = step
        for u, v in multi:
            out.setdefault(u, []).append(v)
            out.setdefault(v, []).append(u)
        for v in out:
            out[v].sort(reverse=True)
        return tuple(hierholzer(out, self.depot, undirected=True))

    def _solve(self):
        return self._walk(self.cheapest[1])

    def _near_misses(self, rng: np.random.Generator) -> list:
        out = [self._walk(p) for c, p in self.pairs[1:6] if c > self.cheapest[0]]
        sol = list(self._solution)
        for i in range(1, len(sol) - 1):
            out.append(tuple(sol[:i] + sol[i + 1:]))
            b = sol[:]
            b[i], b[i + 1] = b[i + 1], b[i]
            out.append(tuple(b))
        return out[:5] + [out[5 + int(j)] for j in rng.permutation(max(0, len(out) - 5))]


SPECS = (
    TaskSpec(name="PatrolWalk", version=1, entry_point=PatrolWalk, max_episode_steps=1,
             tags=("graph", "path", "weighted", "route-inspection")),
)
