"""Chess: deliver checkmate from a generated endgame against a built-in opponent (rules by python-chess)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from gymv_envs.core import TaskSpec, parsing
from gymv_envs.core.canvas import draw_text, new_frame
from gymv_envs.domains.games._board import DRAW, ME, OPPONENT_TEXT, THEM, BoardGameEnv
from gymv_envs.rules.chess import checks_hold, mate_by_checks, mates_in_one

EXTRA_W = ("P", "P", "N", "B", "R")   # white pieces added beside the king and a queen or rook
EXTRA_B = ("p", "p", "n", "b")        # black pieces added beside the king
LEVELS = {0: (1, 1), 1: (1, 1), 2: (2, 2)}  # difficulty -> (most extra white pieces, most extra black pieces)
VALUE = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 0}
GLYPH = {"K": "\u2654", "Q": "\u2655", "R": "\u2656", "B": "\u2657", "N": "\u2658", "P": "\u2659"}
LIGHT, DARK, LIT_LIGHT, LIT_DARK = (240, 217, 181), (181, 136, 99), (246, 236, 120), (218, 195, 70)
FILES = "abcdefgh"
UCI = re.compile(r"(?<![a-z0-9])([a-h][1-8])\s*(?:-|x|to)?\s*([a-h][1-8])(?:\s*=?\s*[qrbn])?(?![a-z0-9])")


def _chess():
    import chess  # the 'chess' extra, imported when an env is built

    return chess


class Chess(BoardGameEnv):
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
    board_shape = (8, 8)
    action_names = tuple(FILES[f % 8] + str(f // 8 + 1) + FILES[t % 8] + str(t // 8 + 1) for f in range(64) for t in range(64))
    transient_attrs = (*BoardGameEnv.transient_attrs, "_moves")

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
        return board.fen() if board.is_valid() else "8/8/8/8/8/8/8/8 w - - 0 1"

    def standard_start(self):
        """The usual initial position, white to move."""
        return _chess().STARTING_FEN

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

    def attack_moves(self, s) -> list[int]:
        b = self._board(s)
        return [a for a, m in self._legal_moves(s).items() if b.gives_check(m)]

    def play(self, s, a: int):
        b = self._board(s)
        b.push(self._legal_moves(s)[a])
        return b.fen()

    def result(self, s):
        if s == "8/8/8/8/8/8/8/8 w - - 0 1":
            return DRAW
        out = self._board(s).outcome()
        if out is None:
            return None
        return DRAW if out.winner is None else ME if out.winner else THEM

    def heuristic(self, s) -> float:
        v = 0.0
        for ch in s.split()[0]:
            if ch.isalpha():
                v += VALUE[ch.lower()] * (1 if ch.isupper() else -1)
        return v

    def immediate_win(self, s) -> bool:
        return bool(mates_in_one(self._board(s), first=True))

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

    def _task_text(self) -> str:
        return ("You play chess as white against black. White is at the bottom; files are labelled a to h from left "
                "to right and ranks 1 to 8 from bottom to top. White pieces are drawn white with dark outlines, black "
                "pieces solid black. It is your turn and white can force checkmate. Name each move by its from-square "
                "and to-square, like e2e4. The opponent answers at once (it "
                f"{OPPONENT_TEXT[self.opponent]}). Checkmating black wins (+1); a draw such as stalemate scores 0; "
                "being checkmated loses (-1).")

    def _state_text(self) -> str:
        return f"FEN: {self.state}"


SPECS = (
    TaskSpec(name="Chess", entry_point=Chess, version=1, max_episode_steps=30,
             tags=("board-game", "adversarial", "planning")),
)
