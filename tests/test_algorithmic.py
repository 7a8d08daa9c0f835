"""Algorithmic tasks (gymv_envs/domains/algorithmic): verifiers that accept every valid answer and
reject near misses, solvers checked against independent brute force on small cases, and levels that
are well posed."""

from __future__ import annotations

import functools
import itertools
from collections import deque

import gymnasium as gym
import numpy as np
import pytest

from gymv_envs.core import grid_answers as ga
from gymv_envs.core.cells import LETTERS, cell_name
from gymv_envs.domains.algorithmic import _games, _life
from gymv_envs.domains.algorithmic._common import NEIGHBOURS_4, bfs_distances
from gymv_envs.domains.algorithmic._k_paths_solver import best_paths
from gymv_envs.domains.algorithmic.arrows_face_right import ArrowsFaceRight
from gymv_envs.domains.algorithmic.k_paths import covered
from gymv_envs.domains.algorithmic.landforms import peaks
from gymv_envs.domains.algorithmic.spiral_order import spiral


def _env(name: str, difficulty: int = 0, seed: int = 0, **kwargs):
    env = gym.make(f"GymV/{name}-v0", difficulty=difficulty, obs_size=(48, 48), **kwargs).unwrapped
    env.reset(seed=seed)
    return env


def _judge(env, text: str) -> bool | None:
    """The verifier's verdict on a written answer (None: unreadable)."""
    answer = env._read(text)
    return None if answer is None else bool(env._check(answer))


def _paths(rows: int, cols: int) -> list[str]:
    return ["".join("D" if i in pos else "R" for i in range(rows + cols - 2))
            for pos in itertools.combinations(range(rows + cols - 2), rows - 1)]


# ----------------------------------------------------------------- answers are read robustly
def test_grid_answers_read_common_spellings_and_refuse_the_rest():
    assert ga.read_grid("1 2\n3 4", 2, 2) == ((1, 2), (3, 4))
    assert ga.read_grid("Row 1: 1, 2\nRow 2: 3, 4", 2, 2) == ((1, 2), (3, 4))
    assert ga.read_grid("I worked it out, the map is\n1 #\n# 0", 2, 2, symbols={"#": -1}) == ((1, -1), (-1, 0))
    assert ga.read_grid("#. / .#", 2, 2, "mask") == ((1, 0), (0, 1))
    assert ga.read_grid("#. / .", 2, 2, "mask") == ((1, 0), (0, 0))  # a trailing `.` stripped by extraction
    assert ga.read_grid("→↓ / ↑←", 2, 2, "char", "URDL") == ((1, 2), (0, 3))
    for _ in range(2):  # a character's value belongs to its alphabet (read again: from the table)
        assert ga.read_grid("r d / u l", 2, 2, "char", "URDL") == ((1, 2), (0, 3))
        assert ga.read_grid("r d / u l", 2, 2, "char", "LRUD") == ((1, 3), (2, 0))
        assert ga.read_grid("r d / u x", 2, 2, "char", "URDL") is None
    assert ga.read_grid("1 2 3", 2, 2) is None and ga.read_grid("a b / c d", 2, 2) is None
    assert ga.read_cells("B2 and c3.", 3, 3) == [(1, 1), (2, 2)]
    assert ga.read_cells("D1", 3, 3) is None and ga.read_cells("B2 is it", 3, 3) is None
    assert ga.read_int("-1") == -1 and ga.read_int("3 4") is None and ga.read_ints("[3, 1, 2]", 3) == [3, 1, 2]


# ----------------------------------------------------------------- verifiers accept every valid answer
def test_circulating_fix_accepts_another_optimal_board_and_rejects_broken_ones():
    from gymv_envs.domains.algorithmic.circulating_grid import arrows_of, cover, edit_costs

    found_other = False
    for seed in range(12):
        env = _env("CirculatingGridFix", 1, seed)
        rng = np.random.default_rng(seed)
        cost = edit_costs(env.arrows).astype(float)
        for _ in range(6):  # break ties among optimal assignments another way
            total, succ = cover(cost + rng.random(cost.shape) * 0.01)
            other = arrows_of(succ, env.rows, env.cols)
            assert int((other != env.arrows).sum()) == env.best
            assert _judge(env, env.kind.format(other))
            found_other |= not np.array_equal(other, env.fixed)
        assert not _judge(env, env.kind.format(env.arrows))  # unedited: some cell is off every cycle
        broken = env.fixed.copy()
        broken[0, 0] = 1 if broken[0, 0] != 1 else 2  # turn one arrow: two arrows now share a target
        assert not _judge(env, env.kind.format(broken))
    assert found_other, "no level had a second optimal board to accept"


@pytest.mark.parametrize("name", ["DiagonalRowOrder", "BothDiagonalsRowOrder"])
def test_row_orders_accepted_exactly_when_the_diagonals_hold_ones(name):
    env = _env(name, 0, 3)
    n, both = env.n, name.startswith("Both")
    valid = 0
    for order in itertools.permutations(range(1, n + 1)):
        p = env.matrix[[r - 1 for r in order]]
        ok = all(p[i, i] and (not both or p[i, n - 1 - i]) for i in range(n))
        assert _judge(env, " ".join(map(str, order))) == ok
        valid += ok
    assert valid >= 1
    assert _judge(env, "1 2") is None  # too short to be an order


def test_k_paths_verifier_agrees_with_enumeration_of_every_answer():
    env = _env("KPathsMaxCover", 0, 2)
    n, paths = env.side, _paths(env.side, env.side)
    best = max(covered(env.values, list(c)) for c in itertools.combinations_with_replacement(paths, env.k))
    assert env.best == best
    accepted = 0
    for combo in itertools.product(paths, repeat=env.k):
        ok = _judge(env, " / ".join(combo))
        assert ok == (covered(env.values, list(combo)) == best)
        accepted += ok
    assert accepted >= 2  # the same paths in the other order at least
    assert _judge(env, "RRRDDD") is None and not _judge(env, " / ".join(["R" * (2 * n - 2)] * env.k))


@functools.cache
def _coins_value(coins: tuple[tuple[int, int], ...]) -> int:
    """Grundy value of a whole queen-coins position by direct recursion (no Wythoff table, no XOR)."""
    options = set()
    for i, (r, c) in enumerate(coins):
        for dr, dc in ((-1, 0), (0, -1), (-1, -1)):
            k = 1
            while r + k * dr >= 0 and c + k * dc >= 0:
                nxt = coins[:i] + ((r + k * dr, c + k * dc),) + coins[i + 1:]
                options.add(_coins_value(tuple(sorted(nxt))))
                k += 1
    return _games.mex(options)


@functools.cache
def _line_value(lines: tuple[tuple[int, ...], ...]) -> int:
    """Grundy value of whole Kayles lines by direct recursion over every removal."""
    options = set()
    for r, line in enumerate(lines):
        for c, v in enumerate(line):
            for width in (1, 2):
                if v and c + width <= len(line) and all(line[c:c + width]):
                    new = line[:c] + (0,) * width + line[c + width:]
                    options.add(_line_value(lines[:r] + (new,) + lines[r + 1:]))
    return _games.mex(options)


@functools.cache
def _heaps_value(heaps: tuple[int, ...]) -> int:
    live = [h for h in heaps if h]
    if not live:
        return 0
    m = min(live)
    return _games.mex({_heaps_value(heaps[:i] + (h - k,) + heaps[i + 1:])
                       for i, h in enumerate(heaps) for k in range(1, min(m, h) + 1)})


def test_grundy_tables_agree_with_direct_recursion():
    table = _games.wythoff_table(5)
    for coins in itertools.combinations_with_replacement([(r, c) for r in range(4) for c in range(4)], 2):
        assert _coins_value(tuple(sorted(coins))) == table[coins[0][0]][coins[0][1]] ^ table[coins[1][0]][coins[1][1]]
    for bits in itertools.product((0, 1), repeat=9):
        value = 0
        for k in _games.runs(list(bits)):
            value ^= _games.kayles(k)
        assert _line_value((bits,)) == value
    for heaps in itertools.product(range(5), repeat=3):
        assert _games.minima_value(heaps) == _heaps_value(heaps)


@pytest.mark.parametrize("name, value", [("CoinSquare", lambda e, p: _coins_value(tuple(sorted(p)))),
                                         ("StoneIntervals", lambda e, p: _line_value(tuple(map(tuple, p)))),
                                         ("MinimaTakeAway", lambda e, p: _heaps_value(tuple(p)))])
def test_every_winning_move_is_accepted_and_every_losing_one_refused(name, value):
    for seed in range(4):
        env = _env(f"{name}WinningMove", 0, seed)
        grundy = _env(f"{name}Grundy", 0, seed)
        assert _judge(grundy, str(grundy._solution))
        if name == "CoinSquare":
            moves = env._moves()
            positions = [env._play(m) for m in moves]
            assert value(env, env.coins) == env.value != 0
        elif name == "StoneIntervals":
            moves = env._moves()
            positions = [env._play(m) for m in moves]
            assert value(env, env.lines) == env.value != 0
        else:
            moves = _games.minima_moves(env.heaps)
            positions = [_games.after(env.heaps, *m) for m in moves]
            assert value(env, env.heaps) == env.value != 0
        wins = 0
        for move, pos in zip(moves, positions):
            ok = _judge(env, env.kind.format(move))
            assert ok == (value(env, pos) == 0)
            wins += ok
        assert wins >= 1 and wins <= len(moves) - 3


def test_arrows_face_right_accepts_exactly_the_shortest_solving_sets():
    for seed in range(6):
        env = _env("ArrowsFaceRight", 0, seed)
        lines = [str(r + 1) for r in range(env.rows)] + list(LETTERS[: env.cols])
        solving = [s for k in range(len(lines) + 1) for s in itertools.combinations(lines, k)
                   if not ArrowsFaceRight._flip(env, s).any()]
        fewest = min(map(len, solving))
        assert env.best == fewest
        for k in range(len(lines) + 1):
            for s in itertools.combinations(lines, k):
                if s:
                    assert _judge(env, " ".join(reversed(s))) == (s in solving and k == fewest)


def test_set_and_word_answers_read_in_any_order_or_spelling():
    env = _env("LifeChanges", 1, 4)
    cells = sorted(env._solution)
    assert _judge(env, ", ".join(cell_name(r, c).lower() for r, c in reversed(cells)))
    assert not _judge(env, " ".join(cell_name(r, c) for r, c in cells[1:]) or "none")
    env = _env("LangtonAntHeading", 1, 2)
    word = ("up", "right", "down", "left")[env._solution]
    assert _judge(env, word) and _judge(env, f"facing {word}") and _judge(env, word.upper() + ".")
    assert not _judge(env, ("up", "right", "down", "left")[(env._solution + 1) % 4])
    env = _env("WallDistanceMap", 0, 1)
    written = " / ".join(" ".join("X" if v < 0 else str(v) for v in row) for row in env._solution)
    assert _judge(env, written)
    env = _env("AdditionTableDecode", 0, 5)
    pairs = ", ".join(f"{a} -> {d}" for a, d in reversed(env._solution))
    assert _judge(env, pairs) and _judge(env, "\n".join(f"{a}: {d}" for a, d in env._solution))


# ----------------------------------------------------------------- solvers against brute force
def _all_boards(rows: int, cols: int):
    options = []
    for r in range(rows):
        for c in range(cols):
            options.append([k for k, (dr, dc) in enumerate(NEIGHBOURS_4) if 0 <= r + dr < rows and 0 <= c + dc < cols])
    return options


def test_circulating_min_edits_agree_with_brute_force_on_small_boards():
    from gymv_envs.domains.algorithmic.circulating_grid import cover, edit_costs, on_cycles

    rng = np.random.default_rng(0)
    for rows, cols in ((2, 2), (2, 3), (3, 2), (2, 4)):
        options = _all_boards(rows, cols)
        circulating = [np.array(b).reshape(rows, cols) for b in itertools.product(*options)]
        circulating = [b for b in circulating if on_cycles(b) == rows * cols]
        assert circulating
        for _ in range(6):
            board = np.array([o[int(rng.integers(len(o)))] for o in options]).reshape(rows, cols)
            brute = min(int((b != board).sum()) for b in circulating)
            assert cover(edit_costs(board))[0] == brute


def test_k_paths_dp_agrees_with_brute_force_and_min_cost_flow():
    nx = pytest.importorskip("networkx")
    rng = np.random.default_rng(1)
    for _ in range(20):
        rows, cols, k = int(rng.integers(2, 5)), int(rng.integers(2, 5)), int(rng.integers(1, 4))
        values = rng.integers(0, 10, size=(rows, cols))
        best, paths = best_paths(values, k)
        assert covered(values, paths) == best
        brute = max(covered(values, list(c)) for c in itertools.combinations_with_replacement(_paths(rows, cols), k))
        assert best == brute
        g = nx.DiGraph()  # node split: the first unit through a cell collects its value, others pass free
        for r in range(rows):
            for c in range(cols):
                g.add_edge(("in", r, c), ("out", r, c), capacity=1, weight=-int(values[r, c]))
                g.add_edge(("in", r, c), ("mid", r, c), capacity=k, weight=0)
                g.add_edge(("mid", r, c), ("out", r, c), capacity=k, weight=0)
                for dr, dc in ((1, 0), (0, 1)):
                    if r + dr < rows and c + dc < cols:
                        g.add_edge(("out", r, c), ("in", r + dr, c + dc), capacity=k, weight=0)
        g.add_edge("s", ("in", 0, 0), capacity=k, weight=0)
        g.add_edge(("out", rows - 1, cols - 1), "t", capacity=k, weight=0)
        flow = nx.max_flow_min_cost(g, "s", "t")
        assert -nx.cost_of_flow(g, flow) == best


def test_life_bitboards_agree_with_numpy_and_settle_is_right():
    rng = np.random.default_rng(2)
    for _ in range(100):
        rows, cols = (int(v) for v in rng.integers(2, 11, 2))
        grid = (rng.random((rows, cols)) < 0.4).astype(np.int64)
        bits = _life.to_bits(grid)
        for _ in range(4):
            grid, bits = _life.step_array(grid), _life.step(bits, rows, cols)
            assert np.array_equal(_life.to_array(bits, rows, cols), grid)
    for d in (0, 1, 2):
        for seed in range(5):
            env = _env("LifeSettle", d, seed)
            boards = [env.start]
            for _ in range(env.param + 2):
                boards.append(_life.step_array(boards[-1]))
            t = next(i for i in range(len(boards)) if any(np.array_equal(boards[i], b) for b in boards[i + 1:]))
            assert t == env._solution and 1 <= t <= env.param


def test_distance_maps_and_rot_agree_with_plain_searches():
    for seed in range(5):
        env = _env("NearestZeroMap", 2, seed)
        zeros = [tuple(p) for p in np.argwhere(env.matrix == 0)]
        assert np.array_equal(np.asarray(env._solution), bfs_distances(np.ones_like(env.matrix, bool), zeros))
        env = _env("RottingOranges", 1, seed)
        grid, minute = env.grid.copy(), 0
        while True:  # minute by minute
            rotten = grid == 2
            near = np.zeros_like(rotten)
            near[1:] |= rotten[:-1]
            near[:-1] |= rotten[1:]
            near[:, 1:] |= rotten[:, :-1]
            near[:, :-1] |= rotten[:, 1:]
            new = near & (grid == 1)
            if not new.any():
                break
            grid[new], minute = 2, minute + 1
        assert env._solution == (-1 if (grid == 1).any() else minute)
        env = _env("WallDistanceCell", 2, seed)
        seen, queue = {env.start: 0}, deque([env.start])
        while queue:
            r, c = queue.popleft()
            for dr, dc in NEIGHBOURS_4:
                p = (r + dr, c + dc)
                if 0 <= p[0] < env.side and 0 <= p[1] < env.side and env.open_[p] and p not in seen:
                    seen[p] = seen[(r, c)] + 1
                    queue.append(p)
        assert env._solution == seen[env.target]


def test_counting_solvers_agree_with_cell_by_cell_checks():
    for seed in range(5):
        env = _env("LocalMinimaCount", 1, seed)
        g, n = env.grid, env.side
        brute = sum(all(g[r, c] < g[r + dr, c + dc] for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                        if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n) for r in range(n) for c in range(n))
        assert env._solution == brute
        env = _env("PeakCount", 1, seed)
        h, n, count, done = env.heights, env.side, 0, set()
        for start in itertools.product(range(n), repeat=2):
            if start in done or h[start] == 0:
                continue
            plateau, stack = {start}, [start]
            while stack:
                r, c = stack.pop()
                for dr, dc in NEIGHBOURS_4:
                    p = (r + dr, c + dc)
                    if 0 <= p[0] < n and 0 <= p[1] < n and p not in plateau and h[p] == h[start]:
                        plateau.add(p)
                        stack.append(p)
            done |= plateau
            rim = {(r + dr, c + dc) for r, c in plateau for dr, dc in NEIGHBOURS_4} - plateau
            count += all(h[p] < h[start] for p in rim if 0 <= p[0] < n and 0 <= p[1] < n)
        assert env._solution == count == peaks(h)


def test_spiral_rotation_and_addition_table_against_plain_definitions():
    m = np.arange(1, 21).reshape(4, 5)
    assert spiral(m) == [1, 2, 3, 4, 5, 10, 15, 20, 19, 18, 17, 16, 11, 6, 7, 8, 9, 14, 13, 12]
    env = _env("RotateMatrix", 1, 0)
    n, rot = env.side, np.asarray(env._solution)
    turned = {90: lambda r, c: env.matrix[n - 1 - c, r], 180: lambda r, c: env.matrix[n - 1 - r, n - 1 - c],
              270: lambda r, c: env.matrix[c, n - 1 - r]}[env.angle]
    assert all(rot[r, c] == turned(r, c) for r in range(n) for c in range(n))
    env = _env("AdditionTableDecode", 0, 1)
    valid = [p for p in itertools.permutations(range(env.n)) if env._check(tuple(zip(env.letters, p)))]
    assert valid == [tuple(d for _, d in env._solution)]  # the decoding is unique


# ----------------------------------------------------------------- levels are well posed
def test_simulations_stay_on_the_board_and_settle_within_the_stated_bound():
    from gymv_envs.domains.algorithmic.langton_ant import walk
    from gymv_envs.domains.algorithmic.turing_grid import run

    for d in (0, 1, 2):
        for seed in range(8):
            env = _env("LangtonAntPosition", d, seed)
            assert env.step_range[0] <= env.steps <= env.step_range[1]
            assert walk(env.black, env.pos, env.heading, env.steps + 1) is not None
            env = _env("TuringGridTape", d, seed)
            assert run(env.tape, env.pos, env.state, env.rules, env.steps + 1) is not None
            env = _env("LifeSettle", d, seed)
            assert _life.settle(env.bits, env.side, env.side, env.param) is not None
            env = _env("LifeBoard", d, seed)
            assert env._solution != tuple(map(tuple, env.start.tolist()))


def test_harder_levels_are_bigger():
    for name in ("LifeBoard", "WallDistanceMap", "CirculatingGridEdits", "KPathsMaxCover", "StoneIntervalsGrundy"):
        sizes = [len(_env(name, d)._state_text()) for d in (0, 1, 2)]
        assert sizes[0] < sizes[1] < sizes[2], (name, sizes)


# ----------------------------------------------------------------- oracles against plain re-computations (issue 15)
def test_langton_ant_answers_match_a_plain_step_by_step_simulation():
    moves = ((-1, 0), (0, 1), (1, 0), (0, -1))  # heading 0 up, 1 right, 2 down, 3 left: clockwise
    words = ("up", "right", "down", "left")
    for d in (0, 1, 2):
        for seed in range(4):
            for question in ("Position", "Heading", "BlackCount"):
                env = _env(f"LangtonAnt{question}", d, seed)
                n = env.side
                black = {(r, c) for r in range(n) for c in range(n) if env.black[r][c]}
                (r, c), h = env.pos, env.heading
                for _ in range(env.steps):
                    if (r, c) in black:  # black: turn left, make it white
                        h = (h + 3) % 4
                        black.discard((r, c))
                    else:  # white: turn right, make it black
                        h = (h + 1) % 4
                        black.add((r, c))
                    r, c = r + moves[h][0], c + moves[h][1]
                    assert 0 <= r < n and 0 <= c < n
                if question == "Position":
                    assert env._solution == (r, c)
                    right, wrong = f"{LETTERS[c]}{r + 1}", f"{LETTERS[c]}{r + 2 if r + 1 < n else r}"
                elif question == "Heading":
                    assert env._solution == h
                    right, wrong = f"facing {words[h]}", words[(h + 2) % 4]
                else:
                    assert env._solution == len(black)
                    right, wrong = str(len(black)), str(len(black) + 1)
                assert _judge(env, right) is True and _judge(env, wrong) is False, (d, seed, question)


def test_turing_grid_answers_match_a_plain_run_of_the_rule_table():
    offsets = {"U": (-1, 0), "R": (0, 1), "D": (1, 0), "L": (0, -1)}
    for d in (0, 1, 2):
        for seed in range(4):
            for question in ("Position", "State", "Tape"):
                env = _env(f"TuringGrid{question}", d, seed)
                n = env.side
                tape = {(r, c): env.tape[r][c] for r in range(n) for c in range(n)}
                (r, c), state = env.pos, env.state
                assert set(env.rules) == {(s, x) for s in range(4) for x in range(env.symbols)}
                for _ in range(env.steps):
                    write, move, state = env.rules[(state, tape[(r, c)])]
                    tape[(r, c)] = write
                    r, c = r + offsets[move][0], c + offsets[move][1]
                    assert 0 <= r < n and 0 <= c < n
                rows = [[tape[(y, x)] for x in range(n)] for y in range(n)]
                if question == "Position":
                    assert env._solution == (r, c)
                    right, wrong = f"{LETTERS[c]}{r + 1}", f"{LETTERS[c + 1 if c + 1 < n else c - 1]}{r + 1}"
                elif question == "State":
                    assert env._solution == state
                    right, wrong = "ABCD"[state], "ABCD"[(state + 1) % 4]
                else:
                    assert [list(row) for row in env._solution] == rows
                    right = " / ".join(" ".join(map(str, row)) for row in rows)
                    rows[0][0] = (rows[0][0] + 1) % env.symbols  # one symbol off
                    wrong = " / ".join(" ".join(map(str, row)) for row in rows)
                assert _judge(env, right) is True and _judge(env, wrong) is False, (d, seed, question)


def test_island_and_block_counts_match_scipy_labelling():
    ndimage = pytest.importorskip("scipy.ndimage")
    for d in (0, 1, 2):
        for seed in range(4):
            env = _env("IslandCount", d, seed)
            count = ndimage.label(np.asarray(env.heights) > 0)[1]  # the default structure joins side by side only
            assert env._solution == count
            assert _judge(env, str(count)) is True and _judge(env, str(count + 1)) is False
            env = _env("MonochromeBlocks", d, seed)
            grid = np.asarray(env.grid)
            count = sum(ndimage.label(grid == colour)[1] for colour in np.unique(grid))
            assert env._solution == count
            assert _judge(env, str(count)) is True and _judge(env, str(count - 1)) is False
