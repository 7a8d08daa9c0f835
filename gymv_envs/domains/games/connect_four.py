"""Connect Four: force a win from a mid-game position against a built-in opponent."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import PALETTE, disc, new_frame
from gymv_envs.core.cells import LETTERS
from gymv_envs.domains.games._board import (
    LOSS_VALUE,
    ME,
    OPPONENT_TEXT,
    THEM,
    BoardGameEnv,
    grid_text,
)
from gymv_envs.rules.connect_four import COLS, ROWS, WINDOWS, landing_row, wins_at

PLIES = {0: (6, 16), 1: (8, 20), 2: (10, 24)}   # difficulty -> range of random opening plies
CELL_WINDOWS = tuple(tuple(k for k, w in enumerate(WINDOWS) if i in w) for i in range(ROWS * COLS))  # windows through each cell
WEIGHT = (0, 1, 8)   # a cell's share of its window's sum: red counts in the low 3 bits, yellow above
SCORE = tuple(0 if x & 7 and x >> 3 else (x & 7) ** 2 - (x >> 3) ** 2 for x in range(40))   # `heuristic` of a window
YELLOW_GAIN = tuple(SCORE[x + 8] - SCORE[x] if x < 32 else 0 for x in range(40))   # its change when yellow fills an empty cell
BOARD_C, HOLE_C, LIT_C = (40, 80, 170), (250, 250, 250), (255, 236, 150)
DISC_C = {ME: PALETTE["red"], THEM: PALETTE["yellow"]}


class ConnectFour(BoardGameEnv):
    """Play red and win a Connect Four game from a position where a forced win exists.

    ## Description
    A 7-column, 6-row Connect Four board is shown mid-game with red discs (yours) and yellow
    discs (the opponent's). Columns are labelled A-G; rows 1-6 count from the bottom. It is your
    turn and red can force a win. A disc dropped in a column falls to the lowest empty hole;
    the opponent answers within the same step. Four in a row (across, down or diagonal) wins.

    ## Action Space
    `Discrete(7)`: the column to drop a disc into, named ``A`` .. ``G``. Dropping into a full
    column is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with column and row labels; the last discs
    played are highlighted.

    ## Rewards
    +1 for a win, 0 for a draw, -1 for a loss, given when the game ends (``max_return`` 1).

    ## Starting State
    A random opening of 6-24 plies drawn from the seed, kept only when red, to move, can
    force a win in exactly 1 (difficulty 0), 2 (difficulty 1) or 3 (difficulty 2) of its own
    moves against any reply (verified by an AND-OR search).

    ## Episode End
    Terminates on four in a row or a full board; success is a win for red.

    ## Arguments
    ``difficulty``: 0 (win in 1, random opponent), 1 (win in 2, greedy opponent), 2 (win in 3, 3-ply
    alpha-beta opponent); ``obs_size``. The registered id defaults to difficulty 1.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's action-space
      seeding (a seeded random policy no longer replays the level's draws). The registered id defaults
      to difficulty 1: random play won 50% of the difficulty-0 games (a win in one against a random
      opponent), 5% at difficulty 1.
    """

    action_names = tuple(LETTERS[:COLS])
    action_aliases = tuple((f"column {LETTERS[c]}", c) for c in range(COLS))
    board_shape = (ROWS, COLS)
    grid_line = BOARD_C
    search_depth = 3

    # -- generate
    def random_start(self, rng: np.random.Generator):
        lo, hi = PLIES[self.difficulty]
        s = self.standard_start()
        for _ in range(2 * int(rng.integers(lo // 2, hi // 2 + 1))):
            if self.result(s) is not None:
                break
            moves = self.legal(s)
            s = self.play(s, moves[int(rng.integers(len(moves)))])
        return s

    def standard_start(self):
        """The empty board, red to move."""
        return (0,) * (ROWS * COLS), ME, None

    # -- rules
    def legal(self, s) -> list[int]:
        return [c for c in range(COLS) if s[0][c] == 0]

    def play(self, s, a: int):
        board, p = s[0], s[1]
        i = landing_row(board, a) * COLS + a
        b = board[:i] + (p,) + board[i + 1:]
        if wins_at(b, i):
            return b, 3 - p, p
        return b, 3 - p, (0 if 0 not in b[:COLS] else None)

    def result(self, s):
        return s[2]

    def heuristic(self, s) -> float:
        b, v = s[0], 0.0
        for w in WINDOWS:
            mine = theirs = 0
            for i in w:
                if b[i] == ME:
                    mine += 1
                elif b[i] == THEM:
                    theirs += 1
            if not theirs:
                v += mine * mine
            elif not mine:
                v -= theirs * theirs
        return v

    def _greedy_reply(self, s, order: list[int]) -> int:
        """The base's greedy reply from one pass over the windows: each window's cells summed with red 1
        and yellow 8 give its (red, yellow) counts, so a reply's heuristic is the board's plus the
        change in the windows through its disc, and a four is a window summing to 3 (red) or 24
        (yellow) through an empty cell. The same values as a heuristic and a win search per reply,
        so the same move."""
        moves = self.legal(s)  # (Connect Four's candidates are its legal moves)
        b = s[0]
        v = [WEIGHT[x] for x in b]
        sums = [v[i] + v[j] + v[k] + v[m] for i, j, k, m in WINDOWS]
        h = sum(SCORE[x] for x in sums)
        land = {c: landing_row(b, c) * COLS + c for c in moves}
        red_wins = [c for c in moves if any(sums[k] == 3 for k in CELL_WINDOWS[land[c]])]
        best, best_v = order[0], np.inf
        for a in order:
            i = land[a]
            near = CELL_WINDOWS[i]
            if any(sums[k] == 24 for k in near):
                return a   # yellow's four
            # red wins next in another column, or on top of this disc (a window through i holds no red four)
            threat = any(c != a for c in red_wins) or (i >= COLS and any(sums[k] == 3 for k in CELL_WINDOWS[i - COLS]))
            val = float(h + sum(YELLOW_GAIN[sums[k]] for k in near)) + (LOSS_VALUE if threat else 0.0)
            if val < best_v:
                best, best_v = a, val
        return best

    def describe_invalid(self, s, a: int) -> str:
        return f"column {LETTERS[a]} is full; choose a column with an empty hole"

    # -- draw
    def cell_keys(self, s):
        b, lit = s[0], self._lit()
        return [[(b[r * COLS + c], r * COLS + c in lit) for c in range(COLS)] for r in range(ROWS)]

    def _lit(self) -> set[int]:
        """Board indices of the discs dropped in the last step."""
        before, now = self.before[0], self.state[0]
        return {i for i in range(ROWS * COLS) if before[i] != now[i]}

    def _tile(self, key, h: int, w: int) -> np.ndarray:
        piece, lit = key
        tile = new_frame(h, w, LIT_C if lit else BOARD_C)
        return disc(tile, DISC_C[piece] if piece else HOLE_C, 0.8)

    def _task_text(self) -> str:
        return ("You play Connect Four as red against yellow on the 7-column, 6-row board shown. Columns are "
                "labelled A to G from left to right and rows 1 to 6 from bottom to top. Each turn you drop one "
                "disc into a column that is not full; it falls to the lowest empty hole. The opponent then "
                f"answers at once (it {OPPONENT_TEXT[self.opponent]}). Four of your discs in a row (across, "
                "down or diagonal) win (+1); a full board is a draw (0); four yellow discs lose (-1). It is your "
                "turn and red can force a win.")

    def _state_text(self) -> str:
        return grid_text(self.state[0], ROWS, COLS, {0: ".", ME: "R", THEM: "Y"})


SPECS = (
    TaskSpec(name="ConnectFour", entry_point=ConnectFour, version=1, max_episode_steps=30,
             tags=("board-game", "adversarial", "planning"), kwargs={"difficulty": 1}),
)
