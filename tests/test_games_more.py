"""Rules of the games of issue 17 (wild tic-tac-toe, Alquerque, Lines of Action, ...): wins, captures,
illegal moves, the forced-win starts, beyond what the conformance suite checks."""

from __future__ import annotations

import gymnasium as gym

import gymv_envs  # noqa: F401 - registers the ids
from gymv_envs.domains.games._board import DRAW, ME, THEM


def make(name: str, difficulty: int = 0):
    env = gym.make(f"GymV/{name}", difficulty=difficulty, obs_size=(64, 64)).unwrapped
    env.reset(seed=0)
    return env


# ---------------------------------------------------------------- wild tic-tac-toe
def test_wild_either_mark_completes_a_line_for_its_writer():
    env = make("WildTicTacToe-v0")
    b = (1, 1, 0, 2, 0, 0, 0, 0, 0)   # X X . / O . . / . . .
    s = (b, THEM, None)
    assert env.result(env.play(s, env.action_names.index("X C3"))) == THEM   # the opponent's X line is its win
    assert env.result(env.play(s, env.action_names.index("O C3"))) is None
    s = ((2, 0, 0, 2, 0, 0, 0, 0, 0), ME, None)
    assert env.result(env.play(s, env.action_names.index("O A1"))) == ME   # an O line wins for whoever writes it


def test_wild_full_board_is_a_draw_and_occupied_cells_are_illegal():
    env = make("WildTicTacToe-v0")
    b = (1, 2, 1, 1, 2, 2, 2, 1, 0)
    s = (b, ME, None)
    assert 2 * 0 not in env.legal(s) and env.legal(s) == [16, 17]
    assert env.result(env.play(s, 16)) == DRAW   # X in C1 completes no line
    env.state = env.before = s
    _, r, term, _, info = env.step(0)   # X A3 is taken
    assert info["invalid_action"] and not term and r == 0 and env.state == s


def test_wild_parses_either_order_and_start_is_a_forced_win():
    env = make("WildTicTacToe-v0", difficulty=2)
    assert env.parse_action("Answer: O B2") == env.action_names.index("O B2")
    assert env.parse_action("I write b2 o") == env.action_names.index("O B2")
    assert env.wins(env.state, 3) and not env.wins(env.state, 2)
    assert env.standard_start()[0] == (0,) * 9
