"""Kalah (mancala, six pits a side): win a late position against a built-in opponent."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.games._board import DRAW, LOSS_VALUE, ME, OPPONENT_TEXT, THEM, BoardGameEnv
from gymv_envs.domains.games._kalah_rules import (
    FIRST,
    PITS,
    ROW,
    STORE,
    forced_win,
    pack,
    random_walk,
    sow,
    sow_packed,
    sown,
)
from gymv_envs.domains.games._kalah_view import KalahView

LEVELS = {0: (3, 8), 1: (4, 12), 2: (4, 12)}       # difficulty -> (seeds per pit, most seeds left in the pits at the start)


class Kalah(KalahView, BoardGameEnv):
    """Win a game of Kalah (mancala) from a late position against a built-in opponent.

    ## Description
    The board has two rows of six pits and a store at each end; the numbers are the seeds each holds.
    The bottom row (pits A-F, left to right) and the right store are yours, the top row (pits a-f, from
    right to left) and the left store the opponent's. A move picks up all seeds of one of your non-empty
    pits and sows them one by one counter-clockwise (right along your row, into your store, left along
    the opponent's row), skipping the opponent's store. If the last seed lands in your store you move
    again; if it lands in an empty pit of yours and the opposite pit holds seeds, both go to your store.
    When one side's pits are all empty the game ends and the seeds left go to their row's owner. More
    seeds in your store wins; the game is decided (and ends) as soon as a store holds more than half of
    all seeds, since seeds never leave a store. The opponent's replies are played within your step.

    ## Action Space
    `Discrete(6)`: the pit to sow, ``A``-``F`` (left to right along the bottom row). An empty pit is
    invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with the seed count in every pit and store, pit letters
    below and above the rows, the pits and stores changed by the last step highlighted.

    ## Rewards
    +1 for a win, 0 for a draw, -1 for a loss, given when the game ends (``max_return`` 1).

    ## Starting State
    A random game from 3 (difficulty 0) or 4 seeds per pit, played from the seed until at most 8 (difficulty
    0) or 12 seeds are left in the pits, you to move, kept only when you can force a win in exactly 1
    (difficulty 0), 2 or 3 of your own moves against any reply (verified by an AND-OR search). At
    difficulty 0 some move does not win at once; above it at most a third of your moves keep the forced
    win and every other move lets the opponent force a win within 3 of its moves (the search mirrored).

    ## Episode End
    Terminates when the game is decided; success is a win for you.

    ## Arguments
    ``difficulty``: 0 (3 seeds per pit, win in 1, random opponent), 1 (4 seeds, win in 2, greedy
    opponent), 2 (4 seeds, win in 3, 4-ply alpha-beta opponent); ``obs_size``. The registered id
    defaults to difficulty 2.

    ## Version History
    - v0: initial version. The registered id defaults to difficulty 2: random play won 100% of the
      difficulty-0 games, 25% at difficulty 1, 0% at difficulty 2 (20 seeds each).
    """

    action_names = tuple("ABCDEF")
    action_aliases = tuple((f"pit {c}", i) for i, c in enumerate("ABCDEF"))
    search_depth = 4
    max_tries = 20_000

    def _configure(self) -> None:
        super()._configure()
        self.seeds, self.left = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        """The base's, with the generator's draws replayed at Python speed (`ScalarDraws`: the same values and
        the same state after): a level draws about 45,000 pit choices."""
        if not isinstance(rng.bit_generator, np.random.PCG64):
            return super()._generate(rng)
        with ScalarDraws(rng) as draws:
            super()._generate(draws)

    def random_start(self, rng: np.random.Generator | ScalarDraws):
        """Random moves from the standard start until at most a random ``stop`` seeds are left in the pits."""
        stop = int(rng.integers(self.left // 2, self.left + 1))
        board, p, _ = self.standard_start()
        return random_walk(board, p, stop, rng.integers)

    def start_ok(self, s) -> bool:
        """Whether a candidate start (the agent to move) fits the difficulty (see Starting State): no forced win
        in fewer than ``target`` moves, one in ``target``, and at difficulty 0 a move that does not win at once,
        above it at most a third of the moves keeping the win and every other one losing within 3. Tested in the
        order that rejects soonest (a win in ``target``, the share of winning moves, a faster win, the losses)."""
        if s[2] is not None:
            return False
        board, t, memo = s[0], self.target, self._memo_table()
        x, total = pack(board), sum(board)
        kids = [sow_packed(x, ME, pit, total) for pit in ROW[ME] if board[pit]]

        def won(kid, side: int, k: int) -> bool:   # `wins` / `loses` of the state after a move
            y, q, r = kid
            return r == side if r is not None else forced_win(y, q, side, k, memo, total)

        win = [won(kid, ME, t - 1) for kid in kids]
        if not any(win):
            return False
        if t == 1:
            return len(kids) > 1 and not all(win)
        if 3 * win.count(False) < 2 * len(kids):
            return False
        if any(won(kid, ME, t - 2) for kid, w in zip(kids, win) if w):   # a move failing in t - 1 fails in t - 2
            return False
        return all(won(kid, THEM, 3) for kid, w in zip(kids, win) if not w)

    def wins(self, s, k: int) -> bool:
        """The base's AND-OR search, on packed boards with a memo shared by every depth (`forced_win`)."""
        return s[2] == ME if s[2] is not None else forced_win(pack(s[0]), s[1], ME, k, self._memo_table(), sum(s[0]))

    def loses(self, s, k: int) -> bool:
        """Whether the opponent can force a win from ``s`` within ``k`` of its own moves (the AND-OR search mirrored)."""
        return s[2] == THEM if s[2] is not None else forced_win(pack(s[0]), s[1], THEM, k, self._memo_table(), sum(s[0]))

    def standard_start(self):
        """Every pit holds the difficulty's seeds, both stores empty, the bottom player (you) to move."""
        row = (self.seeds,) * PITS
        return (*row, 0, *row, 0), ME, None

    # -- rules: moves 0-5 are the bottom player's pits A-F, 6-11 the top player's a-f
    def legal(self, s) -> list[int]:
        if s[2] is not None:
            return []
        b, off = s[0], 0 if s[1] == ME else PITS
        return [m + off for m in range(PITS) if b[FIRST[s[1]] + m]]

    def play(self, s, a: int):
        p = s[1]
        return sow(s[0], p, FIRST[p] + a % PITS)

    def result(self, s):
        return s[2]

    def heuristic(self, s) -> float:
        return float(s[0][STORE[ME]] - s[0][STORE[THEM]])

    def minimax(self, s, depth: int, alpha: float, beta: float) -> float:
        """The base's alpha-beta over `legal` moves with `heuristic` at the leaves, written for Kalah's
        states (no method calls per node): the same values."""
        r = s[2]
        if r is not None:
            return 0.0 if r == DRAW else (LOSS_VALUE + depth) * (1 if r == ME else -1)
        b = s[0]
        if depth == 0:
            return float(b[PITS] - b[2 * PITS + 1])
        p = s[1]
        first = FIRST[p]
        minimax = self.minimax
        if p == ME:
            best = -np.inf
            for pit in range(first, first + PITS):
                if b[pit]:
                    v = minimax(sown(b, p, pit), depth - 1, alpha, beta)
                    best, alpha = max(best, v), max(alpha, v)
                    if alpha >= beta:
                        break
        else:
            best = np.inf
            for pit in range(first, first + PITS):
                if b[pit]:
                    v = minimax(sown(b, p, pit), depth - 1, alpha, beta)
                    best, beta = min(best, v), min(beta, v)
                    if alpha >= beta:
                        break
        return best

    def move_of(self, player: int, a: int) -> int:
        return a + (PITS if player == THEM else 0)

    def action_of(self, move: int) -> int:
        return move % PITS

    def move_name(self, a: int) -> str:
        return "ABCDEFabcdef"[a]

    def describe_invalid(self, s, a: int) -> str:
        return f"pit {self.action_names[a]} is empty; sow a pit that holds seeds"

    # -- draw (the board in KalahView)
    def _task_text(self) -> str:
        return ("You play Kalah (mancala) against an opponent. The numbers are the seeds in each pit and store. Your pits "
                "are the bottom row, A to F from left to right, and your store is the big pit on the right; the opponent "
                "owns the top row (a to f from right to left) and the store on the left. A move names one of your "
                "non-empty pits (like C): take all its seeds and sow them one per pit counter-clockwise (rightwards "
                "along your row, into your store, leftwards along the top row), skipping the opponent's store. If the "
                "last seed lands in your store you move again; if it lands in an empty pit of yours whose opposite pit "
                "holds seeds, both go to your store. When one row is empty the game ends and each row's seeds go to its "
                "owner's store; more seeds wins (+1), equal is a draw (0), fewer loses (-1); a store holding more than "
                "half of all seeds decides the game at once. The opponent answers at once (it "
                f"{OPPONENT_TEXT[self.opponent]}). It is your turn and you can force a win.")

    def _state_text(self) -> str:
        b = self.state[0]
        top = " ".join(f"{c}={b[FIRST[THEM] + PITS - 1 - k]}" for k, c in enumerate("fedcba"))
        bottom = " ".join(f"{c}={b[k]}" for k, c in enumerate("ABCDEF"))
        return f"opponent store {b[STORE[THEM]]} | {top}\nyour pits | {bottom} | your store {b[STORE[ME]]}"


SPECS = (
    TaskSpec(name="Kalah", entry_point=Kalah, max_episode_steps=30,
             tags=("board-game", "adversarial", "planning"), kwargs={"difficulty": 2}),
)
