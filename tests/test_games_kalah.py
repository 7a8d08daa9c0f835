"""Kalah's rules (issue 17): sowing past the stores, the extra turn, captures, the end of the game,
the forced-win start, beyond what the conformance suite checks."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import gymv_envs  # noqa: F401 - registers the ids
from gymv_envs.domains.games._board import DRAW, ME, THEM
from gymv_envs.domains.games._kalah_rules import sow


def make(difficulty: int = 0):
    env = gym.make("GymV/Kalah-v0", difficulty=difficulty, obs_size=(64, 64)).unwrapped
    env.reset(seed=0)
    return env


def test_sowing_skips_the_opponents_store_and_passes_turns():
    b = (0, 0, 0, 0, 0, 9, 0, 1, 1, 1, 1, 1, 1, 5)   # F holds 9: the store, a-f, (not the left store), A, B
    after, nxt, res = sow(b, ME, 5)   # the last seed lands in empty B, opposite e (index 11) holds 2: captured
    assert after == (1, 0, 0, 0, 0, 0, 4, 2, 2, 2, 2, 0, 2, 5) and nxt == THEM and res is None
    env = make()
    s = ((4,) * 6 + (0,) + (4,) * 6 + (0,), THEM, None)
    t = env.play(s, env.move_of(THEM, 2))   # the top player's pit c (board index 9) sows d, e, f and its store
    assert t[0][9] == 0 and t[0][10:13] == (5, 5, 5) and t[0][13] == 1 and t[1] == THEM   # last seed in its store
    assert env.move_name(env.move_of(THEM, 2)) == "c" and env.action_of(env.move_of(THEM, 2)) == 2


def test_last_seed_in_your_store_moves_again():
    env = make()
    s = ((4,) * 6 + (0,) + (4,) * 6 + (0,), ME, None)
    t = env.play(s, 2)   # C holds 4: D, E, F, store
    assert t[0][:7] == (4, 4, 0, 5, 5, 5, 1) and t[1] == ME
    assert env.play(s, 0)[1] == THEM


def test_capture_takes_the_opposite_pit():
    b = (1, 0, 2, 0, 0, 0, 10, 3, 0, 3, 0, 3, 4, 10)   # A's seed lands in empty B; opposite B is pit index 11 (3 seeds)
    after, nxt, res = sow(b, ME, 0)
    assert after[1] == 0 and after[11] == 0 and after[6] == 14 and nxt == THEM and res is None
    b = (1, 0, 2, 0, 0, 0, 10, 3, 0, 3, 0, 0, 4, 10)   # nothing opposite: no capture
    after, _, _ = sow(b, ME, 0)
    assert after[1] == 1 and after[6] == 10


def test_game_end_sweeps_rows_and_decides():
    b = (0, 0, 0, 0, 0, 1, 10, 2, 0, 0, 0, 0, 0, 9)   # F into the store empties the bottom row
    after, _, res = sow(b, ME, 5)
    assert after == (0,) * 6 + (11,) + (0,) * 6 + (11,) and res == DRAW
    b = (0, 0, 0, 0, 0, 1, 12, 3, 0, 0, 0, 0, 0, 8)
    assert sow(b, ME, 5)[2] == ME
    b = (1, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 1, 20)   # more than half in the top store: decided at once
    assert sow(b, ME, 0)[2] == THEM


def test_illegal_empty_pit_and_forced_win_start():
    env = make(difficulty=2)
    s = env.state
    assert env.wins(s, 3) and not env.wins(s, 2)
    empty = [a for a in range(6) if not s[0][a]]
    if empty:
        _, r, term, _, info = env.step(empty[0])
        assert info["invalid_action"] and not term and r == 0 and env.state == s
    assert env.parse_action("Answer: pit c") == 2 and env.parse_action("<answer>F</answer>") == 5
    frame = env.render() if env.render_mode else env._draw()
    assert isinstance(frame, np.ndarray) and frame.shape == (64, 64, 3)
