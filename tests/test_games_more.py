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


# ---------------------------------------------------------------- Alquerque
def alq_board(pieces: dict[str, int]) -> tuple[int, ...]:
    b = [0] * 25
    for name, p in pieces.items():
        b[(5 - int(name[1])) * 5 + "ABCDE".index(name[0])] = p
    return tuple(b)


def test_alquerque_capture_is_compulsory_and_removes_the_piece():
    env = make("Alquerque-v0")
    s = (alq_board({"C2": ME, "C3": THEM, "A5": THEM}), ME, -1, None)
    legal = [env.action_names[a] for a in env.legal(s)]
    assert legal == ["C2-C4"]   # the only capture; the steps C2-B2, C2-D2 are not allowed
    env.state = env.before = s
    _, _, term, _, info = env.step(env.action_names.index("C2-B2"))
    assert info["invalid_action"] and "compulsory" in info["feedback"] and env.state == s
    t = env.play(s, env.action_names.index("C2-C4"))
    assert t[0].count(THEM) == 1 and t[0][(5 - 4) * 5 + 2] == ME and t[1] == THEM


def test_alquerque_diagonals_only_on_even_points_and_no_backward_steps():
    env = make("Alquerque-v0")
    s = (alq_board({"B3": ME, "E5": THEM}), ME, -1, None)   # B3 (column 1, row 3 from the bottom): odd, no diagonals
    assert sorted(env.action_names[a] for a in env.legal(s)) == ["B3-A3", "B3-B4", "B3-C3"]
    s = (alq_board({"C3": ME, "E5": THEM}), ME, -1, None)
    assert sorted(env.action_names[a] for a in env.legal(s)) == ["C3-B3", "C3-B4", "C3-C4", "C3-D3", "C3-D4"]


def test_alquerque_multi_jump_keeps_the_turn_and_last_capture_wins():
    env = make("Alquerque-v0")
    s = (alq_board({"A1": ME, "B2": THEM, "C3": 0, "D4": THEM}), ME, -1, None)
    t = env.play(s, env.action_names.index("A1-C3"))   # a diagonal capture, then the same piece must go on
    assert t[1] == ME and t[2] >= 0 and [env.action_names[a] for a in env.legal(t)] == ["C3-E5"]
    u = env.play(t, env.action_names.index("C3-E5"))
    assert env.result(u) == ME and THEM not in u[0]
    start = env.standard_start()[0]
    assert start.count(ME) == start.count(THEM) == 12 and start[12] == 0


# ---------------------------------------------------------------- Lines of Action
def loa_board(n: int, pieces: dict[str, int]) -> tuple[int, ...]:
    b = [0] * (n * n)
    for name, p in pieces.items():
        b[(n - int(name[1:])) * n + "ABCDEFGH".index(name[0])] = p
    return tuple(b)


def test_loa_moves_as_far_as_the_line_has_pieces():
    env = make("LinesOfAction-v0")   # 6x6
    s = (loa_board(6, {"B1": ME, "B3": ME, "D1": THEM, "F6": THEM}), ME, None)
    moves = sorted(env.action_names[a] for a in env.legal(s) if env.action_names[a].startswith("B1"))
    # column B holds 2 pieces: 2 up lands on its own B3 (illegal); row 1 holds 2: B1-D1 captures;
    # each diagonal through B1 holds only B1: one square, B1-C2 and B1-A2
    assert moves == ["B1-A2", "B1-C2", "B1-D1"]
    t = env.play(s, env.action_names.index("B1-C2"))
    assert env.result(t) == ME   # B3 and C2 touch diagonally: black is one group


def test_loa_cannot_jump_an_enemy_and_capture_to_one_piece_connects_the_victim():
    env = make("LinesOfAction-v0")
    s = (loa_board(6, {"A1": ME, "B1": THEM, "C1": 0, "A6": ME, "F6": THEM}), ME, None)
    names = [env.action_names[a] for a in env.legal(s)]
    assert "A1-C1" not in names and "A1-B1" not in names   # row 1 holds 2 pieces: A1 moves 2, over B1 (an enemy): illegal
    s = (loa_board(6, {"A1": ME, "A4": ME, "C3": THEM, "F3": THEM}), ME, None)
    t = env.play(s, env.action_names.index("A1-C3"))   # diagonal A1-F6 holds 2: lands on C3 and captures it
    assert t[0].count(THEM) == 1 and env.result(t) == THEM   # white is down to one piece: one group, it wins
    env.state = env.before = s
    _, _, _, _, info = env.step(env.action_names.index("A1-A2"))
    assert info["invalid_action"] and env.state == s


def test_loa_standard_start_and_forced_win_start():
    env = make("LinesOfAction-v0", difficulty=1)
    b = env.standard_start()[0]
    assert b.count(ME) == b.count(THEM) == 2 * (env.side - 2) and b[0] == 0
    assert env.wins(env.state, 2) and not env.wins(env.state, 1)


# ---------------------------------------------------------------- ultimate tic-tac-toe
def uttt_play(env, s, *cells: str):
    for c in cells:
        assert env.action_names.index(c) in env.legal(s), c
        s = env.play(s, env.action_names.index(c))
    return s


def test_uttt_sending_rule_and_illegal_cells():
    env = make("UltimateTicTacToe-v0")
    s = uttt_play(env, env.standard_start(), "C9")   # top-left board, its top-right cell: O goes to the top-right board
    assert {env.action_names[a] for a in env.legal(s)} == {f"{c}{r}" for c in "GHI" for r in (7, 8, 9)}
    mine = (s[0], ME, s[2], s[3], s[4])   # the same position with X to move: A1 lies outside the top-right board
    env.state = env.before = mine
    _, _, _, _, info = env.step(env.action_names.index("A1"))
    assert info["invalid_action"] and "yellow" in info["feedback"] and env.state == mine
    mine = (s[0], ME, -1, s[3], s[4])   # free to play anywhere, but C9 is taken
    env.state = env.before = mine
    _, _, _, _, info = env.step(env.action_names.index("C9"))
    assert info["invalid_action"] and "taken" in info["feedback"]


def test_uttt_small_board_win_closes_it_and_frees_the_next_player():
    env = make("UltimateTicTacToe-v0")
    from gymv_envs.domains.games.ultimate_tic_tac_toe import split
    s = ((0,) * 4 + (1 + 3,) + (0,) * 4, ME, 4, (0,) * 9, None)   # X X . on the centre board's top row, X sent there
    t = env.play(s, env.action_names.index("F6"))   # completes it: the centre board is X's
    assert t[3][4] == ME and env.result(t) is None
    # F6 is the top-right cell of its board, so O is sent to the top-right board (open)
    assert {split(a)[0] for a in env.legal(t)} == {2}
    u = (t[0], THEM, 4, t[3], None)   # a move sending O to the closed centre board: O may play in any open board
    assert {split(a)[0] for a in env.legal(u)} == {0, 1, 2, 3, 5, 6, 7, 8}


def test_uttt_three_boards_in_a_row_win_and_start_is_forced():
    env = make("UltimateTicTacToe-v0")
    won = 1 + 3 + 9   # a small board with X on its top row
    s = ((won, won, 1 + 3) + (0,) * 6, ME, 0, (ME, ME, 0) + (0,) * 6, None)   # X won boards 1, 2; board 3 has X X .
    t = env.play(s, env.action_names.index("I9"))   # the top-right board's top-right cell
    assert env.result(t) == ME and t[3][2] == ME
    env2 = make("UltimateTicTacToe-v0", difficulty=1)
    assert env2.wins(env2.state, 2) and not env2.wins(env2.state, 1)


def _plain_play(s, a):   # the rules as first written: digits read one by one, no tables
    from gymv_envs.domains.games._ultimate_ttt import split
    from gymv_envs.rules.ultimate_ttt import line_won, small_board
    codes, p, _, status = s[:4]
    b, i = split(a)
    code = codes[b] + p * 3 ** i
    codes = codes[:b] + (code,) + codes[b + 1:]
    won, full = small_board(code)[0], all(code // 3 ** k % 3 for k in range(9))
    status = status[:b] + (won if won else 3 if full else 0,) + status[b + 1:]
    if won and line_won(list(status), p):
        return codes, 3 - p, i, status, p
    return codes, 3 - p, i, status, (0 if 0 not in status else None)


def _plain_legal(s):
    from gymv_envs.domains.games._ultimate_ttt import joined
    from gymv_envs.rules.ultimate_ttt import playable
    if s[4] is not None:
        return []
    codes, _, sent, status = s[:4]
    boards = playable(list(status), None if sent < 0 else (0, sent))
    return sorted(joined(b, i) for b in boards for i in range(9) if codes[b] // 3 ** i % 3 == 0)


def _plain_wins(s, k, memo):   # the AND-OR search over every move, without the cut
    if s[4] is not None or k <= 0:
        return s[4] == ME
    if (s, k) not in memo:
        kids = [_plain_play(s, a) for a in _plain_legal(s)]
        memo[s, k] = (any(_plain_wins(t, k - 1, memo) for t in kids) if s[1] == ME
                      else all(_plain_wins(t, k, memo) for t in kids))
    return memo[s, k]


def test_ultimate_ttt_table_rules_and_cut_search_match_the_plain_rules():
    import numpy as np

    from gymv_envs.domains.games import _ultimate_ttt as fast
    from gymv_envs.rules.ultimate_ttt import board_tables, small_board
    status, empty = board_tables()
    for code in range(0, 3 ** 9, 7):
        d = [code // 3 ** i % 3 for i in range(9)]
        assert status[code] == (small_board(code)[0] or (3 if all(d) else 0))
        assert empty[code] == sum(1 << i for i in range(9) if not d[i])
    rng, seen = np.random.default_rng(5), set()
    for _ in range(100):
        s = (0,) * 9, ME, -1, (0,) * 9, None
        for _ in range(2 * int(rng.integers(22, 35))):
            moves = fast.legal(s)
            assert moves == _plain_legal(s) and [fast.play(s, a) for a in moves] == [_plain_play(s, a) for a in moves]
            t = fast.play(s, moves[int(rng.integers(len(moves)))])
            if t[4] is not None:
                break
            s = t
        if s[4] is not None:
            continue
        memo = {}
        cases = [(s, 1), (s, 2)]
        if s[1] == ME and _plain_wins(s, 2, memo):   # then O's replies to X's moves, many of them lost
            cases += [(_plain_play(s, a), 1) for a in _plain_legal(s)]
        for t, k in cases:
            want = _plain_wins(t, k, memo)
            assert fast.wins(t, k, {}) == want, (t, k)
            seen.add((t[1], k, want))
        boards = {fast.split(a)[0] for a in _plain_legal(s)}
        assert fast.wins_now(s[0], s[3], boards, s[1]) == any(_plain_play(s, a)[4] == s[1] for a in _plain_legal(s))
    assert len(seen) == 7, seen   # each mover, k and answer was checked (O to move never wins in 2 here)
    for seed in range(20):   # the opening: rng.shuffle of the moves draws as rng.permutation does
        r1, r2, s = np.random.default_rng(seed), np.random.default_rng(seed), ((0,) * 9, ME, -1, (0,) * 9, None)
        for _ in range(40):
            moves = _plain_legal(s)
            nxt = next((t for t in (_plain_play(s, moves[int(j)]) for j in r2.permutation(len(moves))) if t[4] is None), None)
            if nxt is None:
                break
            s = nxt
        assert fast.playout(r1, 40) == s and r1.random() == r2.random()


# ---------------------------------------------------------------- Tak
def tak_state(env, stacks: dict[str, tuple[int, ...]], mover: int = ME, reserve=(5, 5)):
    n = env.side
    b = [()] * (n * n)
    for name, st in stacks.items():
        b[(n - int(name[1])) * n + "abcd".index(name[0])] = st
    return tuple(b), mover, reserve, None


def test_tak_road_of_flats_wins_and_walls_do_not_count():
    env = make("Tak-v0")   # 3x3
    s = tak_state(env, {"a1": (1,), "a2": (1,)})
    assert env.result(env.play(s, env.action_names.index("a3"))) == ME   # a1-a2-a3 joins the bottom and top edges
    assert env.result(env.play(s, env.action_names.index("Sa3"))) is None   # a wall is no part of a road
    s = tak_state(env, {"a1": (1,), "a2": (2, 1), "c1": (2,)})
    t = env.play(s, env.action_names.index("a2>"))   # the black top moves to b2, uncovering a white flat on a2
    assert t[0][3] == (2,) and t[0][4] == (1,)


def test_tak_stack_moves_drop_bottom_first_and_walls_block():
    env = make("Tak-v0")
    s = tak_state(env, {"a1": (2, 1, 2, 1), "c1": (3,)})   # black controls a1 (four high: carry at most 3)
    names = {env.action_names[a] for a in env.legal(s)}
    assert "3a1+12" in names and "3a1+21" in names and "4a1+" not in names
    assert "2a1>11" not in names and "a1>" in names   # the wall on c1 stops a spread over b1 and c1
    t = env.play(s, env.action_names.index("3a1+12"))
    assert t[0][6] == (2,) and t[0][3] == (1,) and t[0][0] == (2, 1)   # a1 keeps 1; a2 gets the bottom one; a3 two
    env.state = env.before = s
    _, _, _, _, info = env.step(env.action_names.index("a1"))   # a1 is occupied: no placement there
    assert info["invalid_action"] and env.state == s


def test_tak_flat_count_ends_a_full_board_and_forced_win_start():
    env = make("Tak-v0")
    full = {f"{c}{r}": ((1,) if (r + "abc".index(c)) % 2 else (2,)) for c in "abc" for r in (1, 2, 3) if (c, r) != ("c", 3)}
    full["b2"] = (3,)   # a black wall in the middle: no road for either side
    s = tak_state(env, full)
    t = env.play(s, env.action_names.index("c3"))
    assert env.result(t) in (ME, THEM, DRAW)
    tops = [st[-1] for st in t[0]]
    assert (tops.count(1) > tops.count(2)) == (env.result(t) == ME)
    env2 = make("Tak-v0", difficulty=2)
    assert env2.wins(env2.state, 2) and not env2.wins(env2.state, 1)
