"""What is specific to the world3d domain (real MuJoCo rendering, headless)."""

from __future__ import annotations

import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs

pytest.importorskip("mujoco")

SMALL = (64, 64)
ACT = {name: i for i, name in enumerate(("move_forward", "move_backward", "rotate_left", "rotate_right",
                                          "strafe_left", "strafe_right", "interact", "wait"))}


def _make(name: str, **kwargs) -> gym.Env:
    kwargs.setdefault("obs_size", SMALL)
    return gym.make(gymv_envs.task_spec(name).id, **kwargs).unwrapped


def test_at_least_forty_ids_with_both_action_modes_and_views():
    ids = gymv_envs.ids(domain="world3d")
    assert len(ids) >= 40
    for env_id in ids:
        d = gymv_envs.describe(env_id)
        assert d["action_modes"] == ["discrete", "parametric"]
        assert d["views"] == ["front", "left", "right"]
        assert d["instruction_levels"] == ["goal", "step", "visual"]
        assert 180 <= d["max_episode_steps"] <= 360
        assert d["extras"] == ["world3d"]


def test_importing_gymv_envs_does_not_import_mujoco():
    code = "import sys, gymv_envs; gymv_envs.ids(); assert 'mujoco' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_views_are_real_cameras():
    env = _make("World3DGoToRooms")
    with pytest.raises(gym.error.ResetNeeded):
        env.render_view("left")
    obs, _ = env.reset(seed=0)
    left, right = env.render_view("left"), env.render_view("right")
    assert left.shape == right.shape == obs.shape
    assert not np.array_equal(left, obs) and not np.array_equal(right, obs) and not np.array_equal(left, right)
    # turning left brings the left camera's scene to the front
    turned, *_ = env.step(ACT["rotate_left"])
    assert np.abs(turned.astype(int) - left.astype(int)).mean() < np.abs(turned.astype(int) - right.astype(int)).mean()
    with pytest.raises(ValueError, match="supported views"):
        env.render_view("top")


@pytest.mark.parametrize("arg,value", [("fov", 10), ("fov", 200.0), ("camera_height", 3.0), ("pitch", -90),
                                       ("pitch", "up"), ("stuck_after", 1), ("stuck_after", 2.5)])
def test_camera_and_stuck_arguments_are_validated(arg, value):
    with pytest.raises(ValueError, match="valid values"):
        _make("World3DGoToLandmark", **{arg: value})


def test_camera_arguments_change_the_picture():
    base = _make("World3DGoToLandmark").reset(seed=1)[0]
    for kwargs in ({"pitch": 20.0}, {"camera_height": 0.4}, {"fov": 110.0}):
        other = _make("World3DGoToLandmark", **kwargs).reset(seed=1)[0]
        assert not np.array_equal(base, other), kwargs


def test_worlds_render_without_shadows_or_multisampling():
    env = _make("World3DFindExit")
    env.reset(seed=0)
    env.render_view("front")
    model = env._renderer.model
    assert model.vis.quality.shadowsize == 0 and model.vis.quality.offsamples == 0
    assert not model.light_castshadow.any()


def test_stuck_detector_counts_steps_without_moving():
    env = _make("World3DGoToLandmark", stuck_after=4)
    env.reset(seed=2)
    for _ in range(4):  # face a wall: turn until the square ahead is blocked
        if env.layout.walls[env.agent[0] + [0, -1, 0, 1][env.heading], env.agent[1] + [1, 0, -1, 0][env.heading]]:
            break
        env.heading = (env.heading + 1) % 4
    while True:  # walk to the wall
        _, _, term, _, info = env.step(ACT["move_forward"])
        if info["invalid_action"] or term:
            break
    if term:
        pytest.skip("walked onto the goal")
    flags = [env.step(ACT["move_forward"])[4]["stuck"] for _ in range(5)]
    assert flags[:2] == [False, False] and flags[-1] is True
    assert env.step(ACT["wait"])[4]["stuck_count"] == 1
    info = env.step(ACT["move_backward"])[4]
    assert info["stuck"] is False


def test_instruction_levels_differ_and_step_directions_lead_to_the_goal():
    goal = _make("World3DGoToRooms").reset(seed=3)[1]["instruction"]
    step = _make("World3DGoToRooms", instruction_level="step").reset(seed=3)[1]["instruction"]
    visual = _make("World3DGoToRooms", instruction_level="visual").reset(seed=3)[1]["instruction"]
    assert "Directions:" in step and "walk forward" in step and "Directions:" not in goal
    assert "of the big" in visual and "You start facing" in visual
    # the directions are the oracle's route: replaying it from the text reaches the goal
    env = _make("World3DGoToRooms", instruction_level="step")
    env.reset(seed=3)
    words = {"walk forward": "move_forward", "step back": "move_backward", "step left": "strafe_left",
             "step right": "strafe_right", "turn left": "rotate_left", "turn right": "rotate_right"}
    route = step.split("Directions: ")[1].split("\n")[0].rstrip(".")
    info = {}
    for phrase in route.split(", "):
        if phrase == "turn around":
            actions = ["rotate_left"] * 2
        else:
            key = next(k for k in words if phrase.startswith(k))
            count = int(phrase.split()[2]) if phrase.split()[-1].startswith("square") else 1
            actions = [words[key]] * count
        for a in actions:
            info = env.step(ACT[a])[4]
    assert info["success"]


def test_parametric_walk_moves_several_squares_and_stops_at_walls():
    env = _make("World3DHallway", action_mode="parametric", difficulty=2)
    env.reset(seed=0)
    env.agent, env.heading = (1, 1), 0   # west end of the hallway, facing east
    env.step(np.array([0, 3, 0, 1], dtype=np.float32))
    assert env.agent == (1, 4)
    env.heading = 2
    _, _, _, _, info = env.step(np.array([0, 4, 0, 1], dtype=np.float32))
    assert env.agent == (1, 1) and "stopped" in info["feedback"] and not info["invalid_action"]
    _, _, _, _, info = env.step(np.array([0, 2, 0, 1], dtype=np.float32))
    assert info["invalid_action"] and env.agent == (1, 1)
    env.step(np.array([1, 2, 0.9, 0], dtype=np.float32))  # two quarter turns to the right
    assert env.heading == 0


def test_escape_needs_the_light_crate_pushed():
    env = _make("World3DEscapeClutter")
    env.reset(seed=4)
    crate = env.things[env.light]
    start = crate.cell
    assert env.dist_to([env.things[env.goal].cell])[env.agent] >= 10**6  # trapped at the start
    for _ in range(240):
        _, _, term, _, info = env.step(env.oracle_action())
        if term:
            break
    assert info["success"] and crate.cell != start


def test_quest_request_is_only_revealed_by_talking():
    env = _make("World3DQuestFetch", obs_size=(128, 128))
    _, info = env.reset(seed=5)
    wanted = env.things[env.want].name
    assert wanted not in info["instruction"] and wanted not in info.get("state_text", "")
    before = None
    for _ in range(200):
        action = env.oracle_action()
        obs, _, _, _, info = env.step(action)
        if env.stage == 1:
            break
        before = obs
    assert wanted in info["feedback"]
    assert np.abs(obs[-20:].astype(int) - before[-20:].astype(int)).mean() > 5  # the caption band is drawn


def test_wrong_item_fails_collect_colour():
    env = _make("World3DCollectColour")
    env.reset(seed=6)
    wrong = next(i for i, e in enumerate(env.things) if e.kind == "item" and i not in env.wanted)
    cell = env.things[wrong].cell
    for h, (dr, dc) in enumerate(((0, 1), (-1, 0), (0, -1), (1, 0))):
        stand = (cell[0] - dr, cell[1] - dc)
        if env.passable(stand) and stand not in env.occupied():
            env.agent, env.heading = stand, h
            break
    _, reward, term, _, info = env.step(ACT["interact"])
    assert term and not info["success"] and reward == 0.0


@pytest.mark.parametrize("name", ["World3DQuestChain", "World3DDoorsMixed", "World3DSignTrail", "World3DPatrolRooms"])
def test_oracle_succeeds_on_more_seeds(name):
    budget = gymv_envs.describe(gymv_envs.task_spec(name).id)["max_episode_steps"]
    for difficulty in (0, 2):
        env = _make(name, difficulty=difficulty, obs_size=(48, 48))
        for seed in range(10, 25):
            env.reset(seed=seed)
            for _ in range(budget):
                _, _, term, _, info = env.step(env.oracle_action())
                if term:
                    break
            assert info["success"], (name, difficulty, seed)


def test_rendering_survives_a_human_window_closing():
    """SDL terminates the process's shared EGL display when its window closes; worlds recover."""
    human = gym.make("GymV/World3DOneRoom-v1", render_mode="human", obs_size=SMALL)
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
