"""Gomoku: make five in a row against a built-in opponent."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.bits import set_bits
from gymv_envs.core.cells import LETTERS
from gymv_envs.core.rng import choice
from gymv_envs.domains.games._board import (
    DRAW,
    LOSS_VALUE,
    ME,
    OPPONENT_TEXT,
    THEM,
    BoardGameEnv,
    IntersectionBoard,
    grid_text,
    square_cell_names,
)
from gymv_envs.rules.lines import line_windows, makes_line

LEVELS = {0: (9, 16), 1: (11, 14), 2: (13, 20)}   # difficulty -> (board side, random opening plies)


@functools.cache
def windows(n: int) -> np.ndarray:
    """Every line of five cells on an n x n board, as an (m, 5) index array."""
    return np.array(line_windows(n, n, 5), dtype=np.int64)


@functools.cache
def neighbours(n: int) -> tuple[int, ...]:
    """Per point of an n x n board, the bit mask of its (up to eight) neighbours."""
    return tuple(sum(1 << (rr * n + cc) for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                     if (rr, cc) != (r, c) and 0 <= rr < n and 0 <= cc < n) for r, c in (divmod(i, n) for i in range(n * n)))


def white_replies(board: tuple[int, ...], n: int) -> tuple[int, dict[int, int], set[int], set[int]]:
    """What the greedy opponent weighs for each white reply, from one pass over the five-windows:
    the heuristic of ``board`` (an int), the change a white stone on each point makes to it, the
    points where white makes five, and the points where black makes five. A white stone on ``a``
    leaves black a five exactly when a black point other than ``a`` exists (those windows hold ``a``
    only as their empty point)."""
    win = windows(n)
    w = np.asarray(board, dtype=np.int8)[win]
    mine, theirs, empty = (w == ME).sum(1), (w == THEM).sum(1), w == 0
    p4 = 4 ** np.arange(6, dtype=np.int64)
    now = np.where(theirs == 0, p4[mine], 0) - np.where(mine == 0, p4[theirs], 0)
    after = -np.where(mine == 0, p4[np.minimum(theirs + 1, 5)], 0)   # theirs + 1: a white stone joins the window
    delta = np.bincount(win[empty], weights=np.repeat(after - now, 5)[empty.ravel()], minlength=n * n)
    five_me = set(win[(mine == 4) & (theirs == 0)][empty[(mine == 4) & (theirs == 0)]].tolist())
    five_them = set(win[(theirs == 4) & (mine == 0)][empty[(theirs == 4) & (mine == 0)]].tolist())
    return int(now.sum()), dict(enumerate(delta.astype(np.int64).tolist())), five_them, five_me


def completing(board: tuple[int, ...], p: int, n: int, have: int) -> list[int]:
    """Empty cells lying in a five-window that holds ``have`` stones of ``p`` and no others."""
    w = np.asarray(board, dtype=np.int8)[windows(n)]
    own, empty = (w == p).sum(1), (w == 0).sum(1)
    hit = windows(n)[(own == have) & (empty == 5 - have)]
    cells = hit[w[(own == have) & (empty == 5 - have)] == 0]
    return sorted(set(cells.tolist()))


class Gomoku(IntersectionBoard, BoardGameEnv):
    """Play black and make five in a row against white.

    ## Description
    A Go-style board is shown mid-game with black stones (yours) and white stones (the
    opponent's). Columns are labelled A, B, ... and rows 1, 2, ... from the bottom. Players
    take turns placing one stone on an empty point; five or more stones of one colour in an
    unbroken line (across, down or diagonal) win. The opponent answers within the same step.

    ## Action Space
    `Discrete(side * side)`: the point to play, named like ``E5``. Playing an occupied point
    is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with labels; the stones of the last step sit
    on lighter squares.

    ## Rewards
    +1 for a win, 0 for a draw (full board), -1 for a loss (``max_return`` 1).

    ## Starting State
    A random opening of clustered stones drawn from the seed with black to move, kept only
    when black can force five by a sequence of fours (each answered by a forced block) in
    exactly 1 (difficulty 0), 2 or 3 of its own moves and has no shorter such win.

    ## Episode End
    Terminates on five in a row or a full board; success is a black win.

    ## Arguments
    ``difficulty``: 0 (9x9, random opponent), 1 (11x11, greedy opponent), 2 (13x13, 2-ply alpha-beta
    opponent); ``obs_size``. The registered id defaults to difficulty 1.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's action-space
      seeding (a seeded random policy no longer replays the level's draws). The registered id defaults
      to difficulty 1: random play won 45% of the difficulty-0 games (a win in one against a random
      opponent), none at difficulty 1.
    """

    def _configure(self) -> None:
        super()._configure()
        self.side, self.plies = LEVELS[self.difficulty]
        n = self.side
        self.board_shape = (n, n)
        self.action_names = square_cell_names(n)

    # -- generate
    def standard_start(self):
        """The empty board, black to move."""
        return (0,) * (self.side ** 2), ME, None

    def random_start(self, rng: np.random.Generator):
        n = self.side
        s = self.standard_start()
        s = self.play(s, (n // 2) * n + n // 2)
        for _ in range(self.plies - 1):
            if s[2] is not None:
                break
            s = self.play(s, choice(rng, self.candidate_moves(s)))
        return s

    # -- rules
    def legal(self, s) -> list[int]:
        return [i for i, v in enumerate(s[0]) if v == 0]

    def candidate_moves(self, s) -> list[int]:
        """Empty points next to a stone (all empty points on an empty board)."""
        nb, near, stones = neighbours(self.side), 0, 0
        for i, v in enumerate(s[0]):
            if v:
                near |= nb[i]
                stones |= 1 << i
        return set_bits(near & ~stones) or self.legal(s)

    def _greedy_reply(self, s, order: list[int]) -> int:
        """The base's greedy reply, each reply weighed from one pass over the windows (`white_replies`)
        instead of a heuristic and a five-search per reply: the same values, so the same move."""
        h, delta, five_them, five_me = white_replies(s[0], self.side)
        best, best_v = order[0], np.inf
        for a in order:
            if a in five_them:
                return a
            v = float(h + delta[a]) + (LOSS_VALUE if len(five_me - {a}) else 0.0)
            if v < best_v:
                best, best_v = a, v
        return best

    def play(self, s, a: int):
        n, p = self.side, s[1]
        b = s[0][:a] + (p,) + s[0][a + 1:]
        if makes_line(b, a, n, n, 5):
            return b, 3 - p, p
        return b, 3 - p, (DRAW if 0 not in b else None)

    def result(self, s):
        return s[2]

    def immediate_win(self, s) -> bool:
        return bool(completing(s[0], s[1], self.side, 4))

    def wins(self, s, k: int) -> bool:
        """Whether black forces five within ``k`` moves by continuous fours (sound, not complete)."""
        if s[2] is not None:
            return s[2] == ME
        if k <= 0:
            return False
        memo = self._memo_table()
        key = (s, k)
        if key in memo:
            return memo[key]
        n, b = self.side, s[0]
        if s[1] == ME:
            if completing(b, ME, n, 4):
                hit = True
            elif k == 1:
                hit = False
            else:
                block = completing(b, THEM, n, 4)
                cand = block if len(block) == 1 else [] if block else completing(b, ME, n, 3)
                hit = any(self.wins(self.play(s, a), k - 1) for a in cand)
        else:
            threat = completing(b, ME, n, 4)
            if completing(b, THEM, n, 4) or not threat:
                hit = False
            else:
                hit = len(threat) >= 2 or self.wins(self.play(s, threat[0]), k)
        memo[key] = hit
        return hit

    def attack_moves(self, s) -> list[int]:
        n, b = self.side, s[0]
        return completing(b, ME, n, 4) or completing(b, THEM, n, 4) or completing(b, ME, n, 3)

    def heuristic(self, s) -> float:
        w = np.asarray(s[0], dtype=np.int8)[windows(self.side)]
        mine, theirs = (w == ME).sum(1), (w == THEM).sum(1)
        return float((4.0 ** mine[theirs == 0]).sum() - (4.0 ** theirs[mine == 0]).sum())

    def describe_invalid(self, s, a: int) -> str:
        return f"{self.action_names[a]} is occupied; choose an empty point"

    # -- draw: IntersectionBoard
    def _task_text(self) -> str:
        n = self.side
        return (f"You play Gomoku as black against white on the {n}x{n} board shown. Columns are labelled A to "
                f"{LETTERS[n - 1]} from left to right and rows 1 to {n} from bottom to top; a point is named like E5. "
                "Each turn place one black stone on an empty point; the opponent then answers at once (it "
                f"{OPPONENT_TEXT[self.opponent]}). Five or more black stones in an unbroken line across, down or "
                "diagonally win (+1); five white stones lose (-1); a full board is a draw (0). It is your turn and "
                "black can force a win.")

    def _state_text(self) -> str:
        return grid_text(self.state[0], self.side, self.side, {0: ".", ME: "X", THEM: "O"})


SPECS = (
    TaskSpec(name="Gomoku", entry_point=Gomoku, version=1, max_episode_steps=40,
             tags=("board-game", "adversarial", "planning"), kwargs={"difficulty": 1}),
)
