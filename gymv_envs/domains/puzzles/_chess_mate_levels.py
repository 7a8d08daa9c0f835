"""ChessMate's placements: numpy's draws replayed in Python, pieces to bitboards, the FEN (no chess import)."""

from __future__ import annotations

import functools

from gymv_envs.core.rng import ScalarDraws


class Draws(ScalarDraws):
    """`ScalarDraws` with ``rng.choice(n, size=k, replace=False)`` replayed in one loop."""

    __slots__ = ()

    def distinct(self, n: int, k: int) -> list:
        """``rng.choice(n, size=k, replace=False).tolist()``: numpy's Floyd sampling (bounded draws
        j + 1 for j = n - k .. n - 1), then its shuffle (i + 1 for i = k - 1 .. 1), each by Lemire's
        method on a 32-bit draw as `ScalarDraws.integers` makes it; the 32-bit draws are taken in one
        go (a draw Lemire's method would reject, one in millions, goes the slow way)."""
        spans = _spans(n, k)
        raw, pos, has32 = self._raw, self._pos, self._has32
        words = [self._u32] if has32 else []
        end = pos + (len(spans) - len(words) + 1) // 2
        while end > len(raw):
            raw += self._bg.random_raw(len(raw)).tolist()
        for v in raw[pos:end]:
            words += (v & 0xFFFFFFFF, v >> 32)
        products = list(map(int.__mul__, words, spans))
        if min(m & 0xFFFFFFFF for m in products) < n:  # below every bound: maybe a rejected draw
            return self._distinct_slowly(n, k)
        self._has32 = len(words) > len(spans)
        self._u32 = words[-1]
        self._pos = end
        out = []
        j = n - k
        for m in products[:k]:
            v = m >> 32
            out.append(j if v in out else v)
            j += 1
        i = k - 1
        for m in products[k:]:
            v = m >> 32
            out[i], out[v] = out[v], out[i]
            i -= 1
        return out

    def _distinct_slowly(self, n: int, k: int) -> list:
        vals = [self.integers(span) for span in _spans(n, k)]
        out = []
        for j, v in zip(range(n - k, n), vals):
            out.append(j if v in out else v)
        for i, j in zip(range(k - 1, 0, -1), vals[k:]):
            out[i], out[j] = out[j], out[i]
        return out


@functools.lru_cache(maxsize=64)
def _spans(n: int, k: int) -> tuple:
    """The bounds of ``rng.choice(n, size=k, replace=False)``'s draws, in order."""
    return (*range(n - k + 1, n + 1), *range(k, 1, -1))


KINDS = {letter: (letter.islower(), "pnbrqk".index(letter.lower())) for letter in "PNBRQKpnb"}


def place_pieces(bk: int, pieces: str, picks: list):
    """The pieces on the picked squares (of the 63 besides the black king's), pawns off the back ranks
    moved to their second rank, as ([square], White's bitboards by kind, Black's pawns, knights and
    bishops); None when two pieces meet (the level is drawn again)."""
    occ = 1 << bk
    squares, w, black = [], [0] * 6, [0, 0, 0]
    for letter, k in zip(pieces, picks):
        sq = k + (k >= bk)
        if letter in "Pp" and (sq < 8 or sq >= 56):
            sq = (sq & 7) + (8 if letter == "P" else 48)
        bit = 1 << sq
        if occ & bit:
            return None
        occ |= bit
        squares.append(sq)
        side, kind = KINDS[letter]
        if side:
            black[kind] |= bit
        else:
            w[kind] |= bit
    return squares, w, black


def position_fen(bk: int, squares: list, pieces: str) -> str:
    """The FEN python-chess gives such a position: White to move, no castling, no en passant."""
    cells = ["1"] * 64
    cells[bk] = "k"
    for sq, letter in zip(squares, pieces):
        cells[sq] = letter
    ranks = []
    for r in range(56, -8, -8):
        row = "".join(cells[r:r + 8])
        for run in range(8, 1, -1):
            row = row.replace("1" * run, str(run))
        ranks.append(row)
    return "/".join(ranks) + " w - - 0 1"
