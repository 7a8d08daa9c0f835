"""A small chess engine on python-chess boards (the ``chess`` extra): pure search, no drawing.

Negamax alpha-beta over a material + piece-square evaluation kept incrementally (each move's
change is computed before it is made, which also orders the moves: captures of valuable pieces
and promotions first, then the moves that gain most on the tables; a position's best move found
so far and each ply's killer moves go first), mate seen at the horizon, an optional quiescence
search over captures (delta-pruned), and seeded Gaussian noise on the root moves' values: with the
depth, the difficulty lever (`LEVELS`, `engine_move`). Pawns promote to a queen only.

`exploiting_move` is the GymV chess oracle's search: it is told the opponent's exact reply to each
of its candidate moves and searches on from there, with endgame mating terms (``mop_up``: drive
the lone king to the edge, bring the own king close, beware stalemate). Every search leaves the
board as it found it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

PIECE = (0, 100, 320, 330, 500, 900, 0)   # by python-chess piece type (1 pawn ... 6 king)
MATE = 100_000
INF = 10 * MATE
RESCUE, FEW_PIECES = 300, 6   # see `exploiting_move`


class Level(NamedTuple):
    depth: int       # full plies searched
    quiesce: bool    # captures searched past the horizon
    noise: float     # standard deviation (centipawns) of the noise on each root move's value


LEVELS = {0: Level(1, False, 250.0), 1: Level(2, False, 25.0), 2: Level(2, True, 5.0)}


def _square_table(piece: int, sq: int) -> int:
    """The piece-square bonus (centipawns) of a white piece of type ``piece`` on ``sq`` (a1 = 0)."""
    f, r = sq % 8, sq // 8
    cen = 7 - (abs(f - 3.5) + abs(r - 3.5))            # 0 in a corner, 6 in the centre
    if piece == 1:
        return (0, 0, 5, 10, 20, 35, 60, 0)[r] + (12 if f in (3, 4) and r >= 3 else 0) - (8 if f in (3, 4) and r == 1 else 0)
    if piece == 2:
        return int(8 * cen - 25)
    if piece == 3:
        return int(4 * cen - 10) - (6 if r == 0 else 0)
    if piece == 4:
        return (15 if r == 6 else 0) + (5 if f in (3, 4) else 0)
    if piece == 5:
        return int(2 * cen - 5)
    return (10, 25, 12, 0, 0, 5, 25, 12)[f] if r == 0 else -10 if r == 1 else -30


# VALUE[colour][piece][square]: material plus table, black's tables mirrored (colour 1 = white)
_WHITE = [[PIECE[p] + _square_table(p, sq) if p else 0 for sq in range(64)] for p in range(7)]
_BLACK = [[_WHITE[p][sq ^ 56] for sq in range(64)] for p in range(7)]
VALUE = (_BLACK, _WHITE)


def evaluate(board) -> int:
    """Material + tables from the side to move's view, from scratch."""
    import chess

    total = 0
    for colour in (chess.WHITE, chess.BLACK):
        sign = 1 if colour == board.turn else -1
        mine = board.occupied_co[colour]
        for p, mask in ((1, board.pawns), (2, board.knights), (3, board.bishops), (4, board.rooks),
                        (5, board.queens), (6, board.kings)):
            table = VALUE[colour][p]
            for sq in chess.scan_forward(mask & mine):
                total += sign * table[sq]
    return total


def move_gain(board, m) -> int:
    """How much ``m`` changes the evaluation of the side to move (before it is made)."""
    us, them = board.turn, not board.turn
    frm, to = m.from_square, m.to_square
    p = board.piece_type_at(frm)
    mine = VALUE[us]
    gain = (mine[m.promotion][to] if m.promotion else mine[p][to]) - mine[p][frm]
    captured = board.piece_type_at(to)
    if captured:
        gain += VALUE[them][captured][to]
    elif p == 1 and frm % 8 != to % 8:   # en passant
        gain += VALUE[them][1][to - 8 if us else to + 8]
    elif p == 6 and abs(to - frm) == 2:  # castling: the rook's move
        rook_from, rook_to = (frm + 3, frm + 1) if to > frm else (frm - 4, frm - 1)
        gain += mine[4][rook_to] - mine[4][rook_from]
    return gain


def legal_moves(board) -> list:
    """The legal moves, pawns promoting to a queen only (the GymV chess games' rule)."""
    return [m for m in board.generate_legal_moves() if m.promotion is None or m.promotion == 5]


class Search:
    """One search: the board, its options and a node count (for measurements)."""

    def __init__(self, board, quiesce: bool, mop_up: bool = False, qdepth: int = 4) -> None:
        self.board, self.quiesce, self.mop_up, self.qdepth, self.nodes = board, quiesce, mop_up, qdepth, 0
        self.best: dict = {}      # position -> the best move found there (ordering only: values never depend on it)
        self.killers: dict = {}   # ply -> quiet moves that cut off there

    def ordered(self, moves: list, hint: Any = None, killers: tuple = ()) -> list[tuple[int, Any]]:
        """``(gain, move)`` pairs, the most promising first: the position's best move so far, then captures
        and promotions by gain, killer moves, the other moves by gain."""
        b = self.board
        scored = [(move_gain(b, m), m) for m in moves]
        if hint is None and not killers:
            scored.sort(key=lambda t: t[0], reverse=True)
            return scored
        return sorted(scored, key=lambda t: t[0] + (10 * MATE if t[1] == hint else 90 if t[1] in killers else 0), reverse=True)

    def leaf(self, score: int) -> int:
        if not self.mop_up:
            return score
        bonus = _mop_up(self.board)
        if bonus and not any(self.board.generate_legal_moves()):   # a mating endgame: stalemate is the trap
            return -MATE if self.board.is_check() else 0
        return score + bonus

    def negamax(self, depth: int, alpha: int, beta: int, score: int, ply: int) -> int:
        b = self.board
        self.nodes += 1
        if depth <= 0:
            if b.is_check() and not any(b.generate_legal_moves()):   # mate is seen at the horizon too
                return -MATE + ply
            return self.quiescence(alpha, beta, score, self.qdepth) if self.quiesce else self.leaf(score)
        moves = legal_moves(b)
        if not moves:
            return -MATE + ply if b.is_check() else 0
        key = b._transposition_key() if depth > 1 else None
        killers = self.killers.get(ply, ())
        best, best_move = -INF, None
        for gain, m in self.ordered(moves, self.best.get(key), killers):
            b.push(m)
            v = -self.negamax(depth - 1, -beta, -alpha, -(score + gain), ply + 1)
            b.pop()
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if m not in killers and not b.piece_type_at(m.to_square):
                            self.killers[ply] = (m, *killers[:1])
                        break
        if key is not None:
            self.best[key] = best_move
        return best

    def quiescence(self, alpha: int, beta: int, score: int, left: int) -> int:
        b = self.board
        self.nodes += 1
        stand = self.leaf(score)
        if stand >= beta or left <= 0:
            return stand
        alpha = max(alpha, stand)
        caps = []
        for m in b.generate_pseudo_legal_captures():
            if m.promotion is None or m.promotion == 5:
                gain = move_gain(b, m)
                if stand + gain + 200 >= alpha:   # delta pruning: a capture that cannot reach alpha is not tried
                    caps.append((gain, m))
        caps.sort(key=lambda t: t[0], reverse=True)
        best = stand
        for gain, m in caps:
            b.push(m)
            if b.was_into_check():   # not legal
                b.pop()
                continue
            v = -self.quiescence(-beta, -alpha, -(score + gain), left - 1)
            b.pop()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best


def _mop_up(board) -> int:
    """Endgame terms for the side ahead in material when the other side has little left: the lone
    king pushed to the edge and the own king near it (from the side to move's view)."""
    import chess

    if chess.popcount(board.occupied) > 14:
        return 0

    def material(colour: bool) -> int:
        mine = board.occupied_co[colour]
        return (900 * chess.popcount(board.queens & mine) + 500 * chess.popcount(board.rooks & mine)
                + 320 * chess.popcount((board.bishops | board.knights) & mine) + 100 * chess.popcount(board.pawns & mine))

    us, them = material(board.turn), material(not board.turn)
    if abs(us - them) < 300 or min(us, them) > 1300:
        return 0
    strong = board.turn if us > them else not board.turn
    weak_king, strong_king = board.king(not strong), board.king(strong)
    if weak_king is None or strong_king is None:
        return 0
    wf, wr = weak_king % 8, weak_king // 8
    edge = int(abs(wf - 3.5) + abs(wr - 3.5))           # 1 in the centre, 7 in a corner
    near = 14 - (abs(wf - strong_king % 8) + abs(wr - strong_king // 8))
    bonus = 12 * edge + 10 * near - VALUE[strong][6][strong_king]   # the king's table (stay home) no longer holds
    return bonus if strong == board.turn else -bonus


def best_move(board, depth: int, rng: np.random.Generator | None = None, noise: float = 0.0,
              quiesce: bool = False, mop_up: bool = False) -> tuple[Any, int]:
    """The move that maximises its ``depth``-ply value plus noise (``noise`` centipawns of Gaussian noise
    per root move, drawn from ``rng`` in move order), and that value; (None, 0) without a legal move."""
    search = Search(board, quiesce, mop_up)
    moves = search.ordered(legal_moves(board))
    if not moves:
        return None, 0
    shake = rng.normal(0.0, noise, len(moves)) if noise and rng is not None else np.zeros(len(moves))
    score = evaluate(board)
    best, best_v = moves[0][1], -INF
    for (gain, m), n in zip(moves, shake):
        n = int(round(float(n)))
        board.push(m)   # only a value above best_v - n matters: search with that bound
        v = -search.negamax(depth - 1, -INF, -(best_v - n), -(score + gain), 1)
        board.pop()
        if v + n > best_v:
            best, best_v = m, v + n
    return best, best_v


def engine_move(board, difficulty: int, rng: np.random.Generator) -> Any:
    """The built-in opponent's move at ``difficulty`` (see `LEVELS`)."""
    level = LEVELS[difficulty]
    return best_move(board, level.depth, rng, level.noise, level.quiesce)[0]


def exploiting_move(board, reply: Callable[[Any], Any], depth: int, width: int,
                    avoid: Callable[[Any], bool] | None = None, ahead: tuple[int, int, int] | None = None) -> Any:
    """The best move against an opponent whose reply is known: ``reply(board)`` gives it for the
    position after each candidate (the GymV oracle predicts its own engine exactly). The ``width``
    most promising moves by a one-ply search with quiescence are tried; each is valued by a
    ``depth``-ply search with quiescence (and the mating terms) after that reply; more are tried while
    the best of them is mated or ``RESCUE`` centipawns below the ranking's best, and every move, two
    plies deep at least, with ``FEW_PIECES`` pieces or fewer on the board. ``avoid(board)``
    marks positions (after the reply) valued as a draw instead (repetitions). ``ahead = (margin, depth,
    width)``: the cheaper search used once the best candidate leads by ``margin`` centipawns or more
    (converting a won game)."""
    import chess

    search = Search(board, True, mop_up=True)
    score = evaluate(board)
    ranked = []
    for gain, m in search.ordered(legal_moves(board)):
        board.push(m)
        if any(board.generate_legal_moves()):
            ranked.append((-search.quiescence(-INF, INF, -(score + gain), search.qdepth), m))
        else:   # mate first; stalemate last
            ranked.append((MATE if board.is_check() else -INF, m))
        board.pop()
    ranked.sort(key=lambda t: t[0], reverse=True)
    if ahead is not None and ranked[0][0] >= ahead[0]:
        depth, width = ahead[1], ahead[2]
    if chess.popcount(board.occupied) <= FEW_PIECES:   # a bare endgame: cheap to search every move deeper
        depth, width = max(depth, 2), len(ranked)
    best, best_v = ranked[0][1], -INF
    for i, (_, m) in enumerate(ranked):
        if i >= width and best_v > -MATE // 2 and best_v >= ranked[0][0] - RESCUE:
            break   # else the replies hurt more than the ranking thought: try further candidates
        board.push(m)
        r = reply(board) if any(board.generate_legal_moves()) else None
        if r is None:
            v = MATE if board.is_check() else 0
        else:
            board.push(r)
            if avoid is not None and avoid(board):
                v = 0
            elif not any(board.generate_legal_moves()):
                v = -MATE if board.is_check() else 0
            else:
                v = search.negamax(depth, best_v, INF, evaluate(board), 2)
            board.pop()
        board.pop()
        if v > best_v:
            best, best_v = m, v
    return best
