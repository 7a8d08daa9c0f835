"""Cognition ids: what the conformance suite does not check. Drawings agree with their models
(hidden cubes counted from an id buffer of the picture, every cube of a rotation figure in view),
solvers agree with independent ones, verifiers accept every valid answer and reject near misses."""

from __future__ import annotations

import itertools

import gymnasium as gym
import networkx as nx
import numpy as np
import pytest

from gymv_envs.core.parsing import LETTERS
from gymv_envs.domains.cognition import _figures as F
from gymv_envs.domains.cognition import _iso
from gymv_envs.domains.cognition._gradient import shade_rgb
from gymv_envs.domains.cognition._polycubes import canonical, drawn_shares, mirrored
from gymv_envs.domains.cognition.hidden_cubes import CUBE, visible_cubes
from gymv_envs.domains.cognition.odd_one_out import odd_panels
from gymv_envs.domains.cognition.rectangle_count import count_rectangles, segments
from gymv_envs.domains.cognition.shape_transform import GEOMETRIC, apply

PANEL_IDS = ("OddOneOut", "ShapeSequence", "SymmetryCompletion", "ShapeTransform", "PaperFolding", "MentalRotation3D")


def _env(name: str, difficulty: int = 0, seed: int = 0, **kw):
    version = max(spec.version for spec in gym.registry.values() if spec.namespace == "GymV" and spec.name == name)
    env = gym.make(f"GymV/{name}-v{version}", difficulty=difficulty, **kw).unwrapped
    env.reset(seed=seed)
    return env


def test_symbol_recall_still_works():
    env = _env("SymbolRecall")
    for _ in range(20):
        _, r, term, *_ = env.step(env.oracle_action())
        if term:
            break
    assert r == 1.0


# ----------------------------------------------------------------------------- hidden cubes
def _cube_buffer(h: np.ndarray, s: int = 20) -> tuple[np.ndarray, list[tuple[int, int, int]]]:
    cells = [(x, y, z) for x in range(h.shape[0]) for y in range(h.shape[1]) for z in range(int(h[x, y]))]
    order = _iso.painter(cells)
    side = 40 * s
    buf = _iso.id_buffer((side, side), [(cells[i], 1, "all") for i in order], s, side / 2, side / 4)
    return buf, [cells[i] for i in order]


@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_hidden_cubes_counted_independently_from_the_picture_model(difficulty):
    """Paint every cube (not columns) into an id buffer: the cubes with pixels in view are exactly the
    ones `visible_cubes` counts, every column's top cube is in view (so the heights can be read), and
    the answer is the number of cubes."""
    for seed in range(6):
        env = _env("HiddenCubeCount", difficulty, seed)
        h = env.heights
        buf, cells = _cube_buffer(h)
        shown = set(np.unique(buf[buf >= 0]).tolist())
        assert len(shown) == visible_cubes(h)
        for x in range(h.shape[0]):
            for y in range(h.shape[1]):
                if h[x, y]:
                    assert cells.index((x, y, int(h[x, y]) - 1)) in shown
        assert env.total == len(cells) == int(h.sum())
        assert (np.diff(h, axis=0) <= 0).all() and (np.diff(h, axis=1) <= 0).all()


def test_hidden_cubes_heights_read_back_from_the_rendered_tops():
    """On the real frame, the centre of each column's top face shows the top colour at the place its
    height predicts: the picture carries the heights."""
    env = _env("HiddenCubeCount", 2, 3)
    frame = env._draw()
    H, W = env.obs_size
    n = env.heights.shape[0]
    s, ox, oy = _iso.fit(n, n, 5, (0, 0, W, H))
    for x in range(n):
        for y in range(n):
            h = int(env.heights[x, y])
            if h:
                px, py = _iso.project(x + 0.5, y + 0.5, h, s)
                assert tuple(frame[int(oy + py), int(ox + px)]) == CUBE


# ----------------------------------------------------------------------------- mental rotation
@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_mental_rotation_exactly_one_turned_copy_and_every_cube_in_view(difficulty):
    for seed in range(5):
        env = _env("MentalRotation3D", difficulty, seed)
        ref = canonical(env.reference)
        assert ref != canonical(mirrored(env.reference))  # chiral
        same = [i for i, c in enumerate(env.candidates) if canonical(c) == ref]
        assert same == [env.correct]
        for fig in [env.reference, *env.candidates]:
            assert drawn_shares(fig).min() >= 0.12  # the real drawing shows every cube


# ----------------------------------------------------------------------------- folding
def _unfold_by_layers(n: int, sides: list[str], punches) -> set:
    """Independent simulation: the folded paper as an array of stacked layers (lists of original cells)."""
    layers = np.empty((n, n), dtype=object)
    for r in range(n):
        for c in range(n):
            layers[r, c] = [(r, c)]
    r0, c0 = 0, 0
    for side in sides:
        h, w = layers.shape
        if side in ("left", "right"):
            a, b = layers[:, : w // 2], layers[:, w // 2:]
            moving, staying = (a, b) if side == "left" else (b, a)
            moved = moving[:, ::-1]
            c0 += w // 2 if side == "left" else 0
        else:
            a, b = layers[: h // 2], layers[h // 2:]
            moving, staying = (a, b) if side == "top" else (b, a)
            moved = moving[::-1]
            r0 += h // 2 if side == "top" else 0
        new = np.empty(staying.shape, dtype=object)
        for idx in np.ndindex(staying.shape):
            new[idx] = staying[idx] + moved[idx]
        layers = new
    holes = set()
    for r, c in punches:
        holes.update(layers[r - r0, c - c0])
    return holes


@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_paper_folding_matches_a_layer_simulation(difficulty):
    for seed in range(6):
        env = _env("PaperFolding", difficulty, seed)
        truth = _unfold_by_layers(env.n, env.sides, env.punches)
        assert set(env.candidates[env.correct]) == truth
        assert sum(set(c) == truth for c in env.candidates) == 1


# ----------------------------------------------------------------------------- figure tasks
def test_odd_one_out_has_one_odd_panel():
    for d in (0, 1, 2):
        for seed in range(6):
            env = _env("OddOneOut", d, seed)
            assert odd_panels(env.figures) == {env.correct}
            assert len({F.signature(f) for f in env.figures}) == env.num_options


def test_shape_transform_every_explaining_transformation_agrees():
    for d in (0, 1, 2):
        for seed in range(6):
            env = _env("ShapeTransform", d, seed)
            a, a2, b = env.stem
            colours = tuple(sorted({it.colour for it in a}))
            answer = F.signature(env.candidates[env.correct])
            for g, swap in itertools.product(GEOMETRIC, (False, True)):
                for cols in (colours, colours[::-1]):
                    if len(cols) == 2 and F.signature(apply(a, g, swap, cols)) == F.signature(a2):
                        assert F.signature(apply(b, g, swap, cols)) == answer
            assert sum(F.signature(c) == answer for c in env.candidates) == 1


def test_symmetry_completion_only_the_answer_completes_the_pattern():
    for d in (0, 1, 2):
        for seed in range(6):
            env = _env("SymmetryCompletion", d, seed)
            for i, cand in enumerate(env.candidates):
                if env.kind == "mirror-v":
                    full = np.concatenate([env.half, cand], axis=1)
                    ok = np.array_equal(full, full[:, ::-1])
                elif env.kind == "mirror-h":
                    full = np.concatenate([env.half, cand], axis=0)
                    ok = np.array_equal(full, full[::-1])
                else:
                    full = np.concatenate([env.half, cand], axis=1)
                    ok = np.array_equal(full, full[::-1, ::-1])
                assert ok == (i == env.correct)


def test_shape_sequence_candidates_look_different():
    for d in (0, 1, 2):
        for seed in range(6):
            env = _env("ShapeSequence", d, seed)
            assert len({F.signature(c) for c in env.candidates}) == env.num_options


@pytest.mark.parametrize("name", PANEL_IDS)
def test_panel_letters_read_and_mcq_options_are_the_panels(name):
    env = _env(name, 1, 3)
    right = LETTERS[env.correct]
    for text in (right, right.lower(), f"panel {right}", f"({right})", f"{right}.", f"Answer: {right}"):
        clone = _env(name, 1, 3)
        assert clone.step(text)[1] == 1.0, text
    wrong = LETTERS[(env.correct + 1) % env.num_options]
    assert _env(name, 1, 3).step(wrong)[1] == 0.0
    assert _env(name, 1, 3).parse_action("panel Z") is None
    mcq = _env(name, 1, 3, answer_format="mcq")
    assert mcq.options == [f"panel {LETTERS[i]}" for i in range(mcq.num_options)]
    assert mcq.step(mcq.correct)[1] == 1.0


def test_eight_panels_by_default_and_four_work():
    for name in ("OddOneOut", "ShapeSequence", "SymmetryCompletion", "ShapeTransform"):
        assert _env(name).num_options == 8
        assert len(_env(name, num_options=4).candidates if name != "OddOneOut" else _env(name, num_options=4).figures) == 4


# ----------------------------------------------------------------------------- mazes
def _graph(env) -> nx.Graph:
    h = env.heights
    n = h.shape[0]
    g = nx.Graph()
    g.add_nodes_from((x, y) for x in range(n) for y in range(n))
    for x, y in itertools.product(range(n), repeat=2):
        for dx, dy in ((1, 0), (0, 1)):
            if x + dx < n and y + dy < n and h[x, y] == h[x + dx, y + dy]:
                g.add_edge((x, y), (x + dx, y + dy))
    g.add_edges_from(env.ladders)
    return g


@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_cube_maze_answers_agree_with_networkx(difficulty):
    for seed in range(6):
        env = _env("CubeMazePathLength", difficulty, seed)
        assert nx.shortest_path_length(_graph(env), env.start, env.flag) == env.length
        assert env.step(f"{env.length} steps")[1] == 1.0
        env = _env("CubeMazeReach", difficulty, seed)
        reach = nx.node_connected_component(_graph(env), env.start)
        assert [f for c, f in env.flags.items() if c in reach] == [env.answer]
        assert all(env.heights[a] - env.heights[b] == 1 for a, b in env.ladders)


# ----------------------------------------------------------------------------- counting and gradients
def test_rectangle_count_agrees_with_brute_force():
    for d in (0, 1, 2):
        for seed in range(5):
            env = _env("RectangleCount", d, seed)
            horiz, vert = segments(env.rects, env.n)
            brute = sum(horiz[y0, x0:x1].all() and horiz[y1, x0:x1].all() and vert[x0, y0:y1].all() and vert[x1, y0:y1].all()
                        for x0, x1 in itertools.combinations(range(env.n + 1), 2)
                        for y0, y1 in itertools.combinations(range(env.n + 1), 2))
            assert brute == env.count == count_rectangles(horiz, vert) >= len(env.rects)
            assert env.step(f"{env.count} rectangles")[1] == 1.0


def test_gradient_cell_shade_read_from_the_picture():
    """The outlined cell's centre pixel is the legend swatch of the answer: the image carries it."""
    for seed in range(5):
        env = _env("GradientCellShade", 2, seed, obs_size=(256, 256))
        frame = env._draw()
        n = env.shades.shape[0]
        band, pad = max(8, int(256 * 0.15)), max(2, int(256 * 0.04))
        s = int(min((256 - 2 * pad) / n, (256 - band - 2 * pad) / n))
        x, y = int((256 - n * s) / 2), int((256 - band - n * s) / 2)
        r, c = env.cell
        pixel = frame[y + r * s + s // 2, x + c * s + s // 2].astype(int)
        legend = shade_rgb(env.ramp, env.m).astype(int)
        assert int(np.abs(legend - pixel).sum(axis=1).argmin()) + 1 == env.answer


def test_gradient_direction_reads_many_phrasings():
    env = _env("GradientDirection", 1, 0)
    name = env.direction
    from gymv_envs.domains.cognition.gradient_direction import COMPASS
    words = {"up": "top", "down": "bottom", "left": "west", "right": "east"}
    spoken = " ".join(words[w] for w in name.split("-"))
    for text in (COMPASS[name], COMPASS[name].lower(), name, spoken):
        assert _env("GradientDirection", 1, 0).step(text)[1] == 1.0, text
    other = next(k for k in COMPASS if k != name)
    assert _env("GradientDirection", 1, 0).step(COMPASS[other])[1] == 0.0


def test_gradient_missing_shade_follows_the_rule():
    for seed in range(5):
        env = _env("GradientMissingShade", 2, seed)
        r, c = env.cell
        assert env.answer == env.shades[r, c] + 1
        assert env.step(f"shade {env.answer}")[1] == 1.0
