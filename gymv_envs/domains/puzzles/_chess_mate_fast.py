"""Bitboard shortcuts for the ChessMate puzzle's searches, on python-chess's attack tables.

A position is White's pieces as bitboards ``w = [pawns, knights, bishops, rooks, queens, king]``
(index = python-chess piece type - 1), the black king's square ``bk`` and Black's pawns, knights
and bishops; no castling rights, no en-passant square. `mate_in_one` answers with a mating move
(White mates at once), 0 (White cannot) or None (not settled here: the caller asks python-chess).
Each answer it gives is proved by the rules: 0 when every White move that could check leaves the
king a free square, a move when it is a legal check that leaves none and that no black piece can
capture or block.
`_chess_mate_two` builds the mate-in-two search on it. tests/test_chess_mate_puzzle.py checks both
against python-chess.
"""

from __future__ import annotations

import chess

DIAG, DMASK, KING, KNIGHT = chess.BB_DIAG_ATTACKS, chess.BB_DIAG_MASKS, chess.BB_KING_ATTACKS, chess.BB_KNIGHT_ATTACKS
RANK, RMASK, FILE, FMASK = chess.BB_RANK_ATTACKS, chess.BB_RANK_MASKS, chess.BB_FILE_ATTACKS, chess.BB_FILE_MASKS
between = chess.between
WP_ATT, BP_ATT = chess.BB_PAWN_ATTACKS[1], chess.BB_PAWN_ATTACKS[0]  # squares a white / black pawn there attacks
FILE_A, FILE_H = 0x0101010101010101, 0x8080808080808080
RANK_7 = 0xFF << 48
ALL = (1 << 64) - 1
P, N, B, R, Q, K = range(6)


def _bits(x: int):
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


SLOT = {letter: i for i, letter in enumerate("PNBRQKpnb")}  # White's kinds, then Black's pawns, knights, bishops


def place_pieces(bk: int, pieces: str, picks: list):
    """The pieces (the first White's king) on the picked squares (of the 63 besides the black king's),
    pawns off the back ranks moved to their second rank, as ([square], White's bitboards by kind,
    Black's pawns, knights and bishops); None when two pieces meet, the kings stand
    side by side or a king is in check (the level is drawn again)."""
    k = picks[0]
    wk = k + (k >= bk)
    if KING[bk] >> wk & 1:
        return None
    occ = 1 << bk | 1 << wk
    squares, bbs = [wk], [0, 0, 0, 0, 0, 1 << wk, 0, 0, 0]
    for i in range(1, len(pieces)):
        letter, k = pieces[i], picks[i]
        sq = k + (k >= bk)
        if (sq < 8 or sq >= 56) and letter in "Pp":
            sq = (sq & 7) + (8 if letter == "P" else 48)
        bit = 1 << sq
        if occ & bit:
            return None
        occ |= bit
        squares.append(sq)
        bbs[SLOT[letter]] |= bit
    w = bbs[:6]
    bp, bn, bb = bbs[6], bbs[7], bbs[8]
    if WP_ATT[wk] & bp or KNIGHT[wk] & bn or bb and DIAG[wk][DMASK[wk] & occ] & bb \
            or white_attackers(w, bk, occ):
        return None
    return squares, w, bp, bn, bb


def white_attacks(w: list, occ: int) -> int:
    """Every square a White piece attacks with the board occupied by ``occ``."""
    pawns = w[P]
    att = KING[w[K].bit_length() - 1] | ((pawns & ~FILE_A) << 7 | (pawns & ~FILE_H) << 9) & ALL
    x = w[N]
    while x:
        low = x & -x
        x ^= low
        att |= KNIGHT[low.bit_length() - 1]
    x = w[B] | w[Q]
    while x:
        low = x & -x
        x ^= low
        s = low.bit_length() - 1
        att |= DIAG[s][DMASK[s] & occ]
    x = w[R] | w[Q]
    while x:
        low = x & -x
        x ^= low
        s = low.bit_length() - 1
        att |= RANK[s][RMASK[s] & occ] | FILE[s][FMASK[s] & occ]
    return att


def attacks(kind: int, sq: int, occ: int) -> int:
    """The squares a White piece of ``kind`` on ``sq`` attacks."""
    if kind == N:
        return KNIGHT[sq]
    if kind == P:
        return WP_ATT[sq]
    if kind == K:
        return KING[sq]
    att = DIAG[sq][DMASK[sq] & occ] if kind != R else 0
    if kind != B:
        att |= RANK[sq][RMASK[sq] & occ] | FILE[sq][FMASK[sq] & occ]
    return att


def white_attackers(w: list, sq: int, occ: int) -> int:
    """The White pieces that attack ``sq`` (kings left out: the caller's square is never next to it)."""
    return (KNIGHT[sq] & w[N] | BP_ATT[sq] & w[P] | DIAG[sq][DMASK[sq] & occ] & (w[B] | w[Q])
            | (RANK[sq][RMASK[sq] & occ] | FILE[sq][FMASK[sq] & occ]) & (w[R] | w[Q]))


def black_attacks_square(sq: int, bk: int, bp: int, bn: int, bb: int, occ: int) -> bool:
    return bool(KING[bk] >> sq & 1 or WP_ATT[sq] & bp or KNIGHT[sq] & bn or DIAG[sq][DMASK[sq] & occ] & bb)


def piece_moves(kind: int, s: int, occ: int, wocc: int, bocc: int) -> list:
    """Pseudo-legal (to, new kind) pairs of a White piece on ``s`` (promotions to each piece)."""
    if kind == P:
        out = []
        t = s + 8
        if not occ >> t & 1:
            out.append(t)
            if s < 16 and not occ >> (t + 8) & 1:
                out.append(t + 8)
        out += _bits(WP_ATT[s] & bocc)
        if s >= 48:
            return [(t, k) for t in out for k in (Q, R, B, N)]
        return [(t, P) for t in out]
    if kind == N:
        targets = KNIGHT[s]
    elif kind == K:
        targets = KING[s]
    else:
        targets = 0
        if kind != R:
            targets = DIAG[s][DMASK[s] & occ]
        if kind != B:
            targets |= RANK[s][RMASK[s] & occ] | FILE[s][FMASK[s] & occ]
    return [(t, kind) for t in _bits(targets & ~wocc)]


def _kind_at(w: list, bit: int) -> int:
    for kind in range(6):
        if w[kind] & bit:
            return kind
    return -1


def _candidates(w: list, bk: int, occ: int, wocc: int, bocc: int, flights: int, own: list, fixed: int):
    """A superset of White's moves that mate the black king, as (from, to, kind, new kind): direct
    checks by pieces, pawn checks and promotions, and every move of a lone White piece between a
    White slider and the king. A knight or slider must itself attack, from the checking square, each
    free square of the king (``flights``) that no other White piece attacks now (``own``: each knight's
    and slider's (square, kind, attacks); ``fixed``: what the king and pawns attack) and that no line
    through its old square reaches: masks of the squares that see each one."""
    kbit = 1 << bk
    xray = occ & ~kbit
    for s, kind, mine in own:
        sbit = 1 << s
        if kind == N:
            cand = KNIGHT[s] & KNIGHT[bk]
        else:
            o = occ ^ sbit
            seen = DIAG[bk][DMASK[bk] & o] if kind != R else 0
            if kind != B:
                seen |= RANK[bk][RMASK[bk] & o] | FILE[bk][FMASK[bk] & o]
            cand = mine & seen
        cand &= ~wocc & ~kbit
        if cand:
            o = xray ^ sbit
            others = fixed
            for s2, _, a in own:
                if s2 != s:
                    others |= a
            need = flights & ~others
            if others & sbit:
                need &= ~attacks(Q, s, o)  # lines through the old square may reach these
            while need and cand:
                low = need & -need
                need ^= low
                cand &= attacks(kind, low.bit_length() - 1, o)
        while cand:
            low = cand & -cand
            cand ^= low
            yield s, low.bit_length() - 1, kind, kind
    for s in _bits(w[P]):
        for t, k in piece_moves(P, s, occ, wocc, bocc):
            if k != P or BP_ATT[bk] >> t & 1:  # a pawn that checks, or any promotion
                yield s, t, P, k
    lines = (DIAG[bk][0] & (w[B] | w[Q])) | ((RANK[bk][0] | FILE[bk][0]) & (w[R] | w[Q]))
    for sl in _bits(lines):
        mid = between(bk, sl)
        inside = mid & occ
        if inside and not inside & (inside - 1) and inside & wocc:
            s = inside.bit_length() - 1
            kind = _kind_at(w, inside)
            for t, k in piece_moves(kind, s, occ, wocc, bocc):
                if not mid >> t & 1 and t != bk:
                    yield s, t, kind, k


def _attack_masks(w: list, occ: int) -> tuple:
    """White's attacks with the board occupied by ``occ``: ([(square, kind, attacks)] of its knights
    and sliders, what its king and pawns attack, all of it)."""
    pawns = w[P]
    fixed = KING[w[K].bit_length() - 1] | ((pawns & ~FILE_A) << 7 | (pawns & ~FILE_H) << 9) & ALL
    own, now = [], fixed
    for kind in (N, B, R, Q):
        x = w[kind]
        while x:
            low = x & -x
            x ^= low
            s = low.bit_length() - 1
            a = attacks(kind, s, occ)
            own.append((s, kind, a))
            now |= a
    return own, fixed, now


def mate_in_one(w: list, bk: int, bp: int, bn: int, bb: int, white_in_check: bool = False, known=None):
    """A mating move (from, to, promotion piece type or 0) if White (to move) mates at once (the first
    found), 0 if White cannot, None if not settled here (``known``:
    `_attack_masks` with the black king off the board, when the caller has them)."""
    wocc = w[P] | w[N] | w[B] | w[R] | w[Q] | w[K]
    bocc = (1 << bk) | bp | bn | bb
    occ = wocc | bocc
    kbit = 1 << bk
    unsure = False
    own, fixed, now = known or _attack_masks(w, occ & ~kbit)
    flights = KING[bk] & ~bocc
    for s, t, k0, k1 in _candidates(w, bk, occ, wocc, bocc, flights, own, fixed):
        sbit, tbit = 1 << s, 1 << t
        occ2 = occ ^ sbit | tbit
        # at most what White attacks after the move: all it attacks now, the mover from its new square,
        # and lines through the square it leaves
        o = occ2 & ~kbit
        most = now | attacks(k1, t, o) | (attacks(Q, s, o) if now & sbit else 0)
        if flights & ~most:
            continue  # the king keeps a free square
        bp2, bn2, bb2 = bp & ~tbit, bn & ~tbit, bb & ~tbit
        if k0 == K and black_attacks_square(t, bk, bp2, bn2, bb2, occ2):
            continue  # the king may not go there
        w2 = w.copy()
        w2[k0] ^= sbit
        w2[k1] |= tbit
        att = white_attacks(w2, occ2 & ~kbit)
        if not att & kbit or KING[bk] & ~(bocc & ~tbit) & ~att:
            continue  # no check, or the king steps out of it
        checkers = white_attackers(w2, bk, occ2)
        if checkers & (checkers - 1) == 0:  # one checker: can a black piece take it or block?
            c = checkers.bit_length() - 1
            stop = checkers | between(bk, c)
            pushes = (bp2 >> 8) & ~occ2
            blockers = (WP_ATT[c] & bp2 or pushes & stop or ((pushes & (RANK_7 >> 8)) >> 8) & ~occ2 & stop
                        or any(KNIGHT[n] & stop for n in _bits(bn2))
                        or any(DIAG[b][DMASK[b] & occ2] & stop for b in _bits(bb2)))
            if k0 == P and t - s == 16 and bp2 & (tbit << 1 | tbit >> 1) & (0xFF << (t & 56)):
                blockers = True  # an en-passant capture may answer it
            if blockers:
                unsure = True
                continue
        if white_in_check or (bb2 and k0 != K):
            unsure = True  # the move itself may be illegal
            continue
        return s, t, k1 + 1 if k1 != k0 else 0
    return None if unsure else 0
