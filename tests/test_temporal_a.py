"""RiverCrossing, AsteroidField, MissileDefence, LunarLander: the game rules the conformance suite does not
check (collisions, scoring, lives), the incremental drawing, and the scripted oracle at every difficulty."""

from __future__ import annotations

import pickle

import gymnasium as gym
import numpy as np
import pytest

from gymv_envs.domains.temporal import river_crossing as rc

SMALL = (48, 48)
NAMES = ("RiverCrossing", "AsteroidField", "MissileDefence", "LunarLander")


def _env(name: str, seed: int = 0, **kw):
    kw.setdefault("obs_size", SMALL)
    kw.setdefault("repeat_action_probability", 0.0)
    env = gym.make(f"GymV/{name}-v0", **kw).unwrapped
    env.reset(seed=seed)
    return env


def _oracle_episode(env) -> tuple[bool, float]:
    budget, total, info = gym.spec(f"GymV/{type(env).__name__}-v0").max_episode_steps, 0.0, {}
    for _ in range(budget):
        _, r, term, _, info = env.step(env.oracle_action())
        total += r
        if term:
            break
    return bool(info.get("success")), total


# -- RiverCrossing
def test_river_crossing_hops_once_per_press_and_scores_new_rows():
    env = _env("RiverCrossing", frameskip=1)
    up, noop = env.action_index("UP"), env.action_index("NOOP")
    env.lanes = {row: (0.0, []) for row in env.lanes}   # an empty road and a dry river bed of no logs
    env.lanes.update({row: (0.0, [(0.0, rc.TRACK)]) for row in rc.RIVER})  # one endless still log per lane
    _, reward, *_ = env.step(up)
    assert env.row == rc.START - 1 and reward == 1.0
    _, reward, *_ = env.step(up)        # held: no second hop
    assert env.row == rc.START - 1 and reward == 0.0
    env.step(noop)
    env.step(up)
    assert env.row == rc.START - 2 and env.score == 2.0
    env.step(env.action_index("DOWN"))
    _, reward, *_ = env.step(up)        # back up to a row already reached: no points
    assert env.row == rc.START - 2 and reward == 0.0
    for _ in range(rc.START - 2):
        env.step(noop)
        _, reward, term, _, info = env.step(up)
    assert env.crossed == 1 and env.row == rc.START and reward == 1.0 + rc.BONUS and not term
    assert env.score == rc.START + rc.BONUS and "home" in info["feedback"]


def test_river_crossing_car_water_and_drift_cost_lives():
    env = _env("RiverCrossing", frameskip=1)
    env.lanes[rc.START - 1] = (0.0, [((env.x + rc.MARGIN - 5.0) % rc.TRACK, 10.0)])   # a car in the next row
    _, _, term, _, info = env.step(env.action_index("UP"))
    assert info["lives"] == 2 and env.row == rc.START and "car" in info["feedback"] and not term
    env.row, env.last = rc.MEDIAN, (0, 0)
    env.lanes[rc.MEDIAN - 1] = (0.0, [((env.x + rc.MARGIN + 30.0) % rc.TRACK, 10.0)])  # water under the frog
    _, _, _, _, info = env.step(env.action_index("UP"))
    assert info["lives"] == 1 and "river" in info["feedback"]
    env.row, env.x, env.last = rc.MEDIAN - 1, rc.FW - 0.5, (0, 0)
    env.lanes[rc.MEDIAN - 1] = (1.0, [(0.0, rc.TRACK)])                             # a log drifting off the edge
    _, _, term, _, info = env.step(env.action_index("NOOP"))
    assert info["lives"] == 0 and term and not info["success"] and "carried" in info["feedback"]


def test_river_crossing_frog_rides_its_log():
    env = _env("RiverCrossing", frameskip=1)
    row = rc.MEDIAN - 1
    env.lanes[row] = (0.5, [(0.0, rc.TRACK)])
    env.row, env.x = row, 60.0
    for _ in range(4):
        env.step(env.action_index("NOOP"))
    assert env.x == pytest.approx(62.0) and env.lives == 3


@pytest.mark.parametrize("name", NAMES)
def test_incremental_frames_match_a_fresh_drawing(name):
    env = _env(name, seed=2, obs_size=(84, 84), repeat_action_probability=0.25)
    rng = np.random.default_rng(0)
    for _ in range(80):
        obs, _, term, _, _ = env.step(int(rng.integers(env.action_space.n)))
        if term:
            break
    fresh = pickle.loads(pickle.dumps(env))
    assert np.array_equal(obs, fresh._observe())
    env._dirty = True   # what the speed benchmark sets before timing a full redraw
    assert np.array_equal(env._draw(), obs)


@pytest.mark.parametrize("name", NAMES)
def test_ale_conventions_frameskip_and_full_action_space(name):
    from gymv_envs.domains.temporal._arcade import ALE_ACTIONS

    env = _env(name, frameskip=3)
    env.step(0)
    assert env.frames == 3
    full, minimal = _env(name, full_action_space=True), _env(name)
    assert full.action_space.n == 18 and minimal.action_space.n == len(minimal.minimal_actions) < 18
    unused = ALE_ACTIONS.index(next(a for a in ALE_ACTIONS if a not in full.minimal_actions))
    frames = [full.step(unused)[0] for _ in range(5)]
    assert all(np.array_equal(f, minimal.step(0)[0]) for f in frames)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_oracle_reaches_the_target_with_sticky_actions(name, difficulty):
    env = _env(name, seed=3, difficulty=difficulty, repeat_action_probability=0.25)
    success, total = _oracle_episode(env)
    assert success and total == env.target


# -- AsteroidField
def test_asteroid_field_shot_splits_and_scores_by_size():
    from gymv_envs.domains.temporal import asteroid_field as af

    env = _env("AsteroidField", frameskip=1)
    env.rocks = [[env.x, env.y - 20.0, 0.0, 0.0, 0]]          # a still large asteroid straight ahead
    reward = 0.0
    for _ in range(8):
        reward += env.step(env.action_index("FIRE"))[1]
        if len(env.rocks) > 1:
            break
    assert reward == af.POINTS[0] and [r[4] for r in env.rocks] == [1, 1] and env.ammo == af.AMMO - 1
    env.rocks = [[env.x, env.y - 20.0, 0.0, 0.0, 2], [10.0, 10.0, 0.0, 0.0, 0]]  # a small one ahead: destroyed
    env.cool = 0
    for _ in range(8):
        reward += env.step(env.action_index("FIRE"))[1]
        if len(env.rocks) == 1:
            break
    assert reward == af.POINTS[0] + af.POINTS[2] and len(env.rocks) == 1


def test_asteroid_field_ramming_costs_a_life_and_scores_nothing():
    env = _env("AsteroidField", frameskip=1)
    env.rocks = [[env.x + 3.0, env.y, 0.0, 0.0, 0], [10.0, 10.0, 0.0, 0.0, 0]]
    _, reward, term, _, info = env.step(env.action_index("NOOP"))
    assert reward == 0.0 and info["lives"] == 2 and not term and env.safe > 0
    assert sorted(r[4] for r in env.rocks) == [0, 1, 1]   # the rammed asteroid still splits


def test_asteroid_field_wraps_around_and_ends_out_of_ammunition():
    env = _env("AsteroidField", frameskip=1)
    env.x, env.y, env.vx, env.vy = 159.5, 1.0, 1.0, -1.5
    env.rocks = [[80.0, 75.0, 0.0, 0.0, 0]]
    env.step(env.action_index("NOOP"))
    assert env.x < 2.0 and env.y > 148.0
    env.ammo, env.shots = 0, []
    _, _, term, _, info = env.step(env.action_index("FIRE"))
    assert term and not info["success"] and "ammunition" in info["feedback"]


# -- MissileDefence
def test_missile_defence_blast_destroys_missiles_and_scores():
    from gymv_envs.domains.temporal import missile_defence as md

    env = _env("MissileDefence", frameskip=1)
    env.missiles, env.clock = [[env.cx, env.cy - 6.0, 0.0, 0.3, env.cx, 0.0, 0.0]], -1000
    env.step(env.action_index("FIRE"))
    assert len(env.shots) == 1 and env.shots[0][2:] == [env.cx, env.cy]
    total = 0.0
    for _ in range(60):
        total += env.step(env.action_index("NOOP"))[1]
    assert total == 1.0 and not env.missiles and env.lives == len(md.CITIES)


def test_missile_defence_a_missile_on_the_ground_destroys_its_city():
    from gymv_envs.domains.temporal import missile_defence as md

    env = _env("MissileDefence", frameskip=1)
    for i, x in enumerate(md.CITIES):
        env.missiles = [[x, md.GROUND - 0.2, 0.0, 0.5, x, 0.0, 0.0]]
        _, reward, term, _, info = env.step(env.action_index("NOOP"))
        assert not env.standing[i] and info["lives"] == len(md.CITIES) - i - 1 and reward == 0.0
        assert "city" in info["feedback"]
    assert term and not info["success"]


def test_missile_defence_splitting_missiles_at_difficulty_2():
    env = _env("MissileDefence", frameskip=1, difficulty=2)
    env.missiles = [[80.0, 59.9, 0.0, 0.5, 80.0, 0.0, 1.0]]
    env.step(env.action_index("NOOP"))
    assert len(env.missiles) == 2 and all(m[6] == 0.0 for m in env.missiles)


# -- LunarLander
def _over_pad(env, vx: float = 0.0, vy: float = 0.2, a: float = 0.0) -> None:
    from gymv_envs.domains.temporal import lunar_lander as ll

    env.x, env.y = env.pad_x + env.pad_w / 2, env.pad_y - ll.HALF_H - 0.1
    env.vx, env.vy, env.a = vx, vy, a


def test_lunar_lander_soft_landing_scores_and_a_new_lander_starts():
    env = _env("LunarLander", frameskip=1)
    _over_pad(env)
    _, reward, term, _, info = env.step(env.action_index("NOOP"))
    assert reward == 1.0 and info["lives"] == 3 and not term and "soft landing" in info["feedback"]
    assert env.y < 20 and env.vy == 0.0


@pytest.mark.parametrize("how", ["hard", "sideways", "tilted", "off"])
def test_lunar_lander_rough_landings_crash(how):
    from gymv_envs.domains.temporal import lunar_lander as ll

    env = _env("LunarLander", frameskip=1)
    _over_pad(env, **{"hard": {"vy": 0.8}, "sideways": {"vx": 0.5}, "tilted": {"a": 0.4}, "off": {}}[how])
    if how == "off":   # well clear of the pad, just above the ground there
        env.x = env.pad_x - 20.0 if env.pad_x > 30 else env.pad_x + env.pad_w + 20.0
        env.y = min(env.ground(env.x + d) for d in (-ll.HALF_W, 0.0, ll.HALF_W)) - ll.HALF_H - 0.1
    _, reward, _, _, info = env.step(env.action_index("NOOP"))
    assert reward == 0.0 and info["lives"] == 2 and "crashed" in info["feedback"]


def test_lunar_lander_engine_pushes_along_the_tilt():
    env = _env("LunarLander", frameskip=1)
    env.vx = env.vy = 0.0
    env.a = 0.5
    env.step(env.action_index("UP"))
    assert env.vx > 0 and env.vy < env.gravity
    env.a, env.vx = 0.0, 0.0
    env.step(env.action_index("RIGHT"))
    assert env.a > 0 and env.vx == 0.0
