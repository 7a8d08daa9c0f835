"""Graph isomorphism: map the vertices of one drawn graph onto another's so that edges match, or say none exists."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import BACKGROUND, GRID_LINE, fill_rect, new_frame
from gymv_envs.domains.graphs._circle_layout import circle_layouts
from gymv_envs.domains.graphs._graphs import (
    GraphQuestion,
    adjacency,
    bfs_hops,
    bitsets,
    random_tree,
    vertex_pairs,
)
from gymv_envs.domains.graphs._render import Picture, draw_graph, letters

SIZES = {0: (5, 6), 1: (6, 8), 2: (8, 11)}  # vertices, edges
INVARIANT_DECIDES = {(5, 6), (6, 8)}  # where equal `_invariant`s and `_triangles` mean isomorphic (all graphs checked)
NONE = ()
_NONE = re.compile(r"(?i)^\s*(?:not\s+isomorphic|no\s+isomorphism|none|no|impossible|no\s+mapping)\s*\.?$")
_PAIR = re.compile(r"([A-Za-z])\s*(?:=|->|→|:|-|to)?\s*(\d+)")


def _invariant(n: int, edges) -> list[tuple[int, ...]]:
    """Each vertex's degree and its neighbours' sorted degrees, sorted (equal in isomorphic graphs)."""
    nbrs: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        nbrs[u].append(v)
        nbrs[v].append(u)
    return sorted((len(a), *sorted(len(nbrs[w]) for w in a)) for a in nbrs)


def _triangles(n: int, edges) -> int:
    """The number of triangles, three times over (equal in isomorphic graphs)."""
    nb = bitsets(n, edges)
    return sum((nb[u] & nb[v]).bit_count() for u, v in edges)


@functools.lru_cache(maxsize=16)
def _pair_list(n: int) -> tuple[tuple[int, int], ...]:
    """`vertex_pairs` as tuples (a few small n: bounded)."""
    return tuple(map(tuple, vertex_pairs(n).tolist()))


class GraphIsomorphism(GraphQuestion):
    """Map one drawn graph onto another (an isomorphism), or say that they are not isomorphic.

    ## Description
    Two undirected graphs with the same number of vertices and edges are drawn side by side, the
    left one with letters, the right one with numbers. An isomorphism maps each letter to a
    different number so that two letters are joined exactly when their numbers are. The answer is
    such a mapping (any isomorphism is accepted), or ``not isomorphic``. A fair coin asks for an
    isomorphic level or one that differs by an exchange of edge ends keeping every degree (so the
    degree sequences match either way); when the exchange happens to give an isomorphic graph, the
    level is drawn again, so isomorphic levels are more common on small graphs (about 85% at
    difficulty 0, 65% at 1, 50% at 2).

    ## Action Space
    ``answer_format="open"``: `Text`, the mapping as ``A=3, B=1, ...`` (every letter once) or
    ``not isomorphic``. ``"mcq"``: `Discrete(k)`; wrong options are mappings with two images
    swapped, other bijections, and ``not isomorphic`` when the graphs are isomorphic.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the two graphs, each on a circle in a crossing-poor order.

    ## Rewards
    1.0 for a mapping that is an isomorphism, or ``not isomorphic`` when none exists, else 0.0.

    ## Starting State
    A random connected graph (a random tree plus edges) and a relabelled copy, or a copy with one
    degree-preserving edge swap that makes it non-isomorphic.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 vertices and 6 edges, 1: 6 and 8, 2: 8 and 11), ``answer_format``,
    ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: an isomorphic level's mapping is the relabelling that made the second graph (v0 searched one
      with VF2++), and a non-isomorphic one needs VF2++ only when the degree pairs of the edges' ends
      agree: the same levels up to which isomorphism the oracle gives, about 1.3x cheaper to generate.
    - v2: the extra edges are drawn in one go (a random subset of the pairs the tree leaves out, as
      before but with one random call instead of one a pair), the edge swap's tries too, and VF2++ runs
      only when every vertex's degree and neighbour degrees agree: the same kind of levels, other seeds.
    - v3: both graphs go to the renderer as one picture (each circle centred in its half as before, vertices
      and labels the same size; the 6-vertex circles are drawn about 13% smaller, no longer stretched to the
      full height), the circle orders of both graphs are drawn in one random call and connectivity is
      checked without networkx: the same graphs and answers for a seed, other circle orders; about 1.6x
      cheaper to draw and generate.
    """

    extras = ("graphs",)
    default_obs_size = (384, 640)
    answer_hint = "the mapping as `letter=number` pairs for every letter, or `not isomorphic`"

    def _generate(self, rng: np.random.Generator) -> None:
        import networkx as nx

        n, m = SIZES[self.difficulty]
        self.labels = letters(n)
        self.numbers = [str(i + 1) for i in range(n)]
        while True:
            tree = set(random_tree(rng, n))  # (each edge (u, v) with u < v)
            free = [p for p in _pair_list(n) if p not in tree]
            left = sorted(tree | {free[k] for k in rng.permutation(len(free))[:m - n + 1].tolist()})
            perm = rng.permutation(n).tolist()
            right = sorted(tuple(sorted((perm[u], perm[v]))) for u, v in left)
            self.iso = bool(rng.random() < 0.5)
            if self.iso:  # the relabelling is an isomorphism (and the copy of a connected graph is connected)
                mapping = dict(enumerate(perm))
                break
            right = self._swap(rng, n, right)
            if right is None:
                continue
            if len(bfs_hops(adjacency(n, right), 0)) < n:  # not connected
                continue
            if _invariant(n, left) != _invariant(n, right):  # an invariant differs: not isomorphic
                mapping = None
                break
            if (n, m) in INVARIANT_DECIDES and _triangles(n, left) == _triangles(n, right):  # isomorphic: drawn again
                continue
            g1, g2 = nx.Graph(), nx.Graph()  # (connected: every vertex is on an edge)
            g1.add_edges_from(left)
            g2.add_edges_from(right)
            mapping = nx.vf2pp_isomorphism(g1, g2)
            if mapping is None:
                break
        self.left, self.right = left, right
        self.right_set = set(right)
        self.mapping = tuple(mapping[v] for v in range(n)) if mapping else NONE
        both = np.array([left, right], dtype=np.intp)
        self.pos = circle_layouts(rng, n, both)  # (2, n, 2): the left graph's, then the right one's
        both[1] += n  # one picture: the right graph's vertices after the left one's
        self.edges_both = both.reshape(-1, 2)
        self.names = self.labels + self.numbers

    @staticmethod
    def _swap(rng, n, edges):
        """Edges (a, b), (c, d) become (a, d), (c, b): degrees stay, the graph usually changes."""
        es = list(edges)
        have = set(es)
        picks = rng.integers(len(es), size=(30, 2)).tolist()
        flips = (rng.random(30) < 0.5).tolist()
        for (i, j), flip in zip(picks, flips):
            (a, b), (c, d) = es[i], es[j]
            if flip:
                c, d = d, c
            new = {tuple(sorted((a, d))), tuple(sorted((c, b)))}
            if len({a, b, c, d}) == 4 and not new & have:
                rest = [e for k, e in enumerate(es) if k not in (i, j)]
                return sorted(rest + sorted(new))
        return None

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        img = new_frame(H, W, BACKGROUND)
        fill_rect(img, W / 2 - max(1, W // 400), H * 0.05, W / 2 + max(1, W // 400), H * 0.95, GRID_LINE)
        # both graphs as one picture (one pass of the renderer), each circle centred in its half: the box is as
        # high as a half is wide (so vertices are sized as for a half), the circles 1.15 half-widths apart
        side = min(W / 2, H)
        shift = np.array([[[-1.15 * W / (2 * side), 0.0]], [[1.15 * W / (2 * side), 0.0]]])
        draw_graph(img, Picture((self.pos + shift).reshape(-1, 2), self.edges_both, self.names),
                   (0, (H - side) / 2, W, (H + side) / 2))
        return img

    def _state_text(self) -> str:
        fmt = lambda names, es: ", ".join(f"{names[u]}-{names[v]}" for u, v in es)  # noqa: E731
        return f"left: {fmt(self.labels, self.left)}\nright: {fmt(self.numbers, self.right)}"

    def _task_text(self) -> str:
        return ("The image shows two undirected graphs: the left one has lettered vertices, the right one numbered "
                "vertices. Map every letter to a different number so that two letters are joined by an edge "
                "exactly when their numbers are. Give the mapping, or answer `not isomorphic` if no such mapping "
                "exists.")

    def _parse_answer(self, text: str):
        if _NONE.match(text):
            return NONE
        t = text.strip().strip("{}[]().")
        pairs = _PAIR.findall(t)
        n = len(self.labels)
        if len(pairs) != n or re.sub(r"[\s,;{}()\[\]'\"]|=|->|→|:|-|to|[A-Za-z]|\d", "", t):
            return None
        got = {}
        for letter, num in pairs:
            a, b = letter.upper(), int(num) - 1
            if a not in self.labels or not 0 <= b < n or a in got:
                return None
            got[a] = b
        image = tuple(got[x] for x in self.labels)
        return image if len(set(image)) == n else None

    def _check(self, answer) -> bool:
        if answer == NONE:
            return not self.iso
        return self.iso and all(tuple(sorted((answer[u], answer[v]))) in self.right_set for u, v in self.left)

    def _format(self, answer) -> str:
        if answer == NONE:
            return "not isomorphic"
        return ", ".join(f"{a}={self.numbers[b]}" for a, b in zip(self.labels, answer))

    def _solve(self):
        return self.mapping

    def _near_misses(self, rng: np.random.Generator) -> list:
        n = len(self.labels)
        base = list(self.mapping) if self.iso else [int(v) for v in rng.permutation(n)]
        out = [] if not self.iso else [NONE]
        for i, j in zip(rng.integers(0, n, 40), rng.integers(0, n, 40)):
            if i != j:
                b = base[:]
                b[i], b[j] = b[j], b[i]
                out.append(tuple(b))
        out += [tuple(int(v) for v in rng.permutation(n)) for _ in range(6)]
        return out


SPECS = (
    TaskSpec(name="GraphIsomorphism", version=3, entry_point=GraphIsomorphism, max_episode_steps=1,
             tags=("graph", "isomorphism", "matching")),
)
