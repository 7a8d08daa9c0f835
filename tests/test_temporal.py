"""Temporal (arcade) ids: what the conformance suite does not check. The ALE conventions really act on
the dynamics (frameskip, sticky actions, the full action set), a hit costs a life, the incremental
(dirty-rectangle) drawing matches a frame drawn from scratch, copies play on identically, and the
scripted oracle outscores a random policy."""

from __future__ import annotations

import copy
import pickle

import gymnasium as gym
import numpy as np
import pytest

from gymv_envs.domains.temporal._arcade import ALE_ACTIONS, controls_of
from gymv_envs.domains.temporal._ledge_physics import EH
from gymv_envs.domains.temporal._ledge_physics import PW as RUNNER_W
from gymv_envs.domains.temporal.invader_wave import PY as INVADER_PY
from gymv_envs.domains.temporal.road_racer import LANE_W, ROAD_X
from gymv_envs.domains.temporal.sky_raid import PY as RAID_PY

NAMES = ("PaddleDuel", "InvaderWave", "LedgeRunner", "RoadRacer", "SkyRaid")
SMALL = (48, 48)

# the player's position, the action that moves it, and how far it moves per simulated frame (difficulty 0)
MOVERS = {
    "PaddleDuel": (lambda u: u.you, "DOWN", 3.0),
    "InvaderWave": (lambda u: u.px, "RIGHT", 1.6),
    "LedgeRunner": (lambda u: u.p[0], "RIGHT", 1.1),
    "RoadRacer": (lambda u: u.x, "RIGHT", 1.2),
    "SkyRaid": (lambda u: u.px, "RIGHT", 1.8),
}


def _env(name: str, seed: int = 0, **kw):
    kw.setdefault("obs_size", SMALL)
    env = gym.make(f"GymV/{name}-v0", **kw).unwrapped
    env.reset(seed=seed)
    return env


def _play(env, actions) -> list[bytes]:
    frames = []
    for a in actions:
        obs, _, term, _, _ = env.step(a)
        frames.append(obs.tobytes())
        if term:
            break
    return frames


def test_controls_of_reads_ale_names():
    assert controls_of("NOOP") == (0, 0, False)
    assert controls_of("UPLEFTFIRE") == (-1, -1, True)
    assert controls_of("DOWNRIGHT") == (1, 1, False)
    assert len(ALE_ACTIONS) == 18 and ALE_ACTIONS[:4] == ("NOOP", "FIRE", "UP", "RIGHT")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("frameskip", [1, 4])
def test_frameskip_runs_that_many_frames(name, frameskip):
    get, move, speed = MOVERS[name]
    env = _env(name, frameskip=frameskip, repeat_action_probability=0.0)
    x0 = get(env)
    env.step(env.action_index(move))
    assert env.frames == frameskip
    assert get(env) - x0 == pytest.approx(frameskip * speed)


@pytest.mark.parametrize("name", NAMES)
def test_sticky_actions_repeat_the_previous_action(name):
    get, move, _ = MOVERS[name]
    stuck = _env(name, repeat_action_probability=1.0)   # the first action (NOOP) is repeated for ever
    x0 = get(stuck)
    for _ in range(3):
        stuck.step(stuck.action_index(move))
    assert get(stuck) == x0 and stuck.sticky_frames == 12
    # at 0.25 about a quarter of the frames repeat, and those draws are fixed by the seed
    def walk(seed: int, p: float) -> tuple[int, int, list[float]]:
        env, path = _env(name, seed=seed, repeat_action_probability=p), []
        for i in range(60):
            env.step(env.action_index(move if i % 4 < 2 else "NOOP"))
            path.append(get(env))
            if env._terminated:
                break
        return env.sticky_frames, env.frames, path

    sticky = walk(3, 0.25)
    assert walk(3, 0.25) == sticky
    assert 0.12 < sticky[0] / sticky[1] < 0.4
    plain = walk(3, 0.0)
    assert plain[0] == 0 and plain[2] != sticky[2], "sticky actions do not change the dynamics"


@pytest.mark.parametrize("name", NAMES)
def test_full_action_space_is_ales_eighteen(name):
    full = _env(name, full_action_space=True, repeat_action_probability=0.0)
    minimal = _env(name, repeat_action_probability=0.0)
    assert full.action_space.n == 18 and full.action_names == ALE_ACTIONS
    assert minimal.action_space.n == len(minimal.minimal_actions) < 18
    # a minimal action does the same in both sets; one the game does not use acts as NOOP
    get, move, _ = MOVERS[name]
    full.step(full.action_index(move))
    minimal.step(minimal.action_index(move))
    assert get(full) == get(minimal)
    unused = next(a for a in ALE_ACTIONS if a not in full.minimal_actions)
    a, b = _env(name, full_action_space=True, repeat_action_probability=0.0), _env(name, repeat_action_probability=0.0)
    assert _play(a, [ALE_ACTIONS.index(unused)] * 5) == _play(b, [b.action_index("NOOP")] * 5)


def _force_hit(name: str, env) -> None:
    """Put a threat right on the player."""
    if name == "InvaderWave":
        env.bombs = [[env.px, INVADER_PY - 1.0]]
    elif name == "SkyRaid":
        env.safe, env.bullets = 0, [[env.px, RAID_PY + 2.0, 0.0, 0.0]]
    elif name == "RoadRacer":
        lane = int((env.x - ROAD_X) // LANE_W)
        env.cars.append([lane, env.dist + 1.0, 0.0, 0])
    elif name == "LedgeRunner":
        x, y = env.p[0], env.p[1]
        env.safe = 0
        env.foes.append([x + RUNNER_W / 2, 1.0, x, x + RUNNER_W, y])
        assert y > env.foes[-1][4] - EH


@pytest.mark.parametrize("name", ["InvaderWave", "LedgeRunner", "RoadRacer", "SkyRaid"])
def test_a_hit_costs_a_life(name):
    env = _env(name, repeat_action_probability=0.0)
    assert env.lives == 3
    _force_hit(name, env)
    _, _, term, _, info = env.step(env.action_index("NOOP"))
    assert info["lives"] == 2 and not term and "2 lives left" in info["feedback"]
    for _ in range(2):  # the third hit ends the game, unsuccessfully
        env.safe = 0
        _force_hit(name, env)
        _, _, term, _, info = env.step(env.action_index("NOOP"))
    assert info["lives"] == 0 and term and not info["success"]


def test_paddle_duel_a_missed_ball_costs_a_point():
    env = _env("PaddleDuel", repeat_action_probability=0.0)
    env.pause, env.bx, env.by, env.vx, env.vy = 0, 158.0, 20.0, 3.0, 0.0   # past the paddle, far from it
    _, reward, term, _, info = env.step(env.action_index("NOOP"))
    assert reward == -1.0 and env.points == [0, 1] and not term and "opponent won" in info["feedback"]


@pytest.mark.parametrize("name", NAMES)
def test_incremental_frames_match_a_fresh_drawing(name):
    """Dirty-rectangle drawing (only what moved is restored) gives exactly the frame drawn from scratch."""
    env = _env(name, seed=2, obs_size=(84, 84))
    rng = np.random.default_rng(0)
    for _ in range(80):
        obs, _, term, _, _ = env.step(int(rng.integers(env.action_space.n)))
        if term:
            break
    fresh = pickle.loads(pickle.dumps(env))   # transient caches dropped: drawn from nothing
    assert np.array_equal(obs, fresh._observe())


@pytest.mark.parametrize("name", NAMES)
def test_copies_play_on_identically(name):
    env = _env(name, seed=5)
    for _ in range(30):
        env.step(env.oracle_action())
    rng = np.random.default_rng(1)
    actions = [int(rng.integers(env.action_space.n)) for _ in range(40)]
    clone, pickled = copy.deepcopy(env), pickle.loads(pickle.dumps(env))
    ref = _play(env, actions)
    assert _play(clone, actions) == ref and _play(pickled, actions) == ref


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_episode_other_seed_other(name):
    rng = np.random.default_rng(7)
    actions = [int(rng.integers(6)) for _ in range(50)]

    def trace(seed):
        env = _env(name, seed=seed)
        return _play(env, [a % env.action_space.n for a in actions]), env.sticky_frames

    assert trace(11) == trace(11)
    assert trace(11) != trace(12)


def _episode_return(env, policy) -> float:
    total, steps = 0.0, 0
    while not env._terminated and steps < env.spec_budget:
        _, r, *_ = env.step(policy(env))
        total, steps = total + r, steps + 1
    return total


@pytest.mark.parametrize("name", NAMES)
def test_oracle_outscores_random(name):
    budget = gym.spec(f"GymV/{name}-v0").max_episode_steps
    oracle, rand = _env(name, seed=1), _env(name, seed=1)
    oracle.spec_budget = rand.spec_budget = budget
    rng = np.random.default_rng(0)
    best = _episode_return(oracle, lambda e: e.oracle_action())
    chance = _episode_return(rand, lambda e: int(rng.integers(e.action_space.n)))
    assert oracle.lives > 0 or name == "PaddleDuel"
    assert best == oracle.target and chance < 0.5 * best


@pytest.mark.parametrize("kwargs", [{"frameskip": 0}, {"frameskip": 2.5}, {"repeat_action_probability": 1.5},
                                    {"full_action_space": "yes"}])
def test_bad_arcade_arguments_name_valid_values(kwargs):
    with pytest.raises(ValueError, match="valid values"):
        gym.make("GymV/InvaderWave-v0", **kwargs)
