"""Two-player board games: rules, opponents and oracles checked on hand-made positions."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs
from gymv_envs.domains.games._board import ME, THEM

GAMES = ("ConnectFour", "Nim", "DotsAndBoxes", "Breakthrough", "Othello", "Gomoku", "Checkers", "Hex", "AtariGo", "Chess")


def _env(name: str, difficulty: int = 0):
    if name == "Chess":
        pytest.importorskip("chess")
    env = gym.make(gymv_envs.task_spec(name).id, difficulty=difficulty, obs_size=(48, 48)).unwrapped
    env.reset(seed=0)
    return env


def _play_out(env, policy, seed: int) -> float:
    env.reset(seed=seed)
    total = 0.0
    for _ in range(40):
        _, r, term, _, _ = env.step(policy(env))
        total += r
        if term:
            break
    return total


@pytest.mark.parametrize("name", GAMES)
def test_oracle_beats_random_play(name):
    """At difficulty 2 the oracle wins where a player of random legal moves mostly does not."""
    env = _env(name, 2)
    rng = np.random.default_rng(0)
    assert [_play_out(env, lambda e: e.oracle_action(), s) for s in range(2)] == [1.0, 1.0]
    rand = [_play_out(env, lambda e: int(rng.choice(e.legal(e.state))), s) for s in range(6)]
    assert np.mean(np.clip(rand, 0, 1)) <= 0.5


@pytest.mark.parametrize("name", GAMES)
def test_start_is_a_forced_win_and_not_faster(name):
    env = _env(name, 1)
    for seed in range(3):
        env.reset(seed=seed)
        s = env.state
        assert env.mover(s) == ME and env.result(s) is None
        if name == "Nim":
            assert np.bitwise_xor.reduce(s[0]) != 0
        elif name == "DotsAndBoxes":
            assert env.margin(s) > 0
        elif name == "Othello":                          # solved exactly: some move wins, not every move does
            assert env.wins(s, 1) and not all(env.wins(env.play(s, a), 1) for a in env.legal(s))
        else:
            assert env.wins(s, env.target) and not env.wins(s, env.target - 1)


def test_connect_four_full_column_and_four_in_a_row():
    env = _env("ConnectFour")
    s = ((0,) * 42, ME, None)
    for col in (0, 1, 0, 1, 0, 1):
        s = env.play(s, col)
    assert env.result(s) is None and env.mover(s) == ME
    assert env.result(env.play(s, 0)) == ME            # the fourth red disc in column A
    for _ in range(6):
        s = env.play(s, 6) if 6 in env.legal(s) else s
    assert 6 not in env.legal(s)


def test_connect_four_search_opponent_blocks_a_threat():
    env = _env("ConnectFour", 2)
    s = ((0,) * 42, ME, None)
    for col in (0, 6, 1, 6, 2):                        # red threatens D1; yellow must block
        s = env.play(s, col)
    env.state = s
    assert env._opponent_move() == 3


def test_nim_oracle_leaves_zero_nim_sum_and_perfect_opponent():
    env = _env("Nim", 2)
    env.state = ((3, 5, 6, 1, 2), ME)
    a = env.oracle_action()
    heaps = env.play(env.state, a)[0]
    assert np.bitwise_xor.reduce(heaps) == 0
    env.state = ((1, 2, 0, 0, 0), THEM)
    reply = env.play(env.state, env._opponent_move())[0]
    assert np.bitwise_xor.reduce(reply) == 0


def test_othello_flips_and_illegal_square():
    env = _env("Othello")
    n = env.side
    board = [0] * (n * n)
    board[2 * n + 2], board[3 * n + 3], board[2 * n + 3], board[3 * n + 2] = THEM, THEM, ME, ME
    s = (tuple(board), ME, None)
    assert sorted(env.legal(s)) == sorted([1 * n + 2, 2 * n + 1, 3 * n + 4, 4 * n + 3])
    after = env.play(s, 1 * n + 2)[0]
    assert after[2 * n + 2] == ME and after.count(ME) == 4
    env.state = s
    obs_before = env._draw().copy()
    out = env._apply(0)
    assert out.invalid and np.array_equal(env._draw(), obs_before)


def test_checkers_capture_is_compulsory_and_multi_jump_continues():
    env = _env("Checkers", 1)
    n = env.side
    b = [0] * (n * n)
    b[7 * n + 0] = 1                     # red man on A1
    b[6 * n + 1] = 3                     # white man on B2: must be jumped
    b[4 * n + 3] = 3                     # white man on D4: jumped next
    b[0 * n + 7] = 1                     # another red man, free to step
    s = (tuple(b), ME, -1, None)
    moves = env.legal(s)
    assert moves and all(m % 2 == 1 for m in moves)
    s2 = env.play(s, moves[0])
    assert env.mover(s2) == ME and s2[2] == 5 * n + 2      # the same piece keeps jumping
    s3 = env.play(s2, env.legal(s2)[0])
    assert env.result(s3) == ME                              # no white pieces left


def test_breakthrough_reaching_the_far_row_wins():
    env = _env("Breakthrough")
    n = env.side
    b = [0] * (n * n)
    b[1 * n + 2], b[4 * n + 0] = ME, THEM
    s = (tuple(b), ME, None)
    assert env.result(env.play(s, 3 * (1 * n + 2) + 1)) == ME


def test_hex_and_gomoku_threats():
    from gymv_envs.domains.games._hex_graph import winning_cells
    from gymv_envs.domains.games.gomoku import completing

    hexe = _env("Hex")
    n = hexe.side
    b = [0] * (n * n)
    for r in range(n - 1):
        b[r * n + 2] = ME
    assert winning_cells(tuple(b), ME, n) == sorted({(n - 1) * n + 1, (n - 1) * n + 2})
    g = _env("Gomoku")
    m = g.side
    row = [0] * (m * m)
    for c in range(1, 5):
        row[4 * m + c] = ME
    assert completing(tuple(row), ME, m, 4) == [4 * m, 4 * m + 5]


def test_atari_go_suicide_is_illegal_and_capture_wins():
    env = _env("AtariGo")
    n = env.side
    b = [0] * (n * n)
    b[1], b[n] = THEM, THEM                  # the corner A5 is surrounded by white
    s = (tuple(b), ME, None)
    assert 0 not in env.legal(s)
    b2 = [0] * (n * n)
    b2[0], b2[1] = THEM, ME                  # a white stone in the corner with one liberty left, A4
    s2 = (tuple(b2), ME, None)
    assert env.result(env.play(s2, n)) == ME


def test_chess_parses_uci_and_san_and_mates():
    env = _env("Chess", 0)
    env.reset(seed=0)
    a = env.oracle_action()
    name = env.action_names[a]
    assert env.parse_action(f"I will play {name}.") == a
    import chess

    board = chess.Board(env.state)
    san = board.san(board.parse_uci(name + ("q" if board.piece_at(a // 64).piece_type == chess.PAWN and name[3] == "8" else "")))
    assert env.parse_action(f"Action: {san}") == a
    _, r, term, _, info = env.step(a)
    assert r == 1.0 and term and info["success"]


def test_dots_endgame_memo_is_bounded_and_exact(monkeypatch):
    """The endgame search's memo empties when full (a long RL run at d2 grew it to a million positions)
    and gives the same values as a search that never forgets."""
    from gymv_envs.domains.games import _dots_search as D

    rng = np.random.default_rng(0)
    positions = []
    for _ in range(40):
        drawn = 0
        for line in rng.permutation(24)[:int(rng.integers(14, 17))]:
            drawn |= 1 << int(line)
        positions.append(drawn)
    monkeypatch.setattr(D, "_memo", {})
    exact = [D.value(3, p) for p in positions]
    assert len(D._memo[3]) > 2000
    monkeypatch.setattr(D, "_memo", {})
    monkeypatch.setattr(D, "MEMO_LIMIT", 300)
    assert [D.value(3, p) for p in positions] == exact
    assert 0 < len(D._memo[3]) <= 300
