"""Puzzle families B: ultimate tic-tac-toe, invaders, Spider, rhythm lanes, pyramid boards, Zuma.

Each solver is checked against an independent brute force on small cases, and each verifier against
every valid answer (all accepted) and the near misses (all rejected).
"""

from __future__ import annotations

import itertools

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs  # noqa: F401  (registers the ids)
from gymv_envs.domains.puzzles._spider_rules import legal_moves
from gymv_envs.domains.puzzles.invader_shot import simulate
from gymv_envs.domains.puzzles.pyramid_chess import seen_from_above
from gymv_envs.domains.puzzles.rhythm_lane import first_hits
from gymv_envs.domains.puzzles.zuma_chain import cleared
from gymv_envs.rules.ultimate_ttt import LINES, small_board


def _env(name: str, **kwargs):
    return gym.make(f"GymV/{name}-v0", **kwargs).unwrapped


def _winner(cells) -> int:
    return next((cells[a] for a, b, c in LINES if cells[a] and cells[a] == cells[b] == cells[c]), 0)


# ----------------------------------------------------------------- ultimate tic-tac-toe
def test_small_board_table_matches_brute_force():
    rng = np.random.default_rng(0)
    for code in rng.integers(0, 3 ** 9, 1500).tolist():
        cells = [(code // 3 ** i) % 3 for i in range(9)]
        win, xw, ow = small_board(code)
        assert win == _winner(cells)
        if win:  # a won board is closed: its winning cells never matter
            continue
        for p, wins in ((1, xw), (2, ow)):
            brute = [i for i in range(9) if not cells[i] and _winner(cells[:i] + [p] + cells[i + 1:]) == p]
            assert list(wins) == brute


def _ultimate_brute(env) -> tuple[set, set, set]:
    """(playable boards, moves winning a small board, moves winning the game) by the rules, from the cells."""
    status = [(_winner(b) or (3 if all(b) else 0)) for b in env.cells]
    sent = env.last[1]
    play = {sent} if status[sent] == 0 else {b for b in range(9) if status[b] == 0}
    board, game = set(), set()
    for b in play:
        for i in range(9):
            if env.cells[b][i]:
                continue
            after = env.cells[b][:i] + [env.me] + env.cells[b][i + 1:]
            if _winner(after) == env.me:
                board.add((b, i))
                meta = status[:b] + [env.me] + status[b + 1:]
                if _winner(meta) == env.me:
                    game.add((b, i))
    return play, board, game


@pytest.mark.parametrize("name,question", [("UltimateTicTacToeMove", "board"), ("UltimateTicTacToeWin", "game"),
                                           ("UltimateTicTacToePlayable", "playable")])
def test_ultimate_verifier_accepts_every_answer(name, question):
    for difficulty in (0, 2):
        env = _env(name, difficulty=difficulty, answer_format="mcq", obs_size=(64, 64))
        for seed in range(6):
            env.reset(seed=seed)
            play, board, game = _ultimate_brute(env)
            assert set(env.play) == play
            good = {"board": board, "game": game}.get(question)
            if question == "playable":
                assert env._check(frozenset(play))
                assert not any(env._check(frozenset(play) ^ {b}) for b in range(9))
            else:
                assert good and set(env.good) == good
                for move in good:  # every winning move, said as a cell, is accepted
                    assert env._check(env._parse_answer(env._format(move)))
                legal = {(b, i) for b in play for i in range(9) if not env.cells[b][i]}
                assert not any(env._check(move) for move in legal - good)
            for k, option in enumerate(env.options):
                assert (k == env._correct_index) == env._check(env._parse_answer(option))


def test_ultimate_playable_rejects_near_sets():
    env = _env("UltimateTicTacToePlayable", difficulty=2, obs_size=(64, 64))
    env.reset(seed=3)
    right = frozenset(env.play)
    assert env._check(env._parse_answer(", ".join(str(b + 1) for b in sorted(right))))
    assert env._check(env._parse_answer(" ".join(str(b + 1) for b in sorted(right, reverse=True))))
    for b in range(9):
        assert not env._check(right ^ {b})


# ----------------------------------------------------------------- invaders
def _invader_brute(alive, top, left, direction, width, height, cannon):
    """Every invader moved on its own absolute cell, the formation's walls found from the cells."""
    pos = {slot: (top + slot[0], left + slot[1]) for slot in alive}
    shot = (height - 1, cannon)
    for _ in range(4 * height):
        shot = (shot[0] - 1, shot[1])
        if shot[0] < 0:
            return None
        for slot, p in pos.items():
            if p == shot:
                return slot
        xs = [p[1] + direction for p in pos.values()]
        if min(xs) < 0 or max(xs) >= width:
            pos = {s: (p[0] + 1, p[1]) for s, p in pos.items()}
            direction = -direction
        else:
            pos = {s: (p[0], p[1] + direction) for s, p in pos.items()}
        for slot, p in pos.items():
            if p == shot:
                return slot
    raise AssertionError("the shot never left the field")


def test_invader_simulation_matches_brute_force():
    rng = np.random.default_rng(1)
    for _ in range(400):
        rows, cols, width, height = int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(4, 8)), int(rng.integers(5, 9))
        slots = [(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.7]
        if not slots:
            continue
        alive = frozenset(slots)
        lo, hi = min(c for _, c in alive), max(c for _, c in alive)
        if hi - lo >= width:
            continue
        left = int(rng.integers(-lo, width - hi))
        args = (alive, int(rng.integers(0, 2)), left, int(rng.choice((-1, 1))), width, height, int(rng.integers(width)))
        assert simulate(*args) == _invader_brute(*args)


def test_invader_verifier():
    env = _env("InvaderShot", difficulty=2, answer_format="mcq", obs_size=(64, 64))
    for seed in range(8):
        env.reset(seed=seed)
        said = env._format(env._solution)
        for reply in (said, said.lower(), f"the shot hits {said}"):
            assert env._check(env._parse_answer(reply))
        for k, option in enumerate(env.options):
            assert (k == env._correct_index) == env._check(env._parse_answer(option))


# ----------------------------------------------------------------- spider
def _spider_brute(down, up):
    """Moves by trying every (source, number of cards, destination) and checking the rules directly."""
    moves = set()
    has_empty = any(not c for c in up)
    for j, col in enumerate(up):
        for k in range(1, len(col) + 1):
            part = col[-k:]
            if any(a[1] != b[1] or a[0] != b[0] + 1 for a, b in itertools.pairwise(part)):
                continue
            for d, other in enumerate(up):
                if d != j and other and other[-1][0] == part[0][0] + 1:
                    moves.add((j, k, d))
            if has_empty and not (k == len(col) and not down[j]):
                moves.add((j, k, "empty"))
    return moves


def test_spider_moves_match_brute_force():
    rng = np.random.default_rng(2)
    for _ in range(300):
        n = int(rng.integers(2, 6))
        up = [[(int(rng.integers(1, 14)), int(rng.integers(2))) for _ in range(int(rng.integers(0, 5)))] for _ in range(n)]
        for col in up:  # make runs likely
            for i in range(1, len(col)):
                if rng.random() < 0.5 and col[i - 1][0] > 1:
                    col[i] = (col[i - 1][0] - 1, col[i - 1][1])
        down = [int(rng.integers(0, 3)) if col else 0 for col in up]
        moves = legal_moves(down, up)
        assert len(moves) == len(set(moves)) and set(moves) == _spider_brute(down, up)


def test_spider_reveal_accepts_every_revealing_move():
    env = _env("SpiderMove", difficulty=2, answer_format="mcq", obs_size=(64, 64))
    for seed in range(8):
        env.reset(seed=seed)
        empties = [j for j in range(env.ncols) if not env.up[j] and not env.down[j]]
        valid = set()
        for j, d in env.reveals:
            valid |= {(j, e) for e in empties} if d == "empty" else {(j, d)}
        for src, dst in itertools.permutations(range(env.ncols), 2):
            ok = env._check(env._parse_answer(f"{'ABCDEFGHIJ'[src]} to {'ABCDEFGHIJ'[dst]}"))
            assert ok == ((src, dst) in valid)
        for k, option in enumerate(env.options):
            assert (k == env._correct_index) == env._check(env._parse_answer(option))
    assert env._parse_answer("move column B onto column E") == (1, 4)
    assert env._parse_answer("B->E") == (1, 4)


def test_spider_run_accepts_every_completing_move():
    env = _env("SpiderRun", difficulty=1, answer_format="mcq", obs_size=(64, 64))
    for seed in range(8):
        env.reset(seed=seed)
        for src, dst in itertools.permutations(range(env.ncols), 2):
            col, target = env.up[src], env.up[dst]
            completes = False
            for k in range(1, len(col) + 1):  # any tail that is one suit in order and fits on the target
                part = col[-k:]
                in_order = all(a[1] == b[1] and a[0] == b[0] + 1 for a, b in itertools.pairwise(part))
                if in_order and target and target[-1][0] == part[0][0] + 1:
                    tail = (target + part)[-13:]
                    completes |= tail == [(13 - i, part[0][1]) for i in range(13)]
            assert env._check(env._parse_answer(f"{'ABCDEFGHIJ'[src]} to {'ABCDEFGHIJ'[dst]}")) == completes
        for k, option in enumerate(env.options):
            assert (k == env._correct_index) == env._check(env._parse_answer(option))


# ----------------------------------------------------------------- rhythm lanes
def test_rhythm_first_hits_match_tick_simulation():
    rng = np.random.default_rng(3)
    for _ in range(300):
        lanes, speed = int(rng.integers(1, 5)), int(rng.integers(1, 4))
        mult = [int(rng.integers(1, 3)) for _ in range(lanes)]
        notes = [sorted({speed * mult[k] * int(rng.integers(1, 6)) for _ in range(int(rng.integers(1, 3)))}) for k in range(lanes)]
        pos = [list(ds) for ds in notes]
        beat = 0
        while True:
            beat += 1
            pos = [[d - speed * mult[k] for d in ds] for k, ds in enumerate(pos)]
            hit = {k for k, ds in enumerate(pos) if 0 in ds}
            if hit:
                break
        assert first_hits(notes, speed, mult) == (beat, frozenset(hit))


def test_rhythm_verifier_accepts_tied_lanes():
    env = _env("RhythmLane", difficulty=1, obs_size=(64, 64))
    env.reset(seed=0)
    env.notes = [[env.speed * 2], [env.speed * 2, env.speed * 4], [env.speed * 3], [env.speed * 5]]
    env.beat, env.good = first_hits(env.notes, env.speed, env.mult)
    assert env._check(env._parse_answer("A at beat 2")) and env._check(env._parse_answer("lane B, beat 2"))
    for reply in ("C at beat 2", "A at beat 3", "B at beat 1", "D at beat 5"):
        assert not env._check(env._parse_answer(reply))


# ----------------------------------------------------------------- pyramid
def test_pyramid_seen_from_above_matches_scan():
    rng = np.random.default_rng(4)
    for _ in range(200):
        n = int(rng.choice((4, 5, 7)))
        spots = [(k, r, c) for k in range((n + 1) // 2) for r in range(k, n - k) for c in range(k, n - k)]
        pieces = {spots[i]: (int(rng.integers(4)), int(rng.integers(3))) for i in rng.permutation(len(spots))[:8]}
        brute = {}
        for r in range(n):
            for c in range(n):
                for k in reversed(range((n + 1) // 2)):
                    if (k, r, c) in pieces:
                        brute[r, c] = pieces[k, r, c]
                        break
        assert seen_from_above(pieces) == brute


def test_pyramid_verifiers():
    for name in ("PyramidChess", "PyramidChessTop"):
        env = _env(name, difficulty=2, answer_format="mcq", obs_size=(64, 64))
        for seed in range(6):
            env.reset(seed=seed)
            for k, option in enumerate(env.options):
                assert (k == env._correct_index) == env._check(env._parse_answer(option))
    env.reset(seed=0)
    name = env._format(env._solution)
    assert env._check(env._parse_answer(name.upper())) and env._check(env._parse_answer(f"a {name}s"))
    assert env._parse_answer("red or blue star") is None


# ----------------------------------------------------------------- zuma
def _zuma_brute(chain, gap, colour):
    """Insert, then remove any run of 3+ anywhere until none is left (the chain starts without one)."""
    balls = chain[:gap] + [colour] + chain[gap:]
    start = len(balls)
    while True:
        for i in range(len(balls)):
            j = i
            while j < len(balls) and balls[j] == balls[i]:
                j += 1
            if j - i >= 3:
                balls = balls[:i] + balls[j:]
                break
        else:
            return start - len(balls)


def test_zuma_clear_matches_brute_force():
    rng = np.random.default_rng(5)
    for _ in range(500):
        chain = []
        while len(chain) < int(rng.integers(2, 12)):
            c = int(rng.integers(3))
            if len(chain) >= 2 and chain[-1] == chain[-2] == c:
                continue
            chain.append(c)
        for gap in range(len(chain) + 1):
            colour = int(rng.integers(3))
            assert cleared(chain, gap, colour) == _zuma_brute(chain, gap, colour)


def test_zuma_best_gap_accepts_every_optimum():
    env = _env("ZumaBestGap", difficulty=2, answer_format="mcq", obs_size=(64, 64))
    ties = 0
    for seed in range(15):
        env.reset(seed=seed)
        best = max(env.values)
        for k, v in enumerate(env.values):
            assert env._check(env._parse_answer(f"gap {k + 1}")) == (v == best)
        ties += len(env.good) > 1
        for k, option in enumerate(env.options):
            assert (k == env._correct_index) == env._check(env._parse_answer(option))
    assert ties, "no level with two optimal gaps among 15 seeds"
