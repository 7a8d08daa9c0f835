"""Chess mate: find a mate in one (difficulty 0/1) or the first move of a mate in two (2)."""

from __future__ import annotations

import contextlib
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.canvas import blend_mask
from gymv_envs.domains.puzzles._chess_mate_draw import empty_board, piece_layers, piece_tiles
from gymv_envs.domains.puzzles._chess_mate_levels import Draws, position_fen
from gymv_envs.rules.chess import forces_mate, mates_in_one

# pieces besides the two kings: (white, black); lower-case letters are black
MATERIAL = {0: (("QR", "RR", "QQ"), ("",)), 1: (("QNP", "RBP", "QBPP", "RNP"), ("p", "pp", "n", "bp")),
            2: (("QR", "RR", "QB"), ("", "p"))}
BATCH = {1: 64}  # tries drawn at once where a level takes about 50 (at 0 and 2 it takes under 10: one at a time)
EDGE = tuple(s for s in range(64) if s // 8 in (0, 7) or s % 8 in (0, 7))  # where the black king stands


def _mates_after(b, move, reply) -> bool:
    """python-chess's answer: does White mate at once after ``move`` and Black's ``reply``
    (from, to, promotion)? ``b`` is left as it was."""
    import chess
    b.push(move)
    b.push(chess.Move(reply[0], reply[1], reply[2] or None))
    ok = bool(mates_in_one(b, first=True))
    b.pop()
    b.pop()
    return ok


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
    king on an edge, kept when a mate of the asked length exists. At difficulty 1 placements
    are drawn in batches (those with pieces on one square, kings side by side or a king in
    check dropped), each legal placement as likely as when drawn one at a time.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``. Needs the ``chess`` extra.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    - v2: at difficulty 1 placements are drawn in batches of tries (numpy), so a seed gives
      another position than in v1, from the same distribution (same material, rules, mate
      length and answer check); at 0 and 1 the oracle's move is the first mate the bitboard
      test finds (another mating move than v1's in some positions); difficulty 0's positions
      and all of difficulty 2 are as in v1.
    """

    extras = ("chess",)
    _key = None
    _key_san = None
    answer_hint = "one move for White in SAN (such as `Qd8#`) or UCI (such as `d1d8`)"

    def _configure(self) -> None:
        self.plies = 3 if self.difficulty == 2 else 1

    def _generate(self, rng: np.random.Generator) -> None:
        from gymv_envs.domains.puzzles import _chess_mate_fast as fast
        settled_out = self.plies != 1  # a settled answer that rejects: a mate in one at 2, none at 0/1
        with contextlib.closing(self._placements(rng)) as placements:
            for bk, pieces, squares, w, bp, bn, bb in placements:
                settled = fast.mate_in_one(w, bk, bp, bn, bb)
                if settled is None or bool(settled) != settled_out:
                    b = self._position(pieces, bk, squares, w, bp, settled)
                    if b is not None:
                        break
        self.fen = position_fen(bk, squares, pieces)
        self.board = b
        self._pieces = sorted(zip((bk, *squares), "k" + pieces), reverse=True)  # as board.piece_map() lists them
        self._key_san = None  # the key move in SAN, once asked for

    def _placements(self, rng: np.random.Generator):
        """Legal placements of the difficulty's material, endlessly: drawn in batches where a level
        takes many (`_chess_mate_batch`), else one at a time (``rng.random()`` three times and
        ``rng.choice(63, n, replace=False)``, replayed by `Draws`)."""
        from gymv_envs.domains.puzzles import _chess_mate_fast as fast
        from gymv_envs.domains.puzzles._chess_mate_batch import tries
        whites, blacks = MATERIAL[self.difficulty]
        if self.difficulty in BATCH:
            while True:
                yield from tries(rng, EDGE, whites, blacks, BATCH[self.difficulty])
        with Draws(rng) as draws:
            while True:
                bk, pieces, picks = draws.placement(EDGE, whites, blacks)
                placed = fast.place_pieces(bk, pieces, picks)
                if placed is not None:  # else two pieces meet, the kings are too close or a king is in check
                    squares, w, bp, bn, bb = placed
                    yield bk, pieces, squares, w, bp, bn, bb

    def _position(self, pieces: str, bk: int, squares: list, w: list, bp: int, settled):
        """The board for a placement the bitboards did not rule out if it is a puzzle of this
        difficulty (the key move set), else None: the mate in one the bitboards proved, or
        python-chess's first where they left it open (0/1); the key of a mate in two (2) with the
        bitboard search (the board made when first needed)."""
        import chess
        board = []

        def made():
            if not board:
                b = chess.Board(None)
                b.set_piece_map({sq: chess.Piece.from_symbol(letter)
                                 for sq, letter in zip((bk, *squares), "k" + pieces)})
                board.append(b)
            return board[0]

        if settled:  # a mate in one the bitboards proved (asked for at 0/1)
            if not made().is_valid():
                return None
            self._key = chess.Move(settled[0], settled[1], settled[2] or None)
            return board[0]
        if settled is None or self.plies == 1:
            mates = mates_in_one(made(), first=True)
            if bool(mates) != (self.plies == 1):
                return None
            if mates:
                if not board[0].is_valid():
                    return None
                self._key = mates[0]
                return board[0]
        from gymv_envs.domains.puzzles._chess_mate_two import mate_in_two_key

        def exact_after(s, t):  # python-chess's answer for a reply to s-t, the board made only when asked
            return lambda reply: _mates_after(made(), chess.Move(s, t), reply)

        key = mate_in_two_key(w, bk, bp, exact_after)
        if key is None or not made().is_valid():
            return None
        self._key = chess.Move(*key)
        return board[0]

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        img = empty_board(H, W).copy()
        pieces = self._pieces
        known = piece_tiles(H, W)
        tiles = [known[key] for key in pieces]
        if None in tiles:  # a tiny frame: discs may reach over their squares, so blend them in turn
            for sq, symbol in pieces:
                for m, x, y, color in piece_layers(H, W, sq, symbol):
                    blend_mask(img, m, x, y, color)
            return img
        for x0, y0, x1, y1, tile in tiles:
            img[y0:y1, x0:x1] = tile
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
        if self._key_san is not None and t == self._key_san.rstrip("+#"):
            return self._key
        if re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", t.lower()):
            import chess
            m = chess.Move.from_uci(t.lower())
            return m if m in b.legal_moves else None
        try:
            return b.parse_san(t)
        except ValueError:
            return None

    def _check(self, answer) -> bool:
        if answer == self._key:
            return True  # proved when the level was drawn
        return answer in self.board.legal_moves and forces_mate(self.board, answer, self.plies)

    def _format(self, answer) -> str:
        if answer != self._key:
            return self.board.san(answer)
        if self._key_san is None:
            self._key_san = self.board.san(answer)
        return self._key_san

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
    TaskSpec(name="ChessMate", entry_point=ChessMate, version=2, max_episode_steps=1,
             tags=("game", "chess", "search")),
)
