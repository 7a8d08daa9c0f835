"""Gridworld: MiniGrid semantics of the shared engine, the egocentric view, the planner (what the
conformance suite does not check)."""

from __future__ import annotations

from collections import deque

import gymnasium as gym
import numpy as np
import pytest

from gymv_envs.domains.gridworld import _world as W
from gymv_envs.domains.gridworld._world import (
    GOAL,
    LAVA,
    OBSTACLE,
    WALL,
    Level,
    ball,
    box,
    door,
    key,
)


def _env(env_id="GymV/GridDoorKey-v0", **kwargs):
    env = gym.make(env_id, obs_size=(64, 64), **kwargs).unwrapped
    env.reset(seed=0)
    return env


def _room(env, level: Level, carrying=None):
    """Put ``env`` in a hand-made world."""
    env.rows, env.cols = level.rows, level.cols
    env.pos, env.dir, env.carrying, env.grid = level.agent, level.dir, carrying, tuple(level.cells)
    env._plan = None


def _step(env, name):
    obs, reward, term, trunc, info = env.step(env.action_names.index(name))
    return reward, term, info


def _open_room(n=7, r=3, c=3, d=0) -> Level:
    lv = Level(n, n)
    lv.agent, lv.dir = lv.idx(r, c), d
    return lv


def test_forward_into_a_wall_or_closed_door_is_a_valid_step_that_changes_nothing():
    env = _env()
    lv = _open_room(5, 1, 3, 0)  # facing east, the border wall ahead
    lv[2, 3] = door("red", "closed")
    _room(env, lv)
    before = env.state
    reward, term, info = _step(env, "forward")
    assert env.state == before and not info["invalid_action"] and reward == 0.0 and not term
    assert "blocked by a wall" in info["feedback"]
    _step(env, "right")  # now facing south, the closed door ahead
    assert env.dir == 1
    before = env.state
    _, _, info = _step(env, "forward")
    assert env.state == before and not info["invalid_action"] and "closed red door" in info["feedback"]
    _step(env, "toggle")
    assert env.grid[lv.idx(2, 3)] == door("red", "open")
    _step(env, "forward")
    assert env.pos == lv.idx(2, 3), "the agent stands on an open door"


def test_locked_door_needs_the_key_of_its_colour():
    env = _env()
    lv = _open_room(5, 2, 1, 0)
    lv[2, 2] = door("blue", "locked")
    _room(env, lv)
    for carrying in (None, key("red"), ball("blue")):
        env.carrying = carrying
        _, _, info = _step(env, "toggle")
        assert env.grid[lv.idx(2, 2)][2] == "locked" and not info["invalid_action"]
    env.carrying = key("blue")
    _step(env, "toggle")
    assert env.grid[lv.idx(2, 2)] == door("blue", "open")
    _step(env, "toggle")
    assert env.grid[lv.idx(2, 2)] == door("blue", "closed"), "an unlocked door closes like any other"


def test_pickup_drop_and_boxes():
    env = _env()
    lv = _open_room(5, 2, 1, 0)
    lv[2, 2] = key("green")
    lv[1, 1] = box("purple", ball("red"))
    _room(env, lv)
    _step(env, "drop")
    assert env.grid[lv.idx(2, 2)] == key("green"), "nothing carried: drop does nothing"
    _step(env, "pickup")
    assert env.carrying == key("green") and env.grid[lv.idx(2, 2)] is None
    _step(env, "left")  # facing north: the box
    _, _, info = _step(env, "pickup")
    assert env.carrying == key("green") and "hands full" in info["feedback"]
    _step(env, "drop")
    assert env.carrying == key("green"), "the box's cell is not free"
    _step(env, "toggle")
    assert env.grid[lv.idx(1, 1)] == ball("red"), "an opened box leaves what it held"


def test_absolute_moves_turn_then_step():
    env = _env(action_mode="absolute")
    lv = _open_room(5, 1, 1, 0)
    _room(env, lv)
    _step(env, "up")  # the wall is north: the agent only turns
    assert env.pos == lv.idx(1, 1) and env.dir == 3
    _step(env, "down")
    assert env.pos == lv.idx(2, 1) and env.dir == 1
    _step(env, "right")
    assert env.pos == lv.idx(2, 2) and env.dir == 0


def test_lava_ends_the_episode_and_the_goal_succeeds():
    env = _env()
    lv = _open_room(5, 2, 2, 0)
    lv[2, 3], lv[3, 2] = LAVA, GOAL
    _room(env, lv)
    reward, term, info = _step(env, "forward")
    assert term and reward == 0.0 and not info["success"]
    env = _env()
    _room(env, lv)
    _step(env, "right")
    reward, term, info = _step(env, "forward")
    assert term and reward == 1.0 and info["success"]


def test_partial_view_is_egocentric_and_turns_with_the_agent():
    env = _env(view="agent")
    assert len(env._board_keys()) == 7 and all(len(row) == 7 for row in env._board_keys())
    lv = _open_room(9, 4, 4, 0)
    lv[4, 6] = ball("red")      # two cells east
    lv[6, 4] = key("blue")      # two cells south
    _room(env, lv)
    for d, ahead, right in ((0, ball("red"), key("blue")), (1, key("blue"), None), (2, None, None), (3, None, ball("red"))):
        env.dir = d
        keys = env._board_keys()
        assert keys[6][3][0] == "agent" and keys[6][3][1] == 3, "the agent sits bottom centre, facing up"
        assert keys[4][3] == ahead, f"facing {W.DIR_NAMES[d]}: two cells ahead"
        assert keys[6][5] == right, f"facing {W.DIR_NAMES[d]}: two cells to the right"
    # the frames differ as the agent turns, and agent_view_size sets the window
    env.dir = 0
    east = env._draw().copy()
    env.dir = 1
    assert not np.array_equal(east, env._draw())
    small = _env(view="agent", agent_view_size=5)
    assert len(small._board_keys()) == 5


def test_walls_hide_what_is_behind_them():
    env = _env(view="agent")
    lv = _open_room(11, 8, 5, 3)  # facing north
    lv.hwall(6, 1, 9)            # a wall two cells ahead, right across
    lv[4, 5] = ball("green")     # behind it
    _room(env, lv)
    keys = env._board_keys()
    assert keys[4][3] == WALL and all(keys[i][j] == "hidden" for i in range(4) for j in range(7))
    env.grid = W._put(env.grid, lv.idx(6, 5), door("red", "open"))
    keys = env._board_keys()
    assert keys[2][3] == ball("green"), "an open door lets the agent see through"


def test_dynamic_obstacle_collision_fails():
    env = _env("GymV/GridDynamicObstacles-v0")
    lv = _open_room(6, 2, 2, 0)
    lv[2, 3], lv[4, 4] = OBSTACLE, GOAL
    _room(env, lv)
    reward, term, info = _step(env, "forward")
    assert term and not info["success"] and reward == 0.0


def test_red_blue_doors_order_matters():
    for first, success in (("red", True), ("blue", False)):
        env = _env("GymV/GridRedBlueDoors-v0", difficulty=0)
        red, blue = env.red_at, env.blue_at
        grid = list(env.grid)
        if first == "red":
            grid[red] = door("red", "open")
        env.grid = tuple(grid)
        r, c = divmod(blue, env.cols)
        env.pos, env.dir = (blue + 1, 2) if c == 1 else (blue - 1, 0)
        reward, term, info = _step(env, "toggle")
        assert term and info["success"] is success and reward == float(success)


def test_memory_wrong_end_fails():
    env = _env("GymV/GridMemory-v0", difficulty=0)
    env.pos, env.dir = (env.win_at + env.lose_at) // 2, (3 if env.lose_at < env.win_at else 1)
    reward, term, info = _step(env, "forward")
    assert term and not info["success"]


@pytest.mark.parametrize("bad", [{"view": "top"}, {"agent_view_size": 4}, {"agent_view_size": True},
                                 {"action_mode": "relative"}])
def test_bad_arguments_name_the_valid_values(bad):
    with pytest.raises(ValueError, match="valid"):
        gym.make("GymV/GridDoorKey-v0", **bad)


def _shortest(env) -> int:
    """Fewest actions to success by a breadth-first search over whole world states (every action)."""
    start = env.state
    seen, queue = {start}, deque([(start, 0)])
    while queue:
        s, n = queue.popleft()
        for a in env.action_names:
            t, event = W.world_step(s, a, env.action_mode, env.cols)
            v = env._verdict(t[0], t[2], t[3], event)
            if v:
                return n + 1
            if v is None and t not in seen:
                seen.add(t)
                queue.append((t, n + 1))
    raise AssertionError("no solution")


@pytest.mark.parametrize("env_id", ["GymV/GridDoorKey-v0", "GymV/GridUnlockPickup-v0", "GymV/GridRedBlueDoors-v0"])
@pytest.mark.parametrize("mode", W.ACTION_MODES)
def test_planner_is_close_to_a_brute_force_optimum(env_id, mode):
    for seed in range(3):
        env = gym.make(env_id, difficulty=0, action_mode=mode, obs_size=(48, 48)).unwrapped
        env.reset(seed=seed)
        best, plan = _shortest(env), W.plan(env, env.state)
        assert plan is not None and best <= len(plan) <= best + 6, (seed, best, len(plan))


@pytest.mark.parametrize("env_id", ["GymV/GridKeyCorridor-v0", "GymV/GridObstructedMaze-v0", "GymV/GridMemory-v0"])
def test_oracle_plays_the_agent_view_too(env_id):
    env = gym.make(env_id, difficulty=2, view="agent", obs_size=(48, 48))
    for seed in range(2):
        env.reset(seed=seed)
        for _ in range(env.spec.max_episode_steps):
            *_, term, trunc, info = env.step(env.unwrapped.oracle_action())
            if term or trunc:
                break
        assert info["success"]
