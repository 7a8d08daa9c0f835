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


def _reference_wins(s, side: int, k: int) -> bool:
    """The AND-OR search as the base writes it, on tuple states, without a memo."""
    if s[2] is not None or k <= 0:
        return s[2] == side
    nxt = [sow(s[0], s[1], q) for q in (range(0, 6) if s[1] == ME else range(7, 13)) if s[0][q]]
    if s[1] == side:
        return any(_reference_wins(t, side, k - 1) for t in nxt)
    return all(_reference_wins(t, side, k) for t in nxt)


def _random_board(rng, seeds: int) -> tuple[int, ...]:
    cells = rng.integers(14, size=seeds)
    return tuple(int(v) for v in np.bincount(cells, minlength=14))


def test_packed_sowing_is_sow():
    from gymv_envs.domains.games._kalah_rules import pack, sow_packed, unpack

    rng = np.random.default_rng(5)
    for _ in range(3000):
        total = int(rng.choice([4, 9, 36, 48, 128]))
        b = _random_board(rng, total)
        for p in (ME, THEM):
            for pit in range(14):
                if pit in (6, 13) or not b[pit]:
                    continue
                y, q, r = sow_packed(pack(b), p, pit, total)
                assert (unpack(y), q, r) == sow(b, p, pit), (b, p, pit)


def test_forced_win_memo_across_depths_matches_the_plain_search():
    """`forced_win` keeps one memo for every depth (the answer only grows with k): asked in a scrambled order of
    depths and sides, it must give the plain search's answer each time."""
    from gymv_envs.domains.games._kalah_rules import forced_win, pack

    rng = np.random.default_rng(11)
    seen = {True: 0, False: 0}
    for _ in range(60):
        memo: dict = {}
        b = list(_random_board(rng, 12))
        b[6], b[13] = rng.integers(4, 9, size=2).tolist()   # stores near half of the seeds: wins within reach
        b = tuple(b)
        if not any(b[0:6]) or not any(b[7:13]) or 2 * max(b[6], b[13]) > sum(b):
            continue
        for side, k, p in [(ME, 3, ME), (ME, 1, ME), (THEM, 2, ME), (ME, 2, THEM), (THEM, 3, THEM), (ME, 0, ME),
                           (THEM, 1, THEM), (ME, 2, ME), (ME, 3, THEM)]:
            got = forced_win(pack(b), p, side, k, memo, sum(b))
            assert got == _reference_wins((b, p, None), side, k), (b, p, side, k)
            seen[got] += 1
    assert min(seen.values()) > 20   # both answers exercised (about 30 wins, 500 fails)


def test_random_walk_draws_as_the_plain_loop():
    """`random_walk` fed by `ScalarDraws` reaches the state, and leaves the generator where, numpy's calls would."""
    from gymv_envs.core.rng import ScalarDraws
    from gymv_envs.domains.games._kalah_rules import random_walk

    start = (4,) * 6 + (0,) + (4,) * 6 + (0,)
    for seed in range(30):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        s = (start, ME, None)
        stop = int(a.integers(6, 13))
        while s[2] is None and 48 - s[0][6] - s[0][13] > stop:
            pits = [q for q in (range(0, 6) if s[1] == ME else range(7, 13)) if s[0][q]]
            s = sow(s[0], s[1], pits[int(a.integers(len(pits)))])
        with ScalarDraws(b) as d:
            got = random_walk(start, ME, d.integers(6, 13), d.integers)
        assert got == s and a.bit_generator.state == b.bit_generator.state
