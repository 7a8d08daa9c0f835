"""How the two-player adapter reads each game: seats, legal actions, moves, results, frames and the
built-in opponent, all through the single-player env's own rules and drawing (no rules are copied).

`Rules` is the seat-level view of one game, built on an unwrapped single-player env. A state is the
game's own (immutable) state; seat 0 is the side the single-player env plays (its ``ME``), seat 1 the
side of its built-in opponent. `TEXTS` holds what a player is told: the colours and the rules for
either seat (the single-player instructions speak to one side against a built-in opponent).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

DRAW = "draw"


class GameText(NamedTuple):
    title: str
    colours: tuple[str, str]   # seat 0, seat 1, as the frame shows them
    rules: str                 # both sides' rules; {0} and {1} stand for the colours
    grammar: str               # how a move is named
    scene: str = "the board"   # what the image shows


TEXTS: dict[str, GameText] = {
    "TicTacToe": GameText("tic-tac-toe", ("X (blue)", "O (red)"),
        "Players mark one empty cell per turn; X moves first. Three marks of one player in a row, column or "
        "diagonal win; a full board without one is a draw.",
        "the cell to mark: column letter A-C (left to right) then row number 1-3 (top to bottom), like B2"),
    "ConnectFour": GameText("Connect Four", ("red", "yellow"),
        "Players drop one disc per turn into a column that is not full; it falls to the lowest empty hole. "
        "Red moves first. Four discs of one colour in a row (across, down or diagonal) win; a full board is a draw.",
        "the column letter A-G (left to right), like D"),
    "Nim": GameText("Nim", ("the first player", "the second player"),
        "The heaps are the rows of orange counters, lettered from the top; the numbers above count counters. "
        "On a turn take one or more counters from a single heap. Whoever takes the last counter wins.",
        "`take N from H`, like `take 2 from B`"),
    "DotsAndBoxes": GameText("Dots and Boxes", ("blue", "red"),
        "Players draw one undrawn line between two neighbouring dots per turn; blue moves first. Completing the "
        "fourth side of a box claims it (it is shaded in your colour) and the same player moves again. When every "
        "line is drawn, more boxes wins; equal is a draw. The score is shown at the top.",
        "a line by its two dots (column letter, row number from the bottom), like A1-B1 or A1-A2"),
    "Othello": GameText("Othello", ("black", "white"),
        "Black moves first. A move places a disc on an empty square so that one or more straight lines of the "
        "other colour lie between it and another disc of yours; those discs turn over. A player with no legal "
        "move passes automatically. When neither can move, more discs wins; equal is a draw.",
        "a square: column letter (left to right) then row number (bottom to top), like D3"),
    "Hex": GameText("Hex", ("red", "blue"),
        "The board is a rhombus of hexagonal cells; each row is shifted half a cell right of the one above. "
        "Red moves first and joins the top and bottom edges (coloured red); blue joins the left and right edges. "
        "Players place one stone on an empty cell per turn; the first to join its edges wins (no draws).",
        "a cell: column letter (along the top) then row number (top to bottom), like C2"),
    "AtariGo": GameText("Atari Go (first-capture Go)", ("black", "white"),
        "Black moves first. Players place one stone on an empty point per turn. Stones joined along the lines "
        "form a group; a group whose neighbouring points are all taken by the other colour is captured. "
        "Suicide is illegal. Whoever captures first wins; a player with no legal point loses.",
        "a point: column letter (left to right) then row number (bottom to top), like C3"),
    "Go": GameText("Go", ("black", "white"),
        "Black moves first. Each turn place a stone on an empty point or pass. A group with no empty neighbouring "
        "point is captured; suicide is illegal; simple ko. The game ends after two passes in a row or the move "
        "cap. Area scoring: stones plus empty regions bordered only by one colour; white adds 7.5 komi. "
        "Stones are not declared dead: capture them before the count.",
        "a point: column letter (left to right, no I) then row number (bottom to top), like D4, or `pass`"),
    "Gomoku": GameText("Gomoku", ("black", "white"),
        "Black moves first. Players place one stone on an empty point per turn; five or more stones of one colour "
        "in an unbroken line (across, down or diagonal) win; a full board is a draw.",
        "a point: column letter (left to right) then row number (bottom to top), like E5"),
    "Breakthrough": GameText("Breakthrough", ("white", "black"),
        "White moves up and moves first, black moves down. A piece moves one square forward: straight ahead onto "
        "an empty square, or diagonally forward onto an empty square or an enemy piece, which is captured. "
        "Reaching the far row or capturing every enemy piece wins; a player with no legal move loses.",
        "the piece's square then its target square, like B2-C3 (column letter, row number from the bottom)"),
    "Checkers": GameText("checkers", ("red", "white"),
        "Red men move up and move first, white men move down; kings (gold centre) move both ways. A piece steps "
        "diagonally to an empty square, or jumps an adjacent enemy piece onto the empty square behind it, "
        "capturing it. Capturing is compulsory, and after a jump the same piece keeps jumping while it can (one "
        "jump per move; the same player moves again). A man reaching the far row becomes a king. A side with no "
        "piece or no legal move loses.",
        "the from- and to-squares (column letter, row number from the bottom), like C3-D4 or C3-E5"),
    "WildTicTacToe": GameText("wild tic-tac-toe", ("the first player", "the second player"),
        "The marks belong to nobody: each turn a player writes either an X or an O in one empty cell; the first "
        "player moves first. Whoever completes a line of three equal marks (XXX or OOO in a row, column or "
        "diagonal) wins; a full board without one is a draw.",
        "the mark then the cell (column letter A-C left to right, row number 1-3 bottom to top), like X B2"),
    "Alquerque": GameText("Alquerque", ("black", "white"),
        "Pieces stand on the points of a 5x5 board of lines (across, down, and diagonals through the points drawn "
        "with them). Black moves up and moves first, white moves down. A piece steps along a line to the "
        "neighbouring empty point, forward, sideways or diagonally forward (never backward), or captures by jumping "
        "along a line, in any direction, over a neighbouring enemy piece onto the empty point just beyond. "
        "Capturing is compulsory, and after a capture the same piece keeps jumping while it can (one jump per "
        "move; the same player moves again). A side with no piece or no legal move loses.",
        "the from- and to-points (column letter, row number from the bottom), like C2-C3 or C2-C4"),
    "Kalah": GameText("Kalah (mancala)", ("the bottom player", "the top player"),
        "Two rows of six pits with a store at each end; the numbers count seeds. The bottom row (pits A-F left to "
        "right) and the right store belong to the bottom player, who moves first; the top row (pits a-f right to "
        "left) and the left store to the top player. A move takes all seeds of one of your non-empty pits and sows "
        "them one per pit counter-clockwise, skipping the other player's store. The last seed in your store gives "
        "you another move; the last seed in an empty pit of yours with seeds opposite captures both into your "
        "store. When one row is empty each row's seeds go to its owner's store; more seeds wins, equal is a draw "
        "(a store holding more than half of all seeds decides the game at once).",
        "the letter of one of your pits: A-F for the bottom player, a-f for the top player, like C"),
    "LinesOfAction": GameText("Lines of Action", ("black", "white"),
        "Black starts on the top and bottom rows, white on the left and right columns; black moves first. A piece "
        "moves in a straight line (across, down or diagonally) exactly as many squares as there are pieces of both "
        "colours on that whole line, counting itself; it may jump over its own pieces but not over enemy pieces, "
        "and may land on an empty square or capture an enemy piece by landing on it. A player whose pieces all "
        "form one group (touching across, down or diagonally) wins, the mover when a move connects both sides; a "
        "player with no legal move loses.",
        "the from- and to-squares (column letter, row number from the bottom), like B1-B3"),
    "UltimateTicTacToe": GameText("ultimate tic-tac-toe", ("X (blue)", "O (red)"),
        "Nine small 3x3 boards form a 3x3 big board; X moves first, anywhere. A move in a cell of a small board "
        "sends the other player to the small board at the same position of the big board; if that board is won "
        "or full, the other player may play in any open board (the boards the player to move may use are tinted "
        "yellow when it is X's turn). Three marks in a row win a small board; three won boards in a row win the "
        "game; no open board left is a draw.",
        "the cell: column letter A-I (left to right) then row number 1-9 (bottom to top), like E5"),
    "Tak": GameText("Tak (no capstones)", ("black", "white"),
        "Black moves first; the opening rule (first stones are the opponent's) is not used. A turn places a stone "
        "from your reserve on an empty square, flat or standing as a wall, or moves a stack with your stone on top: "
        "pick up at most board-size stones from its top, move in a straight line and drop at least one stone, "
        "bottom first, on each square passed, never onto a wall. A chain of your flat tops joined across or down "
        "linking opposite edges is a road and wins at once (the mover wins when both appear). When the board is "
        "full or a reserve is empty, more flat tops wins; equal is a draw.",
        "Portable Tak Notation: a1 (a flat), Sa1 (a wall), a1> or 3c2<12 (stones carried, square, direction + - > <, "
        "drops); columns a-d left to right, rows 1-4 bottom to top"),
    "Chess": GameText("chess", ("white", "black"),
        "Standard chess rules; white is at the bottom and moves first; a pawn reaching the last rank becomes a "
        "queen. Checkmate wins; stalemate, insufficient material and the 75-move rule draw.",
        "the from-square then the to-square in UCI form, like e2e4 (files a-h left to right, ranks 1-8 bottom to top)"),
}
TEXTS["ChessGame"] = TEXTS["Chess"]   # the whole game from the initial position: the same rules and grammar


class Rules:
    """The two-player view of a `BoardGameEnv` (see the module docstring)."""

    def __init__(self, env: Any) -> None:
        from gymv_envs.domains.games._board import ME

        self.env, self.me = env, ME
        self.n = len(env.action_names)
        self.names = tuple(tuple(env.move_name(env.move_of(p, a)) for a in range(self.n)) for p in (ME, 3 - ME))

    # starts
    def standard(self) -> Any:
        return self.env.standard_start()

    def level(self, seed: int) -> Any:
        self.env.reset(seed=seed)
        return self.env.state

    def prepare(self, s: Any, rng: np.random.Generator) -> None:
        """Point the env at a new game from ``s``; ``rng`` drives its built-in opponent."""
        env = self.env
        env._np_random = rng
        env._memo = {}
        env.state = env.start = env.before = s
        env.moves, env.last = 0, ()

    # rules
    def seat(self, s: Any) -> int:
        return 0 if self.env.mover(s) == self.me else 1

    def legal(self, s: Any) -> list[int]:
        return sorted(self.env.action_of(m) for m in self.env.legal(s))

    def play(self, s: Any, a: int) -> Any:
        return self.env.play(s, self.env.move_of(self.env.mover(s), a))

    def winner(self, s: Any) -> int | str | None:
        """None while the game goes on, else the winning seat or `DRAW`."""
        r = self.env.result(s)
        return None if r is None else DRAW if r == 0 else 0 if r == self.me else 1

    # frames and the built-in opponent
    def frame(self, s: Any, before: Any, last: tuple[int, ...]) -> np.ndarray:
        env = self.env
        env.state, env.before = s, before   # the cells changed since ``before`` are lit
        env.last = tuple(env.move_of(env.mover(before), a) for a in last)   # Chess lights its last move instead
        return np.array(env._draw(), dtype=np.uint8, copy=True)

    def opponent(self, s: Any) -> int:
        self.env.state = s
        return self.env.action_of(self.env._opponent_move())


class GoRules(Rules):
    """Go keeps its own position tuple and rules module (`gymv_envs.rules.go`)."""

    def __init__(self, env: Any) -> None:
        from gymv_envs.rules import go

        self.env, self.go, self.me = env, go, go.BLACK
        self.n = len(env.action_names)
        self.names = (tuple(env.action_names),) * 2

    def level(self, seed: int) -> Any:
        self.env.reset(seed=seed)
        return self.env.state

    def prepare(self, s: Any, rng: np.random.Generator) -> None:
        env = self.env
        env._np_random = rng
        env.state = env.before = s
        env.captures = [0, 0]

    def seat(self, s: Any) -> int:
        return 0 if s[2] == self.me else 1

    def legal(self, s: Any) -> list[int]:
        if self.go.over(s, self.env.cap):
            return []
        return [*self.go.moves(s, self.env.geo), self.n - 1]

    def play(self, s: Any, a: int) -> Any:
        return self.go.play(s, a, self.env.geo)

    def winner(self, s: Any) -> int | None:
        if not self.go.over(s, self.env.cap):
            return None
        return 0 if self.go.margin(s, self.env.geo) > 0 else 1   # komi 7.5: no draws

    def frame(self, s: Any, before: Any, last: tuple[int, ...]) -> np.ndarray:
        self.env.state, self.env.before = s, before
        return np.array(self.env._draw(), dtype=np.uint8, copy=True)

    def opponent(self, s: Any) -> int:
        env = self.env
        return int(self.go.OPPONENTS[env.opponent](s, env.geo, env.np_random, env.cap))


class TicTacToeRules(Rules):
    """Tic-tac-toe keeps its board in ``env.board`` and its rules in `gymv_envs.rules.tic_tac_toe`."""

    def __init__(self, env: Any) -> None:
        from gymv_envs.rules import tic_tac_toe

        self.env, self.ttt, self.me = env, tic_tac_toe, tic_tac_toe.CROSS
        self.n = len(env.action_names)
        self.names = (tuple(env.action_names),) * 2

    def level(self, seed: int) -> Any:
        self.env.reset(seed=seed)
        return self.env.board

    def prepare(self, s: Any, rng: np.random.Generator) -> None:
        self.env._np_random = rng
        self.env.board = self.env.start = s
        self.env.moves = 0

    def seat(self, s: Any) -> int:
        return 0 if self.ttt.to_move(s) == self.me else 1

    def legal(self, s: Any) -> list[int]:
        return [] if self.winner(s) is not None else [i for i in range(9) if not s[i]]

    def play(self, s: Any, a: int) -> Any:
        return self.ttt.play(s, a)

    def winner(self, s: Any) -> int | str | None:
        w = self.ttt.winner(s)
        if w:
            return 0 if w == self.me else 1
        return DRAW if self.ttt.EMPTY not in s else None

    def frame(self, s: Any, before: Any, last: tuple[int, ...]) -> np.ndarray:
        self.env.board = s
        return np.array(self.env._draw(), dtype=np.uint8, copy=True)

    def opponent(self, s: Any) -> int:
        self.env.board = s
        return int(self.env._opponent_move())


def all_texts() -> dict[str, GameText]:
    """`TEXTS` and the card games' texts (`gymv_envs.multiagent._cards.CARD_TEXTS`), by class name."""
    from gymv_envs.multiagent._cards import CARD_TEXTS

    return {**TEXTS, **CARD_TEXTS}


def rules_for(env: Any) -> Any:
    """The `Rules` of an unwrapped single-player game env (`CardRules` for a card game)."""
    from gymv_envs.multiagent._cards import CARD_TEXTS, CardRules

    name = type(env).__name__
    if name in CARD_TEXTS:
        return CardRules(env)
    if name == "Go":
        return GoRules(env)
    if name == "TicTacToe":
        return TicTacToeRules(env)
    return Rules(env)
