"""Geometry tasks (gymv_envs/domains/geometry): exact solvers against scipy.spatial and brute force,
verifiers that take every valid answer (any rotation or direction of a hull, any optimal set,
coordinates within the stated tolerance, exact rationals in either spelling) and refuse near
misses, and the plot renderer's labels staying inside the frame."""

from __future__ import annotations

import itertools
from fractions import Fraction

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs  # noqa: F401  (registers the ids)
from gymv_envs.domains.geometry import (
    convex_hull,
    largest_island,
    smallest_circle,
    visible_lines,
)
from gymv_envs.domains.geometry._common import (
    fmt_exact,
    parse_exact,
    parse_letter_set,
    parse_numbers,
    shoelace2,
)
from gymv_envs.domains.geometry._plot import Plot, centres_px, distinct_points
from gymv_envs.domains.geometry._tangram import PIECES, congruent_by_turning, rotate, shape_key

SEEDS = range(6)


def cross(a, b) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def latest(name: str) -> str:
    """The registered id of ``name`` at its highest version."""
    return max((k for k in gym.registry if k.rsplit("-v", 1)[0] == f"GymV/{name}"), key=lambda k: int(k.rsplit("-v", 1)[1]))


def level(name: str, seed: int, difficulty: int = 0, **kw):
    env = gym.make(latest(name), difficulty=difficulty, **kw).unwrapped
    env.reset(seed=seed)
    return env


def test_parsers():
    assert parse_exact("35/2") == parse_exact("17.5") == Fraction(35, 2)
    assert parse_exact("about 17 or 18") is None
    assert fmt_exact(Fraction(35, 2)) == "17.5" and fmt_exact(Fraction(10, 3)) == "10/3"
    assert parse_numbers("centre (3.5, 2.25), radius 4.1", 3) == [3.5, 2.25, 4.1]
    assert parse_letter_set("{C, A}", 5) == frozenset({0, 2}) and parse_letter_set("A, F", 5) is None
    assert parse_letter_set("none", 5) == frozenset()


def test_convex_hull_matches_scipy_and_accepts_any_start_and_direction():
    spatial = pytest.importorskip("scipy.spatial")
    for seed in SEEDS:
        env = level("ConvexHull", seed, difficulty=2)
        assert set(env.corners) == set(spatial.ConvexHull(env.pts.astype(float)).vertices)
        c = list(env.corners)
        for k in range(len(c)):
            assert env._check(tuple(c[k:] + c[:k])) and env._check(tuple((c[k:] + c[:k])[::-1]))
        assert not env._check(tuple(c[:-1]))
        assert not env._check(tuple([c[1], c[0]] + c[2:]))
    pts = np.array([[0, 0], [2, 0], [4, 0], [4, 4], [0, 4], [1, 1]])
    assert sorted(convex_hull.hull(pts)) == [0, 2, 3, 4]  # (2, 0) lies on an edge: not a corner


def test_smallest_circle_is_minimal_and_the_tolerance_is_what_it_says():
    for seed in SEEDS:
        env = level("SmallestCircle", seed, difficulty=2)
        x, y, r = env.circle
        p = env.pts.astype(float)
        assert (np.hypot(p[:, 0] - x, p[:, 1] - y) <= r + 1e-9).all()
        # no smaller circle with a centre on a fine grid contains every point
        gx, gy = np.meshgrid(np.linspace(0, 10, 201), np.linspace(0, 10, 201))
        reach = np.sqrt(((np.stack([gx, gy], -1)[:, :, None, :] - p) ** 2).sum(-1)).max(-1)
        assert reach.min() >= r - 1e-9
        assert env._check((x + 0.04, y - 0.04, r + 0.04)) and not env._check((x, y, r + 0.1))
        assert env._check(env._parse_answer(f"x = {x:.2f}, y = {y:.2f}, r = {r:.2f}"))
    assert smallest_circle.enclosing_circle(np.array([[0, 0], [4, 0]])) == (2.0, 0.0, 2.0)


def test_largest_rectangle_accepts_any_largest():
    for seed in SEEDS:
        env = level("LargestRectangle", seed, difficulty=1)
        best = env.rects[0]
        for a, corners in env.rects:
            assert env._check(corners) == (a == best[0])
        assert env._check(env._parse_answer(", ".join(env.labels[i] for i in sorted(best[1], reverse=True))))


def test_triangle_areas_and_islands_are_exact():
    for seed in SEEDS:
        env = level("TriangleAreaSum", seed, difficulty=2)
        assert env.total == sum(Fraction(abs(int(cross(t[1] - t[0], t[2] - t[0]))), 2) for t in env.tris)
        assert env._check(env._parse_answer(fmt_exact(env.total))) and env._check(env._parse_answer(
            f"{env.total.numerator}/{env.total.denominator}"))
        assert not env._check(env.total + Fraction(1, 2))
        isl = level("LargestIsland", seed, difficulty=2)
        for poly, a2 in zip(isl.islands, isl.areas2):  # a fan of triangles from the centre (star-shaped)
            c = poly.mean(axis=0)
            fan = sum(abs(cross(poly[i] - c, poly[(i + 1) % len(poly)] - c)) for i in range(len(poly)))
            assert abs(fan - a2) < 1e-9
        assert isl.best == Fraction(max(isl.areas2), 2)
    assert shoelace2([(0, 0), (3, 0), (0, 1)]) == 3


def test_visible_lines_match_a_fine_sampling():
    for seed in SEEDS:
        env = level("VisibleLines", seed, difficulty=2)
        xs = np.linspace(-30, 30, 60001)
        vals = np.array([a * xs + b for a, b in env.lines])
        assert set(np.unique(np.argmax(vals, axis=0)).tolist()) == set(env.visible)
        assert env._check(env.visible) and not env._check(env.below) or env.below == env.visible
    up, touch, _ = visible_lines.envelope([(1, 0), (-1, 0), (0, 0)])
    assert up == {0, 1} and touch  # y = 0 touches the envelope at a single point


def test_rock_garden_accepts_complements_and_scores_every_choice():
    for seed in SEEDS:
        env = level("RockGarden", seed, difficulty=1)
        n = len(env.labels)
        for k in range(2 ** n):
            s = frozenset(i for i in range(n) if k >> i & 1)
            pts = [(y, x) if i in s else (x, y) for i, (x, y) in enumerate(env.pts.tolist())]
            xs, ys = zip(*pts)
            area = (max(xs) - min(xs)) * (max(ys) - min(ys))
            assert env._check(s) == (area == env.best)
        sol = env._solution
        assert env._check(frozenset(set(range(n)) - sol))


def test_tangram_tiles_the_square_and_rotation_accepts_every_fitting_turn():
    area = sum(shoelace2(p) for _, p in PIECES)
    assert area == 2 * 16
    for seed in range(12):
        env = level("TangramRotation", seed, difficulty=2)
        hole = env.pieces[env.missing[0]][1]
        fits = [a for a in (0, 90, 180, 270) if shape_key(rotate(env.loose[0], a // 90))
                == shape_key(hole)]
        assert fits and all(env._check(a) for a in fits)
        assert not any(env._check(a) for a in (0, 45, 90, 135, 180, 225, 270, 315) if a not in fits)
        kinds = {env.pieces[env.missing[0]][0]}
        assert "square" not in kinds
        place = level("TangramPlacement", seed, difficulty=2)
        hole = place.pieces[place.missing[0]][1]
        fitting = [i for i, p in enumerate(place.loose) if congruent_by_turning(p, hole)]
        assert fitting == [place.answer]
        pieces = level("TangramArea", seed, difficulty=1)
        assert pieces.answer == Fraction(sum(shoelace2(pieces.pieces[i][1]) for i in pieces.missing), 2)
        assert sum(shoelace2(p) for _, p in pieces.pieces) == 2 * (4 * pieces.scale) ** 2


def test_voronoi_piece_and_adjacency_match_a_raster():
    pytest.importorskip("scipy")
    for seed in SEEDS:
        env = gym.make("GymV/VoronoiAdjacency-v2", difficulty=1).unwrapped
        env.reset(seed=seed)
        s = env.sites.astype(float)
        c = np.mean(env.cell, axis=0)
        assert int(np.argmin(np.hypot(*(s - c).T))) == env.target
        g = np.linspace(0.01, 11.99, 400)
        gx, gy = np.meshgrid(g, g)
        owner = np.argmin(((np.stack([gx, gy], -1)[:, :, None, :] - s) ** 2).sum(-1), axis=-1)
        pairs = set()
        for a, b in ((owner[:, 1:], owner[:, :-1]), (owner[1:], owner[:-1])):
            diff = a != b
            pairs |= {frozenset(p) for p in zip(a[diff].tolist(), b[diff].tolist())}
        for i in range(len(s)):
            raster = {next(iter(p - {i})) for p in pairs if i in p}
            assert raster == set(env.neighbours[i])
        count = gym.make("GymV/VoronoiCount-v2", difficulty=2).unwrapped
        count.reset(seed=seed)
        assert count._check(len(count.sites)) and not count._check(len(count.sites) + 1)


def test_plot_labels_stay_inside_the_frame_and_apart():
    rng = np.random.default_rng(0)
    for size in ((384, 384), (512, 512), (96, 128)):
        pts = distinct_points(rng, 14, 0, 10, min_gap=1.5)
        p = Plot(size, 0, 10, 0, 10)
        p.points(pts[:0])
        boxes = p.labels(np.stack(p.ax.px(pts[:, 0], pts[:, 1]), 1), [chr(65 + i) for i in range(14)], near=p.radius)
        H, W = size
        for x0, y0, x1, y1 in boxes:
            assert x0 >= 0 and y0 >= 0 and x1 <= W and y1 <= H
        if size[0] >= 384:
            for a, b in itertools.combinations(boxes, 2):
                ov = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
                assert not (ov[0] > 2 and ov[1] > 2), "two labels overlap"


def test_voronoi_cut_ridges_match_the_mirrored_diagram():
    """The borders cut from the sites' own diagram (open ridges run out past the square) are those of
    scipy's diagram of the sites and their mirror images in the square's sides (whose regions are the
    pieces exactly)."""
    from scipy.spatial import Voronoi

    from gymv_envs.domains.geometry._voronoi import cut_ridges

    rng = np.random.default_rng(2)
    for _ in range(200):
        n = int(rng.integers(3, 15))
        s = rng.uniform(0.5, 11.5, (n, 2))
        vor = Voronoi(np.concatenate([s, np.stack([-s[:, 0], s[:, 1]], 1), np.stack([24 - s[:, 0], s[:, 1]], 1),
                                      np.stack([s[:, 0], -s[:, 1]], 1), np.stack([s[:, 0], 24 - s[:, 1]], 1)]))
        want = {}
        for (i, j), (u, v) in zip(vor.ridge_points.tolist(), vor.ridge_vertices):
            if i < n and j < n:
                want[frozenset((i, j))] = float(np.hypot(*(vor.vertices[u] - vor.vertices[v])))
        got = {frozenset((i, j)): length for i, j, length, *_ in cut_ridges(s, 0, 12) if length > 1e-9}
        assert set(got) == {k for k, v in want.items() if v > 1e-9}
        assert all(abs(got[k] - want[k]) < 1e-7 for k in got)


def test_visible_lines_envelope_matches_probing_and_lines_match_one_layer():
    """The hull-trick envelope against a probe between every two crossings (exact integers), and
    `paint_lines` against `Plot.infinite_lines` (one `Layer` of every line), pixel for pixel."""
    rng = np.random.default_rng(5)
    for _ in range(3000):
        k = int(rng.integers(2, 9))
        lines = list({(int(rng.integers(-2, 3)), int(rng.integers(-3, 4))) for _ in range(k)})
        for sign in (1, -1):
            top, touch, breaks = visible_lines.envelope(lines, sign)
            ab = [(sign * a, sign * b) for a, b in lines]
            xs = sorted({Fraction(b2 - b1, a1 - a2) for (a1, b1), (a2, b2) in itertools.combinations(ab, 2) if a1 != a2})
            probes = [xs[0] - 1, *((x + y) / 2 for x, y in zip(xs, xs[1:])), xs[-1] + 1] if xs else [Fraction(0)]
            assert top == {max(range(len(ab)), key=lambda i: ab[i][0] * x + ab[i][1]) for x in probes}
            ties = [(x, [a * x + b for a, b in ab]) for x in xs]
            assert breaks == [x for x, v in ties if v.count(max(v)) > 1]
            assert touch == any(v.count(max(v)) > 2 for _, v in ties)
    for size in ((512, 512), (96, 128)):
        env = gym.make("GymV/VisibleLines-v0", difficulty=2, obs_size=size).unwrapped
        for seed in range(40):
            env.reset(seed=seed)
            a = env.plot(*visible_lines.X, *visible_lines.Y, square=False)
            a.infinite_lines([s for s, _ in env.lines], [b for _, b in env.lines], visible_lines.COLOURS)
            b = env.plot(*visible_lines.X, *visible_lines.Y, square=False)
            visible_lines.paint_lines(b.img, env.lines, visible_lines.COLOURS[:len(env.lines)])
            assert np.array_equal(a.img, b.img)


def test_fill_fresh_and_centres_match_the_plot():
    env = gym.make(latest("LargestIsland"), difficulty=2).unwrapped
    for seed in range(40):
        env.reset(seed=seed)
        a, b = env.plot(0, 12, 0, 12), env.plot(0, 12, 0, 12)
        a.fill_polygons(env.islands, [largest_island.LAND] * len(env.islands))
        b.fill_fresh(env.islands, [largest_island.LAND] * len(env.islands))
        assert np.array_equal(a.img, b.img)
        want = [tuple(float(v) for v in a.ax.px(*poly.mean(axis=0))) for poly in env.islands]
        assert centres_px(a.ax, env.islands) == want


def test_largest_rectangle_matches_an_enumeration_of_every_four_points():
    """Issue 15: every 4-point subset tried in its three cyclic orders; a rectangle when every corner's two
    sides are non-zero and at right angles (exact integer dot products)."""
    for difficulty in (0, 1, 2):
        for seed in range(3):
            env = level("LargestRectangle", seed, difficulty=difficulty)
            pts = [tuple(int(v) for v in p) for p in env.pts]
            found = {}
            for quad in itertools.combinations(range(len(pts)), 4):
                a = quad[0]
                for b, c, d in ((quad[1], quad[2], quad[3]), (quad[1], quad[3], quad[2]), (quad[2], quad[1], quad[3])):
                    cyc = [pts[a], pts[b], pts[c], pts[d]]
                    sides = [(cyc[(k + 1) % 4][0] - cyc[k][0], cyc[(k + 1) % 4][1] - cyc[k][1]) for k in range(4)]
                    if all(s != (0, 0) for s in sides) and all(
                            sides[k][0] * sides[(k + 1) % 4][0] + sides[k][1] * sides[(k + 1) % 4][1] == 0
                            for k in range(4)):
                        found[frozenset(quad)] = abs(sides[0][0] * sides[1][1] - sides[0][1] * sides[1][0])
            assert {c: a for a, c in env.rects} == found, (difficulty, seed)
            best = max(found.values())
            largest = [c for c, a in found.items() if a == best]
            assert len(largest) == 1 and env._solution == largest[0] and env.best == best
            assert env._check(env._parse_answer(", ".join(env.labels[i] for i in sorted(largest[0]))))
            runner_up = max((c for c in found if c != largest[0]), key=found.get)
            assert not env._check(env._parse_answer(", ".join(env.labels[i] for i in sorted(runner_up))))
            corners = sorted(largest[0])
            near = next(frozenset(corners[1:] + [j]) for j in range(len(pts))
                        if j not in corners and frozenset(corners[1:] + [j]) not in found)
            assert not env._check(env._parse_answer(", ".join(env.labels[i] for i in sorted(near))))
