"""Checkers (English draughts): win an endgame against a built-in opponent."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import PALETTE, disc, new_frame
from gymv_envs.core.cells import LETTERS, cell_name
from gymv_envs.domains.games._board import (
    ME,
    OPPONENT_TEXT,
    THEM,
    BoardGameEnv,
    capture_chain_invalid,
    grid_text,
)

EMPTY, MAN, KING = 0, 1, 2          # a square holds 0, or (owner - 1) * 2 + kind: 1/2 my man/king, 3/4 their man/king
LEVELS = {0: (6, 2, 1), 1: (8, 3, 2), 2: (8, 3, 2)}   # difficulty -> (board side, my pieces, their pieces)
DIRS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
LIGHT, DARK, LIT_C = (238, 222, 190), (120, 80, 50), (200, 160, 60)
PIECE_C = {ME: PALETTE["red"], THEM: (245, 245, 240)}
EDGE_C = {ME: (120, 20, 20), THEM: (120, 120, 120)}
CROWN_C = (240, 200, 20)


@functools.cache
def neighbours(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per square and direction: (the diagonal neighbour, the square behind it), -1 when off the board."""
    out = []
    for sq in range(n * n):
        r, c = divmod(sq, n)
        row = []
        for dr, dc in DIRS:
            on = [0 <= r + k * dr < n and 0 <= c + k * dc < n for k in (1, 2)]
            row.append(((r + dr) * n + c + dc if on[0] else -1, (r + 2 * dr) * n + c + 2 * dc if on[1] else -1))
        out.append(tuple(row))
    return tuple(out)


def owner(v: int) -> int:
    return 0 if v == EMPTY else ME if v <= 2 else THEM


class Checkers(BoardGameEnv):
    """Play red in a checkers endgame and capture or block every opposing piece.

    ## Description
    A checkers board is shown with red pieces (yours, moving up) and white pieces (the
    opponent's, moving down); pieces with a gold centre are kings and move both ways. Columns
    are labelled A, B, ... and rows 1, 2, ... from the bottom. A piece steps diagonally to an
    empty dark square, or jumps an adjacent enemy piece onto the empty square behind it,
    capturing it. Capturing is compulsory; after a jump the same piece must keep jumping while
    it can (one jump per action). A man reaching the far row becomes a king and its turn ends.
    The opponent answers within the same step.

    ## Action Space
    `Discrete(8 * side * side)`: index ``2 * (4 * square + direction) + jump`` with squares
    row-major from the top-left and directions up-left, up-right, down-left, down-right; named
    by the squares like ``C3-D4`` (a step) or ``C3-E5`` (a jump). A move that is not legal
    (including a step when a capture is available) is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with labels; squares changed by the last step
    are highlighted.

    ## Rewards
    +1 for a win, -1 for a loss, given when the game ends (``max_return`` 1).

    ## Starting State
    A random endgame drawn from the seed (a few men and kings each on dark squares) with red
    to move, kept only when red can force a win in exactly 1 (difficulty 0), 2 or 3 of its own
    actions against any reply (verified by an AND-OR search).

    ## Episode End
    Terminates when a side has no piece or no legal move (it loses); success is a red win.

    ## Arguments
    ``difficulty``: 0 (6x6, 2 against 1, random opponent), 1 (8x8, 3 against 2, greedy
    opponent), 2 (8x8, 3 against 2, 3-ply alpha-beta opponent); ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    memo_views = True
    search_depth = 3

    def _configure(self) -> None:
        super()._configure()
        self.side, self.mine, self.theirs = LEVELS[self.difficulty]
        n = self.side
        self.board_shape = (n, n)
        names, aliases = [], []
        for a in range(8 * n * n):
            frm, to = self._squares(a)
            names.append(f"{cell_name(*divmod(frm, n), n, bottom_up=True)}-{to}")
            aliases.append((f"{cell_name(*divmod(frm, n), n, bottom_up=True)}{to}", a))
        self.action_names, self.action_aliases = tuple(names), tuple(aliases)

    def _squares(self, a: int) -> tuple[int, str]:
        n = self.side
        jump, rest = a % 2, a // 2
        sq, d = divmod(rest, 4)
        r, c = divmod(sq, n)
        rr, cc = r + DIRS[d][0] * (1 + jump), c + DIRS[d][1] * (1 + jump)
        return sq, (cell_name(rr, cc, n, bottom_up=True) if 0 <= rr < n and 0 <= cc < n else f"off{'-jump' if jump else ''}{d}")

    # -- generate
    def random_start(self, rng: np.random.Generator):
        n = self.side
        dark = [i for i in range(n * n) if sum(divmod(i, n)) % 2 == 1]
        picks = rng.permutation(len(dark))[:self.mine + self.theirs]
        b = [EMPTY] * (n * n)
        for k, j in enumerate(picks):
            sq = dark[int(j)]
            p = ME if k < self.mine else THEM
            king = rng.random() < 0.35 or (p == ME and sq < n) or (p == THEM and sq >= n * (n - 1))
            b[sq] = (p - 1) * 2 + (KING if king else MAN)
        return tuple(b), ME, -1, None

    def standard_start(self):
        """Men on the dark squares of each side's home rows (3 on 8x8, 2 on 6x6), red to move."""
        n, k = self.side, (self.side - 2) // 2
        dark = [(r + c) % 2 == 1 for r in range(n) for c in range(n)]
        b = tuple(EMPTY if not dark[i] else (THEM - 1) * 2 + MAN if i < k * n else MAN if i >= (n - k) * n else EMPTY
                  for i in range(n * n))
        return b, ME, -1, None

    # -- rules
    def _moves(self, b, p: int, only: int = -1) -> list[int]:
        jumps, steps, hops = [], [], neighbours(self.side)
        kinds = (1, 2) if p == ME else (3, 4)
        for sq in ([only] if only >= 0 else [i for i, v in enumerate(b) if v in kinds]):
            v = b[sq]
            for d in (0, 1, 2, 3) if v % 2 == 0 else (0, 1) if p == ME else (2, 3):
                mid, land = hops[sq][d]
                if mid < 0:
                    continue
                m = b[mid]
                if m == EMPTY:
                    steps.append(8 * sq + 2 * d)
                elif m not in kinds and land >= 0 and b[land] == EMPTY:
                    jumps.append(8 * sq + 2 * d + 1)
        return jumps if (jumps or only >= 0) else steps

    def legal(self, s) -> list[int]:
        return self._moves(s[0], s[1], s[2])

    def play(self, s, a: int):
        n, (b, p) = self.side, s[:2]
        jump, (sq, d) = a % 2, divmod(a // 2, 4)
        r, c = divmod(sq, n)
        dr, dc = DIRS[d]
        to = (r + dr * (1 + jump)) * n + c + dc * (1 + jump)
        b = list(b)
        v, b[sq] = b[sq], EMPTY
        if jump:
            b[(r + dr) * n + c + dc] = EMPTY
        crowned = v % 2 == 1 and ((p == ME and to < n) or (p == THEM and to >= n * (n - 1)))
        b[to] = v + 1 if crowned else v
        b = tuple(b)
        if jump and not crowned and self._moves(b, p, to):
            return b, p, to, None
        q = 3 - p
        return b, q, -1, (p if not self._moves(b, q) else None)

    def result(self, s):
        return s[3]

    def heuristic(self, s) -> float:
        n, v = self.side, 0.0
        for i, x in enumerate(s[0]):
            if x:
                worth = 3.0 if x % 2 == 0 else 2.0 + 0.1 * ((n - 1 - i // n) if owner(x) == ME else i // n)
                v += worth if owner(x) == ME else -worth
        return v

    def describe_invalid(self, s, a: int) -> str:
        where = cell_name(*divmod(s[2], self.side), self.side, bottom_up=True) if s[2] >= 0 else ""
        return capture_chain_invalid(self, s, a, where)

    # -- draw
    def cell_keys(self, s):
        n, b, prev = self.side, s[0], self.before[0]
        return [[(b[r * n + c], (r + c) % 2, b[r * n + c] != prev[r * n + c]) for c in range(n)] for r in range(n)]

    def _tile(self, key, h: int, w: int) -> np.ndarray:
        v, dark, lit = key
        tile = new_frame(h, w, LIT_C if lit else DARK if dark else LIGHT)
        if v:
            disc(tile, PIECE_C[owner(v)], 0.8, edge=EDGE_C[owner(v)])
            if v % 2 == 0:
                disc(tile, CROWN_C, 0.3)
        return tile

    def _task_text(self) -> str:
        n = self.side
        return (f"You play checkers as red against white on the {n}x{n} board shown. Columns are labelled A to "
                f"{LETTERS[n - 1]} from left to right and rows 1 to {n} from bottom to top. Red men move up, white "
                "men move down; kings (gold centre) move both ways. Each action moves one piece diagonally: a step "
                "to an empty neighbouring square, or a jump over an adjacent enemy piece to the empty square behind "
                "it, capturing it. Name a move by its squares, like C3-D4 or C3-E5. Capturing is compulsory, and "
                "after a jump the same piece must keep jumping while it can (one jump per action). A man reaching "
                "the far row becomes a king. The opponent answers at once (it "
                f"{OPPONENT_TEXT[self.opponent]}). A side with no pieces or no legal move loses: you win +1 or "
                "lose -1. It is your turn and red can force a win.")

    def _state_text(self) -> str:
        return grid_text(self.state[0], self.side, self.side, {EMPTY: ".", 1: "r", 2: "R", 3: "w", 4: "W"})


SPECS = (
    TaskSpec(name="Checkers", entry_point=Checkers, version=1, max_episode_steps=40,
             tags=("board-game", "adversarial", "planning")),
)
