"""What is specific to the world3d domain (MuJoCo physics and rendering, headless)."""

from __future__ import annotations

import pickle
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs

pytest.importorskip("mujoco")

SMALL = (64, 64)
NAMES = ("move_forward", "move_backward", "rotate_left", "rotate_right", "strafe_left", "strafe_right",
         "interact", "wait", "look_up", "look_down")
ACT = {name: i for i, name in enumerate(NAMES)}
DEADLOCK_KEYS = ("stuck", "deadlocks", "stuck_steps", "recoveries")


def _make(name: str, **kwargs) -> gym.Env:
    kwargs.setdefault("obs_size", SMALL)
    return gym.make(gymv_envs.task_spec(name).id, **kwargs).unwrapped


def _oracle_run(env, seed: int, budget: int = 400) -> dict:
    env.reset(seed=seed)
    info = {}
    for _ in range(budget):
        _, _, term, _, info = env.step(env.oracle_action())
        if term:
            break
    return info


def test_ids_modes_views_and_budgets():
    ids = gymv_envs.ids(domain="world3d")
    assert len(ids) >= 52
    for env_id in ids:
        d = gymv_envs.describe(env_id)
        assert d["action_modes"] == ["discrete", "parametric"]
        assert d["views"] == ["front", "left", "right"]
        assert d["instruction_levels"] == ["goal", "step", "visual"]
        assert 180 <= d["max_episode_steps"] <= 360
        assert d["extras"] == ["world3d"]
    assert gymv_envs.ids(domain="world3d", tags="split:test")
    for family in ("town", "trap"):
        assert len(gymv_envs.ids(domain="world3d", tags=family)) >= 5


def test_importing_gymv_envs_does_not_import_mujoco():
    code = "import sys, gymv_envs; gymv_envs.ids(); assert 'mujoco' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_action_spaces():
    env = _make("World3DGoToRooms")
    assert env.action_space.n == 10 and tuple(env.action_names) == NAMES
    para = _make("World3DGoToRooms", action_mode="parametric")
    assert [f[0] for f in para.action_fields] == ["maneuver", "duration", "x", "y", "turn", "look"]
    assert para.action_space.shape == (6,)
    with pytest.raises(ValueError, match="discrete"):
        _make("World3DGoToRooms", action_mode="parametric", locomotion="grid")


def test_views_are_real_cameras():
    env = _make("World3DGoToRooms", difficulty=0)
    with pytest.raises(gym.error.ResetNeeded):
        env.render_view("left")
    obs, _ = env.reset(seed=0)
    left, right = env.render_view("left"), env.render_view("right")
    assert left.shape == right.shape == obs.shape
    assert not np.array_equal(left, obs) and not np.array_equal(right, obs) and not np.array_equal(left, right)
    for _ in range(3):  # three 30-degree turns bring the left camera's scene to the front
        turned, *_ = env.step(ACT["rotate_left"])
    assert np.abs(turned.astype(int) - left.astype(int)).mean() < np.abs(turned.astype(int) - right.astype(int)).mean()
    with pytest.raises(ValueError, match="supported views"):
        env.render_view("top")


@pytest.mark.parametrize("arg,value", [("fov", 10), ("fov", 200.0), ("camera_height", 3.0), ("pitch", -90),
                                       ("pitch", "up"), ("locomotion", "teleport"), ("buffers", ("normals",)),
                                       ("buffers", "depth"), ("theme_split", "val")])
def test_arguments_are_validated(arg, value):
    with pytest.raises(ValueError, match="valid values"):
        _make("World3DGoToLandmark", **{arg: value})


def test_camera_arguments_and_look_change_the_picture():
    base = _make("World3DGoToLandmark").reset(seed=1)[0]
    for kwargs in ({"pitch": 20.0}, {"camera_height": 0.4}, {"fov": 110.0}):
        other = _make("World3DGoToLandmark", **kwargs).reset(seed=1)[0]
        assert not np.array_equal(base, other), kwargs
    env = _make("World3DGoToLandmark")
    env.reset(seed=1)
    up, *_ = env.step(ACT["look_up"])
    assert env.look == env.pitch + 15 and not np.array_equal(up, base)


def test_no_shadows_or_multisampling_on_a_software_renderer():
    from gymv_envs.domains.world3d._render import accelerated

    env = _make("World3DFindExit")
    env.reset(seed=0)
    model = env.sim.model
    if accelerated():
        assert model.vis.quality.shadowsize > 0 and model.light_castshadow.any()
    else:
        assert model.vis.quality.shadowsize == 0 and model.vis.quality.offsamples == 0
        assert not model.light_castshadow.any()


# ----------------------------------------------------------------------------- physics
def test_the_agent_is_a_physics_body_and_walls_block_without_invalid_flags():
    env = _make("World3DHallway", difficulty=2)
    env.reset(seed=0)
    env.sim.set_pose(1.5, -1.5, 0.0)  # west end of the hallway, facing east
    env._read_pose()
    t0 = env.sim.data.time
    env.step(ACT["move_forward"])
    assert env.sim.data.time > t0                       # mj_step advanced the world
    assert abs(env.x - 2.5) < 0.01 and abs(env.y + 1.5) < 0.01
    env.sim.set_pose(1.5, -1.5, np.pi)                  # facing the west wall, 0.5 m away
    env._read_pose()
    for _ in range(3):
        _, reward, term, _, info = env.step(ACT["move_forward"])
        assert not info["invalid_action"] and info["feedback"] == "" and reward == 0.0
    assert abs(env.x - 1.35) < 0.03                     # stopped by contact: 0.35 m of body ahead of the centre
    _, _, _, _, info = env.step(np.int64(99))
    assert info["invalid_action"]                       # only out-of-space actions are invalid


def test_a_light_crate_is_pushed_by_contact():
    env = _make("World3DTrapCrates")
    env.reset(seed=0)
    crate = next(e for e in env.things if e.dynamic)
    start = crate.pos
    env.step(ACT["move_forward"])
    moved = np.hypot(crate.pos[0] - start[0], crate.pos[1] - start[1])
    assert 0.3 < moved < 1.2
    # the crate wedges in the narrowing: pushing on gets nowhere
    for _ in range(4):
        env.step(ACT["move_forward"])
    wedged = crate.pos
    env.step(ACT["move_forward"])
    assert np.hypot(crate.pos[0] - wedged[0], crate.pos[1] - wedged[1]) < 0.05


def test_turns_are_30_degrees_and_blocked_where_narrow():
    env = _make("World3DGoToLandmark", difficulty=2)
    env.reset(seed=2)
    yaw = env.yaw
    env.step(ACT["rotate_left"])
    assert abs(np.degrees(env.yaw - yaw) - 30) < 0.5
    pocket = _make("World3DTrapPocket")
    pocket.reset(seed=0)
    yaw = pocket.yaw
    for _ in range(6):
        pocket.step(ACT["rotate_left"])
    assert abs(np.degrees(pocket.yaw - yaw)) < 60       # the slot is too narrow to turn round in


def _open_spot(env, room: float, angles) -> tuple[float, float]:
    """A cell centre with ``room`` metres free towards each of ``angles`` (and 0.5 m all round)."""
    for r, c in env.layout.free_cells():
        x, y = c + 0.5, -(r + 0.5)
        rays = [(a, env.sim.ray(x, y, a)[0]) for a in np.arange(0, 2 * np.pi, np.pi / 8)]
        if all((d < 0 or d > 0.6) for _, d in rays) and all(
                0 > env.sim.ray(x, y, a)[0] or env.sim.ray(x, y, a)[0] > room for a in angles):
            return x, y
    raise AssertionError("no open spot")


def test_parametric_joystick_walks_any_direction():
    env = _make("World3DGoToLandmark", action_mode="parametric", difficulty=2)
    env.reset(seed=2)
    x0, y0 = _open_spot(env, 2.8, [-np.arctan2(0.6, 0.8)])
    env.sim.set_pose(x0, y0, 0.0)
    env._read_pose()
    env.step(np.array([0, 1.0, 0.6, 0.8, 0, 0], dtype=np.float32))   # full tilt, 1 s, forward-right
    assert abs(np.hypot(env.x - x0, env.y - y0) - 2.0) < 0.05
    assert abs(np.degrees(np.arctan2(env.y - y0, env.x - x0)) + np.degrees(np.arctan2(0.6, 0.8))) < 1.0
    yaw = env.yaw
    env.step(np.array([2, 0.1, 0, 0, 90, 0], dtype=np.float32))       # turn 90 degrees, stand still
    assert abs(np.degrees(env.yaw - yaw) - 90) < 0.5


# ----------------------------------------------------------------------------- deadlocks
def test_deadlock_keys_and_a_snagged_start_reports_stuck_then_recovery():
    env = _make("World3DTrapPocket")
    _, info = env.reset(seed=3)
    assert all(k in info for k in DEADLOCK_KEYS) and not info["stuck"]
    for _ in range(6):
        info = env.step(ACT["move_forward"])[4]
    assert info["stuck"] and info["deadlocks"] == 1 and info["stuck_steps"] >= 1 and info["recoveries"] == 0
    for _ in range(200):
        _, _, term, _, info = env.step(env.oracle_action())
        if term:
            break
    assert info["success"] and info["recoveries"] == 1 and not info["stuck"]


def test_free_walking_is_not_stuck():
    env = _make("World3DGoToLandmark", difficulty=2)
    env.reset(seed=0)
    x0, y0 = _open_spot(env, 2.5, [0.0, np.pi / 2])
    env.sim.set_pose(x0, y0, 0.0)
    env._read_pose()
    plan = ["move_forward"] * 2 + ["rotate_left"] * 6 + ["move_forward"] * 2 + ["strafe_left"] * 2
    infos = [env.step(ACT[a])[4] for a in plan]
    assert not any(i["stuck"] for i in infos) and infos[-1]["deadlocks"] == 0


# ----------------------------------------------------------------------------- grid locomotion
def test_grid_locomotion_moves_cell_to_cell():
    env = _make("World3DGoToMaze", locomotion="grid")
    env.reset(seed=1)
    assert abs(env.yaw / (np.pi / 2) - round(env.yaw / (np.pi / 2))) < 1e-9
    cell = env.agent
    env.step(ACT["rotate_left"])
    assert abs(np.degrees(env.sim.pose()[2] - env.yaw)) < 1e-6
    moved = False
    for _ in range(4):
        before = env.agent
        _, _, _, _, info = env.step(ACT["move_forward"])
        assert not info["invalid_action"]
        moved |= env.agent != before
        assert abs(env.x - (env.agent[1] + 0.5)) < 1e-9 and abs(env.y + env.agent[0] + 0.5) < 1e-9
        env.step(ACT["rotate_right"])
    assert moved or env.agent == cell


@pytest.mark.parametrize("name", ["World3DKeyDoor", "World3DEscapeClutter", "World3DTrapGap"])
def test_grid_locomotion_oracle(name):
    env = _make(name, locomotion="grid", obs_size=(48, 48))
    for seed in range(2):
        assert _oracle_run(env, seed)["success"], seed


# ----------------------------------------------------------------------------- town
def test_town_layout_buildings_and_walkers():
    env = _make("World3DTownFindWalkers", difficulty=2)
    env.reset(seed=0)
    R, C = env.layout.walls.shape
    assert R >= 100 and C >= 100
    shops = [b for b in env.town.buildings if b.kind == "shop"]
    houses = [b for b in env.town.buildings if b.kind == "house"]
    assert len(shops) >= 8 and len(houses) >= 4 and len(env.town.towers) >= 3 and env.town.parks
    for b in env.town.buildings:
        assert all(not env.layout.walls[c] for c in b.door) and b.inside
    assert set(env._boards[:len(shops)]) == {(b.name,) for b in shops}  # shop names are painted boards
    walkers = list(env.walkers)
    assert len(walkers) == 4
    start = [env.things[i].pos for i in walkers]
    for _ in range(4):
        env.step(ACT["wait"])
    far = [i for i, p in zip(walkers, start) if np.hypot(p[0] - env.x, p[1] - env.y) > 6]
    assert far and all(np.hypot(*np.subtract(env.things[i].pos, start[walkers.index(i)])) > 1.0 for i in far)
    # a walker stops for the agent
    w = env.things[walkers[0]]
    env.sim.set_pose(w.pos[0] + 1.0, w.pos[1], np.pi)
    env._read_pose()
    here = w.pos
    env.step(ACT["wait"])
    assert w.pos == here


@pytest.mark.parametrize("name", ["World3DTownErrand", "World3DTownKeys", "World3DTownSigns"])
def test_town_quests_have_5_to_10_stages_and_talking_reveals_the_next(name):
    env = _make(name, obs_size=(128, 128))
    _, info = env.reset(seed=4)
    assert 5 <= len(env.stages) <= 10
    first = env.stages[0]["say"]
    assert first.strip('"')[:20] not in info["instruction"]
    before = env.render()
    for _ in range(60):
        obs, _, _, _, info = env.step(env.oracle_action())
        if env.stage == 1:
            break
    assert env.stage == 1 and env.caption and np.abs(obs[-20:].astype(int) - before[-20:].astype(int)).mean() > 5
    step = _make(name, instruction_level="step").reset(seed=4)[1]["instruction"]
    assert "Sub-goals: 1)" in step and f"{len(env.stages)})" in step and "walk forward" not in step


# ----------------------------------------------------------------------------- the camera
def test_depth_and_segmentation_buffers():
    env = _make("World3DPickupItem", buffers=("depth", "segmentation"))
    _, info = env.reset(seed=0)
    depth, seg = info["depth"], info["segmentation"]
    assert depth.shape == SMALL and depth.dtype == np.float32 and depth.min() > 0
    assert seg.shape == SMALL and seg.dtype == np.int16
    assert (seg == -1).any() and (seg == 0).any()             # sky and floor in view
    info = env.step(ACT["wait"])[4]
    assert "depth" in info and "depth" not in _make("World3DPickupItem").reset(seed=0)[1]
    assert env.render_buffer("depth").shape == SMALL


def test_sign_words_are_painted_not_told():
    env = _make("World3DSignPad")
    _, info = env.reset(seed=0)
    answer = env.things[env.answer].colour.upper()
    slot = env._text_slots[env.signs[0]]
    assert answer in " ".join(env._boards[slot])
    model = env.sim.model
    from gymv_envs.domains.world3d._scene import texture_order

    k = texture_order().index(f"text{slot}")
    pixels = model.tex_data[model.tex_adr[k]:model.tex_adr[k] + model.tex_width[k] * model.tex_height[k] * 3]
    assert pixels.min() < 60 and pixels.max() > 200          # dark words on a light board
    for _ in range(120):
        _, _, term, _, info = env.step(env.oracle_action())
        if term:
            break
        assert answer.lower() not in info["feedback"]
    assert info["success"]


def test_themes_vary_and_test_themes_are_reserved():
    from gymv_envs.domains.world3d._world import TEST_THEMES, TRAIN_THEMES

    env = _make("World3DTrapPocket")
    seen = set()
    for seed in range(12):
        env.reset(seed=seed)
        seen.add(env.theme.name)
    assert len(seen) >= 3 and seen <= {t.name for t in TRAIN_THEMES}
    held = _make("World3DTrapPocketHeldOut")
    for seed in range(4):
        held.reset(seed=seed)
        assert held.theme.name in {t.name for t in TEST_THEMES}


# ----------------------------------------------------------------------------- state
def test_pickling_mid_push_replays_the_physics_exactly():
    env = _make("World3DEscapeClutter", difficulty=0)
    env.reset(seed=4)
    for _ in range(6):
        env.step(env.oracle_action())
    clone = pickle.loads(pickle.dumps(env))
    assert clone._sim is None                               # MuJoCo objects are rebuilt, not pickled
    for _ in range(8):
        a = env.oracle_action()
        o1, *_ = env.step(a)
        o2, *_ = clone.step(a)
        assert np.array_equal(o1, o2)
    assert env.things[env.light].pos == clone.things[clone.light].pos


def test_quest_request_is_only_revealed_by_talking():
    env = _make("World3DQuestFetch", obs_size=(128, 128))
    _, info = env.reset(seed=5)
    wanted = env.things[env.want].name
    assert wanted not in info["instruction"] and wanted not in info.get("state_text", "")
    before = None
    for _ in range(200):
        obs, _, _, _, info = env.step(env.oracle_action())
        if env.stage == 1:
            break
        before = obs
    assert wanted in info["feedback"]
    assert np.abs(obs[-20:].astype(int) - before[-20:].astype(int)).mean() > 5  # the speech band is drawn


def test_wrong_item_fails_collect_colour():
    env = _make("World3DCollectColour")
    env.reset(seed=6)
    wrong = next(i for i, e in enumerate(env.things) if e.kind == "item" and i not in env.wanted)
    x, y = env.things[wrong].pos
    for h in range(4):
        env.sim.set_pose(x - np.cos(h * np.pi / 2), y - np.sin(h * np.pi / 2), h * np.pi / 2)
        env._read_pose()
        if env.facing_thing() == wrong and env.layout.walls[env.agent] == 0:
            break
    assert env.facing_thing() == wrong
    _, reward, term, _, info = env.step(ACT["interact"])
    assert term and not info["success"] and reward == 0.0


@pytest.mark.parametrize("name", ["World3DQuestChain", "World3DDoorsMixed", "World3DTrapCorner", "World3DPatrolRooms"])
def test_oracle_succeeds_on_more_seeds(name):
    budget = gymv_envs.describe(gymv_envs.task_spec(name).id)["max_episode_steps"]
    for mode in ("discrete", "parametric"):
        env = _make(name, difficulty=2, obs_size=(48, 48), action_mode=mode)
        for seed in range(10, 14):
            assert _oracle_run(env, seed, budget)["success"], (name, mode, seed)


def test_rendering_survives_a_human_window_closing():
    """SDL terminates the process's shared EGL display when its window closes; worlds recover."""
    human = gym.make("GymV/World3DOneRoom-v2", render_mode="human", obs_size=SMALL)
    human.reset(seed=0)
    human.close()
    env = _make("World3DOneRoom")
    obs, _ = env.reset(seed=0)
    assert obs.std() > 0


def test_frames_do_not_depend_on_other_sizes_rendered_in_between():
    """Envs of several sizes share one GL context; each render must use its own framebuffer."""
    sizes = ((48, 48), (32, 32), (84, 84))
    envs = [gym.make("GymV/World3DCollectColour-v1", obs_size=size).unwrapped for size in sizes]
    for env in envs:
        env.reset(seed=0)
    first = [env.render_view("front") for env in envs]
    for env, frame in zip(reversed(envs), reversed(first)):
        for other in envs:
            other.render_view("left")
        assert np.array_equal(env.render_view("front"), frame), env.obs_size
    for env in envs:
        env.close()


def test_sign_textures_of_two_levels_do_not_bleed():
    """Two worlds of one size share a GL context: each uploads its own words before it renders."""
    a, b = _make("World3DSignPad", obs_size=(96, 96)), _make("World3DSignPad", obs_size=(96, 96))
    a.reset(seed=0)
    frame = a.render()
    b.reset(seed=1)
    a._sky = None
    assert np.array_equal(a._draw(), frame)


# ----------------------------------------------------------------------------- offline VQA
def test_next_view_questions_show_what_each_move_really_shows():
    env = _make("World3DTrapCorner", obs_size=(96, 128))
    asked = 0
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        questions = env.vqa_questions(np.random.default_rng(seed))
        assert np.array_equal(env.render(), obs)  # asking steps copies, never the env
        for q in questions:
            if q["type"] != "next_view":  # clips, steps left, stuck: tested in test_vqa.py
                continue
            asked += 1
            images = q["option_images"]
            assert len(images) == 4 and 0 <= q["answer"] < 4
            assert len({im.tobytes() for im in images}) == 4
            name = q["prompt"].split("'")[1]
            seen, *_ = pickle.loads(pickle.dumps(env)).step(env.action_names.index(name))
            assert [np.array_equal(seen, im) for im in images] == [i == q["answer"] for i in range(4)]
    assert asked >= 3
    parametric = _make("World3DTrapCorner", action_mode="parametric")
    parametric.reset(seed=0)  # no named moves to show: no next-view question
    assert not [q for q in parametric.vqa_questions(np.random.default_rng(0)) if q["type"] == "next_view"]


# ----------------------------------------------------------------------------- regressions (issue 18)
def test_one_room_ends_in_front_of_the_box_facing_it_not_beside_it():
    env = _make("World3DOneRoom")
    env.reset(seed=0)
    assert env.finish == "face" and env.layout.walls.shape == (16, 16)  # a 14 m room at difficulty 2
    box = env.things[0]
    bx, by = box.pos
    free = [(dx, dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if not env.layout.walls[int(np.floor(-(by + dy))), int(np.floor(bx + dx))]]
    dx, dy = free[0]
    toward = float(np.arctan2(-dy, -dx))
    env.sim.set_pose(bx + dx, by + dy, toward + np.pi / 2)  # next to the box, side on
    env._read_pose()
    assert env.near(0) and not env.faces(0)
    _, reward, term, _, info = env.step(ACT["wait"])
    assert not term and reward == 0.0
    env.sim.set_pose(bx + dx, by + dy, toward)               # the same spot, facing it
    env._read_pose()
    _, reward, term, _, info = env.step(ACT["wait"])
    assert term and info["success"] and reward == 1.0


def test_put_next_rooms_drop_region_stops_at_walls():
    """Seed 0, difficulty 2: the landmark stands by a wall; the old drop region reached across it,
    and the oracle dropped and picked up the item there until the budget ran out."""
    for mode in ("discrete", "parametric"):
        env = _make("World3DPutNextRooms", difficulty=2, obs_size=(48, 48), action_mode=mode)
        assert _oracle_run(env, 0, 300)["success"], mode
    env.reset(seed=0)
    mark = env.things[env.marks[0]]
    _, sources, _ = env._goal_test(("drop", env.marks[0]))
    across = np.array([mark.pos[0] + 2.0]), np.array([mark.pos[1]])  # beyond the wall east of it
    assert env.layout.walls[int(np.floor(-mark.pos[1])), int(np.floor(mark.pos[0] + 1))]
    assert not sources(*across)[0] and env._disc(*mark.pos, mark.radius + 2.0)(*across)[0]
