"""Chess Ranger's rules: captures, the solvability search and the level built backwards from one piece."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.bits import set_bits

SET = {1: 8, 2: 2, 3: 2, 4: 2, 5: 1, 6: 1}  # how many of each kind a level may hold (one chess army)

Position = tuple[tuple[int, int], ...]  # sorted (square, piece type) pairs; squares as python-chess numbers


def attacks(kind: int, sq: int, occ: int) -> int:
    """The squares a piece of ``kind`` on ``sq`` captures on (pawns upward), with ``occ`` blocking sliders."""
    import chess

    if kind == chess.PAWN:
        return chess.BB_PAWN_ATTACKS[chess.WHITE][sq]
    if kind == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[sq]
    if kind == chess.KING:
        return chess.BB_KING_ATTACKS[sq]
    out = 0
    if kind in (chess.ROOK, chess.QUEEN):
        out |= chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & occ] | chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & occ]
    if kind in (chess.BISHOP, chess.QUEEN):
        out |= chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & occ]
    return out


def captures(pos: Position) -> list[tuple[int, int]]:
    """Every capture (from, to): a piece moving as in chess onto another piece."""
    occ = 0
    for sq, _ in pos:
        occ |= 1 << sq
    return [(sq, t) for sq, kind in pos for t in set_bits(attacks(kind, sq, occ) & occ)]


def after(pos: Position, a: int, b: int) -> Position:
    """The position after the capture ``a`` x ``b`` (not checked)."""
    kind = dict(pos)[a]
    return tuple(sorted([(sq, k) for sq, k in pos if sq != a and sq != b] + [(b, kind)]))


def play(pos: Position, move: tuple[int, int]) -> Position | None:
    """The position after a capture, or None when the move is not one."""
    return after(pos, *move) if move in captures(pos) else None


@functools.lru_cache(maxsize=100_000)
def solvable(pos: Position) -> bool:
    """Whether captures can bring the position down to one piece (depth-first search)."""
    return len(pos) == 1 or any(solvable(after(pos, a, b)) for a, b in captures(pos))


def replay(pos: Position, moves) -> bool:
    """Whether ``moves`` are captures one after another that leave a single piece."""
    for m in moves:
        pos = play(pos, m)
        if pos is None:
            return False
    return len(pos) == 1


@functools.lru_cache(maxsize=8)
def _corner(n: int) -> tuple[int, list[int]]:
    """The ``n x n`` corner of the board as a bitboard and as its squares, lowest first."""
    inside = sum(1 << (r * 8 + f) for r in range(n) for f in range(n))
    return inside, set_bits(inside)


def backward_level(rng: np.random.Generator, n: int, pieces: int) -> tuple[Position, list[tuple[int, int]]]:
    """A position of ``pieces`` pieces on the ``n x n`` corner of the board and a solution, built
    backwards from one piece: each step moves a piece back to a square it could have captured from
    and puts a new piece where it captured."""
    import chess

    inside, corner = _corner(n)
    pawn_back = chess.BB_PAWN_ATTACKS[chess.BLACK]
    while True:
        kinds = [k for k, c in SET.items() for _ in range(c)]
        first = kinds.pop(int(rng.integers(len(kinds))))
        board, moves = {corner[int(rng.integers(n * n))]: first}, []
        for _ in range(pieces - 1):
            occ = 0
            for sq in board:
                occ |= 1 << sq
            free = inside & ~occ
            options = []
            for sq, kind in board.items():
                back = pawn_back[sq] if kind == chess.PAWN else attacks(kind, sq, occ)
                options += [(sq, t) for t in set_bits(back & free)]
            if not options:
                break
            s, t = options[int(rng.integers(len(options)))]
            board[t] = board.pop(s)
            board[s] = kinds.pop(int(rng.integers(len(kinds))))
            moves.append((t, s))
        if len(board) == pieces:
            return tuple(sorted(board.items())), moves[::-1]
