"""ChessGame: a whole game of chess from the initial position against the built-in engine (rules by python-chess)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from gymv_envs.core import Outcome, TaskSpec
from gymv_envs.domains.games._board import DRAW, BoardGameEnv, end_outcome
from gymv_envs.domains.games._chess_view import ChessView, _chess
from gymv_envs.rules.chess_engine import PIECE, engine_move, exploiting_move

# The first move of each side, drawn from the seed (common openings, so that levels differ by seed).
OPENINGS = ("e2e4 e7e5", "e2e4 c7c5", "e2e4 e7e6", "e2e4 c7c6", "e2e4 d7d5", "e2e4 g7g6", "e2e4 b8c6", "d2d4 d7d5",
            "d2d4 g8f6", "d2d4 e7e6", "d2d4 f7f5", "c2c4 e7e5", "c2c4 c7c5", "g1f3 d7d5", "g1f3 g8f6", "b2b3 e7e5")
ENGINE_TEXT = {
    0: "looks one move ahead and plays with a lot of randomness",
    1: "searches two plies ahead (its move and your reply) with a little randomness",
    2: "searches two plies ahead and then the exchanges of captures that follow, with very little randomness",
}
# difficulty -> (plies the oracle searches after the engine's predicted reply, then captures; candidate moves);
# once a candidate leads by AHEAD[0] centipawns (converting a won game): AHEAD[1:] at every difficulty
ORACLE = {0: (1, 6), 1: (2, 4), 2: (2, 6)}
AHEAD = (500, 1, 3)
BUDGET = 150   # the agent's moves


def _key(fen: str) -> str:
    """The position of a FEN without its move counters (repetitions compare these)."""
    return " ".join(fen.split()[:4])


class ChessGame(ChessView, BoardGameEnv):
    """Play a whole game of chess as white against the built-in engine, and checkmate it.

    ## Description
    A chess board with white at the bottom (files a-h left to right, ranks 1-8 bottom to top).
    You play white against our own engine playing black, which answers within the same step:
    an alpha-beta search over material and piece placement whose depth and randomness are the
    difficulty. Standard chess rules (python-chess); a pawn reaching the last rank becomes a
    queen (for both sides).

    ## Action Space
    `Discrete(4096)`: index ``64 * from + to`` with squares numbered a1=0, b1=1, ..., h8=63,
    named in UCI form like ``e2e4`` (castling is the king's move, like ``e1g1``). A move that is
    not legal is invalid and changes nothing. Replies may also use algebraic notation like ``Nf3``.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with file and rank labels and piece glyphs; the
    from- and to-squares of the last step (your move and the engine's reply) are highlighted.

    ## Rewards
    +1 for checkmating black, 0 for a draw, -1 if white is checkmated (``max_return`` 1).

    ## Starting State
    The standard initial position after one move of each side, drawn from the seed out of 16
    common openings (1. e4 e5, 1. d4 Nf6, 1. c4 c5, ...); white to move.

    ## Episode End
    Terminates on checkmate or a draw (stalemate, insufficient material, the 75-move rule, a
    fivefold repetition); success is checkmating black. The budget is 150 of your moves.

    ## Arguments
    ``difficulty``: the engine's strength: 0 (1 ply, large random noise on its move values),
    1 (2 plies, small noise), 2 (2 plies and a quiescence search over captures, very small
    noise); ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    extras = ("chess",)
    fast_oracle = False   # a few engine searches per move
    transient_attrs = (*ChessView.transient_attrs, "_predicted")

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        board = _chess().Board()
        for uci in OPENINGS[int(rng.integers(len(OPENINGS)))].split():
            board.push_uci(uci)
        reply = board.peek()
        self.state = self.start = self.before = board.fen()
        self.moves = 0
        self.last = (64 * reply.from_square + reply.to_square,)
        self._seen = Counter({_key(self.state): 1})

    # -- rules
    def _verdict(self) -> int | None:
        """The game's result (python-chess, plus the fivefold repetition the FEN alone cannot show)."""
        r = self.result(self.state)
        return DRAW if r is None and self._seen[_key(self.state)] >= 5 else r

    def _push(self, a: int) -> None:
        self.state = self.play(self.state, a)
        self._seen[_key(self.state)] += 1

    def _opponent_move(self) -> int:
        """The engine's reply at this difficulty, its noise drawn from the env's generator (taken from the
        oracle's prediction when it made exactly this search: same position, same generator state)."""
        gen, known = self.np_random.bit_generator, getattr(self, "_predicted", None)
        if known is not None and known[0] == gen.state and self.state in known[1]:
            m, gen.state = known[1][self.state]
        else:
            m = engine_move(self._board(self.state), self.difficulty, self.np_random)
        self._predicted = None
        return 64 * m.from_square + m.to_square

    def _apply(self, action: int) -> Outcome:
        if action not in self._legal_moves(self.state):
            return Outcome(invalid=True, feedback=self.describe_invalid(self.state, action))
        self.before = self.state
        self._push(action)
        self.moves += 1
        self.last, text = (action,), [f"you played {self.move_name(action)}"]
        if self._verdict() is None:
            reply = self._opponent_move()
            self._push(reply)
            self.last += (reply,)
            text.append(f"the engine played {self.move_name(reply)}")
        msg = ", ".join(text)
        return (end_outcome(self._verdict(), msg, "checkmate, you win", "checkmate, the engine wins")
                or Outcome(feedback=msg + (": check" if self._board(self.state).is_check() else "")))

    def heuristic(self, s) -> float:
        """White's material lead in pawns."""
        board = self._board(s)
        return sum((len(board.pieces(p, True)) - len(board.pieces(p, False))) * PIECE[p] for p in range(1, 6)) / 100

    def _progress(self) -> float:
        if self._success or self._terminated:
            return 1.0 if self._success else 0.0
        return float(np.clip(0.45 + self.heuristic(self.state) / 80, 0.0, 0.9))

    # -- oracle
    def oracle_action(self) -> int:
        """A deeper search than the engine's: the most promising moves (by one ply and captures), each valued
        after the engine's exact reply (predicted by running the engine on a copy of the env's generator)
        by a search of 1-2 more plies and captures with endgame mating terms; positions seen before count
        as draws (`exploiting_move`)."""
        board = self._board(self.state)
        if self._verdict() is not None or not any(board.generate_legal_moves()):
            return 0
        seen, state = self._seen, self.np_random.bit_generator.state
        self._predicted = (state, {})

        def reply(after):   # the engine's own reply: its search on a copy of the env's generator
            rng = np.random.Generator(type(self.np_random.bit_generator)())
            rng.bit_generator.state = state
            m = engine_move(after, self.difficulty, rng)
            self._predicted[1][after.fen()] = (m, rng.bit_generator.state)
            return m

        depth, width = ORACLE[self.difficulty]
        m = exploiting_move(board, reply, depth, width, avoid=lambda after: seen[_key(after.fen())] >= 1,
                            ahead=AHEAD)
        return 64 * m.from_square + m.to_square

    # -- VLM protocol (grammar and drawing in ChessView)
    def _task_text(self) -> str:
        return ("You play a whole game of chess as white against a chess engine playing black. White is at the "
                "bottom; files are labelled a to h from left to right and ranks 1 to 8 from bottom to top. White "
                "pieces are drawn white with dark outlines, black pieces solid black; the squares of the last moves "
                "are highlighted. It is your turn. Name each move by its from-square and to-square, like e2e4 "
                f"(castling: the king's move, like e1g1). The engine answers at once; it {ENGINE_TEXT[self.difficulty]}. "
                "Checkmating black wins (+1); a draw (stalemate, insufficient material, "
                "the 75-move rule, fivefold repetition) scores 0; being checkmated loses (-1). "
                f"You have {BUDGET} moves.")


SPECS = (
    TaskSpec(name="ChessGame", entry_point=ChessGame, max_episode_steps=BUDGET,
             tags=("board-game", "adversarial", "planning")),
)
