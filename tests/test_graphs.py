"""Graph tasks (gymv_envs/domains/graphs): every solver against an independent brute force on small
levels, verifiers that take every optimal answer and refuse near misses, tolerant answer reading,
and the renderer's promises (vertices apart, labels inside the frame and clear of edges)."""

from __future__ import annotations

import itertools
import math

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs  # noqa: F401  (registers the ids)
from gymv_envs.core.vector import point_segment_distance
from gymv_envs.domains.graphs import (
    achromatic_number,
    graph_isomorphism,
    min_arborescence,
    spanning_tree_count,
    tree_colouring,
    tree_diameter_change,
    tree_even_partition,
    weighted_binary_tree,
)
from gymv_envs.domains.graphs._euler_solver import orient_mixed
from gymv_envs.domains.graphs._graphs import (
    adjacency,
    parse_edges,
    parse_int,
    parse_sequence,
    parse_set,
)
from gymv_envs.domains.graphs._render import Picture, render

nx = pytest.importorskip("networkx")
SEEDS = range(6)


VERSIONS = {"LongestPath": 1, "ChromaticNumber": 1, "GraphIsomorphism": 3, "EulerianCircuit": 2, "MaxClique": 2, "MaxFlow": 2,
            "MinArborescence": 2, "ShortestPath": 1, "MaxWeightMatching": 2,
            "PatrolWalk": 1}  # ids past v0
CENTRED = ("MaxFlow", "MinArborescence", "ShortestPath", "MaxWeightMatching", "PatrolWalk")  # weights drawn at their edges' middle


def level(name: str, seed: int, difficulty: int = 0, **kw):
    env = gym.make(f"GymV/{name}-v{VERSIONS.get(name, 0)}", difficulty=difficulty, **kw).unwrapped
    env.reset(seed=seed)
    return env


def graph_of(env) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(range(len(env.labels)))
    g.add_edges_from(env.edges)
    return g


def said(env, answer) -> bool:
    """Whether the env accepts ``answer`` given as text the way a model would write it."""
    return env.step(env._format(answer) if not isinstance(answer, str) else answer)[1] == 1.0


# ------------------------------------------------------------------ parsing
def test_parsers_read_common_spellings_and_refuse_prose():
    labels = list("ABCDEF")
    assert parse_sequence("A -> C -> F", labels) == [0, 2, 5]
    assert parse_sequence("[a, c, f]", labels) == [0, 2, 5]
    assert parse_sequence("the path is A C F", labels) is None
    assert parse_set("{F, A}", labels) == frozenset({0, 5})
    assert parse_set("A, A", labels) is None
    assert parse_edges("A-B, C-D", labels) == [(0, 1), (2, 3)]
    assert parse_edges("(A,B) (D,C)", labels) == [(0, 1), (3, 2)]
    assert parse_edges("A->B; B->E", labels) == [(0, 1), (1, 4)]
    assert parse_int("= 12.") == 12 and parse_int("1,234") == 1234
    assert parse_int("3 or 4") is None and parse_int("2.5") is None


# ------------------------------------------------------------------ renderer
@pytest.mark.parametrize("name", ["ShortestPath", "MaxFlow", "TreeColouring", "MaxIndependentSetGrid", "FBITree"])
def test_renderer_keeps_vertices_apart_and_labels_inside(name):
    for seed in SEEDS:
        for size in ((384, 384), (512, 512), (96, 128)):
            env = level(name, seed, difficulty=2, obs_size=size)
            frame, placed = render(env.obs_size, env._picture())
            H, W = env.obs_size
            c, r = placed.centers, placed.radius
            d = np.hypot(*(c[:, None] - c[None]).transpose(2, 0, 1))
            np.fill_diagonal(d, np.inf)
            assert d.min() >= 2.5 * r, "vertex discs too close"
            boxes = placed.label_boxes + [b for b in placed.weight_boxes if b is not None]
            for x0, y0, x1, y1 in boxes:
                assert 0 <= x0 and 0 <= y0 and x1 <= W and y1 <= H, "a label leaves the frame"
            for (x0, y0, x1, y1), (cx, cy) in zip(placed.label_boxes, c):  # labels inside their vertex
                assert np.hypot(max(abs(x0 - cx), abs(x1 - cx)), max(abs(y0 - cy), abs(y1 - cy))) <= r * 1.05


@pytest.mark.parametrize("name", ["ShortestPath", "MaxWeightMatching", "PatrolWalk", "MinArborescence"])
def test_weights_sit_clear_of_vertices_other_edges_and_each_other(name):
    clashes = total = 0
    for seed in range(12):
        env = level(name, seed, difficulty=2, obs_size=(384, 384))
        _, placed = render(env.obs_size, env._picture())
        boxes = [b for b in placed.weight_boxes if b is not None]
        total += len(boxes)
        for k, (x0, y0, x1, y1) in enumerate(boxes):
            mid = np.array([[(x0 + x1) / 2, (y0 + y1) / 2]])
            gap = np.hypot(*(placed.centers - mid).T).min() - placed.radius
            assert gap > 0, "a weight box covers a vertex's centre side"
            for bx in boxes[k + 1:]:
                clashes += bx[0] < x1 and bx[2] > x0 and bx[1] < y1 and bx[3] > y0
            others = np.delete(placed.segments, placed.weight_boxes.index((x0, y0, x1, y1)), axis=0)
            clashes += int((point_segment_distance(mid, others) < min(x1 - x0, y1 - y0) / 2).any())
    assert clashes <= 0.05 * total, f"{clashes} of {total} weights overlap another weight or edge"


def centred_weight_clashes(env) -> list[str]:
    """What the weight boxes of ``env``'s picture (at its obs size) touch: a vertex's disc or ring, an arrowhead,
    another weight's box, another edge's stroke (sampled every quarter pixel, with the stroke's half width)."""
    from gymv_envs.domains.graphs._render import _sizes

    pic = env._picture()
    _, placed = render(env.obs_size, pic)
    c, r = placed.centers, placed.radius
    width = _sizes(min(env.obs_size))[1]
    ring, alen, awide = max(1.0, r * 0.12), max(4.0, r * 0.75), max(3.0, r * 0.6)
    edges = np.asarray(pic.edges).reshape(-1, 2)
    heads = []  # each arrowhead's outline, sampled
    if pic.directed:
        for u, v in edges:
            unit = (c[v] - c[u]) / np.hypot(*(c[v] - c[u]))
            tip = c[v] - unit * (r + width * 0.6)
            base, side = tip - unit * alen, np.array([-unit[1], unit[0]]) * awide
            corners = [tip, base + side, base - side, tip]
            heads.append(np.concatenate([np.linspace(a, b, 200) for a, b in zip(corners, corners[1:])]))
    out = []
    boxes = placed.weight_boxes
    for k, b in enumerate(boxes):
        if b is None:
            continue
        lo, hi = np.array(b[:2], float), np.array(b[2:], float)

        def gap(p, lo=lo, hi=hi):  # distance from points p to the box (0 inside)
            return np.hypot(*np.maximum(np.maximum(lo - p, p - hi), 0).T)

        if (gap(c) <= r + ring / 2).any():
            out.append(f"weight {k} touches a vertex")
        if any((gap(h) <= 0).any() for h in heads):
            out.append(f"weight {k} touches an arrowhead")
        for j, o in enumerate(boxes):
            if j != k and o is not None and o[0] < b[2] and o[2] > b[0] and o[1] < b[3] and o[3] > b[1]:
                out.append(f"weight {k} overlaps weight {j}")
        for j, (x0, y0, x1, y1) in enumerate(placed.segments):
            if j != k and (gap(np.linspace((x0, y0), (x1, y1), 4 * int(np.hypot(x1 - x0, y1 - y0)) + 2))
                           <= width / 2).any():
                out.append(f"weight {k} touches edge {j}")
    return out


@pytest.mark.parametrize("name", CENTRED)
def test_centred_weights_touch_nothing(name):
    """Where the layout leaves room for every weight at its edge's middle (`label_room`), it touches nothing there."""
    for difficulty in (0, 1, 2):
        for seed in range(15):
            env = level(name, seed, difficulty=difficulty)
            assert not centred_weight_clashes(env), (name, difficulty, seed)


def test_edges_stop_at_vertex_rings_so_labels_are_never_crossed():
    for seed in SEEDS:
        env = level("ChromaticNumber", seed, difficulty=2, obs_size=(384, 384))
        _, placed = render(env.obs_size, env._picture())
        d = point_segment_distance(placed.centers, placed.segments)
        for k, (u, v) in enumerate(env.edges):
            d[u, k] = d[v, k] = np.inf  # its own ends
        assert d.min() > placed.radius, "an edge passes through a vertex"
        ends = np.concatenate([placed.segments[:, :2], placed.segments[:, 2:]])
        nearest = np.hypot(*(ends[:, None] - placed.centers[None]).transpose(2, 0, 1)).min(axis=1)
        assert nearest.min() >= 0.85 * placed.radius, "an edge runs into a vertex label"


def test_label_glyphs_are_drawn_on_a_clean_disc():
    """Inside a vertex, only label ink is drawn: the pixels there are background or ink shades."""
    env = level("ShortestPath", 1, difficulty=2, obs_size=(384, 384))
    pic = env._picture()
    pic.fills = None
    frame, placed = render(env.obs_size, pic)
    for (x0, y0, x1, y1) in placed.label_boxes:
        patch = frame[y0:y1, x0:x1].astype(int)
        spread = patch.max(axis=2) - patch.min(axis=2)  # grey shades only: background blended with ink
        assert spread.max() <= 12


def test_legible_sizes_at_384():
    env = level("ShortestPath", 0, difficulty=2, obs_size=(384, 384))
    _, placed = render(env.obs_size, env._picture())
    heights = [b[3] - b[1] for b in placed.weight_boxes if b is not None]
    assert placed.radius >= 12 and min(heights) >= 10


# ------------------------------------------------------------------ verifiers and solvers
def test_shortest_path_accepts_every_shortest_path_and_only_those():
    for seed in range(20):
        env = level("ShortestPath", seed, difficulty=1)
        if env.best is None:
            assert env._check(()) and not env._check(env._near_misses(np.random.default_rng(0))[0])
            continue
        paths = list(nx.all_shortest_paths(env.graph, env.start, env.goal, weight="weight"))
        for p in paths:
            assert env._check(tuple(p))
        longer = [p for p in nx.all_simple_paths(env.graph, env.start, env.goal, cutoff=6)
                  if nx.path_weight(env.graph, p, "weight") > env.best][:5]
        assert not any(env._check(tuple(p)) for p in longer)
        assert not env._check(())


def test_spanning_tree_count_matches_brute_force_and_kirchhoff():
    for seed in SEEDS:
        env = level("SpanningTreeCount", seed)
        n, edges = len(env.labels), env.edges
        brute = sum(1 for sub in itertools.combinations(edges, n - 1) if nx.is_tree(nx.Graph(list(sub))) and
                    len(nx.Graph(list(sub))) == n)
        laplacian = nx.laplacian_matrix(graph_of(env)).toarray()   # Kirchhoff: any cofactor of the Laplacian
        assert env.count == brute == round(np.linalg.det(laplacian[1:, 1:]))
    assert spanning_tree_count.spanning_trees(4, [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (1, 3)]) == 16  # K4


def test_tree_component_count_matches_networkx():
    for seed in SEEDS:
        env = level("TreeComponentCount", seed, difficulty=1)
        g = graph_of(env)
        assert env.count == sum(nx.is_tree(g.subgraph(c)) for c in nx.connected_components(g))


def test_max_clique_accepts_every_maximum_clique():
    for seed in SEEDS:
        env = level("MaxClique", seed, difficulty=1)
        best = [c for c in nx.find_cliques(graph_of(env)) if len(c) == env.size]
        assert all(env._check(frozenset(c)) for c in best)
        assert not env._check(frozenset(list(best[0])[:-1]))


def test_chromatic_and_achromatic_numbers_match_brute_force():
    for seed in SEEDS:
        env = level("ChromaticNumber", seed)
        n = len(env.labels)
        brute = min(k for k in range(1, n + 1) if any(all(c[u] != c[v] for u, v in env.edges)
                                                        for c in itertools.product(range(k), repeat=n)))
        assert env.chi == brute
        a = level("AchromaticNumber", seed)
        n = len(a.labels)
        best = 0
        for c in itertools.product(range(n), repeat=n):
            k = max(c) + 1
            if set(c) != set(range(k)) or any(c[u] == c[v] for u, v in a.edges):
                continue
            met = {(min(c[u], c[v]), max(c[u], c[v])) for u, v in a.edges}
            if len(met) == k * (k - 1) // 2:
                best = max(best, k)
        assert a.psi == best
    assert achromatic_number.set_partitions(5).shape[0] == 52  # Bell(5)


def test_hamiltonian_and_longest_paths_match_brute_force_and_accept_reversal():
    for seed in SEEDS:
        env = level("HamiltonianPath", seed)
        n = len(env.labels)
        g = graph_of(env)
        w = dict(zip(env.edges, env.weights))
        cost = lambda p, w=w: sum(w[tuple(sorted(e))] for e in zip(p, p[1:]))  # noqa: E731
        paths = [p for p in itertools.permutations(range(n)) if all(g.has_edge(*e) for e in zip(p, p[1:]))]
        best = min(cost(p) for p in paths)
        assert env.best == best
        assert all(env._check(p) for p in paths if cost(p) == best)
        assert not any(env._check(p) for p in paths if cost(p) > best)
        lp = level("LongestPath", seed)
        g = graph_of(lp)
        longest = max(len(p) for s in g for t in g if s != t for p in nx.all_simple_paths(g, s, t))
        assert len(lp.best) == longest
        assert lp._check(tuple(reversed(lp.best)))


def test_best_matching_agrees_with_networkx_and_brute_force():
    """The matching's dynamic program: where it names one optimum, networkx's blossom algorithm finds that same one;
    where it says there are several, a brute force finds several; its matching always has the largest total."""
    from gymv_envs.domains.graphs._graphs import planar_graph
    from gymv_envs.domains.graphs.max_weight_matching import SIZES, best_matching

    found = tied = 0
    for difficulty, (n, m) in SIZES.items():
        for seed in range(150 if difficulty == 2 else 60):
            rng = np.random.default_rng(seed)
            pos, edges = planar_graph(rng, n, m, weighted="undirected")
            w = {e: int(x) for e, x in zip(edges, rng.integers(1, 10, len(edges)))}
            g = nx.Graph()
            g.add_weighted_edges_from((u, v, x) for (u, v), x in w.items())
            fast, several = best_matching(pos, w)
            ends = [v for e in fast for v in e]
            assert len(ends) == len(set(ends)) and all(e in w for e in fast)
            blossom = frozenset(tuple(sorted(e)) for e in nx.max_weight_matching(g))
            assert sum(w[e] for e in fast) == sum(w[e] for e in blossom)
            if not several:
                found += 1
                assert fast == blossom
                continue
            tied += 1
            if n <= 8:
                totals = sorted((sum(w[e] for e in sub) for k in range(n // 2 + 1)
                                 for sub in itertools.combinations(edges, k)
                                 if len({v for e in sub for v in e}) == 2 * k), reverse=True)
                assert totals[0] == totals[1]
    assert found and tied


def test_matching_and_arborescence_match_brute_force():
    for seed in SEEDS:
        env = level("MaxWeightMatching", seed)
        best, optimal = 0, []
        for k in range(len(env.edges) + 1):
            for sub in itertools.combinations(env.edges, k):
                ends = [v for e in sub for v in e]
                if len(ends) == len(set(ends)):
                    t = sum(env.w[e] for e in sub)
                    if t > best:
                        best, optimal = t, [frozenset(sub)]
                    elif t == best:
                        optimal.append(frozenset(sub))
        assert env.best == best and all(env._check(m) for m in optimal)
        a = level("MinArborescence", seed)
        arcs = list(a.edges)
        n = len(a.labels)
        valid = [frozenset(s) for s in itertools.combinations(arcs, n - 1) if a._valid(frozenset(s))]
        assert a.best == min(sum(a.w[x] for x in s) for s in valid)
        assert all(a._check(s) for s in valid if sum(a.w[x] for x in s) == a.best)
    arcs = [(0, 1, 5), (0, 2, 1), (2, 1, 1), (1, 2, 1)]
    assert sorted(min_arborescence.edmonds(3, arcs, 0)) == [1, 2]


def test_max_flow_equals_the_smallest_cut():
    for seed in SEEDS:
        env = level("MaxFlow", seed, difficulty=1)
        n = len(env.labels)
        others = [v for v in range(n) if v not in (env.source, env.sink)]
        cut = min(sum(c for (u, v), c in env.caps.items() if u in side and v not in side)
                  for k in range(len(others) + 1) for rest in itertools.combinations(others, k)
                  for side in [{env.source, *rest}])
        assert env.flow == cut


def test_plain_solvers_agree_with_brute_force():
    """The solvers written out for speed (the patrol's cheapest pairing, the arborescence's existence) give what a
    full enumeration or Edmonds give, on many generated levels."""
    from gymv_envs.core.rng import level_generator
    from gymv_envs.domains.graphs import patrol_walk

    for difficulty in (0, 1, 2):
        patrol = gym.make("GymV/PatrolWalk-v1", difficulty=difficulty).unwrapped
        for seed in range(60):
            patrol._generate(level_generator(seed))
            assert patrol.cheapest == patrol.pairs[0]
            assert patrol.pairs[0] == min((sum(patrol.dist[a][b] for a, b in p), p)
                                          for p in patrol_walk.pairings(patrol.odd))
    rng = np.random.default_rng(0)
    for _ in range(300):  # random digraphs: an arborescence exists exactly where every vertex is reached
        n = int(rng.integers(3, 8))
        arcs = sorted({(int(u), int(v)) for u, v in rng.integers(0, n, (2 * n, 2)) if u != v})
        found = min_arborescence.edmonds(n, [(u, v, 1 + k % 5) for k, (u, v) in enumerate(arcs)], 0)
        assert (found is not None) == min_arborescence.reaches_all(n, arcs, 0)


def test_isomorphism_accepts_every_isomorphism():
    seen = set()
    for seed in range(12):
        env = level("GraphIsomorphism", seed, difficulty=1)
        seen.add(env.iso)
        g1, g2 = nx.Graph(env.left), nx.Graph(env.right)
        maps = list(nx.vf2pp_all_isomorphisms(g1, g2))
        assert bool(maps) == env.iso
        for m in maps:
            assert env._check(tuple(m[v] for v in range(len(env.labels))))
        assert env._check(graph_isomorphism.NONE) == (not env.iso)
        if env.iso:
            text = ", ".join(f"{a} -> {b + 1}" for a, b in zip(env.labels, env.mapping))
            assert env._parse_answer(text) == env.mapping
    assert seen == {True, False}


def test_eulerian_circuit_accepts_any_start_and_refuses_wrong_ways():
    for seed in SEEDS:
        env = level("EulerianCircuit", seed, difficulty=1)
        sol = list(env._solution)
        assert env._check(tuple(sol))
        for k in range(1, len(sol) - 1):  # the same circuit from another vertex
            assert env._check(tuple(sol[k:-1] + sol[:k] + [sol[k]]))
        assert not env._check(tuple(reversed(sol)))  # arcs backwards
    way = orient_mixed(3, [(0, 1)], [(1, 2), (0, 2)])
    assert sorted(way) == [(1, 2), (2, 0)]


def test_patrol_walk_optimum_matches_a_search_over_covered_roads():
    import heapq

    for seed in SEEDS:
        env = level("PatrolWalk", seed)
        m = len(env.edges)
        index = {e: k for k, e in enumerate(env.edges)}
        adj = adjacency(len(env.labels), env.edges)
        start = (env.depot, 0)
        dist, heap = {start: 0}, [(0, start)]
        while heap:  # Dijkstra over (vertex, roads covered so far)
            d, (v, mask) = heapq.heappop(heap)
            if (v, mask) == (env.depot, (1 << m) - 1):
                break
            if d > dist[(v, mask)]:
                continue
            for w in adj[v]:
                k = index[tuple(sorted((v, w)))]
                state = (w, mask | 1 << k)
                nd = d + env.weights[k]
                if nd < dist.get(state, math.inf):
                    dist[state] = nd
                    heapq.heappush(heap, (nd, state))
        assert env.best == d
        assert env._check(env._solution) and not env._check(env._solution[:-1])


def test_tree_solvers_match_brute_force():
    for seed in SEEDS:
        env = level("TreeColouring", seed, difficulty=1)
        n = len(env.labels)
        brute = max(tree_colouring.colouring_value(n, env.edges, env.weights, set(c))
                    for c in itertools.combinations(range(n), env.k))
        assert env.best == brute and env._check(env._solution)
        sol = set(env._solution)
        complement = frozenset(set(range(n)) - sol)
        assert env._check(complement) == (len(complement) == env.k)

        d = level("TreeDiameterChange", seed)
        n = len(d.labels)
        best = math.inf
        for cut in d.edges:
            rest = [e for e in d.edges if e != cut]
            for a, b in itertools.combinations(range(n), 2):
                g = nx.Graph(rest + [(a, b)])
                if len(g) == n and nx.is_tree(g):
                    best = min(best, nx.diameter(g))
        assert d.best == best
        assert tree_diameter_change.diameter(adjacency(n, d.edges), set(range(n))) == d.now

        t = level("TreeTopologicalOrders", seed)
        n = len(t.labels)
        orders = sum(1 for p in itertools.permutations(range(n))
                     if all(p.index(u) < p.index(v) for u, v in t.edges))
        assert t.count == orders

        e = level("EquidistantTriads", seed)
        g = graph_of(e)
        sp = dict(nx.all_pairs_shortest_path_length(g))
        assert e.count == sum(1 for a, b, c in itertools.combinations(g, 3) if sp[a][b] == sp[a][c] == sp[b][c])

        mis = level("MaxIndependentSetTree", seed)
        g = graph_of(mis)
        size = max(len(s) for k in range(len(g) + 1) for s in itertools.combinations(g, k)
                   if not any(g.has_edge(u, v) for u, v in itertools.combinations(s, 2)))
        assert mis.size == size and mis._check(mis.best)


def test_even_partition_cut_is_the_only_valid_one():
    for seed in SEEDS:
        env = level("TreeEvenPartition", seed)
        n = len(env.labels)
        valid = []
        for k in range(len(env.edges)):
            for cut in itertools.combinations(env.edges, k):
                g = nx.Graph([e for e in env.edges if e not in cut])
                g.add_nodes_from(range(n))
                if all(len(c) == env.k for c in nx.connected_components(g)):
                    valid.append(frozenset(cut))
        assert valid == [env.cut]
        assert env._parse_answer(", ".join(f"{env.labels[v]}-{env.labels[u]}" for u, v in env.cut)) == env.cut
    assert tree_even_partition.cut_edges(4, [(0, 1), (1, 2), (2, 3)], 2) == frozenset({(1, 2)})


def test_mis_on_grid_matches_brute_force():
    for seed in SEEDS:
        env = level("MaxIndependentSetGrid", seed)
        g = graph_of(env)
        best = max(len(s) for k in range(len(g) + 1) for s in itertools.combinations(g, k)
                   if not any(g.has_edge(u, v) for u, v in itertools.combinations(s, 2)))
        assert len(env.best) == best and env._check(env.best)


def test_weighted_binary_tree_accepts_every_optimal_tree():
    def trees(lo, hi):
        if lo > hi:
            yield []
            return
        for k in range(lo, hi + 1):
            for left in trees(lo, k - 1):
                for right in trees(k + 1, hi):
                    yield [k] + left + right

    for seed in SEEDS:
        env = level("WeightedBinaryTree", seed, difficulty=1)
        n = len(env.scores)
        scored = [(weighted_binary_tree.tree_score(env.scores, t), t) for t in trees(0, n - 1)]
        best = max(s for s, _ in scored)
        assert env.best == best
        assert all(env._check(tuple(t)) == (s == best) for s, t in scored)
    assert weighted_binary_tree.tree_score((5, 7, 1, 2, 10), [0, 2]) is None


def test_fbi_and_traversals():
    from gymv_envs.domains.graphs.fbi_tree import fbi_postorder
    from gymv_envs.domains.graphs.tree_traversal import traverse

    assert fbi_postorder("10001011") == "IBFBBBFIBFIIIFF"
    left, right = [1, -1, -1], [2, -1, -1]
    assert [traverse(left, right, 0, k) for k in ("pre-order", "in-order", "post-order")] == [[0, 1, 2], [1, 0, 2], [1, 2, 0]]
    env = level("FBITree", 3, difficulty=1)
    assert env._check(env._parse_answer(" ".join(env.answer))) and not env._check(env.answer[:-1] + "B")


def test_grid_largest_component_matches_scipy():
    ndimage = pytest.importorskip("scipy.ndimage")
    for seed in SEEDS:
        env = level("GridLargestComponent", seed, difficulty=2)
        labels, k = ndimage.label(env.grid)
        assert env.sizes[0] == max(np.bincount(labels.ravel())[1:])
        labels8, _ = ndimage.label(env.grid, structure=np.ones((3, 3)))
        assert env.diag == max(np.bincount(labels8.ravel())[1:])


@pytest.mark.parametrize("name", ["ShortestPath", "MaxWeightMatching", "TreeTraversal", "GraphIsomorphism"])
def test_near_misses_are_wrong_and_the_oracle_reply_is_right(name):
    for seed in SEEDS:
        env = level(name, seed, difficulty=1, answer_format="mcq")
        texts = env.options
        assert texts[env._correct_index] == env._format(env._solution)
        env2 = level(name, seed, difficulty=1)
        assert said(env2, env2._solution)


def test_picture_with_a_title_and_dashed_edges_draws():
    pic = Picture(np.array([[0, 0], [1, 0], [0.5, 1]]), [(0, 1), (1, 2)], ["A", "B", "C"], dashed=[True, False],
                  directed=[False, True], title="G")
    frame, placed = render((128, 128), pic)
    assert frame.std() > 0 and len(placed.label_boxes) == 3


# ------------------------------------------------------------------ oracles against plain re-computations (issue 15)
def test_max_clique_matches_a_brute_force_over_vertex_subsets():
    for difficulty in (0, 1, 2):
        for seed in range(4):
            env = level("MaxClique", seed, difficulty=difficulty)
            n = len(env.labels)
            adj = [1 << v for v in range(n)]  # each vertex's neighbours and itself, as a bit mask
            for a, b in env.edges:
                adj[a] |= 1 << b
                adj[b] |= 1 << a
            cliques = {m for m in range(1, 1 << n) if all(adj[v] & m == m for v in range(n) if m >> v & 1)}
            size = max(bin(m).count("1") for m in cliques)
            best = {frozenset(v for v in range(n) if m >> v & 1) for m in cliques if bin(m).count("1") == size}
            assert env.size == size and len(env._solution) == size and env._solution in best
            assert {c for c in env.cliques if len(c) == size} == best
            text = {m: ", ".join(env.labels[v] for v in range(n) if m >> v & 1) for m in range(1 << n)
                    if bin(m).count("1") == size}
            for m, t in text.items():  # every set of the maximum size: accepted exactly when it is a clique
                assert env._check(env._parse_answer(t)) == (m in cliques), (difficulty, seed, t)
            smaller = sorted(next(iter(best)))[1:]
            assert not env._check(env._parse_answer(", ".join(env.labels[v] for v in smaller)))


def in_order(children: dict, x: list, v: int) -> list:
    """Left subtree (children drawn left of ``v``), ``v``, then the right subtree."""
    left = [c for c in children[v] if x[c] < x[v]]
    right = [c for c in children[v] if x[c] > x[v]]
    return [w for c in left for w in in_order(children, x, c)] + [v] + [w for c in right for w in in_order(children, x, c)]


def test_tree_traversals_match_networkx_on_the_drawn_tree():
    asked = set()
    for difficulty in (0, 1, 2):
        for seed in range(4):
            env = level("TreeTraversal", seed, difficulty=difficulty)
            n, x = len(env.labels), [float(p[0]) for p in env.pos]
            children = {v: sorted((c for p, c in env.edges if p == v), key=lambda c: x[c]) for v in range(n)}
            (root,) = set(range(n)) - {c for _, c in env.edges}
            tree = nx.DiGraph()
            tree.add_nodes_from(range(n))
            tree.add_edges_from((v, c) for v in range(n) for c in children[v])  # left child first, as drawn
            assert nx.is_arborescence(tree) and all(len(cs) <= 2 for cs in children.values())

            orders = {"pre-order": list(nx.dfs_preorder_nodes(tree, root)), "in-order": in_order(children, x, root),
                      "post-order": list(nx.dfs_postorder_nodes(tree, root))}
            assert orders["in-order"] == sorted(range(n), key=lambda v: x[v])  # each vertex at its in-order place
            expected = orders[env.kind]
            asked.add(env.kind)
            assert list(env._solution) == expected, (difficulty, seed, env.kind)
            assert env._check(env._parse_answer(" ".join(env.labels[v] for v in expected)))
            for other in orders.values():
                if other != expected:
                    assert not env._check(env._parse_answer(" ".join(env.labels[v] for v in other)))
            swapped = expected[:]
            swapped[-2], swapped[-1] = swapped[-1], swapped[-2]
            assert not env._check(env._parse_answer(" ".join(env.labels[v] for v in swapped)))
    assert asked == {"pre-order", "in-order", "post-order"}


def test_fbi_tree_matches_the_definition_on_a_heap_of_halves():
    for difficulty in (0, 1, 2):
        for seed in range(4):
            env = level("FBITree", seed, difficulty=difficulty)
            bits, width = env.bits, len(env.bits)
            assert width == 2 ** (difficulty + 2) and set(bits) == {"0", "1"}
            label = [""] * (width - 1) + ["B" if b == "0" else "I" for b in bits]  # heap: i has 2i+1 and 2i+2
            for i in range(width - 2, -1, -1):
                pair = {label[2 * i + 1], label[2 * i + 2]}
                label[i] = pair.pop() if pair in ({"B"}, {"I"}) else "F"
            out, stack = [], [(0, False)]  # post-order without recursion
            while stack:
                i, done = stack.pop()
                if done or i >= width - 1:
                    out.append(label[i])
                else:
                    stack += [(i, True), (2 * i + 2, False), (2 * i + 1, False)]
            expected = "".join(out)
            assert len(expected) == 2 * width - 1 and expected[-1] == "F"
            assert env._solution == expected, (difficulty, seed, bits)
            assert env._check(env._parse_answer(" ".join(expected)))
            for i, c in itertools.product(range(len(expected)), "BFI"):  # every one-letter change refused
                if c != expected[i]:
                    assert not env._check(env._parse_answer(expected[:i] + c + expected[i + 1:]))


@pytest.mark.parametrize("n, m", sorted(graph_isomorphism.INVARIANT_DECIDES))
def test_graph_isomorphism_invariants_decide_where_the_generator_trusts_them(n, m):
    """GraphIsomorphism skips the VF2++ search at these sizes: over every connected graph of n vertices and m
    edges, two with equal degree invariants and triangle counts must be isomorphic."""
    import networkx as nx

    groups: dict = {}
    for edges in itertools.combinations(itertools.combinations(range(n), 2), m):
        g = nx.Graph(edges)
        if len(g) < n or not nx.is_connected(g):
            continue
        key = (str(graph_isomorphism._invariant(n, edges)), graph_isomorphism._triangles(n, edges))
        groups.setdefault(key, []).append(g)
    assert len(groups) > 1
    for graphs in groups.values():
        assert all(nx.is_isomorphic(graphs[0], g) for g in graphs[1:])
