"""Chess mate: find a mate in one (difficulty 0/1) or the first move of a mate in two (2)."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.board import Board
from gymv_envs.core.canvas import INK, WHITE, draw_shape, draw_text
from gymv_envs.rules.chess import forces_mate, mates_in_one

# pieces besides the two kings: (white, black); lower-case letters are black
MATERIAL = {0: (("QR", "RR", "QQ"), ("",)), 1: (("QNP", "RBP", "QBPP", "RNP"), ("P", "PP", "N", "BP")),
            2: (("QR", "RR", "QB"), ("", "P"))}
LIGHT, DARK = (238, 220, 180), (180, 135, 95)


@functools.lru_cache(maxsize=16)
def _empty_board(H: int, W: int) -> np.ndarray:
    """The labelled, chequered board without pieces (read-only)."""
    img = Board(H, W, 8, 8).paint({(r, c): LIGHT if (r + c) % 2 == 0 else DARK for r in range(8) for c in range(8)},
                                  bottom_up=True)
    img.setflags(write=False)
    return img


class ChessMate(SingleTurnEnv):
    """Find a checkmating move (mate in one) or the key move of a mate in two.

    ## Description
    A chess position with White to move is drawn; pieces are discs with letters (K, Q, R,
    B, N, P; white discs for White, black discs for Black). At difficulty 0 and 1 White can
    mate at once; at difficulty 2 White mates in two (no mate in one exists). Any move that
    mates (or forces mate on White's next move against every defence) is accepted.

    ## Action Space
    ``"open"``: `Text`, a move in SAN (``Qh7#``, ``Rxa8``) or UCI (``h5h7``); check marks and
    a move number are ignored. ``"mcq"``: `Discrete(k)` over moves in SAN.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board from White's side with files a-h and ranks 1-8.

    ## Rewards
    1.0 for a mating (difficulty 2: mate-forcing) move, else 0.0.

    ## Starting State
    Random legal placements of restricted material (two heavy pieces against a lone king at
    0 and 2; a heavy piece, a minor piece and pawns against king and pawns at 1), the black
    king on an edge, kept when a mate of the asked length exists.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``. Needs the ``chess`` extra.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    extras = ("chess",)
    _key = None
    answer_hint = "one move for White in SAN (such as `Qd8#`) or UCI (such as `d1d8`)"

    def _configure(self) -> None:
        self.plies = 3 if self.difficulty == 2 else 1

    def _generate(self, rng: np.random.Generator) -> None:
        import chess
        whites, blacks = MATERIAL[self.difficulty]
        edge = [s for s in chess.SQUARES if chess.square_rank(s) in (0, 7) or chess.square_file(s) in (0, 7)]
        while True:
            u = rng.random(3).tolist()
            bk = edge[int(u[0] * len(edge))]
            pieces = "K" + whites[int(u[1] * len(whites))] + blacks[int(u[2] * len(blacks))].lower()
            b = chess.Board(None)
            b.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
            free = [s for s in chess.SQUARES if s != bk]
            for letter, k in zip(pieces, rng.choice(len(free), size=len(pieces), replace=False).tolist()):
                sq = free[k]
                if letter in "Pp" and chess.square_rank(sq) in (0, 7):
                    sq = chess.square(chess.square_file(sq), 1 if letter == "P" else 6)
                    if b.piece_at(sq) or sq == bk:
                        break
                b.set_piece_at(sq, chess.Piece.from_symbol(letter))
            b.turn = chess.WHITE
            if b.occupied.bit_count() != len(pieces) + 1 or chess.square_distance(bk, b.king(chess.WHITE)) < 2:
                continue
            if b.is_check() or b.attackers_mask(chess.WHITE, bk):  # either king in check: not a puzzle
                continue
            mates = mates_in_one(b, first=True)  # before the (slower) validity test, which few pass after it
            if bool(mates) != (self.plies == 1) or not b.is_valid():
                continue
            self._key = mates[0] if mates else next((m for m in b.legal_moves if forces_mate(b, m, 3)), None)
            if self._key is not None:
                break
        self.fen = b.fen()
        self.board = b

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        g = Board(H, W, 8, 8)
        img = _empty_board(H, W).copy()
        size = max(3, int(g.cell * 0.82))
        for sq, piece in self.board.piece_map().items():
            r, c = 7 - sq // 8, sq % 8
            cx, cy = g.center(r, c)
            white = piece.color
            draw_shape(img, "circle", cx, cy, size, INK)
            draw_shape(img, "circle", cx, cy, max(2, size - max(2, size // 8)), WHITE if white else (40, 40, 45))
            if g.cell >= 8:
                draw_text(img, piece.symbol().upper(), (cx, cy), max(5, int(g.cell * 0.5)),
                          INK if white else WHITE, bold=True)
        return img

    def _task_text(self) -> str:
        goal = ("Give a move for White that checkmates at once." if self.plies == 1 else
                "White can force checkmate in two moves (but not in one). Give White's first move of "
                "such a mate: after it, every Black reply must allow a checkmate on White's next move.")
        return ("The image shows a chess position seen from White's side (files a-h left to right, ranks "
                "1-8 bottom to top). White pieces are white discs, Black pieces dark discs; the letter names "
                "the piece (K king, Q queen, R rook, B bishop, N knight, P pawn). White is to move. " + goal)

    def _parse_answer(self, text: str):
        t = re.sub(r"^\s*\d+\s*\.+\s*", "", text.strip()).strip(".`'\" ")
        t = re.sub(r"[+#!?]+$", "", t)
        if not t or len(t) > 10:
            return None
        b = self.board
        if re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", t.lower()):
            import chess
            m = chess.Move.from_uci(t.lower())
            return m if m in b.legal_moves else None
        try:
            return b.parse_san(t)
        except ValueError:
            return None

    def _check(self, answer) -> bool:
        return answer in self.board.legal_moves and forces_mate(self.board, answer, self.plies)

    def _format(self, answer) -> str:
        return self.board.san(answer)

    def _solve(self):
        return self._key  # the mating (or mate-forcing) move the solver found for this position

    def _near_misses(self, rng: np.random.Generator) -> list:
        moves = list(self.board.legal_moves)
        order = rng.permutation(len(moves))
        moves = [moves[int(k)] for k in order]
        moves.sort(key=lambda m: not self.board.gives_check(m))  # checks first: the tempting ones
        return moves  # all of them: when most checks mate, the wrong options come from the rest

    def _state_text(self) -> str:
        return self.fen


SPECS = (
    TaskSpec(name="ChessMate", entry_point=ChessMate, version=1, max_episode_steps=1,
             tags=("game", "chess", "search")),
)
