"""Chess: deliver checkmate from a generated endgame against a built-in opponent (rules by python-chess)."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.games._board import ME, OPPONENT_TEXT, BoardGameEnv
from gymv_envs.domains.games._chess_view import EMPTY_FEN, ChessView, _chess
from gymv_envs.rules.chess import checks_hold, mate_by_checks, mates_in_one

EXTRA_W = ("P", "P", "N", "B", "R")   # white pieces added beside the king and a queen or rook
EXTRA_B = ("p", "p", "n", "b")        # black pieces added beside the king
LEVELS = {0: (1, 1), 1: (1, 1), 2: (2, 2)}  # difficulty -> (most extra white pieces, most extra black pieces)
VALUE = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 0}


class Chess(ChessView, BoardGameEnv):
    """Play white and deliver checkmate from a generated endgame.

    ## Description
    A chess position is shown with white at the bottom (files a-h left to right, ranks 1-8
    bottom to top). You play white, to move, and can force checkmate. The opponent (black)
    answers within the same step. Standard chess rules (python-chess); a pawn reaching the last
    rank becomes a queen.

    ## Action Space
    `Discrete(4096)`: index ``64 * from + to`` with squares numbered a1=0, b1=1, ..., h8=63,
    named in UCI form like ``e2e4``. A move that is not legal is invalid and changes nothing.
    Replies may also use standard algebraic notation such as ``Qh5#``.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with file and rank labels and piece glyphs;
    the from- and to-squares of the last step are highlighted.

    ## Rewards
    +1 for checkmating black, 0 for a draw (stalemate, insufficient material), -1 if white is
    checkmated (``max_return`` 1).

    ## Starting State
    Random legal positions drawn from the seed: white king with a queen or rook and up to 1
    (difficulty 2: 2) extra pieces, black king on an edge with up to 1 (difficulty 2: 2)
    pieces; kept only when white can force mate in exactly 1 (difficulty 0) or 2 (difficulties
    1 and 2) moves by a line of checks (verified against every black reply) and has no
    shorter mate of that kind.

    ## Episode End
    Terminates on checkmate or a draw; success is checkmating black.

    ## Arguments
    ``difficulty``: 0 (mate in 1, random opponent), 1 (mate in 2, greedy opponent: captures
    the most valuable piece it can and avoids allowing mate in one), 2 (mate in 2 with more
    pieces, 2-ply alpha-beta opponent on material); ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    extras = ("chess",)
    fast_oracle = False  # a mate search per move
    win_in = {0: 1, 1: 2, 2: 2}

    # -- generate
    def random_start(self, rng: np.random.Generator):
        chess = _chess()
        more_w, more_b = LEVELS[self.difficulty]
        pieces = ["K", "k", "Q" if rng.random() < 0.6 else "R"]
        pieces += [EXTRA_W[int(i)] for i in rng.integers(len(EXTRA_W), size=int(rng.integers(0, more_w + 1)))]
        pieces += [EXTRA_B[int(i)] for i in rng.integers(len(EXTRA_B), size=int(rng.integers(0, more_b + 1)))]
        board = chess.Board(None)
        squares = rng.permutation(64)[:len(pieces)]
        edge = [sq for sq in range(64) if sq < 8 or sq >= 56 or sq % 8 in (0, 7)]
        squares[1] = edge[int(rng.integers(len(edge)))] if squares[1] not in edge else squares[1]   # black king on the edge
        for sym, sq in zip(pieces, squares):
            if sym in "Pp" and not 8 <= sq < 56:
                sq = 8 + int(sq) % 48
                if board.piece_at(sq):
                    continue
            board.set_piece_at(int(sq), chess.Piece.from_symbol(sym))
        board.turn = chess.WHITE
        return board.fen() if board.is_valid() else EMPTY_FEN

    def start_ok(self, s) -> bool:
        return self.result(s) is None and super().start_ok(s)

    # -- search: mate by a line of checks, on one board with push/pop
    def _mate(self, board, k: int) -> int | None:
        """A checking move (as an action) that mates within ``k`` white moves against any reply, or None."""
        m = mate_by_checks(board, k, self._memo_table())
        return None if m is None else 64 * m.from_square + m.to_square

    def wins(self, s, k: int) -> bool:
        r = self.result(s)
        if r is not None:
            return r == ME
        if k <= 0:
            return False
        board = self._board(s)
        return self._mate(board, k) is not None if board.turn else checks_hold(board, k, self._memo_table())

    def oracle_action(self) -> int:
        """The first move of the fastest mate by checks; a 2-ply material search when none is left."""
        if self.result(self.state) is None:
            board = self._board(self.state)
            for k in range(1, self.target + 1):
                a = self._mate(board, k)
                if a is not None:
                    return a
        return super().oracle_action()

    # -- rules (the rest in ChessView)
    def attack_moves(self, s) -> list[int]:
        b = self._board(s)
        return [a for a, m in self._legal_moves(s).items() if b.gives_check(m)]

    def heuristic(self, s) -> float:
        v = 0.0
        for ch in s.split()[0]:
            if ch.isalpha():
                v += VALUE[ch.lower()] * (1 if ch.isupper() else -1)
        return v

    def immediate_win(self, s) -> bool:
        return bool(mates_in_one(self._board(s), first=True))

    # -- VLM protocol (grammar and drawing in ChessView)
    def _task_text(self) -> str:
        return ("You play chess as white against black. White is at the bottom; files are labelled a to h from left "
                "to right and ranks 1 to 8 from bottom to top. White pieces are drawn white with dark outlines, black "
                "pieces solid black. It is your turn and white can force checkmate. Name each move by its from-square "
                "and to-square, like e2e4. The opponent answers at once (it "
                f"{OPPONENT_TEXT[self.opponent]}). Checkmating black wins (+1); a draw such as stalemate scores 0; "
                "being checkmated loses (-1).")


SPECS = (
    TaskSpec(name="Chess", entry_point=Chess, version=1, max_episode_steps=30,
             tags=("board-game", "adversarial", "planning")),
)
