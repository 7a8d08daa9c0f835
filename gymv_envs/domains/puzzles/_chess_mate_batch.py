"""ChessMate's placements drawn in batches: numpy draws a batch of tries and rules out, on every try
at once, those where two pieces meet, the kings stand side by side or a king is in check.

A try is the black king on an edge square, one of the difficulty's White and Black material sets
and seven squares for the other pieces (White's king first; the unused ones left over), each
uniform and independent (``int(u * n)`` for a double ``u`` of one ``rng.random`` array); pawns on
a back rank move to their side's second rank. A try is dropped unless all seven squares drawn
(used or not, so the chance does not depend on the material) differ and miss the black king: that
leaves every placement of distinct squares, and each material set, as likely as drawing the
squares without replacement would (ChessMate-v1 did that, one try at a time).
"""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.domains.puzzles import _chess_mate_fast as fast

KINDS = "PNBRQKpnb"  # codes 0-8: White's kinds (python-chess type - 1), then Black's; 9: no piece
NONE = 9
SLOTS = 7  # the most pieces besides the black king: K + four White + two Black


@functools.lru_cache(maxsize=1)
def _tables() -> tuple:
    """Attack tables flattened from [kind code, from, to], one for each king's side: True where a
    White piece (first table) or a Black one (second) attacks the square on an empty board, so in a
    position where the squares between are empty (a pawn's or knight's attacks have none); the
    squares between two squares ([from, to] flattened); where each kind code's piece stands on each
    drawn square ([kind code, square] flattened: pawns off the back ranks); each square's bit; the
    kings' neighbourhoods; the number of set bits of each byte. About 120 KB, made once."""
    hits = np.zeros((2, NONE + 1, 64, 64), bool)
    between = np.zeros((64, 64), np.uint64)
    for s in range(64):
        for t in range(64):
            diag, straight = fast.DIAG[s][0] >> t & 1, (fast.RANK[s][0] | fast.FILE[s][0]) >> t & 1
            hits[0, :6, s, t] = (fast.WP_ATT[s] >> t & 1, fast.KNIGHT[s] >> t & 1, diag, straight,
                                 diag | straight, 0)
            hits[1, 6:9, s, t] = (fast.BP_ATT[s] >> t & 1, fast.KNIGHT[s] >> t & 1, diag)
            between[s, t] = fast.between(s, t)
    placed = np.tile(np.arange(64), (NONE + 1, 1))
    for code, rank in ((0, 8), (6, 48)):  # pawns on a back rank go to their side's second rank
        for sq in (*range(8), *range(56, 64)):
            placed[code, sq] = (sq & 7) + rank
    bits = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
    kings = np.array([[fast.KING[s] >> t & 1 for t in range(64)] for s in range(64)], bool)
    ones = np.array([bin(v).count("1") for v in range(256)], np.int8)
    return hits.reshape(2, -1), between.ravel(), placed.ravel(), bits, kings, ones


@functools.lru_cache(maxsize=8)
def _codes(whites: tuple, blacks: tuple) -> tuple:
    """[White set, Black set, slot]: the kind codes of a try's pieces, padded with NONE; and
    [White set, Black set]: how many squares they take with the black king."""
    out = np.full((len(whites), len(blacks), SLOTS), NONE, np.intp)
    for i, white in enumerate(whites):
        for j, black in enumerate(blacks):
            letters = "K" + white + black
            out[i, j, :len(letters)] = [KINDS.index(c) for c in letters]
    return out, (out != NONE).sum(axis=2) + 1


def tries(rng: np.random.Generator, edge: tuple, whites: tuple, blacks: tuple, count: int):
    """The tries of a batch of ``count`` that pass, in order, as (black king's square, pieces,
    [square of each piece], White's bitboards by kind, Black's pawns, knights, bishops): a generator
    that draws the whole batch on its first step and builds each try only when asked for it."""
    hits, between, placed, bits, kings, ones = _tables()
    codes, taken = _codes(whites, blacks)
    drawn = (rng.random((count, 3 + SLOTS)) * (len(edge), len(whites), len(blacks), *[64] * SLOTS)).astype(np.intp)
    bk = np.asarray(edge)[drawn[:, 0]]
    wi, bi, sq = drawn[:, 1], drawn[:, 2], drawn[:, 3:]
    codes, taken = codes[wi, bi], taken[wi, bi]
    used = codes != NONE
    ok = ~kings[bk, sq[:, 0]]
    for moved in (False, True):  # all seven squares drawn apart, then where the pieces stand
        if moved:
            sq = placed.take(codes * 64 + sq)
        occ = np.bitwise_or.reduce(np.where(used, bits[sq], 0) if moved else bits[sq], axis=1) | bits[bk]
        ok &= ones[occ.view(np.uint8)].reshape(count, 8).sum(axis=1) == (taken if moved else SLOTS + 1)
    occ = occ[:, None]
    for attacked, target in zip(hits, (bk, sq[:, 0])):  # White's pieces on the black king, Black's on White's
        at = sq * 64 + target[:, None]
        clear = (between.take(at) & occ) == 0
        ok &= ~(attacked.take(codes * 4096 + at) & clear).any(axis=1)
    names = _names(whites, blacks)
    for b, w, k, squares, kinds in zip(bk[ok].tolist(), wi[ok].tolist(), bi[ok].tolist(), sq[ok].tolist(),
                                       codes[ok].tolist()):
        pieces = names[w][k]
        squares = squares[:len(pieces)]
        boards = [0] * 9
        for s, kind in zip(squares, kinds):
            boards[kind] |= 1 << s
        yield b, pieces, squares, boards[:6], boards[6], boards[7], boards[8]


@functools.lru_cache(maxsize=8)
def _names(whites: tuple, blacks: tuple) -> tuple:
    """[White set][Black set]: the pieces' letters, White's king first."""
    return tuple(tuple("K" + white + black for black in blacks) for white in whites)
