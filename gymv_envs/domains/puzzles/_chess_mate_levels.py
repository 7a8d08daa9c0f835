"""ChessMate's placements: numpy's draws replayed in Python, and the FEN (no chess import)."""

from __future__ import annotations

import functools

from gymv_envs.core.rng import ScalarDraws

UNIT = 1.0 / 9007199254740992.0  # numpy's double from the top 53 bits of a 64-bit draw


class Draws(ScalarDraws):
    """`ScalarDraws` with ``rng.choice(n, size=k, replace=False)`` replayed in one loop."""

    __slots__ = ()

    def placement(self, edge: tuple, whites: tuple, blacks: tuple) -> tuple:
        """One try's draws: (a square of ``edge``, "K" + White's + Black's pieces, the picks of
        ``distinct(63, len(pieces))``), as ``random()`` three times (picking from each tuple by
        ``int(random() * len)``) and then `distinct` would draw them."""
        raw, pos = self._raw, self._pos
        while pos + 3 > len(raw):
            raw += self._bg.random_raw(len(raw)).tolist()
        self._pos = pos + 3
        bk = edge[int((raw[pos] >> 11) * UNIT * len(edge))]
        pieces = ("K" + whites[int((raw[pos + 1] >> 11) * UNIT * len(whites))]
                  + blacks[int((raw[pos + 2] >> 11) * UNIT * len(blacks))])
        return bk, pieces, self.distinct(63, len(pieces))

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
        if min(map(0xFFFFFFFF.__and__, products)) < n:  # below every bound: maybe a rejected draw
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


def position_fen(bk: int, squares: list, pieces: str) -> str:
    """The FEN python-chess gives such a position: White to move, no castling, no en passant."""
    cells = ["1"] * 64
    cells[bk] = "k"
    for sq, letter in zip(squares, pieces):
        cells[sq] = letter
    board = "/".join("".join(cells[r:r + 8]) for r in range(56, -8, -8))
    for run in range(8, 1, -1):  # (the slashes keep each run of empty squares within its rank)
        board = board.replace("1" * run, str(run))
    return board + " w - - 0 1"
