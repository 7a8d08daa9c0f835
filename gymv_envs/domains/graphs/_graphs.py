"""Shared parts of the graph tasks: random graphs laid out to be drawn cleanly, answer parsing, a base env.

Generators build the graph *from* a layout, so the picture is clean by construction:
`planar_graph` picks short non-crossing edges between `spread_points` (a spanning tree first,
so it is connected), `random_tree` attaches vertices one by one. Parsers read vertex sequences
(``A C F``, ``A -> C -> F``), vertex sets (``{A, C}``), edge lists (``A-B, C-D``, ``A->B``),
mappings (``A=3, B=1``) and integers, strictly: a candidate that is anything else is unreadable,
so the base's candidate extraction (``Answer: ...``, ``<answer>``) does the rest.
`GraphQuestion` draws the level's `Picture` once and keeps where its vertices went.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

import numpy as np

from gymv_envs.core import SingleTurnEnv
from gymv_envs.core.vector import (
    point_pairs,
    squared_distance_from_offsets,
    squared_segment_distance,
)
from gymv_envs.domains.graphs._render import (
    Picture,
    Placed,
    label_room,
    letters,
    render,
    spread_points,
)

Edge = tuple[int, int]
_SEP = r"[\s,;|/]*(?:->|-->|=>|→|–|—|-|>)?[\s,;|/]*"
_INT = re.compile(r"[-+]?\d+")


# ------------------------------------------------------------------ generation
def planar_graph(rng: np.random.Generator, n: int, m: int, aspect: float = 1.0, slack: float = 1.5,
                 max_len: float = 2.3, weighted: str | None = None) -> tuple[np.ndarray, list[Edge]]:
    """A connected graph on ``n`` points with up to ``m`` edges, none crossing and none passing close
    to a vertex, preferring short edges (so it looks like a road map). Returns (positions, edges).
    ``weighted`` ("directed" or "undirected"): every edge leaves room for a one-digit weight at its middle
    (`label_room`), for a picture drawn with ``centred_weights``."""
    for _ in range(50 if weighted is None else 200):
        pos = spread_points(rng, n, aspect, slack)
        if weighted is None:
            edges = planar_edges(rng, pos, m, max_len)
        else:
            edges = pick_planar(rng, planar_candidates(pos, max_len, None, weighted), m)
        if edges is not None:
            return pos, edges
    raise RuntimeError("planar_graph: no connected layout found")  # pragma: no cover


@functools.lru_cache(maxsize=64)
def vertex_pairs(n: int) -> np.ndarray:
    """The pairs ``i < j`` of ``n`` vertices (`point_pairs`) as a read-only (p, 2) array."""
    pairs = np.stack(point_pairs(n), axis=1)
    pairs.setflags(write=False)
    return pairs


@functools.lru_cache(maxsize=64)
def pair_index(n: int) -> np.ndarray:
    """(n, n) read-only: the row of `vertex_pairs` holding each pair of distinct vertices (0 on the diagonal)."""
    pairs = vertex_pairs(n)
    index = np.zeros((n, n), dtype=np.intp)
    index[pairs[:, 0], pairs[:, 1]] = index[pairs[:, 1], pairs[:, 0]] = np.arange(len(pairs))
    index.setflags(write=False)
    return index


def planar_edges(rng: np.random.Generator, pos: np.ndarray, m: int, max_len: float = 2.3,
                 geometry: PairGeometry | None = None) -> list[Edge] | None:
    """Up to ``m`` non-crossing edges among ``pos``, a spanning tree first; None if it cannot connect.
    ``geometry``: `pair_geometry(pos)` where the caller has it already."""
    return pick_planar(rng, planar_candidates(pos, max_len, geometry), m)


@functools.lru_cache(maxsize=64)
def _bit_weights(k: int) -> np.ndarray:
    """``2 ** j`` for j < k (k <= 64) as uint64: a (k, k) bool matrix times it gives each row's bits as a word
    (cached for every k: 17 KB in all)."""
    w = np.left_shift(np.uint64(1), np.arange(k, dtype=np.uint64))
    w.setflags(write=False)
    return w


def _segments(x: np.ndarray, y: np.ndarray, iu: np.ndarray, ju: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per pair: the (x, y) of its first end and the step (dx, dy) to its second end."""
    ax, ay = x[iu], y[iu]
    return ax, ay, x[ju] - ax, y[ju] - ay


def _clearance(x: np.ndarray, y: np.ndarray, iu: np.ndarray, ju: np.ndarray, ax: np.ndarray, ay: np.ndarray,
               dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """Per segment (from vertex ``iu`` at (``ax``, ``ay``) along (``dx``, ``dy``) to vertex ``ju``): the distance
    to the nearest of the points (``x``, ``y``) but its own ends (the square root of the least square: the same bits
    as the least root)."""
    return _clearance_from(x[:, None] - ax, y[:, None] - ay, iu, ju, dx, dy)


def _clearance_from(rx: np.ndarray, ry: np.ndarray, iu: np.ndarray, ju: np.ndarray, dx: np.ndarray,
                    dy: np.ndarray) -> np.ndarray:
    """`_clearance` from the points' offsets (``rx``, ``ry``: each point less each segment's first end; both are
    overwritten)."""
    rx = squared_distance_from_offsets(rx, ry, dx, dy, np.maximum(dx * dx + dy * dy, 1e-12))
    cols = np.arange(len(iu))
    rx[iu, cols] = np.inf
    rx[ju, cols] = np.inf
    return np.sqrt(rx.min(axis=0))


class PairGeometry(NamedTuple):
    """For the pairs of `vertex_pairs(n)` of some points: their ``length`` and ``clearance``, the distance from
    the pair's segment to the nearest other point; ``segments``, the (x, y) of each pair's first end and the
    step to its second end."""

    length: np.ndarray
    clearance: np.ndarray
    segments: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def pair_geometry(pos: np.ndarray) -> PairGeometry:
    """`PairGeometry` of the points ``pos``."""
    iu, ju = point_pairs(len(pos))
    x, y = pos[:, 0], pos[:, 1]
    ax, ay, dx, dy = _segments(x, y, iu, ju)
    return PairGeometry(np.hypot(dx, dy), _clearance(x, y, iu, ju, ax, ay, dx, dy), (ax, ay, dx, dy))


@dataclass(frozen=True)
class PlanarCandidates:
    """The pairs of some points that `planar_edges` may join (short, passing no other point closely):
    their ends ``iu``/``ju``, lengths, and which cross (bit j of ``cross[k]``: pairs k and j cross).
    It depends on the points only, so several graphs can be drawn on one layout cheaply."""

    n: int
    iu: list[int]
    ju: list[int]
    length: np.ndarray
    cross: list[int]


def planar_candidates(pos: np.ndarray, max_len: float = 2.3, geometry: PairGeometry | None = None,
                      weighted: str | None = None) -> PlanarCandidates:
    """``weighted``: only pairs with room for a weight's box at their middle (clear of every
    vertex's zone, `label_room`), and two pairs also conflict (as if they crossed) where one's box would come near
    the other's line or box (only without ``geometry``: the filter runs before the clearance is found)."""
    if weighted is not None and geometry is not None:
        raise ValueError("planar_candidates: weighted= works out its own pair geometry; pass geometry=None")
    n = len(pos)
    iu, ju = point_pairs(n)
    x, y = pos[:, 0], pos[:, 1]
    if geometry is None:  # the clearance of the short pairs only
        ax, ay, dx, dy = _segments(x, y, iu, ju)
        length = np.hypot(dx, dy)
        short = length <= max_len
        if weighted is not None:
            hd, zone, gap, bw, bh = label_room(pos, float(length.min()), weighted == "directed")
            short &= length >= 2 * (hd + zone)  # a box at the middle clear of both ends' zones
            # and clear of every other vertex's zone (tested first: fewer pairs to find the clearance of)
            mx, my = ax + dx / 2, ay + dy / 2
            short &= ((x[:, None] - mx) ** 2 + (y[:, None] - my) ** 2).min(axis=0) >= (hd + zone) ** 2
        near = short.nonzero()[0]
        iu, ju, ax, ay, dx, dy, length = iu[near], ju[near], ax[near], ay[near], dx[near], dy[near], length[near]
        if weighted is not None:
            mx, my = mx[near], my[near]
        rx, ry = x[:, None] - ax, y[:, None] - ay
        # the side of every point from every pair's line (the arithmetic of `segments_cross`, so the same bits)
        side = dx * ry
        side -= dy * rx
        ok = _clearance_from(rx, ry, iu, ju, dx, dy) > 0.28
    else:
        length, (ax, ay, dx, dy) = geometry.length, geometry.segments
        ok = (length <= max_len) & (geometry.clearance > 0.28)
        side = None
    keep = ok.nonzero()[0]
    iu, ju, ax, ay, dx, dy = iu[keep], ju[keep], ax[keep], ay[keep], dx[keep], dy[keep]
    side = np.sign(dx * (y[:, None] - ay) - dy * (x[:, None] - ax) if side is None else side[:, keep])
    cross = side[iu] * side[ju] < 0  # [j, k]: the ends of k lie on either side of j's line
    cross &= cross.T  # ... and those of j on either side of k's: they cross
    if weighted is not None:
        mx, my = mx[keep], my[keep]  # [j, k]: k's box near j's line, or the two boxes overlapping
        near = squared_segment_distance(mx[None, :], my[None, :], ax[:, None], ay[:, None], dx[:, None], dy[:, None],
                                        (dx * dx + dy * dy)[:, None]) < (hd + gap) ** 2
        near |= (np.abs(mx[:, None] - mx) < bw) & (np.abs(my[:, None] - my) < bh)
        near.ravel()[::len(near) + 1] = False  # (the diagonal)
        cross |= near | near.T
    k = len(keep)
    if k <= 64:  # each row's bits as one 64-bit word, read as Python ints
        words = (cross @ _bit_weights(k)).tolist()
    else:
        packed = np.packbits(cross, axis=1, bitorder="little")
        raw, w = packed.tobytes(), packed.shape[1]
        words = [int.from_bytes(raw[i:i + w], "little") for i in range(0, len(raw), w)]
    return PlanarCandidates(n, iu.tolist(), ju.tolist(), length[keep], words)


def pick_planar(rng: np.random.Generator, cand: PlanarCandidates, m: int) -> list[Edge] | None:
    """Up to ``m`` non-crossing edges among the candidates, preferring short ones (randomly weighted), a
    spanning tree first; None if they cannot connect the points."""
    n, iu, ju, cross = cand.n, cand.iu, cand.ju, cand.cross
    order = np.argsort(cand.length * rng.uniform(0.75, 1.3, len(iu))).tolist()
    parent = list(range(n))
    chosen, bits, need = [], 0, n - 1
    for k in order:  # a spanning tree of short edges first
        if cross[k] & bits:
            continue
        a = iu[k]  # the roots of both ends (halving the paths on the way)
        while parent[a] != a:
            parent[a] = a = parent[parent[a]]
        b = ju[k]
        while parent[b] != b:
            parent[b] = b = parent[parent[b]]
        if a != b:
            parent[a] = b
            chosen.append(k)
            bits |= 1 << k
            if len(chosen) == need:  # connected: no later pair joins two parts
                break
    if len(chosen) < need:
        return None
    for k in order:
        if len(chosen) >= m:
            break
        if not (cross[k] | 1 << k) & bits:
            chosen.append(k)
            bits |= 1 << k
    return sorted((iu[k], ju[k]) for k in chosen)


def add_short_edges(rng: np.random.Generator, pos: np.ndarray, edges: Sequence[Edge], extra: int,
                    max_len: float = 1.9, gap: float = 0.3, geometry: PairGeometry | None = None) -> list[Edge]:
    """``edges`` plus up to ``extra`` more short ones (they may cross, but never pass within ``gap`` of a
    vertex). ``geometry``: `pair_geometry(pos)` where the caller has it already."""
    have = set(edges)
    length, clearance, _ = pair_geometry(pos) if geometry is None else geometry
    iu, ju = point_pairs(len(pos))
    ok = np.flatnonzero((clearance > gap) & (length <= max_len))
    fresh = [p for p in zip(iu[ok].tolist(), ju[ok].tolist()) if p not in have]
    pick = rng.permutation(len(fresh))[:extra].tolist()
    return sorted(have | {fresh[k] for k in pick})


def bitsets(n: int, edges: Sequence[Edge]) -> list[int]:
    """Neighbourhoods as bit masks."""
    nb = [0] * n
    for u, v in edges:
        nb[u] |= 1 << v
        nb[v] |= 1 << u
    return nb


def reach(nb: Sequence[int], start: int) -> int:
    """The vertices reached from the bit mask ``start`` along the neighbour (or successor) masks ``nb``, as a
    bit mask (``start`` included)."""
    seen = frontier = start
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        new = nb[low.bit_length() - 1] & ~seen
        seen |= new
        frontier |= new
    return seen


def colourable(nb: Sequence[int], k: int) -> list[int] | None:
    """A proper colouring with colours 0..k-1 (vertices by decreasing degree, backtracking), or None."""
    n = len(nb)
    order = sorted(range(n), key=lambda v: -bin(nb[v]).count("1"))
    colour = [-1] * n
    members = [0] * k  # the vertices of each colour, as a bit mask

    def place(i: int, used: int) -> bool:
        if i == n:
            return True
        v = order[i]
        near, bit = nb[v], 1 << v
        for c in range(min(k, used + 1)):  # a new colour only as the next unused one: no symmetric retries
            if not near & members[c]:  # no neighbour has colour c
                colour[v] = c
                members[c] |= bit
                if place(i + 1, max(used, c + 1)):
                    return True
                members[c] ^= bit
        colour[v] = -1
        return False

    return colour if place(0, 0) else None


def chromatic_number(nb: Sequence[int], least: int = 1) -> tuple[int, list[int]]:
    """The chromatic number and a colouring that achieves it (exact search); ``least``: a bound known to hold
    (a clique of that size), so fewer colours are not tried."""
    for k in range(max(1, least), len(nb) + 1):
        col = colourable(nb, k)
        if col is not None:
            return k, col
    return 0, []


def random_tree(rng: np.random.Generator, n: int, max_children: int = 3) -> list[Edge]:
    """A random tree on 0..n-1 rooted at 0: each new vertex hangs under an earlier one with room."""
    kids = [0] * n
    edges = []
    for v in range(1, n):
        options = [u for u in range(v) if kids[u] < max_children]
        u = options[int(rng.integers(len(options)))]
        kids[u] += 1
        edges.append((u, v))
    return edges


def tree_positions(n: int, edges: Sequence[Edge], root: int = 0) -> np.ndarray:
    """A tree hung from ``root`` and drawn as a tree (layers, children under their parent)."""
    from gymv_envs.domains.graphs._render import rooted_children, tree_layout

    return tree_layout(rooted_children(n, edges, root), root)


def tree_parents(n: int, edges: Sequence[Edge], root: int = 0) -> tuple[list[int], list[int]]:
    """(parent of each vertex, -1 for the root; vertices in BFS order from the root)."""
    adj = adjacency(n, edges)
    parent, order = [-1] * n, [root]
    seen = {root}
    for v in order:
        for w in sorted(adj[v]):
            if w not in seen:
                seen.add(w)
                parent[w] = v
                order.append(w)
    return parent, order


def adjacency(n: int, edges: Sequence[Edge]) -> list[set[int]]:
    adj: list[set[int]] = [set() for _ in range(n)]
    for u, v in edges:
        adj[u].add(v)
        adj[v].add(u)
    return adj


def bfs_hops(adj: Sequence[set[int]], src: int) -> dict[int, int]:
    """Edges from ``src`` to every vertex it reaches."""
    dist, frontier = {src: 0}, [src]
    while frontier:
        nxt = []
        for v in frontier:
            for w in adj[v]:
                if w not in dist:
                    dist[w] = dist[v] + 1
                    nxt.append(w)
        frontier = nxt
    return dist


def relabel(rng: np.random.Generator, n: int, edges: Sequence[Edge]) -> list[Edge]:
    """The same graph with its vertices shuffled (so vertex A is not always the first one generated)."""
    perm = rng.permutation(n)
    return sorted(tuple(sorted((int(perm[u]), int(perm[v])))) for u, v in edges)


# ------------------------------------------------------------------ parsing
def _label_pattern(labels: Sequence[str]) -> str:
    return "|".join(sorted((re.escape(x) for x in labels), key=len, reverse=True))


@functools.lru_cache(maxsize=64)
def _sequence_reader(labels: tuple[str, ...]) -> tuple[re.Pattern, re.Pattern, dict[str, int]]:
    """(whole-text pattern, one-name pattern, index of each upper-cased name) for vertex names ``labels``."""
    pat = _label_pattern(labels)
    return (re.compile(rf"(?:{pat})(?:{_SEP}(?:{pat}))*"),
            re.compile(rf"(?<![A-Z0-9])(?:{pat})(?![A-Z0-9])|(?:{pat})"),
            {x.upper(): i for i, x in enumerate(labels)})


def parse_sequence(text: str, labels: Sequence[str]) -> list[int] | None:
    """Vertex names in order (``A C F``, ``A -> C -> F``, ``[A, C, F]``); None unless the text is only that."""
    t = text.strip().strip("[](){}<>.").strip().upper()
    if not t or len(t) > 4000:
        return None
    whole, name, index = _sequence_reader(tuple(labels))
    if not whole.fullmatch(t):
        return None
    return [index[x] for x in name.findall(t)]


def parse_set(text: str, labels: Sequence[str]) -> frozenset[int] | None:
    """A set of vertex names (``A, C, F`` or ``{A, C, F}``); None when a name repeats or it is not only names."""
    seq = parse_sequence(text.replace("{", "").replace("}", ""), labels)
    if seq is None or len(set(seq)) != len(seq):
        return None
    return frozenset(seq)


def parse_edges(text: str, labels: Sequence[str]) -> list[Edge] | None:
    """Edges as pairs of names: ``A-B, C-D``, ``(A,B) (C,D)``, ``A->B; C->D``; order inside a pair kept."""
    t = text.strip().strip("[]{}.").strip()
    if not t or len(t) > 4000:
        return None
    # All the names in order, read in pairs; where that reads, a reading group by group finds the same names.
    flat = parse_sequence(t.replace("(", " ").replace(")", " "), labels)
    if flat is not None:
        return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)] if len(flat) % 2 == 0 else None
    groups = [g for g in re.split(r"\)\s*[,;]?\s*\(|[,;\n]\s*(?![^()]*\))", t.strip("()")) if g.strip()]
    out = []
    for g in groups:
        seq = parse_sequence(g.strip().strip("()"), labels)
        if seq is None or len(seq) != 2:
            return None
        out.append((seq[0], seq[1]))
    return out


def parse_int(text: str) -> int | None:
    """The one integer a candidate states (``12``, ``= 12``, ``12.``); None for several or none."""
    t = text.strip()
    if len(t) > 200:
        return None
    nums = _INT.findall(t.replace(",", ""))
    if len(nums) != 1 or re.search(r"\d\.\d", t):
        return None
    return int(nums[0])


def fmt_sequence(seq: Sequence[int], labels: Sequence[str]) -> str:
    return " ".join(labels[v] for v in seq)


def fmt_set(items, labels: Sequence[str]) -> str:
    return ", ".join(labels[v] for v in sorted(items))


def fmt_edges(edges: Sequence[Edge], labels: Sequence[str], arrow: str = "-") -> str:
    return ", ".join(f"{labels[u]}{arrow}{labels[v]}" for u, v in edges)


# ------------------------------------------------------------------ base env
class GraphQuestion(SingleTurnEnv):
    """Base of the graph tasks: ``_picture()`` says what to draw (once per level); the vertex names
    are ``self.labels``; ``self.placed`` keeps where `draw_graph` put the vertices (for tests)."""

    default_obs_size: ClassVar[tuple[int, int]] = (512, 512)
    labels: list[str]
    placed: Placed | None = None

    def _picture(self) -> Picture:
        raise NotImplementedError

    def _draw(self) -> np.ndarray:
        frame, self.placed = render(self.obs_size, self._picture())
        return frame

    def _name_labels(self, n: int) -> None:
        self.labels = letters(n)

    def _state_text(self) -> str | None:
        """The drawn graph as text (vertices, then edges with their weights), for text-only ablations."""
        edges = getattr(self, "edges", None)
        if edges is None:
            return None
        weights = getattr(self, "weights", None)
        arrow = "->" if getattr(self, "directed", False) else "-"
        parts = [f"{self.labels[u]}{arrow}{self.labels[v]}" + (f":{weights[k]}" if weights is not None else "")
                 for k, (u, v) in enumerate(edges)]
        return f"vertices: {' '.join(self.labels)}\nedges: {', '.join(parts)}"


class CountQuestion(GraphQuestion):
    """A graph task whose answer is one integer, ``self.count`` (read, checked exactly, and solved)."""

    count: int

    def _parse_answer(self, text: str):
        return parse_int(text)

    def _check(self, answer) -> bool:
        return answer == self.count

    def _solve(self) -> int:
        return self.count


def int_near_misses(rng: np.random.Generator, value: int, *similar: int, low: int = 0) -> list[int]:
    """Wrong integers for an MCQ: the semantically similar values first, then off-by-one and -two."""
    out = [v for v in similar if v != value and v >= low]
    for d in (1, -1, 2, -2, 3, -3, 4, 5, -4, 6):
        if value + d >= low:
            out.append(value + d)
    return out
