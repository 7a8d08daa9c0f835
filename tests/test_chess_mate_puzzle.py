"""ChessMate's bitboard shortcuts agree with python-chess, and its replayed draws with numpy."""

from __future__ import annotations

import functools

import numpy as np
import pytest

chess = pytest.importorskip("chess")

from gymv_envs.domains.puzzles import _chess_mate_fast as fast  # noqa: E402
from gymv_envs.domains.puzzles import _chess_mate_two as two  # noqa: E402
from gymv_envs.domains.puzzles._chess_mate_levels import Draws  # noqa: E402
from gymv_envs.domains.puzzles.chess_mate_puzzle import MATERIAL, _mates_after  # noqa: E402
from gymv_envs.rules.chess import forces_mate, mates_in_one  # noqa: E402


def _random_boards(seed: int, count: int):
    """Legal positions with each difficulty's material, the kings anywhere, White to move."""
    rng = np.random.default_rng(seed)
    while count:
        d = int(rng.integers(3))
        whites, blacks = MATERIAL[d]
        pieces = "K" + whites[rng.integers(len(whites))] + blacks[rng.integers(len(blacks))].lower() + "k"
        squares = rng.choice(64, size=len(pieces), replace=False).tolist()
        if any(letter in "Pp" and sq // 8 in (0, 7) for letter, sq in zip(pieces, squares)):
            continue
        b = chess.Board(None)
        b.set_piece_map({sq: chess.Piece.from_symbol(letter) for letter, sq in zip(pieces, squares)})
        if b.is_valid():
            count -= 1
            yield d, b


def _bitboards(b):
    w = [int(b.pieces_mask(kind, chess.WHITE)) for kind in range(1, 7)]
    return w, b.king(chess.BLACK), *(int(b.pieces_mask(kind, chess.BLACK)) for kind in (1, 2, 3))


def test_fast_mate_tests_agree_with_python_chess():
    settled = 0
    for d, b in _random_boards(0, 700):
        w, bk, bp, bn, bb = _bitboards(b)
        got = fast.mate_in_one(w, bk, bp, bn, bb, b.is_check())
        if got is not None:
            settled += 1
            assert bool(got) == bool(mates_in_one(b)), b.fen()
            if got:  # the move it found is legal and mates
                move = chess.Move(got[0], got[1], got[2] or None)
                assert move in b.legal_moves, (b.fen(), move)
                b.push(move)
                assert b.is_checkmate(), (b.fen(), move)
                b.pop()
        if d != 2 or got != 0 or b.is_check():
            continue
        moves = [(m.from_square, m.to_square) for m in b.legal_moves]
        assert two.white_moves(w, bk, bp) == moves, b.fen()
        truth = [forces_mate(b, chess.Move(s, t), 3) for s, t in moves]
        for (s, t), mates in zip(moves[:12], truth):
            exact = functools.partial(_mates_after, b, chess.Move(s, t))
            assert two.forces_mate_two(w, bk, bp, s, t, exact) == mates, (b.fen(), s, t)
        occ = w[2] | w[3] | w[4] | w[5] | 1 << bk | bp
        sliders = [(sq, kind != 3, kind != 2, fast.attacks(kind, sq, occ & ~(1 << bk)))
                   for kind in (2, 3, 4) for sq in chess.scan_forward(w[kind])]
        for (s, t), mates in zip(moves, truth):  # the cheap refutation never refutes a mate
            assert not (mates and two._king_escapes(b.king(chess.WHITE), sliders, bk, bp, occ, s, t)), (b.fen(), s, t)
        key = two.mate_in_two_key(w, bk, bp, lambda s, t, b=b: functools.partial(_mates_after, b, chess.Move(s, t)))
        assert key == next((m for m, mates in zip(moves, truth) if mates), None), b.fen()
    assert settled > 600


def test_replayed_choice_matches_numpy():
    for seed in range(200):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        with Draws(b) as draws:
            for k in range(3, 9):
                assert draws.random() == float(a.random())
                sample = draws.distinct if (seed + k) % 3 else draws._distinct_slowly  # (kept for rare draws)
                assert sample(63, k) == a.choice(63, size=k, replace=False).tolist()
        assert a.random() == b.random()


def test_batched_tries_keep_what_the_one_at_a_time_test_keeps():
    from gymv_envs.domains.puzzles import _chess_mate_batch as batch
    from gymv_envs.domains.puzzles.chess_mate_puzzle import EDGE
    kept = 0
    for seed in range(60):
        whites, blacks = MATERIAL[seed % 3]
        got = list(batch.tries(np.random.default_rng(seed), EDGE, whites, blacks, 64))
        rng = np.random.default_rng(seed)  # the same draws, replayed
        u = rng.random((64, 3 + batch.SLOTS)).tolist()
        want = []
        for row in u:
            e, i, j = int(row[0] * len(EDGE)), int(row[1] * len(whites)), int(row[2] * len(blacks))
            row = [int(v * 64) for v in row[3:]]
            bk, pieces = EDGE[e], "K" + whites[i] + blacks[j]
            drawn = row[:len(pieces)]
            if len(set(row)) == len(row) and bk not in row:  # as rng.choice(63, n, replace=False) draws
                placed = fast.place_pieces(bk, pieces, [s - (s > bk) for s in drawn])
                if placed is not None:
                    want.append((bk, pieces, *placed))
        assert got == want, seed
        kept += len(got)
    assert kept > 1000
