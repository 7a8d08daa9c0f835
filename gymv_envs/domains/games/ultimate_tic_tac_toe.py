"""Ultimate tic-tac-toe: win a whole game of nine small boards against a built-in opponent."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import INK, PALETTE, WHITE, fill_rect, new_frame, pil_draw
from gymv_envs.domains.games._board import (
    ME,
    OPPONENT_TEXT,
    THEM,
    BoardGameEnv,
    draw_xo,
    square_cell_names,
)
from gymv_envs.domains.games._ultimate_ttt import (
    SPLIT,
    heuristic,
    legal,
    play,
    playout,
    split,
    wins,
    wins_now,
)
from gymv_envs.rules.ultimate_ttt import POW3

CELLS = square_cell_names(9)   # index 9 * row + column, rows from the top, named from the bottom (A1 bottom-left)
PLIES = {0: (30, 50), 1: (34, 54), 2: (36, 56)}   # difficulty -> range of random opening plies (even)
TINT = {ME: (200, 220, 255), THEM: (255, 210, 210), 3: (215, 215, 215), 0: WHITE, "play": (255, 244, 190)}
MARK_C = {ME: PALETTE["blue"], THEM: PALETTE["red"]}
LIT_C = PALETTE["orange"]


class UltimateTicTacToe(BoardGameEnv):
    """Play X and win a game of ultimate tic-tac-toe from a position where a forced win exists.

    ## Description
    Nine small tic-tac-toe boards form a 3x3 big board of 81 cells (columns A-I left to right, rows
    1-9 bottom to top). Blue X marks are yours, red O marks the opponent's. A move in a cell of a small
    board sends the other player to the small board at the same position of the big board (the cell in
    the top-right corner of its board sends to the top-right board); if that board is closed (won or
    full), the other player may play in any open board. Three in a row wins a small board (tinted blue
    or red; a full board without a winner is gray); three won small boards in a row win the game. The
    boards you may play in now are tinted yellow. The opponent answers within the same step.

    ## Action Space
    `Discrete(81)`: the cell to mark, named ``A1`` .. ``I9`` (column letter, row number from the
    bottom); index ``9 * row + column`` with rows from the top. A cell that is taken or outside the
    boards you may play in is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the big board with labels, small boards tinted by their state;
    the cells marked in the last step are outlined in orange.

    ## Rewards
    +1 for a win, 0 for a draw, -1 for a loss, given when the game ends (``max_return`` 1).

    ## Starting State
    A random playout of 30-56 plies from the empty board drawn from the seed, X to move, kept only
    when X can force a win of the game in exactly 1 (difficulty 0), 2 (difficulty 1) or 3
    (difficulty 2) of its own moves against any reply (verified by an AND-OR search).

    ## Episode End
    Terminates when a player wins three small boards in a row (that player wins) or no open board is
    left (a draw); success is a win for X.

    ## Arguments
    ``difficulty``: 0 (win in 1, random opponent), 1 (win in 2, greedy opponent), 2 (win in 3, 2-ply
    alpha-beta opponent); ``obs_size``. The registered id defaults to difficulty 2.

    ## Version History
    - v0: initial version. The registered id defaults to difficulty 2: random play won 35% of the
      difficulty-0 games (20 seeds of `gymv-bench validity`), 5% at difficulty 1, 0% at 2.
    """

    action_names = CELLS
    board_shape = (9, 9)

    memo_views = True

    # -- generate
    def random_start(self, rng: np.random.Generator):
        lo, hi = PLIES[self.difficulty]
        return playout(rng, 2 * int(rng.integers(lo // 2, hi // 2 + 1)))

    def standard_start(self):
        """The empty big board, X to move anywhere. A state: (codes of the nine boards, mover, the last move's
        cell in its board or -1, the boards' status, the result)."""
        return (0,) * 9, ME, -1, (0,) * 9, None

    # -- rules (`_ultimate_ttt`: table look-ups)
    def legal(self, s) -> list[int]:
        return legal(s)

    def play(self, s, a: int):
        return play(s, a)

    def result(self, s):
        return s[4]

    def wins(self, s, k: int) -> bool:
        """The base search, cut where no line of the big board can be X's within ``k`` more X marks: each open
        board of the line needs as many marks as its best O-free small line lacks (sound: only X marks help)."""
        return wins(s, k, self._memo_table())

    def immediate_win(self, s) -> bool:
        if s[4] is not None or s[1] != ME:
            return False
        codes, _, sent, status = s[:4]
        return wins_now(codes, status, [sent] if sent >= 0 and status[sent] == 0 else
                        [b for b in range(9) if status[b] == 0], ME)

    def heuristic(self, s) -> float:
        """Per big-board line: + (X's boards)^2 when it holds no O or full board, - (O's boards)^2 likewise."""
        return heuristic(s[3])

    def describe_invalid(self, s, a: int) -> str:
        b, i = split(a)
        if s[0][b] // 3 ** i % 3:
            return f"{CELLS[a]} is taken; choose an empty cell"
        return f"{CELLS[a]} is not in a board you may play in now (the tinted yellow ones)"

    # -- draw
    def cell_keys(self, s):
        codes, status, prev = s[0], s[3], self.before[0]
        free = {SPLIT[a][0] for a in self.legal_now(s)} if s[1] == ME else ()
        flat = [(mark := codes[b] // POW3[i] % 3, status[b] or ("play" if b in free else 0),
                 mark != prev[b] // POW3[i] % 3, a // 9 % 3, a % 3) for a, (b, i) in enumerate(SPLIT)]
        return [flat[r:r + 9] for r in range(0, 81, 9)]

    def _tile(self, key, h: int, w: int) -> np.ndarray:
        mark, tint, lit, rr, cc = key
        tile = new_frame(h, w, TINT[tint])
        t = max(1, w // 10)   # thick ink between small boards, drawn on the tiles at their edges
        if rr == 0:
            fill_rect(tile, 0, 0, w, t, INK)
        if rr == 2:
            fill_rect(tile, 0, h - t, w, h, INK)
        if cc == 0:
            fill_rect(tile, 0, 0, t, h, INK)
        if cc == 2:
            fill_rect(tile, w - t, 0, w, h, INK)
        if mark:
            pad, width = 0.25 * w, max(1, round(w / 10))
            with pil_draw(tile) as d:
                draw_xo(d, mark == ME, MARK_C[mark], h, w, pad, width)
                if lit and w - 1 - 2 * t > t:
                    d.rectangle((t, t, w - 1 - t, h - 1 - t), outline=LIT_C, width=max(1, w // 14))
        return tile

    def _task_text(self) -> str:
        return ("You play ultimate tic-tac-toe as X (blue) against O (red). Nine small 3x3 boards form the 3x3 big "
                "board shown (81 cells; columns A to I from left to right, rows 1 to 9 from bottom to top, so a cell "
                "is named like E5). A move in a cell of a small board sends the other player to the small board at "
                "the same position of the big board; if that board is won or full, the other player may play in any "
                "open board. The boards you may play in now are tinted yellow. Three marks in a row win a small "
                "board (tinted blue for X, red for O, gray when full without a winner); three won boards in a row "
                f"win the game. The opponent answers at once (it {OPPONENT_TEXT[self.opponent]}). A win is +1, no "
                "open board left is a draw (0), a loss -1. It is your turn and X can force a win.")

    def _state_text(self) -> str:
        codes, sym = self.state[0], ".XO"
        cells = [sym[codes[b] // POW3[i] % 3] for b, i in SPLIT]
        rows = [f"{9 - r} " + " ".join("".join(cells[9 * r + k:9 * r + k + 3]) for k in (0, 3, 6)) for r in range(9)]
        return "\n".join(rows) + "\n  ABC DEF GHI"


SPECS = (
    TaskSpec(name="UltimateTicTacToe", entry_point=UltimateTicTacToe, max_episode_steps=30,
             tags=("board-game", "adversarial", "planning"), kwargs={"difficulty": 2}),
)
