"""The ChessMate puzzle's mate-in-two search on bitboards (`_chess_mate_fast`'s tables and mate test).

`white_moves` lists White's legal moves in python-chess's order for the puzzle's mate-in-two
positions (a king and two pieces against a king and pawns), `forces_mate_two` tests one of them,
asking python-chess (a callback) for each reply it does not settle, and `mate_in_two_key` finds the
first that mates in two, ruling most moves out with a cheaper test first.
"""

from __future__ import annotations

from gymv_envs.domains.puzzles import _chess_mate_fast as fast

BP_ATT, WP_ATT, KING, DIAG, DMASK = fast.BP_ATT, fast.WP_ATT, fast.KING, fast.DIAG, fast.DMASK
RANK, RMASK, FILE, FMASK, between = fast.RANK, fast.RMASK, fast.FILE, fast.FMASK, fast.between
P, N, B, R, Q, K = range(6)
_attack_masks, _bits, _kind_at, mate_in_one = fast._attack_masks, fast._bits, fast._kind_at, fast.mate_in_one
white_attackers = fast.white_attackers
DIAG0 = [DIAG[s][0] for s in range(64)]  # a square's lines on an empty board
STRAIGHT0 = [RANK[s][0] | FILE[s][0] for s in range(64)]
BETWEEN = [[between(a, b) for b in range(64)] for a in range(64)]  # (4,096 ints, ~150 KB)


def white_moves(w: list, bk: int, bp: int) -> list:
    """White's legal moves as (from, to) in python-chess's order, for a White side of a king and
    pieces (no pawns) not in check against a king and pawns (which pin nothing)."""
    wocc = w[N] | w[B] | w[R] | w[Q] | w[K]
    occ = wocc | (1 << bk) | bp
    wk = w[K].bit_length() - 1
    out = []
    pieces = wocc
    while pieces:  # from the highest square down, and each piece's targets likewise
        s = pieces.bit_length() - 1
        pieces ^= 1 << s
        targets = fast.attacks(_kind_at(w, 1 << s), s, occ) & ~wocc
        while targets:
            t = targets.bit_length() - 1
            targets ^= 1 << t
            if s != wk or not (KING[bk] >> t & 1 or WP_ATT[t] & bp):
                out.append((s, t))
    return out


def forces_mate_two(w: list, bk: int, bp: int, s: int, t: int, exact):
    """Whether White's legal move s-t (a king and pieces, no pawns, with a rook or queen, against a
    king and pawns, no mate in one on the board) mates against every reply; ``exact(reply)`` is
    python-chess's answer for a reply (from, to, promotion) this module does not settle."""
    sbit, tbit = 1 << s, 1 << t
    kind = _kind_at(w, sbit)
    w2 = w.copy()
    w2[kind] ^= sbit | tbit
    bp2 = bp & ~tbit
    wocc = w2[N] | w2[B] | w2[R] | w2[Q] | w2[K]
    kbit = 1 << bk
    occ = wocc | kbit | bp2
    known = _attack_masks(w2, occ & ~kbit)
    att = known[2]
    in_check = att & kbit
    flights = KING[bk] & ~bp2 & ~att
    replies = [(bk, f, 0) for f in _bits(flights)]
    for p in _bits(bp2):
        pb = 1 << p
        dests = BP_ATT[p] & wocc & ~w2[K]
        if not occ >> (p - 8) & 1:
            dests |= 1 << (p - 8)
            if p >= 48 and not occ >> (p - 16) & 1:
                dests |= 1 << (p - 16)
        for d in _bits(dests):
            db = 1 << d
            wk_ = w2 if not db & wocc else [x & ~db for x in w2]
            if white_attackers(wk_, bk, (occ ^ pb) | db):
                continue  # leaves the king in check
            if d < 8:
                replies += [(p, d, k) for k in (5, 4, 3, 2)]  # queen, rook, bishop, knight
            else:
                replies.append((p, d, 0))
    if not replies:
        return bool(in_check)
    for f, d, promo in replies:
        if promo:
            ok = exact((f, d, promo))
        else:
            db = 1 << d
            w3 = w2 if not db & wocc else [x & ~db for x in w2]
            if f == bk:  # onto an empty square the king leaves White's attacks as they were
                ok = mate_in_one(w3, d, bp2, 0, 0, False, None if db & wocc else known)
            else:
                bp3 = bp2 ^ (1 << f) | db
                ok = mate_in_one(w3, bk, bp3, 0, 0, bool(BP_ATT[d] & w3[K]))
            if ok is None:
                ok = exact((f, d, 0))
        if not ok:
            return False
    return True


def mate_in_two_key(w: list, bk: int, bp: int, exact_after):
    """The first of `white_moves` (as (from, to)) that mates in two, or None: `forces_mate_two` for
    each move, ``exact_after(s, t)`` its callback, unless `_king_escapes` refutes the move first."""
    if w[P] or w[N]:
        raise ValueError("the mate-in-two search takes a White king and sliders only")
    occ = w[B] | w[R] | w[Q] | w[K] | (1 << bk) | bp
    wk = w[K].bit_length() - 1
    ox = occ & ~(1 << bk)
    sliders = [(sq, kind != R, kind != B, fast.attacks(kind, sq, ox)) for kind in (B, R, Q) for sq in _bits(w[kind])]
    if len(sliders) != 2:
        raise ValueError("the mate-in-two search takes a White king and two sliders")
    for s, t in white_moves(w, bk, bp):
        if not _king_escapes(wk, sliders, bk, bp, occ, s, t) \
                and forces_mate_two(w, bk, bp, s, t, exact_after(s, t)):
            return s, t
    return None


def _king_escapes(wk: int, sliders: list, bk: int, bp: int, occ: int, s: int, t: int) -> bool:
    """True when, after White's move s-t, the black king has a free empty square from which
    `mate_in_one` has no candidates (so White cannot mate after that reply, as `forces_mate_two`
    would find); False when unsure. White has its king on ``wk`` and two ``sliders`` (square, moves
    diagonally, moves straight, attacks before the move with the black king lifted off) only."""
    (q1, d1, r1, a1), (q2, d2, r2, a2) = sliders
    sbit, tbit, kbit = 1 << s, 1 << t, 1 << bk
    bp2 = bp & ~tbit
    ox = (occ ^ sbit | tbit) & ~kbit  # the board after the move, the black king lifted off
    if s == wk:
        wk = t
    fixed = KING[wk]
    moving = sbit | tbit
    if q1 == s or a1 & moving:  # (else its lines stay as they were)
        q1 = t if q1 == s else q1
        a1 = (DIAG[q1][DMASK[q1] & ox] if d1 else 0) | (RANK[q1][RMASK[q1] & ox] | FILE[q1][FMASK[q1] & ox] if r1 else 0)
    if q2 == s or a2 & moving:
        q2 = t if q2 == s else q2
        a2 = (DIAG[q2][DMASK[q2] & ox] if d2 else 0) | (RANK[q2][RMASK[q2] & ox] | FILE[q2][FMASK[q2] & ox] if r2 else 0)
    wocc = ox & ~bp2
    flights = KING[bk] & ~bp2 & ~(fixed | a1 | a2) & ~wocc  # (a capture is left to `forces_mate_two`)
    while flights:
        fbit = flights & -flights
        flights ^= fbit
        f = fbit.bit_length() - 1
        o3 = ox | fbit
        free = KING[f] & ~bp2  # the king's squares there, as `mate_in_one` counts them
        y1 = (DIAG0[f] if d1 else 0) | (STRAIGHT0[f] if r1 else 0)  # the lines to it, on an empty board
        y2 = (DIAG0[f] if d2 else 0) | (STRAIGHT0[f] if r2 else 0)
        if a1 & y1 & ~wocc and _checks_to_mate(q1, d1, r1, a1, fixed | a2, f, fbit, o3, wocc, free) \
                or a2 & y2 & ~wocc and _checks_to_mate(q2, d2, r2, a2, fixed | a1, f, fbit, o3, wocc, free) \
                or y1 >> q1 & 1 and _discovers(q1, f, o3, wocc) or y2 >> q2 & 1 and _discovers(q2, f, o3, wocc):
            continue
        return True
    return False


def _checks_to_mate(sq: int, diag: bool, straight: bool, a: int, others: int, f: int, fbit: int, o3: int,
                    wocc: int, free: int) -> bool:
    """Whether `_candidates` keeps a move of the slider on ``sq`` (attacking ``a``; the other White
    pieces ``others``) that checks the black king on ``f`` (board ``o3``) from a square that also
    covers each of its ``free`` squares no other White piece does (the caller has seen that it
    reaches a square on a line to ``f``)."""
    xbit = 1 << sq
    o = o3 ^ xbit
    seen = DIAG[f][DMASK[f] & o] if diag else 0
    if straight:
        seen |= RANK[f][RMASK[f] & o] | FILE[f][FMASK[f] & o]
    cand = a & seen & ~wocc & ~fbit
    if not cand:
        return False
    o ^= fbit  # the king lifted off
    need = free & ~others
    if others & xbit:
        need &= ~(DIAG[sq][DMASK[sq] & o] | RANK[sq][RMASK[sq] & o] | FILE[sq][FMASK[sq] & o])
    while need and cand:
        low = need & -need
        need ^= low
        g = low.bit_length() - 1
        reach = DIAG[g][DMASK[g] & o] if diag else 0
        if straight:
            reach |= RANK[g][RMASK[g] & o] | FILE[g][FMASK[g] & o]
        cand &= reach
    return bool(cand)


def _discovers(sq: int, f: int, o3: int, wocc: int) -> bool:
    """Whether the slider on ``sq``, on a line to the king on ``f``, sees it through one White piece alone."""
    inside = BETWEEN[f][sq] & o3
    return bool(inside and not inside & (inside - 1) and inside & wocc)
