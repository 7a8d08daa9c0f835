"""Othello (Reversi): win a solved endgame against a built-in opponent."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import disc, new_frame
from gymv_envs.core.cells import LETTERS
from gymv_envs.core.rng import choice
from gymv_envs.domains.games._board import (
    DRAW,
    ME,
    OPPONENT_TEXT,
    THEM,
    BoardGameEnv,
    grid_text,
    square_cell_names,
)
from gymv_envs.domains.games._othello_rules import flips, moves_of

LEVELS = {0: (6, 4), 1: (6, 8), 2: (8, 8)}   # difficulty -> (board side, empty squares at the start; even: black to move)
SOLVE_EMPTIES = 10   # the search opponent solves exactly from this many empty squares on
GREEN, LIT_C = (30, 120, 70), (90, 170, 90)
DISC_C = {ME: (25, 25, 30), THEM: (245, 245, 245)}
EDGE_C = {ME: (0, 0, 0), THEM: (150, 150, 150)}


class Othello(BoardGameEnv):
    """Play black in an Othello endgame and finish with more discs.

    ## Description
    An Othello board is shown near the end of a game with black discs (yours) and white discs
    (the opponent's). Columns are labelled A, B, ... and rows 1, 2, ... from the bottom. A move
    places a disc on an empty square so that it traps one or more straight lines of opposing
    discs between it and another of your discs; the trapped discs turn over. A player with no
    legal move passes (done for you automatically); the game ends when neither can move.

    ## Action Space
    `Discrete(side * side)`: the square to play, named like ``D3``. A square that flips
    nothing is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the green board with labels; squares changed by the last
    step are lighter.

    ## Rewards
    +1 for a win (more discs at the end), 0 for a tie, -1 for a loss (``max_return`` 1).

    ## Starting State
    A random game from the standard opening drawn from the seed, stopped with 4 (difficulty
    0) or 8 empty squares left and black to move, kept only when black wins with perfect
    play (solved exactly) and, above difficulty 0, at least half of the legal moves throw the win away.

    ## Episode End
    Terminates when neither player can move; success is a black win.

    ## Arguments
    ``difficulty``: 0 (6x6, random opponent), 1 (6x6, greedy opponent), 2 (8x8, an opponent
    that solves the endgame exactly and punishes any slip, else a 2-ply alpha-beta move);
    ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    memo_views = True

    def _generate(self, rng: np.random.Generator) -> None:
        self._tries = 0
        super()._generate(rng)

    def _configure(self) -> None:
        super()._configure()
        self.side, self.empties = LEVELS[self.difficulty]
        n = self.side
        self.board_shape = (n, n)
        self.target = self.empties
        self.action_names = square_cell_names(n)

    # -- generate
    def standard_start(self):
        """The four centre discs, black to move."""
        n, m = self.side, self.side // 2
        b = [0] * (n * n)
        b[(m - 1) * n + m - 1] = b[m * n + m] = THEM
        b[(m - 1) * n + m] = b[m * n + m - 1] = ME
        return tuple(b), ME, None

    def random_start(self, rng: np.random.Generator):
        self._tries = getattr(self, "_tries", 0) + 1
        if self._tries % 16 == 1:   # a fresh opening every 16 tries; the last plies are replayed at random
            s = self.standard_start()
            while s[2] is None and s[0].count(0) > self.empties + 6:
                s = self.play(s, choice(rng, self.legal(s)))
            self._opening = s
        s = self._opening
        while s[2] is None and s[0].count(0) > self.empties:
            s = self.play(s, choice(rng, self.legal(s)))
        return s

    def start_ok(self, s) -> bool:
        if not self.wins(s, 1):
            return False
        moves = self.legal(s)
        winning = sum(self.wins(self.play(s, a), 1) for a in moves)
        return self.difficulty == 0 or 2 * winning <= len(moves)

    # -- rules
    def legal(self, s) -> list[int]:
        return moves_of(s[0], s[1], self.side)

    def play(self, s, a: int):
        n, p = self.side, s[1]
        b = list(s[0])
        b[a] = p
        for j in flips(s[0], a, p, n):
            b[j] = p
        b = tuple(b)
        for q in (3 - p, p):
            if moves_of(b, q, n):
                return b, q, None
        mine, theirs = b.count(ME), b.count(THEM)
        return b, 3 - p, ME if mine > theirs else THEM if theirs > mine else DRAW

    def result(self, s):
        return s[2]

    def wins(self, s, k: int) -> bool:
        """Whether black wins from ``s`` with perfect play (an exact solve; ``k`` is not needed)."""
        if s[2] is not None:
            return s[2] == ME
        memo = self._memo_table()
        hit = memo.get(s)
        if hit is None:
            if s[1] == ME:
                hit = any(self.wins(self.play(s, a), k) for a in self.legal(s))
            else:
                hit = all(self.wins(self.play(s, a), k) for a in self.legal(s))
            memo[s] = hit
        return hit

    def _opponent_move(self) -> int:
        """Difficulty 2 solves the endgame (from `SOLVE_EMPTIES` empty squares on): it takes any reply after
        which black can no longer force a win; earlier in a game (two-player play) a 2-ply alpha-beta move."""
        if self.opponent == "search" and self.state[0].count(0) <= SOLVE_EMPTIES:
            for a in self.legal(self.state):
                if not self.wins(self.play(self.state, a), 1):
                    return a
        return super()._opponent_move()

    def heuristic(self, s) -> float:
        b, n = s[0], self.side
        corners = (0, n - 1, n * (n - 1), n * n - 1)
        return b.count(ME) - b.count(THEM) + 10 * sum((b[i] == ME) - (b[i] == THEM) for i in corners)

    def describe_invalid(self, s, a: int) -> str:
        if s[0][a]:
            return f"{self.action_names[a]} is occupied; choose an empty square"
        return f"{self.action_names[a]} flips no white disc; a move must trap at least one line of white discs"

    # -- verify
    def _progress(self) -> float:
        if self._success:
            return 1.0
        return 0.0 if self._terminated else 0.9 * (1 - self.state[0].count(0) / self.empties)

    # -- draw
    def cell_keys(self, s):
        n, b, prev = self.side, s[0], self.before[0]
        return [[(b[r * n + c], b[r * n + c] != prev[r * n + c]) for c in range(n)] for r in range(n)]

    def _tile(self, key, h: int, w: int) -> np.ndarray:
        piece, lit = key
        tile = new_frame(h, w, LIT_C if lit else GREEN)
        return disc(tile, DISC_C[piece], 0.8, edge=EDGE_C[piece]) if piece else tile

    def _task_text(self) -> str:
        n = self.side
        opp = "solves the endgame exactly" if self.opponent == "search" else OPPONENT_TEXT[self.opponent]
        return (f"You play Othello as black against white on the {n}x{n} board shown, near the end of the game. "
                f"Columns are labelled A to {LETTERS[n - 1]} from left to right and rows 1 to {n} from bottom to top; "
                "a square is named like D3. Each turn place a black disc on an empty square so that one or more "
                "straight lines (across, down or diagonal) of white discs lie between it and another black disc; "
                "those white discs turn black. A player with no legal move passes automatically. The opponent "
                f"answers at once (it {opp}). When neither side can move, more discs wins "
                "(+1), equal is a tie (0), fewer loses (-1). It is your turn and black can force a win.")

    def _state_text(self) -> str:
        return grid_text(self.state[0], self.side, self.side, {0: ".", ME: "B", THEM: "W"})


SPECS = (
    TaskSpec(name="Othello", entry_point=Othello, version=1, max_episode_steps=30,
             tags=("board-game", "adversarial", "planning")),
)
