"""Focused tests of the puzzle families of issue 16 (part A): ChessRanger, NinePuzzleShift, Twiddle,
SwapPuzzle, Klotski, GoCapture / GoSave. The verifiers accept every valid answer and refuse near
misses; the solvers agree with plain brute force written here on small cases."""

from __future__ import annotations

import itertools

import gymnasium as gym
import pytest

import gymv_envs
from gymv_envs.domains.puzzles import klotski
from gymv_envs.domains.puzzles.chess_ranger import square_name
from gymv_envs.domains.puzzles.nine_puzzle_shift import shift_moves
from gymv_envs.domains.puzzles.twiddle import rotations
from gymv_envs.rules import go


def _env(name: str, difficulty: int = 0, seed: int = 0, **kw):
    env = gym.make(gymv_envs.task_spec(name).id, difficulty=difficulty, obs_size=(64, 64), **kw).unwrapped
    env.reset(seed=seed)
    return env


def _score(env, text: str, seed: int) -> float:
    env.reset(seed=seed)
    return env.step(text)[1]


def _iddfs(board: tuple, perms, limit: int) -> int | None:
    """Fewest moves to the sorted board by plain iterative deepening (no tables)."""
    goal = tuple(sorted(board))

    def search(b, depth):
        return b == goal if depth == 0 else any(search(tuple(b[j] for j in p), depth - 1) for p in perms)

    return next((d for d in range(limit + 1) if search(board, d)), None)


# ----------------------------------------------------------------------------- NinePuzzleShift, Twiddle
@pytest.mark.parametrize("seed", range(4))
def test_shift_verifier_accepts_every_shortest_list_and_nothing_else(seed):
    env = _env("NinePuzzleShift", 0, seed)
    names = [name for name, _ in shift_moves(3)]
    perms = [p for _, p in shift_moves(3)]
    goal = tuple(range(1, 10))
    shortest = []
    for seq in itertools.product(range(len(names)), repeat=env.best):  # brute force over every list
        b = env.board
        for k in seq:
            b = tuple(b[j] for j in perms[k])
        if b == goal:
            shortest.append(seq)
    assert shortest and _iddfs(env.board, perms, 4) == env.best
    for seq in shortest:
        assert _score(env, " ".join(names[k] for k in seq), seed) == 1.0
    first = shortest[0]
    longer = (first[0], first[0] ^ 1) + first  # a move and its undo first: still sorts, but not shortest
    assert _score(env, " ".join(names[k] for k in longer), seed) == 0.0
    wrong = (first[0] ^ 1,) + first[1:]
    assert _score(env, " ".join(names[k] for k in wrong), seed) == 0.0
    spoken = ", ".join(("row " + n[0] + {"L": " left", "R": " right"}[n[1]]) if n[0].isdigit()
                       else ("column " + n[0] + {"U": " up", "D": " down"}[n[1]]) for n in (names[k] for k in first))
    assert _score(env, f"Answer: {spoken}", seed) == 1.0


@pytest.mark.parametrize("difficulty,seeds", [(0, range(5)), (1, range(2))])
def test_twiddle_count_matches_iterative_deepening(difficulty, seeds):
    for seed in seeds:
        env = _env("Twiddle", difficulty, seed)
        assert _iddfs(env.board, rotations(env.n), env.best) == env.best
        assert _score(env, str(env.best), seed) == 1.0
        assert _score(env, str(env.best - 1), seed) == 0.0 and _score(env, str(env.best + 1), seed) == 0.0


def test_twiddle_rotations_are_quarter_turns():
    cw, acw = rotations(3)[:2]
    board = tuple(range(1, 10))
    assert tuple(board[j] for j in cw)[:5] == (4, 1, 3, 5, 2)  # 1 2 / 4 5 turned clockwise: 4 1 / 5 2
    twice = tuple(board[j] for j in cw)
    assert tuple(twice[j] for j in acw) == board


# ----------------------------------------------------------------------------- Klotski
@pytest.mark.parametrize("difficulty", [0, 1])
def test_klotski_pool_distance_matches_a_fresh_search(difficulty):
    for seed in range(4):
        env = _env("Klotski", difficulty, seed)
        assert klotski.fewest_moves(env.state, klotski.COLS, klotski.ROWS) == env.best
        assert _score(env, f"{env.best} moves", seed) == 1.0
        assert _score(env, str(env.best + 1), seed) == 0.0


def test_klotski_moves_are_one_block_one_cell():
    s = ((0,), (), (), (2, 3))  # big block at the top left, small blocks at C1 and D1
    after = set(klotski.successors(s, 4, 4))
    assert ((4,), (), (), (2, 3)) in after  # the big block one cell down
    assert ((0,), (), (), (3, 6)) in after  # the C1 block one cell down
    assert ((0,), (), (), (2, 7)) in after  # the D1 block one cell down
    assert all(t[0] == (0,) or t[0] == (4,) for t in after) and len(after) == 3


# ----------------------------------------------------------------------------- SwapPuzzle
def _brute_clears(grid, y, x) -> int:
    """Cleared blocks after a swap, simulated cell by cell from scratch."""
    g = [list(r) for r in grid]
    rows, cols = len(g), len(g[0])
    g[y][x], g[y][x + 1] = g[y][x + 1], g[y][x]
    total = 0
    while True:
        for c in range(cols):  # gravity, one cell at a time
            moved = True
            while moved:
                moved = False
                for r in range(1, rows):
                    if g[r][c] and not g[r - 1][c]:
                        g[r - 1][c], g[r][c], moved = g[r][c], 0, True
        gone = set()
        for r in range(rows):
            for c in range(cols):
                v = g[r][c]
                for dr, dc in ((0, 1), (1, 0)):
                    cells = [(r + k * dr, c + k * dc) for k in range(3)]
                    if v and all(a < rows and b < cols and g[a][b] == v for a, b in cells):
                        gone.update(cells)
        if not gone:
            return total
        total += len(gone)
        for a, b in gone:
            g[a][b] = 0


@pytest.mark.parametrize("difficulty", [0, 2])
def test_swap_puzzle_accepts_exactly_the_best_swaps(difficulty):
    for seed in range(3):
        env = _env("SwapPuzzle", difficulty, seed)
        rows, cols = env.rows, env.cols
        scores = {(y, x): _brute_clears(env.grid, y, x) for y in range(rows) for x in range(cols - 1)}
        best = max(scores.values())
        assert best == env.best > 0
        for (y, x), v in scores.items():
            a, b = (f"{'ABCDEFGH'[x]}{y + 1}", f"{'ABCDEFGH'[x + 1]}{y + 1}")
            expected = float(v == best and env.grid[y][x] != env.grid[y][x + 1])
            assert _score(env, f"{a} {b}", seed) == expected
            assert _score(env, f"{b} {a}", seed) == expected  # either order
        assert env._parse_answer("A1 A2") is None and env._parse_answer("A1 C1") is None  # not neighbours in a row


# ----------------------------------------------------------------------------- ChessRanger
def _chess_captures(position):
    """Captures by python-chess's own move generator: the mover white, every other piece black."""
    import chess

    out = []
    for sq, _ in position:
        b = chess.Board(None)
        for other, k in position:
            b.set_piece_at(other, chess.Piece(k, chess.WHITE if other == sq else chess.BLACK))
        b.turn = chess.WHITE
        out += [(m.from_square, m.to_square) for m in b.generate_pseudo_legal_captures() if m.from_square == sq]
    return out


def _chess_replays(position, seq) -> bool:
    for a, b in seq:
        if (a, b) not in _chess_captures(position):
            return False
        kind = dict(position)[a]
        position = tuple(sorted([(s, k) for s, k in position if s not in (a, b)] + [(b, kind)]))
    return len(position) == 1


def _chess_solutions(position, limit=50):
    found = []

    def dfs(pos, seq):
        if len(found) >= limit:
            return
        if len(pos) == 1:
            found.append(tuple(seq))
        for a, b in _chess_captures(pos):
            kind = dict(pos)[a]
            dfs(tuple(sorted([(s, k) for s, k in pos if s not in (a, b)] + [(b, kind)])), seq + [(a, b)])

    dfs(position, [])
    return found


def test_chess_ranger_first_moves_match_brute_force():
    pytest.importorskip("chess")
    for seed in range(6):
        env = _env("ChessRanger", 0, seed)
        sols = _chess_solutions(env.position, limit=10**6)
        good = {s[0] for s in sols}
        assert good == env.good and good
        for a, b in _chess_captures(env.position) + [(env.position[0][0], env.position[1][0])]:
            assert _score(env, f"{square_name(a)}x{square_name(b)}", seed) == float((a, b) in good)


@pytest.mark.parametrize("difficulty", [1, 2])
def test_chess_ranger_accepts_every_solution_sequence(difficulty):
    pytest.importorskip("chess")
    for seed in range(3):
        env = _env("ChessRanger", difficulty, seed)
        sols = _chess_solutions(env.position, limit=10)
        assert sols and _chess_replays(env.position, env.key)
        assert _score(env, env._format(env.key), seed) == 1.0
        for seq in sols:
            assert _score(env, env._format(seq), seed) == 1.0
            assert _score(env, " ".join(square_name(a) + square_name(b) for a, b in seq), seed) == 1.0
        key = list(env.key)
        swapped = tuple(key[1:2] + key[:1] + key[2:])
        assert _score(env, env._format(swapped), seed) == float(_chess_replays(env.position, swapped))
        assert _score(env, env._format(tuple(key[:-1])), seed) == 0.0  # one capture short: unreadable or wrong


# ----------------------------------------------------------------------------- GoCapture / GoSave
def _bf_captures(s, t, k, g) -> bool:
    """Plain minimax: the player to move captures the group at stone bit ``t`` within ``k`` moves."""
    if not (s[0] | s[1]) & t:
        return True
    if k == 0:
        return False
    return any(_bf_first(s, a, t, k, g) for a in range(g.n * g.n))


def _bf_first(s, a, t, k, g) -> bool:
    u = go.play(s, a, g)
    if u is None:
        return False
    if not (u[0] | u[1]) & t:
        return True
    return k > 1 and all((v := go.play(u, w, g)) is None or _bf_captures(v, t, k - 1, g) for w in range(g.n * g.n + 1))


@pytest.mark.parametrize("name,difficulty,seeds", [("GoCapture", 0, range(4)), ("GoCapture", 1, range(3)),
                                                   ("GoSave", 0, range(4)), ("GoSave", 1, range(1))])
def test_go_answers_match_plain_minimax(name, difficulty, seeds):
    for seed in seeds:
        env = _env(name, difficulty, seed)
        g, s, t = env.geo, env.state, env.marked & -env.marked
        points = [a for a in range(g.n * g.n) if go.play(s, a, g) is not None]
        if env.goal == "capture":
            good = {a for a in points if _bf_first(s, a, t, env.k, g)}
        else:
            good = {a for a in points if not _bf_captures(go.play(s, a, g), t, env.k, g)}
        assert good == set(env.good) and good
        for a in points:
            assert _score(env, env._format(a), seed) == float(a in good)
