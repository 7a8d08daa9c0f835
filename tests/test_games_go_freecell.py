"""Go (GymV/Go9x9-v1) and FreeCell (GymV/FreeCell-v1): rules on set-up positions, scoring, solver plans."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from gymv_envs.domains.games import _freecell_solver as fc
from gymv_envs.domains.games.freecell import ACTIONS
from gymv_envs.rules import go


# ------------------------------------------------------------------ Go
def _go_env(difficulty: int = 2):
    env = gym.make("GymV/Go9x9-v1", difficulty=difficulty, obs_size=(64, 64)).unwrapped
    env.reset(seed=0)
    return env


def _pos(rows: list[str], mover: int = go.BLACK, ko: int = 0, passes: int = 0):
    """A position from rows top to bottom: X black, O white, . empty."""
    n, g = len(rows), go.geometry(len(rows))
    black = sum(g.bits[r * n + c] for r, row in enumerate(rows) for c, ch in enumerate(row.split()) if ch == "X")
    white = sum(g.bits[r * n + c] for r, row in enumerate(rows) for c, ch in enumerate(row.split()) if ch == "O")
    return (black, white, mover, ko, passes, 0), g


def _pt(name: str, n: int) -> int:
    col = "ABCDEFGHJKLMNOPQRST".index(name[0])
    return (n - int(name[1:])) * n + col


def test_go_capture_and_suicide():
    s, g = _pos([". . . . .",
                 ". . X . .",
                 ". X O . .",
                 ". . X . .",
                 ". . . . ."])
    t = go.play(s, _pt("D3", 5), g)                 # the fourth liberty: white's stone is captured
    assert t is not None and t[1] == 0 and t[0].bit_count() == 4 and t[2] == go.WHITE
    t = (t[0], t[1], go.WHITE, 0, 0, 1)
    assert go.play(t, _pt("C3", 5), g) is None      # white into the hole: suicide
    assert go.why_illegal(t, _pt("C3", 5), g).startswith("would be suicide")
    assert go.play(t, _pt("C4", 5), g) is None and go.why_illegal(t, _pt("C4", 5), g) == "is occupied"
    # a two-stone group in the corner is captured by filling its last liberty
    s, g = _pos(["O O . . .",
                 "X X . . .",
                 ". . . . .",
                 ". . . . .",
                 ". . . . ."])
    t = go.play(s, _pt("C5", 5), g)
    assert t[1] == 0 and t[0].bit_count() == 3


def test_go_simple_ko():
    rows = [". X O . .",
            "X O . O .",
            ". X O . .",
            ". . . . .",
            ". . . . ."]
    s, g = _pos(rows)
    t = go.play(s, _pt("C4", 5), g)                  # black captures B4 (one stone): a ko
    assert t is not None and not t[1] & g.bits[_pt("B4", 5)] and t[3] == g.bits[_pt("B4", 5)]
    assert go.play(t, _pt("B4", 5), g) is None       # white may not retake at once
    assert "ko" in go.why_illegal(t, _pt("B4", 5), g)
    u = go.play(go.play(t, _pt("E1", 5), g), _pt("A1", 5), g)   # white plays elsewhere, black answers
    assert u[3] == 0 and go.play(u, _pt("B4", 5), g) is not None  # now the retake is legal
    # through the env: black may not retake a ko white just took
    env = _go_env(0)
    retake, _ = _pos([". O X . . . .",                # white C6 just took a black stone on B6
                      "O . O X . . .",
                      ". O X . . . .",
                      ". . . . . . .",
                      ". . . . . . .",
                      ". . . . . . .",
                      ". . . . . . ."], ko=go.geometry(7).bits[_pt("B6", 7)])
    env.state = env.before = retake
    frame = env._draw().copy()
    _, reward, term, _, info = env.step(_pt("B6", 7))
    assert info["invalid_action"] and "ko" in info["feedback"] and reward == 0.0 and not term
    assert env.state == retake and np.array_equal(env._draw(), frame)


def test_go_eye_rule_and_moves():
    s, g = _pos([". X . . .",
                 "X X . . .",
                 ". . . . .",
                 ". . . . .",
                 ". . . . ."])
    assert go.is_eye(s, _pt("A5", 5), g)
    assert _pt("A5", 5) in go.moves(s, g) and _pt("A5", 5) not in go.moves(s, g, eyes=False)
    rng = np.random.default_rng(0)
    assert all(go.random_move(s, g, rng, 50) != _pt("A5", 5) for _ in range(50))


def test_go_area_scoring_on_a_final_position():
    rows = ["X X X O O O O O O"] * 9      # black owns columns A-C, white D-J, no empty point
    s, g = _pos(rows)
    assert go.area(s[0], s[1], g) == (27, 54) and go.margin(s, g) == 27 - 54 - 7.5
    rows = [". X O . . . . . .",             # black: stones on B, territory on A (18); white: C-J (63)
            ". X O . . . . . .", ". X O . . . . . .", ". X O . . . . . .", ". X O . . . . . .",
            ". X O . . . . . .", ". X O . . . . . .", ". X O . . . . . .", ". X O . . . . . ."]
    s, g = _pos(rows)
    assert go.area(s[0], s[1], g) == (18, 63)
    rows = ["X . O . .",
            "X X O O O",
            ". X O . .",
            ". X O O O",
            ". X O . ."]
    s, g = _pos(rows)
    assert go.area(s[0], s[1], g) == (6 + 3, 9 + 6)   # B5 touches both colours: nobody's


def test_go_two_passes_end_and_final_reward():
    env = _go_env(0)
    n = env.side
    rows = [" ".join("X" if c < 5 else "O" if c == 5 else "." for c in range(n))] * n   # black 35, white 14
    s, _ = _pos(rows, passes=1)                                   # white has just passed
    env.state = env.before = s
    env.captures = [0, 0]
    _, reward, term, _, info = env.step(n * n)                    # black passes too: the count
    m = 35 - 14 - go.KOMI
    assert term and info["success"] and "you win by 13.5" in info["feedback"]
    assert reward == pytest.approx(1.0 + 0.3 * m / (n * n - go.KOMI))


def test_go_parse_and_names():
    env = _go_env(2)
    assert env.action_names[_pt("D4", 9)] == "D4" and env.action_names[-1] == "pass"
    assert "I" not in "".join(env.action_names[:81])
    assert env.parse_action("I would play D4.\nAction: D4") == _pt("D4", 9)
    assert env.parse_action("<answer>pass</answer>") == 81
    assert env.parse_action("Action: J9") == _pt("J9", 9)
    assert env.parse_action("Action: I5") is None


def test_go_oracle_beats_random_play():
    env = gym.make("GymV/Go9x9-v1", difficulty=1, obs_size=(48, 48)).unwrapped
    rng = np.random.default_rng(0)

    def play_out(policy, seed):
        env.reset(seed=seed)
        for _ in range(120):
            _, _, term, _, info = env.step(policy())
            if term:
                return info["success"]
        return False

    assert all(play_out(env.oracle_action, seed) for seed in (11, 12))
    legal = lambda: int(rng.choice([*go.moves(env.state, env.geo), env.side ** 2]))   # noqa: E731
    assert np.mean([play_out(legal, seed) for seed in range(4)]) <= 0.25


# ------------------------------------------------------------------ FreeCell
def _card(text: str) -> int:
    rank = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K").index(text[:-1]) + 1
    return rank * 4 + "SHDC".index(text[-1])


def _fc_state(cols: list[str], cells=("", "", "", ""), found=(0, 0, 0, 0)):
    cascades = tuple(tuple(_card(c) for c in col.split()) for col in cols) + ((),) * (8 - len(cols))
    return cascades, tuple(_card(c) if c else 0 for c in cells), tuple(found)


def test_freecell_move_legality():
    s = _fc_state(["7S 6H", "8D 7H", "2S", "5C AH"], cells=("KC", "", "", ""), found=(1, 0, 0, 0))
    c = lambda k: k - 1                                       # noqa: E731 - cascade k (1-based)
    cell, home = fc.CASCADES, fc.FOUNDATION
    assert fc.check(s, c(1), c(2)) != ""                      # red 6 on red 7: no
    assert fc.check(s, c(2), c(1)) != ""                      # 7 on 6: no
    assert fc.check(s, c(3), home) == ""                      # 2S after AS: yes
    assert fc.check(s, c(4), home) == ""                      # AH starts hearts
    assert fc.check(s, c(1), home) != ""                      # 6H is not next
    assert fc.check(s, cell, c(6)) == ""                      # a free-cell king to an empty cascade
    assert fc.check(s, c(1), cell) != "" and fc.check(s, c(1), cell + 1) == ""
    assert fc.check(s, cell + 2, c(1)) != ""                  # empty free cell: nothing to move
    t = fc.move(s, c(4), home)
    assert t[2] == (1, 1, 0, 0) and t[0][3] == (_card("5C"),)
    u = fc.move(_fc_state(["8D", "7S"]), 1, 0)                # black 7 on red 8
    assert u[0][0] == (_card("8D"), _card("7S")) and u[0][1] == ()
    env = gym.make("GymV/FreeCell-v1", obs_size=(96, 96)).unwrapped
    env.reset(seed=0)
    env.state = s
    frame = env._draw().copy()
    _, reward, term, _, info = env.step(ACTIONS.index((c(1), c(2))))
    assert info["invalid_action"] and reward == 0.0 and not term and env.state == s
    assert np.array_equal(env._draw(), frame)
    _, reward, _, _, info = env.step(ACTIONS.index((c(4), home)))
    assert not info["invalid_action"] and reward == pytest.approx(1 / env.total)


def test_freecell_solver_plan_replays_to_a_win():
    for difficulty, seed in ((0, 3), (1, 4), (2, 0), (2, 7)):
        env = gym.make("GymV/FreeCell-v1", difficulty=difficulty, obs_size=(48, 48)).unwrapped
        env.reset(seed=seed)
        plan = fc.solve(env.state)
        assert plan is not None
        s = env.state
        for src, dst in plan:
            assert fc.check(s, src, dst) == "", (src, dst)
            s = fc.move(s, src, dst)
        assert not any(s[0]) and not any(s[1]) and sum(s[2]) == env.total
        total, done = 0.0, False
        for _ in range(len(plan) + 5):                         # the oracle's own plan, through the env
            _, r, done, _, info = env.step(env.oracle_action())
            total += r
            if done:
                break
        assert done and info["success"] and total == pytest.approx(1.0)


def test_freecell_oracle_replans_after_a_detour():
    env = gym.make("GymV/FreeCell-v1", difficulty=1, obs_size=(48, 48)).unwrapped
    env.reset(seed=2)
    detour = next(a for a, (src, dst) in enumerate(ACTIONS) if src < fc.CASCADES and dst == fc.CASCADES
                  and fc.check(env.state, src, dst) == "" and env.oracle_action() != a)
    env.step(detour)
    for _ in range(200):
        _, _, done, _, info = env.step(env.oracle_action())
        if done:
            break
    assert info["success"]


def test_freecell_parse_action_grammar():
    env = gym.make("GymV/FreeCell-v1", obs_size=(48, 48)).unwrapped
    env.reset(seed=0)
    idx = {a: i for i, a in enumerate(ACTIONS)}
    assert env.parse_action("Action: cascade 3 to foundation") == idx[(2, fc.FOUNDATION)]
    assert env.parse_action("c3 f") == idx[(2, fc.FOUNDATION)]
    assert env.parse_action("I will move the card from cascade 1 to the free cell 2") == idx[(0, 9)]
    assert env.parse_action("<answer>fc2 c5</answer>") == idx[(9, 4)]
    assert env.parse_action("Move: c8 -> c1") == idx[(7, 0)]
    assert env.parse_action("cascade 4 to free cell") == idx[(3, fc.CASCADES)]   # the first empty free cell
    assert env.parse_action("foundation to cascade 2") is None
    assert env.parse_action("c9 f") is None and env.parse_action("hello") is None
    for a in (0, 57, len(ACTIONS) - 1):
        assert env.parse_action(env.format_action(a)) == a


def test_freecell_random_play_rarely_solves():
    env = gym.make("GymV/FreeCell-v1", difficulty=1, obs_size=(48, 48))
    env.action_space.seed(0)
    wins = 0
    for seed in range(3):
        env.reset(seed=seed)
        while True:
            _, _, term, trunc, info = env.step(env.action_space.sample())
            if term or trunc:
                wins += info["success"]
                break
    assert wins == 0
