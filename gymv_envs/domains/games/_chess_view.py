"""What the chess games share (Chess, ChessGame): python-chess rules over FEN states, the move
grammar (``64 * from + to``, said in UCI form like ``e2e4``, also read in algebraic notation like
``Nf3``) and the board drawing (white at the bottom, piece glyphs, the last step's squares lit).

`ChessView` is a mixin placed before `BoardGameEnv` in a chess game's bases; the state is a FEN
string with white as the agent (`ME`).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from gymv_envs.core import parsing
from gymv_envs.core.canvas import draw_text, new_frame
from gymv_envs.domains.games._board import DRAW, ME, THEM, BoardGameEnv

GLYPH = {"K": "\u2654", "Q": "\u2655", "R": "\u2656", "B": "\u2657", "N": "\u2658", "P": "\u2659"}
LIGHT, DARK, LIT_LIGHT, LIT_DARK = (240, 217, 181), (181, 136, 99), (246, 236, 120), (218, 195, 70)
FILES = "abcdefgh"
UCI = re.compile(r"(?<![a-z0-9])([a-h][1-8])\s*(?:-|x|to)?\s*([a-h][1-8])(?:\s*=?\s*[qrbn])?(?![a-z0-9])")
EMPTY_FEN = "8/8/8/8/8/8/8/8 w - - 0 1"   # stands for "no position" (a draw)


def _chess():
    import chess  # the 'chess' extra, imported when an env is built

    return chess


class ChessView:
    """Rules, move grammar and drawing of a chess game on FEN states (see the module docstring)."""

    board_shape = (8, 8)
    action_names = tuple(FILES[f % 8] + str(f // 8 + 1) + FILES[t % 8] + str(t // 8 + 1) for f in range(64) for t in range(64))
    transient_attrs = (*BoardGameEnv.transient_attrs, "_moves")

    def standard_start(self):
        """The usual initial position, white to move."""
        return _chess().STARTING_FEN

    # -- rules
    def _board(self, s):
        return _chess().Board(s)

    def mover(self, s) -> int:
        return ME if s.split()[1] == "w" else THEM

    def _legal_moves(self, s) -> dict[int, Any]:
        cache = getattr(self, "_moves", None)
        if cache is None or len(cache) > 50_000:
            cache = self._moves = {}
        if s not in cache:
            cache[s] = {64 * m.from_square + m.to_square: m for m in self._board(s).legal_moves
                        if m.promotion in (None, 5)}   # 5 = queen: pawns always promote to a queen
        return cache[s]

    def legal(self, s) -> list[int]:
        return list(self._legal_moves(s))

    def play(self, s, a: int):
        b = self._board(s)
        b.push(self._legal_moves(s)[a])
        return b.fen()

    def result(self, s):
        if s == EMPTY_FEN:
            return DRAW
        out = self._board(s).outcome()
        if out is None:
            return None
        return DRAW if out.winner is None else ME if out.winner else THEM

    def move_name(self, a: int) -> str:
        return self.action_names[a]

    def describe_invalid(self, s, a: int) -> str:
        b = self._board(s)
        piece = b.piece_at(a // 64)
        if piece is None or piece.color != _chess().WHITE:
            return f"there is no white piece on {self.action_names[a][:2]}; {self.action_names[a]} is not legal"
        return f"{self.action_names[a]} is not a legal move in this position"

    # -- VLM protocol
    @property
    def action_prompt(self) -> str:
        return ("Each turn, reply with one white move in UCI form: the from-square then the to-square, like e2e4 "
                "(a pawn reaching the last rank becomes a queen). End your reply with a line like `Action: e2e4`.")

    def parse_action(self, text: str) -> Any:
        try:
            if not isinstance(text, str):
                return None
            found = parsing.candidates(text)
            for c in found:
                hits = list(UCI.finditer(c.lower()[-2000:]))
                if hits:
                    f, t = hits[-1].group(1), hits[-1].group(2)
                    return 64 * (FILES.index(f[0]) + 8 * (int(f[1]) - 1)) + FILES.index(t[0]) + 8 * (int(t[1]) - 1)
            if getattr(self, "state", None) is None:
                return None
            board = self._board(self.state)
            for c in found:
                for token in reversed(c.replace(",", " ").split()[-50:]):
                    try:
                        m = board.parse_san(token.strip(".!?*`'\""))
                    except ValueError:
                        continue
                    return 64 * m.from_square + m.to_square
            return None
        except Exception:  # noqa: BLE001 - the contract: never raises
            return None

    # -- draw
    def col_label(self, c: int) -> str:
        return FILES[c]

    def cell_keys(self, s):
        placement = self._board(s).board_fen().split("/")
        rows, lit = [], {a for m in self.last if m < 4096 for a in (m // 64, m % 64)} if self.last else set()
        for r, line in enumerate(placement):
            row = []
            for ch in line:
                row.extend([""] * int(ch) if ch.isdigit() else [ch])
            rows.append([(p, (r + c) % 2, (7 - r) * 8 + c in lit) for c, p in enumerate(row)])
        return rows

    def _tile(self, key, h: int, w: int) -> np.ndarray:
        piece, dark, lit = key
        tile = new_frame(h, w, (LIT_DARK if dark else LIT_LIGHT) if lit else (DARK if dark else LIGHT))
        if piece:
            glyph, size = GLYPH[piece.upper()], max(4, int(h * 0.8))
            if piece.islower():   # black pieces: a filled glyph
                draw_text(tile, "\u265a\u265b\u265c\u265d\u265e\u265f"["KQRBNP".index(piece.upper())], (w / 2, h / 2), size, (20, 20, 20))
            else:
                draw_text(tile, "\u265a\u265b\u265c\u265d\u265e\u265f"["KQRBNP".index(piece)], (w / 2, h / 2), size, (250, 250, 250))
                draw_text(tile, glyph, (w / 2, h / 2), size, (20, 20, 20))
        return tile

    def _state_text(self) -> str:
        return f"FEN: {self.state}"
