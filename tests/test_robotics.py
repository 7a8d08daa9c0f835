"""What is specific to the robotics domain: real MuJoCo physics, the gripper's two action modes,
the wrist camera, held goals, determinism with physics, and the SB3 stack."""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs

pytest.importorskip("mujoco")

SMALL = (48, 48)
ACT = {name: i for i, name in enumerate(("move_left", "move_right", "move_forward", "move_back", "move_up",
                                          "move_down", "yaw_left", "yaw_right", "open", "close", "wait"))}


def _make(name: str, **kwargs) -> gym.Env:
    kwargs.setdefault("obs_size", SMALL)
    (env_id,) = [i for i in gymv_envs.ids(domain="robotics") if i.rsplit("-v", 1)[0] == f"GymV/{name}"]
    return gym.make(env_id, **kwargs).unwrapped


def _go(env, xyz, closed=None, max_steps=60):
    """Drive the gripper's setpoint to ``xyz`` with discrete moves (a test helper, not the oracle)."""
    if closed is not None and closed != env._closed:
        env.step(ACT["close" if closed else "open"])
    for _ in range(max_steps):
        diff = np.asarray(xyz) - env._sp[:3]
        axis = int(np.argmax(np.abs(diff)))
        if abs(diff[axis]) < 0.01:
            break
        env.step(ACT[(("move_left", "move_right"), ("move_back", "move_forward"), ("move_down", "move_up"))[axis][int(diff[axis] > 0)]])
    for _ in range(3):
        env.step(ACT["wait"])


def test_at_least_sixteen_ids_with_both_action_modes_and_a_wrist_view():
    ids = gymv_envs.ids(domain="robotics")
    assert len(ids) >= 16
    for env_id in ids:
        d = gymv_envs.describe(env_id)
        assert env_id.startswith("GymV/Robot")
        assert d["action_modes"] == ["discrete", "parametric"]
        assert d["views"] == ["front", "wrist"]
        assert d["extras"] == ["robotics"]
        assert {"robotics", "manipulation"} <= set(d["tags"])
        assert d["max_return"] == 2.0


def test_importing_gymv_envs_does_not_import_mujoco():
    code = "import sys, gymv_envs; gymv_envs.ids(); assert 'mujoco' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_a_pushed_block_moves_by_contact_and_only_then():
    env = _make("RobotPickPlace")
    env.reset(seed=0)
    block = env.target
    start = env.pos(block)
    # hover above the table beside the block: nothing touches it, it stays put
    _go(env, (start[0] - 0.10, start[1], 0.03), closed=True)
    assert np.allclose(env.pos(block), start, atol=1e-4)
    # sweep through where it stands, low: the fingers shove it along +x
    for _ in range(7):
        env.step(ACT["move_right"])
    moved = env.pos(block) - start
    assert moved[0] > 0.03, moved
    assert abs(moved[2]) < 0.01  # still on the table


def test_the_gripper_cannot_pass_through_the_table():
    env = _make("RobotReach")
    env.reset(seed=1)
    _go(env, (0.1, 0.2, 0.05), closed=True)
    for _ in range(20):
        env.step(ACT["move_down"])
    assert env._sp[2] < -0.005  # the servo target is below the table top ...
    fingertips = min(env.sim.data.geom_xpos[g][2] - env.sim.model.geom_size[g][2] for g in env.sim.fingers)
    assert fingertips > -0.004  # ... but contacts hold the fingers on it


def test_a_released_block_falls_under_gravity():
    env = _make("RobotLiftHold")
    env.reset(seed=2)
    block = env.target
    for _ in range(100):
        if env.holding(block) and env.extent(block)[0] > 0.08:
            break
        env.step(env.oracle_action())
    assert env.holding(block) and env.extent(block)[0] > 0.08
    env.step(ACT["open"])
    heights = []
    for _ in range(8):
        env.step(ACT["wait"])
        heights.append(env.extent(block)[0])
    assert heights[0] > heights[1] > 0.01  # falling ...
    assert abs(heights[4]) < 0.003  # ... onto the table in about sqrt(2 h / g) = 0.14 s (3 steps of 48 ms)
    assert abs(heights[-1]) < 0.003 and env.speed(block) < 0.01
    assert not env.holding(block)


def test_success_needs_the_goal_held_for_several_steps():
    env = _make("RobotReach")
    env.reset(seed=3)
    for _ in range(80):
        _, _, term, _, info = env.step(env.oracle_action())
        if "goal holds" in info["feedback"]:
            break
    assert "goal holds" in info["feedback"] and not term and not info["success"]
    _, _, term, _, info = env.step(ACT["move_up"])
    _, _, term, _, info = env.step(ACT["move_up"])
    assert not term and not info["success"]  # moved away before it held
    feedback = []
    for _ in range(40):
        _, _, term, _, info = env.step(env.oracle_action())
        feedback.append((info["success"], "goal holds" in info["feedback"]))
        if term:
            break
    assert feedback[-1][0] and [s for s, _ in feedback].count(True) == 1
    assert all(h for _, h in feedback[-env.hold_steps:-1])  # the goal held on the steps before success


def test_lift_hold_counts_its_own_hold_steps():
    env = _make("RobotLiftHold", difficulty=2)
    env.reset(seed=0)
    holds = 0
    while True:
        _, _, term, trunc, info = env.step(env.oracle_action())
        holds = holds + 1 if "goal holds" in info["feedback"] else holds
        if term or trunc:
            break
    assert info["success"] and holds == env.hold_steps - 1 == 7


def test_discrete_and_parametric_moves_shift_the_servo_target():
    env = _make("RobotReach")
    env.reset(seed=0)
    sp = env._sp.copy()
    env.step(ACT["move_right"])
    env.step(ACT["yaw_left"])
    assert np.allclose(env._sp - sp, [0.02, 0, 0, 15.0])
    env = _make("RobotReach", action_mode="parametric")
    assert env.action_space.shape == (5,)
    assert [f[0] for f in env.action_fields] == ["dx", "dy", "dz", "dyaw", "grip"]
    env.reset(seed=0)
    start = env.tcp.copy()
    action = env.parse_action("Action: dx=0.03, dy=-0.02, dz=-0.01, dyaw=20, grip=1")
    assert np.allclose(action, [0.03, -0.02, -0.01, 20, 1])
    env.step(action)
    for _ in range(4):
        env.step(np.zeros(5, dtype=np.float32))
    assert np.allclose(env.tcp - start, [0.03, -0.02, -0.01], atol=0.002)
    assert abs(env.tcp_yaw - 20.0) < 1.0 and env._closed


def test_the_wrist_view_is_a_camera_on_the_gripper():
    env = _make("RobotPickPlace", obs_size=(64, 64))
    with pytest.raises(gym.error.ResetNeeded):
        env.render_view("wrist")
    front, _ = env.reset(seed=0)
    wrist = env.render_view("wrist")
    assert wrist.shape == front.shape and wrist.dtype == np.uint8
    assert not np.array_equal(wrist, front)
    env.step(ACT["move_down"])
    env.step(ACT["move_down"])
    assert not np.array_equal(env.render_view("wrist"), wrist)  # it moves with the gripper
    with pytest.raises(ValueError, match="supported views"):
        env.render_view("left")


def test_same_seed_same_actions_same_frames_with_physics():
    frames = []
    for _ in range(2):
        env = _make("RobotPush", obs_size=(64, 64))
        env.action_space.seed(5)
        obs, _ = env.reset(seed=11)
        trace = [obs.tobytes()]
        for _ in range(25):
            trace.append(env.step(env.oracle_action() if len(trace) % 2 else env.action_space.sample())[0].tobytes())
        frames.append(trace)
    assert frames[0] == frames[1]


def test_a_pickled_env_continues_the_same_physics_mid_fall():
    env = _make("RobotLiftHold")
    env.reset(seed=4)
    while not (env.holding(env.target) and env.extent(env.target)[0] > 0.06):
        env.step(env.oracle_action())
    env.step(ACT["open"])  # the block is now falling
    clone = pickle.loads(pickle.dumps(env))
    assert clone._sim is None  # the MuJoCo model is rebuilt from its MJCF and state
    for a in (ACT["wait"], ACT["move_left"], ACT["wait"], ACT["move_down"]):
        o1, r1, *_ = env.step(a)
        o2, r2, *_ = clone.step(a)
        assert np.array_equal(o1, o2) and r1 == r2
    assert np.array_equal(env.sim.data.qpos, clone.sim.data.qpos)


def test_frames_do_not_depend_on_other_sizes_rendered_in_between():
    sizes = ((48, 48), (32, 40), (84, 84))
    envs = [_make("RobotStack", obs_size=size) for size in sizes]
    first = [env.reset(seed=0)[0] for env in envs]
    for env, frame in zip(reversed(envs), reversed(first)):
        for other in envs:
            other.render_view("wrist")
        assert np.array_equal(env.render_view("front"), frame), env.obs_size


@pytest.mark.parametrize("name,arg,value", [("RobotStack", "count", 4), ("RobotPressButton", "mode", "all"),
                                            ("RobotDrawerOpen", "mode", "half")])
def test_variant_arguments_are_validated(name, arg, value):
    with pytest.raises(ValueError, match="valid values"):
        _make(name, **{arg: value})


def test_wrong_button_fails_and_relations_name_the_target():
    env = _make("RobotPressButton", difficulty=1)
    env.reset(seed=0)
    wrong = env.buttons[1]
    p = env.pos(wrong)
    _go(env, (p[0], p[1], 0.07), closed=True)
    term = False
    for _ in range(6):
        _, _, term, _, info = env.step(ACT["move_down"])
        if term:
            break
    assert term and not info["success"] and "out of turn" in info["feedback"]
    env = _make("RobotPickRelation", difficulty=2)
    env.reset(seed=0)
    assert env.relation in env.instruction and env.anchor.colour in env.instruction
    assert len({b.colour for b in env.blocks}) == 1  # only the relation tells the blocks apart


def test_sb3_env_checker_accepts_the_rl_stack():
    checker = pytest.importorskip("stable_baselines3.common.env_checker")
    from gymv.wrappers import for_sb3

    for mode in ("discrete", "parametric"):
        env = for_sb3(gym.make("GymV/RobotPickPlace-v0", obs_size=(84, 84), action_mode=mode))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            checker.check_env(env, warn=False, skip_render_check=True)
        obs, _ = env.reset(seed=0)
        assert obs.shape[:2] == (84, 84)
        env.close()


def test_next_view_questions_show_what_each_action_really_shows():
    env = gym.make("GymV/RobotPickPlace-v0", obs_size=(96, 96)).unwrapped
    asked = 0
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        for q in env.vqa_questions(np.random.default_rng(seed)):
            if q["type"] != "next_view":  # the wrist clip questions are tested in test_vqa.py
                continue
            asked += 1
            images = q["option_images"]
            assert len({im.tobytes() for im in images}) == 4 and 0 <= q["answer"] < 4
            name = q["prompt"].split("'")[1]
            clone = pickle.loads(pickle.dumps(env))
            for _ in range(5):
                seen, *_ = clone.step(env.action_names.index(name))
            assert [np.array_equal(seen, im) for im in images] == [i == q["answer"] for i in range(4)]
        assert np.array_equal(env.render(), obs)  # asking steps copies, never the env
    assert asked >= 2
    env.close()
