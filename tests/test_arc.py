"""ARC-style ids: the transformation library, the uniqueness search, answer reading, and an
independent brute force over compositions in every order."""

from __future__ import annotations

import itertools

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs
from gymv_envs.domains.arc import _transforms as T
from gymv_envs.domains.arc._base import format_grid, parse_grid
from gymv_envs.domains.arc._search import Rule, apply_rule, pack, search, unique
from gymv_envs.domains.arc._transforms import Scene, d4

ARC_IDS = gymv_envs.ids("Arc*")


def _env(name: str, difficulty: int = 0, seed: int = 0, **kw):
    env = gym.make(f"GymV/{name}-v0", difficulty=difficulty, **kw).unwrapped
    env.reset(seed=seed)
    return env


def test_at_least_ten_families_one_of_them_one_dimensional():
    assert len(ARC_IDS) >= 10
    env = _env("ArcStrip")
    assert all(s.grid.shape[0] == 1 for s, _ in env.demos) and env.test.grid.shape[0] == 1


# ----------------------------------------------------------------------------- the library
def test_d4_inverses_and_shapes():
    g = np.arange(6, dtype=np.int8).reshape(2, 3)
    images = {d4(g, k).tobytes() + bytes(d4(g, k).shape) for k in range(8)}
    assert len(images) == 8  # an asymmetric grid has eight distinct images
    for k in range(8):
        assert np.array_equal(d4(d4(g, k), T.D4_INVERSE[k]), g)
    assert np.array_equal(d4(g, 1), np.array([[3, 0], [4, 1], [5, 2]]))  # clockwise quarter turn


def test_gravity_translate_connect_tile():
    g = np.array([[1, 0, 2], [0, 0, 0], [0, 3, 0]], dtype=np.int8)
    assert np.array_equal(T.gravity(g, "down"), [[0, 0, 0], [0, 0, 0], [1, 3, 2]])
    assert np.array_equal(T.gravity(g, "left"), [[1, 2, 0], [0, 0, 0], [3, 0, 0]])
    assert np.array_equal(T.translate(g, 1, 0), [[0, 0, 0], [1, 0, 2], [0, 0, 0]])
    m = np.array([[4, 0, 0, 4], [0, 0, 0, 0]], dtype=np.int8)
    assert np.array_equal(T.connect(m, (1,), None), [[4, 4, 4, 4], [0, 0, 0, 0]])
    assert np.array_equal(T.connect(m, (1,), 7), [[4, 7, 7, 4], [0, 0, 0, 0]])
    p = np.array([[1, 2]], dtype=np.int8)
    assert np.array_equal(T.tile(p, (2, 2), "mirror"), [[1, 2, 2, 1], [1, 2, 2, 1]])
    assert T.tile(p, (2, 2), "rotate") is None  # turned tiles need a square pattern


def test_outside_and_symmetry_completion():
    g = np.zeros((5, 5), dtype=np.int8)
    g[1:4, 1:4] = 2
    g[2, 2] = 0
    assert not T.outside(g)[2, 2] and T.outside(g)[0, 0]
    pattern = np.array([[1, 2, 2, 1], [3, 0, 4, 3]], dtype=np.int8)  # (1, 1) masked
    done = T.complete_symmetry(pattern, "left-right")
    assert np.array_equal(done, [[1, 2, 2, 1], [3, 4, 4, 3]])
    assert T.complete_symmetry(np.array([[0, 0]], dtype=np.int8), "left-right") is None


def test_generated_objects_agree_with_an_independent_labelling():
    """Scenes built by the generators carry their objects; labelling the grid finds the same ones."""
    for name in ("ArcCrop", "ArcCount", "ArcRecolour", "ArcGeometry", "ArcMove", "ArcDenoise"):
        for seed, d in itertools.product(range(4), (1, 2)):
            env = _env(name, d, seed)
            for scene in [s for s, _ in env.demos] + [env.test]:
                if scene._objects is None:
                    continue
                given = sorted((o.colour, tuple(o.rows), tuple(o.cols)) for o in scene.objects)
                found = sorted((o.colour, tuple(o.rows), tuple(o.cols)) for o in T.label(scene.grid))
                assert given == found


def test_flood_fill_regions_known_by_construction_match_the_flood_fill():
    from gymv_envs.domains.arc.flood_fill import _regions
    for d in (0, 1, 2):
        for seed in range(4):
            env = _env("ArcFloodFill", d, seed)
            for scene in [s for s, _ in env.demos] + [env.test]:
                known = scene.cache["regions"]
                found = _regions(Scene(scene.grid))
                assert all(np.array_equal(a, b) for a, b in zip(known, found))


# ----------------------------------------------------------------------------- uniqueness
def _geometry_cores():
    return _env("ArcGeometry").cores


def test_checker_finds_a_second_rule_for_ambiguous_demonstrations():
    """Symmetric demonstration inputs cannot tell a mirror from the identity: the checker must say so."""
    cores = _geometry_cores()
    rule = Rule("identity", g=4)  # mirror left-right
    sym = [np.array([[1, 0, 1], [2, 2, 2], [0, 3, 0]], dtype=np.int8),
           np.array([[4, 4], [0, 0], [5, 5]], dtype=np.int8)]
    demos = [(Scene(x), d4(x, 4)) for x in sym]
    test = Scene(np.array([[1, 2, 0], [0, 0, 3]], dtype=np.int8))
    truth = d4(test.grid, 4)
    assert not unique(cores, ("colour",), range(8), demos, test, 1, truth)
    found = search(cores, ("colour",), range(8), demos, test, 1)
    assert {pack(truth), pack(test.grid)} <= {code for _, code in found}  # the mirror and the identity
    # one asymmetric demonstration settles it
    demos.append((Scene(np.array([[6, 0, 0], [0, 7, 7]], dtype=np.int8)), d4(np.array([[6, 0, 0], [0, 7, 7]], dtype=np.int8), 4)))
    assert unique(cores, ("colour",), range(8), demos, test, 1, truth)
    assert apply_rule(rule, {n: f for n, _, f in cores}, test) is not None


def test_checker_rejects_a_colour_map_the_demonstrations_do_not_determine():
    cores = _geometry_cores()
    table = tuple((c, {1: 2}.get(c, c)) for c in range(10))
    rule = Rule("identity", "colour", table, 0)
    fns = {n: f for n, _, f in cores}
    demos = [(Scene(x), apply_rule(rule, fns, Scene(x))) for x in
             (np.array([[1, 0, 0], [0, 3, 3], [0, 0, 1]], dtype=np.int8),
              np.array([[3, 1, 1], [1, 0, 0], [0, 0, 0]], dtype=np.int8))]
    seen = Scene(np.array([[1, 3, 0], [0, 0, 0], [3, 0, 0]], dtype=np.int8))
    unseen = Scene(np.array([[1, 5, 0], [0, 0, 0], [3, 0, 0]], dtype=np.int8))  # 5 never shown: undetermined
    assert unique(cores, ("colour",), range(8), demos, seen, 2, apply_rule(rule, fns, seen))
    assert not unique(cores, ("colour",), range(8), demos, unseen, 2, apply_rule(rule, fns, unseen))


@pytest.mark.parametrize("env_id", ARC_IDS)
def test_intended_rule_is_found_and_every_found_rule_agrees(env_id):
    for difficulty in (0, 1, 2):
        env = gym.make(env_id, difficulty=difficulty).unwrapped
        for seed in range(3):
            env.reset(seed=seed)
            found = search(env._search_cores(env.demos), env.keys, env.modifiers, env.demos, env.test, env.depth)
            assert found and all(code == pack(env.truth) for _, code in found)


def _brute_force_outputs(env) -> set[bytes]:
    """Test outputs of every sequence of library steps (the family's cores and the symmetries, in any
    order, each applied to the grid alone) of total cost <= depth that explains every demonstration.
    Independent of the search's canonical form (no commuting assumed); colour maps are left out."""
    steps = [(name, cost, fn) for name, cost, fn in env.cores if cost > 0]
    steps += [(f"g{k}", 1, (lambda s, k=k: d4(s.grid, k))) for k in env.modifiers if k]
    outs = set()
    for length in range(1, env.depth + 1):
        for seq in itertools.product(steps, repeat=length):
            if sum(c for _, c, _ in seq) > env.depth:
                continue

            def run(grid, seq=seq):
                for _, _, fn in seq:
                    out = fn(Scene(grid))
                    grid = out[0] if isinstance(out, tuple) else out
                    if grid is None:
                        return None
                return grid

            if all((o := run(s.grid)) is not None and o.shape == y.shape and (o == y).all() for s, y in env.demos):
                pred = run(env.test.grid)
                if pred is not None:
                    outs.add(pack(pred))
    return outs


@pytest.mark.parametrize("env_id", ARC_IDS)
def test_brute_force_over_all_orders_agrees_with_the_answer(env_id):
    for difficulty, seeds in ((0, range(3)), (1, range(2))):
        env = gym.make(env_id, difficulty=difficulty).unwrapped
        for seed in seeds:
            env.reset(seed=seed)
            if env.rule.key is not None:
                continue  # colour maps are outside the brute force
            outs = _brute_force_outputs(env)
            assert outs == {pack(env.truth)}, f"{env_id} d{difficulty} seed {seed}: another order answers differently"


# ----------------------------------------------------------------------------- answers
def test_parse_grid_reads_every_common_way_of_writing_a_grid():
    grid = np.array([[0, 1, 2], [3, 4, 5]], dtype=np.int8)
    for text in ("012/345", "0 1 2\n3 4 5", "[[0,1,2],[3,4,5]]", "[[0, 1, 2], [3, 4, 5]]", "Answer: 012/345",
                 "<answer>\n012\n345\n</answer>", "Output:\n```\n0 1 2\n3 4 5\n```", "012|345", "0,1,2;3,4,5",
                 "black blue red / green yellow gray", "<think>maybe 99/99</think>The grid is:\n012\n345"):
        parsed = parse_grid(text)
        assert parsed is not None and np.array_equal(parsed, grid), text
    for text in ("", "no grid here", "01/234", "12 34 5", "[[1,2],[3]]", "10/11/12x"):
        out = parse_grid(text)
        assert out is None or out.shape != (2, 3), text
    assert format_grid(grid) == "012/345"


@pytest.mark.parametrize("env_id", ARC_IDS)
def test_verifier_accepts_the_answer_written_any_way_and_rejects_near_misses(env_id):
    env = gym.make(env_id, difficulty=1).unwrapped
    env.reset(seed=2)
    t = env.truth
    spaced = "\n".join(" ".join(str(v) for v in row) for row in t)
    for text in (format_grid(t), spaced, str(t.tolist())):
        clone = gym.make(env_id, difficulty=1).unwrapped
        clone.reset(seed=2)
        assert clone.step(text)[1] == 1.0
    misses = env._near_misses(np.random.default_rng(0))
    assert misses and not any(env._check(m) for m in misses if not np.array_equal(m, t))
    assert not env._check((t + 1) % 10)


def test_mcq_options_are_grids_and_one_is_right():
    env = gym.make("GymV/ArcGravity-v0", answer_format="mcq", num_options=6).unwrapped
    env.reset(seed=4)
    grids = [parse_grid(o) for o in env.options]
    assert all(g is not None for g in grids)
    assert sum(env._check(g) for g in grids) == 1


# ----------------------------------------------------------------------------- ARC-AGI folder
def _write_fixture(folder) -> None:
    """A tiny ARC-AGI-format folder made by our own generators (nothing bundled or downloaded):
    tasks of three sizes, a file that is not a task, and one whose test has no output."""
    import json

    k = 0
    for name in ("ArcGravity", "ArcTiling", "ArcCrop", "ArcStrip"):
        for d in (0, 1, 2):
            for seed in range(4):
                env = _env(name, d, seed)
                task = {"train": [{"input": s.grid.tolist(), "output": y.tolist()} for s, y in env.demos],
                        "test": [{"input": env.test.grid.tolist(), "output": env.truth.tolist()}]}
                (folder / f"task_{k:02d}.json").write_text(json.dumps(task))
                k += 1
    (folder / "notes.json").write_text('{"hello": 1}')
    (folder / "hidden.json").write_text(json.dumps({"train": task["train"], "test": [{"input": [[1]]}]}))


def test_agi_folder_errors_name_what_is_wanted(tmp_path):
    from gymv_envs.domains.arc.agi_folder import ArcAgiFolder

    with pytest.raises(ValueError, match="data_dir"):
        ArcAgiFolder()
    with pytest.raises(ValueError, match="not a folder"):
        ArcAgiFolder(data_dir=str(tmp_path / "missing"))
    (tmp_path / "junk.json").write_text("not json")
    with pytest.raises(ValueError, match="no task"):
        ArcAgiFolder(data_dir=str(tmp_path))


def test_agi_folder_passes_the_conformance_checks_on_a_generated_fixture(tmp_path):
    """The folder id is not registered (it cannot run without data); here it is registered for the
    test under a fixture id and put through the registry-wide suite's checks."""
    import tests.test_conformance as C
    from gymv_envs import TaskSpec
    from gymv_envs.core import registry
    from gymv_envs.domains.arc.agi_folder import ArcAgiFolder, load_tasks

    _write_fixture(tmp_path)
    assert len(load_tasks(tmp_path)) == 48  # the note and the task without a test output are skipped
    spec = TaskSpec(name="ArcAgiFolderFixture", entry_point=ArcAgiFolder, max_episode_steps=1,
                    kwargs={"data_dir": str(tmp_path)})
    registry.register_spec(spec)
    try:
        env = gym.make(spec.id).unwrapped
        env.reset(seed=0)
        assert env.step(env.oracle_action())[1] == 1.0
        for check in (C.test_registry_metadata, C.test_gymnasium_check_env, C.test_determinism_same_seed,
                      C.test_different_seeds_give_different_levels, C.test_harder_levels_cost_the_oracle_more,
                      C.test_random_agent_200_steps, C.test_invalid_action_changes_nothing,
                      C.test_parse_action_never_raises, C.test_parse_action_reads_oracle_replies,
                      C.test_no_answer_leak, C.test_observations_fresh_and_in_space, C.test_pickle_round_trip,
                      C.test_obs_size_is_native, C.test_text_in_image_shows_what_the_instruction_adds,
                      C.test_mcq_one_correct_and_balanced):
            check(spec.id)
        for difficulty in (0, 1, 2):
            C.test_oracle_solves_every_seed(spec.id, difficulty)
    finally:
        registry._TASKS.pop(spec.id, None)
        gym.registry.pop(spec.id, None)


def test_free_spots_from_row_bits_match_the_array_version():
    """`place` finds free corners from the rows' bits; `free_spots` (summed areas) is the reference."""
    from gymv_envs.domains.arc._scenes import _free_spots, free_spots

    rng = np.random.default_rng(0)
    for _ in range(300):
        h, w = int(rng.integers(3, 14)), int(rng.integers(3, 14))
        busy = rng.random((h, w)) < rng.random() * 0.4
        bits = [sum(1 << c for c in range(w) if busy[r, c]) for r in range(h)]
        sh, sw = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        gap, margin = int(rng.integers(0, 3)), int(rng.integers(0, 2))
        if sh + 2 * margin > h or sw + 2 * margin > w:
            continue  # `place` gives up on such a shape before looking for spots
        assert _free_spots(bits, h, w, sh, sw, gap, margin) == free_spots(busy, sh, sw, gap, margin).tolist()
