"""FallingBlocks, EndlessRunner, CaveFlyer, GhostMaze: the game rules, the incremental drawing, copies, and
the scripted oracle's success per difficulty (what the conformance suite does not check)."""

from __future__ import annotations

import copy
import pickle

import gymnasium as gym
import numpy as np
import pytest

from gymv_envs.domains.temporal import cave_flyer, endless_runner, falling_blocks, ghost_maze
from gymv_envs.domains.temporal._falling_blocks_well import COLS, ROWS
from gymv_envs.rules.tetromino import TURNS

NAMES = ("FallingBlocks", "EndlessRunner", "CaveFlyer", "GhostMaze")


def _env(name: str, seed: int = 0, **kw):
    kw.setdefault("obs_size", (48, 48))
    env = gym.make(f"GymV/{name}-v0", **kw).unwrapped
    env.reset(seed=seed)
    return env


def _episode(env, policy) -> dict:
    while True:
        _, _, term, _, info = env.step(policy())
        if term:
            return info
        if env.frames > 40000:
            return info


# -- FallingBlocks
def test_blocks_shapes_have_their_distinct_turns():
    assert {k: len(v) for k, v in TURNS.items()} == {"I": 2, "O": 1, "T": 4, "S": 2, "Z": 2, "J": 4, "L": 4}
    assert all(len(set(cells)) == 4 for turns in TURNS.values() for cells in turns)


def test_blocks_full_row_clears_and_scores():
    env = _env("FallingBlocks", repeat_action_probability=0.0)
    env.board[:] = 0
    env.board[ROWS - 1, :] = 8
    env.board[ROWS - 1, 3:7] = 0       # a gap the flat I piece fills
    env.kind, env.rot, env.row, env.col = "I", 0, 0, 3
    env._bg = None
    _, reward, *_ = env.step(env.action_index("FIRE"))
    assert reward == 1.0 and env.lines == 1
    assert not env.board.any(), "the cleared row is gone and nothing else was there"
    fresh = pickle.loads(pickle.dumps(env))
    assert np.array_equal(env._observe(), fresh._observe())


def test_blocks_drop_needs_a_release_and_gravity_follows_difficulty():
    env = _env("FallingBlocks", repeat_action_probability=0.0)
    fire = env.action_index("FIRE")
    env.step(fire)
    dealt = env.dealt
    env.step(fire)                      # FIRE still held: the new piece is not dropped
    assert env.dealt == dealt and env.row <= 1
    rows = []
    for difficulty in (0, 2):
        e = _env("FallingBlocks", repeat_action_probability=0.0, difficulty=difficulty)
        for _ in range(12):
            e.step(0)
        rows.append(e.row)
    assert rows[1] > rows[0] >= 1


def test_blocks_moves_stay_inside_the_well():
    env = _env("FallingBlocks", repeat_action_probability=0.0)
    for _ in range(12):
        env.step(env.action_index("LEFT"))
    assert env.col == 0
    for _ in range(12):
        env.step(env.action_index("RIGHT"))
    assert env.col + max(c for _, c in env.cells) == COLS - 1


# -- EndlessRunner
def test_runner_jump_clears_a_cactus_and_ducking_passes_under_a_bird():
    cactus = [40.0, 7.0, 0.0, 12.0, 0.0]
    bird = [40.0, 9.0, endless_runner.BIRD_LOW, endless_runner.BIRD_HIGH, 1.0]

    def run(obstacle, jump_at=None, duck=False):
        p, obs = [0.0, 0.0], [obstacle[:]]
        for t in range(40):
            if endless_runner.advance(p, obs, 1.5, t == jump_at, duck) < 0:
                return False
        return True

    assert not run(cactus) and run(cactus, jump_at=0)
    assert not run(bird) and run(bird, duck=True) and not run(bird, jump_at=0)


def test_runner_hit_costs_a_life():
    env = _env("EndlessRunner", repeat_action_probability=0.0)
    env.obs = [[endless_runner.RX + 12, 7.0, 0.0, 12.0, 0.0]]
    env.clock = 999
    feedback = []
    for _ in range(4):
        _, _, _, _, info = env.step(0)
        feedback.append(info["feedback"])
    assert info["lives"] == 2 and any("ran into" in f for f in feedback)


# -- CaveFlyer
def test_flyer_rises_while_held_and_hits_the_rock():
    env = _env("CaveFlyer", repeat_action_probability=0.0)
    y0 = env.y
    env.step(env.action_index("FIRE"))
    env.step(env.action_index("FIRE"))
    assert env.y < y0
    lives = env.lives
    for _ in range(40):
        _, _, _, _, info = env.step(0)
        if info["lives"] < lives:
            break
    assert info["lives"] == lives - 1 and "rock" in info["feedback"]
    assert cave_flyer.fly(10.0, 0.0, False)[0] > 10.0 > cave_flyer.fly(10.0, -1.0, True)[0]


def test_flyer_caves_depend_on_the_seed_and_leave_the_gap_open():
    a, b = _env("CaveFlyer", seed=0, difficulty=2), _env("CaveFlyer", seed=1, difficulty=2)
    assert not np.array_equal(a.walls, b.walls)
    gaps = a.walls[:, 1] - a.walls[:, 0]
    assert gaps.min() >= cave_flyer.LEVELS[2][3] - 1e-9 and (a.walls[:, 0] >= 0).all() and (a.walls[:, 1] <= cave_flyer.FH).all()


# -- GhostMaze
@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_maze_has_no_dead_ends_and_counts_its_ghosts(difficulty):
    for seed in range(5):
        env = _env("GhostMaze", seed=seed, difficulty=difficulty)
        cells = [(r, c) for r in range(1, ghost_maze.S, 2) for c in range(1, ghost_maze.S, 2)]
        assert all(len(env.around[q]) >= 2 for q in cells)
        assert len(env.ghosts) == ghost_maze.LEVELS[difficulty][0]
        assert len(ghost_maze.distances(env.around, env.start)) == len(env.around)  # connected


def test_maze_pellet_scores_and_ghost_costs_a_life():
    env = _env("GhostMaze", repeat_action_probability=0.0)
    nb = env.around[env.start][0]
    name = ("UP", "RIGHT", "LEFT", "DOWN")[ghost_maze.STEPS.index((nb[0] - env.start[0], nb[1] - env.start[1]))]
    _, reward, *_ = env.step(env.action_index(name))
    assert reward == 1.0 and env.you == nb and nb not in env.pellets
    env.ghosts[0][0] = env.around[nb][0] if env.around[nb][0] != env.start else env.around[nb][1]
    target = env.ghosts[0][0]
    name = ("UP", "RIGHT", "LEFT", "DOWN")[ghost_maze.STEPS.index((target[0] - nb[0], target[1] - nb[1]))]
    _, _, _, _, info = env.step(env.action_index(name))
    assert info["lives"] == 2 and env.you == env.start and all(g[0] == env.home for g in env.ghosts)


# -- every id
@pytest.mark.parametrize("name", NAMES)
def test_incremental_frames_match_a_fresh_drawing(name):
    env = _env(name, seed=2, obs_size=(84, 84))
    for _ in range(90):
        obs, _, term, _, _ = env.step(env.oracle_action())
        if term:
            break
    fresh = pickle.loads(pickle.dumps(env))
    assert np.array_equal(obs, fresh._observe())


@pytest.mark.parametrize("name", NAMES)
def test_copies_play_on_identically(name):
    env = _env(name, seed=5)
    for _ in range(20):
        env.step(env.oracle_action())
    clone = copy.deepcopy(env)
    rng = np.random.default_rng(1)
    for _ in range(30):
        a = int(rng.integers(env.action_space.n))
        o1, r1, *_ = env.step(a)
        o2, r2, *_ = clone.step(a)
        assert r1 == r2 and np.array_equal(o1, o2)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_oracle_wins_and_random_does_not(name, difficulty):
    for seed in (0, 7):
        env = _env(name, seed=seed, difficulty=difficulty)
        assert _episode(env, env.oracle_action)["success"], f"seed {seed}"
    env = _env(name, seed=3, difficulty=difficulty)
    rng = np.random.default_rng(3)
    info = _episode(env, lambda: int(rng.integers(env.action_space.n)))
    assert not info["success"] and env.score < env.target / 2


def test_full_action_space_maps_to_the_minimal_controls():
    env = _env("FallingBlocks", full_action_space=True, repeat_action_probability=0.0)
    assert env.action_space.n == 18
    col = env.col
    env.step(env.action_index("UPLEFT"))   # not a FallingBlocks action: NOOP
    assert env.col == col
    env.step(env.action_index("LEFT"))
    assert env.col == col - 1
    assert falling_blocks.FallingBlocks.minimal_actions == ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN")
