"""Alquerque: capture every enemy piece on the 5x5 board of lines against a built-in opponent."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import disc, pil_draw
from gymv_envs.core.cells import cell_name
from gymv_envs.domains.games._board import (
    ME,
    OPPONENT_TEXT,
    STONE_C,
    STONE_EDGE,
    THEM,
    WOOD,
    WOOD_LINE,
    BoardGameEnv,
    capture_chain_invalid,
    grid_text,
    intersection_tile,
)

N = 5
DIRS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))   # N NE E SE S SW W NW
DIR_NAMES = ("up", "up-right", "right", "down-right", "down", "down-left", "left", "up-left")
FORWARD = {ME: (0, 1, 2, 6, 7), THEM: (2, 3, 4, 5, 6)}   # step directions: forward, sideways, forward diagonals
LEVELS = {0: (2, 1), 1: (3, 2), 2: (3, 3)}   # difficulty -> (your pieces, the opponent's) in the endgame


@functools.cache
def lines_from() -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per point and direction: (the neighbour along a board line, the point beyond it), -1 when off the board
    or when the point has no diagonal (only points with an even ``row + column`` do)."""
    out = []
    for sq in range(N * N):
        r, c = divmod(sq, N)
        row = []
        for d, (dr, dc) in enumerate(DIRS):
            if d % 2 and (r + c) % 2:
                row.append((-1, -1))
                continue
            on = [0 <= r + k * dr < N and 0 <= c + k * dc < N for k in (1, 2)]
            row.append(((r + dr) * N + c + dc if on[0] else -1, (r + 2 * dr) * N + c + 2 * dc if on[1] else -1))
        out.append(tuple(row))
    return tuple(out)


def point(sq: int) -> str:
    return cell_name(*divmod(sq, N), N, bottom_up=True)


class Alquerque(BoardGameEnv):
    """Play black in an Alquerque endgame and capture or block every white piece.

    ## Description
    The 5x5 Alquerque board is a grid of points joined by lines across and down, and by diagonal
    lines through every point whose row and column add up to an even number (A1, C1, B2, C3, ...).
    Black pieces are yours (moving up), white pieces the opponent's (moving down). Columns are
    labelled A-E and rows 1-5 from the bottom. A piece steps along a line to the neighbouring empty
    point, forward, sideways or diagonally forward (never backward), or captures by jumping along a
    line (in any direction, backward too) over a neighbouring enemy piece onto the empty point
    directly beyond it. Capturing is compulsory (in this version; there is no huffing), and after a
    capture the same piece must keep jumping while it can, one jump per action. The opponent answers
    within the same step.

    ## Action Space
    `Discrete(400)`: index ``2 * (8 * point + direction) + jump`` with points row-major from the
    top-left and directions up, up-right, right, down-right, down, down-left, left, up-left; named
    by the points like ``C2-C3`` (a step) or ``C2-C4`` (a jump). A move that is not legal (including
    a step while a capture is available) is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board of lines with labels; the points changed by the last
    step are highlighted.

    ## Rewards
    +1 for a win, -1 for a loss, given when the game ends (``max_return`` 1).

    ## Starting State
    A random endgame drawn from the seed (2 against 1, 3 against 2 or 3 against 3 pieces) with black
    to move, kept only when black can force a win in exactly 1 (difficulty 0), 2 or 3 of its own
    actions against any reply (verified by an AND-OR search).

    ## Episode End
    Terminates when a side has no piece left or no legal move (it loses); success is a black win.

    ## Arguments
    ``difficulty``: 0 (2 against 1, win in 1, random opponent), 1 (3 against 2, win in 2, greedy
    opponent), 2 (3 against 3, win in 3, 2-ply alpha-beta opponent); ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    board_shape = (N, N)
    memo_views = True
    grid_line = WOOD

    def _configure(self) -> None:
        super()._configure()
        self.mine, self.theirs = LEVELS[self.difficulty]
        names, aliases = [], []
        for a in range(16 * N * N):
            sq, to = self._squares(a)
            names.append(f"{point(sq)}-{to}")
            aliases.append((f"{point(sq)}{to}", a))
        self.action_names, self.action_aliases = tuple(names), tuple(aliases)

    @staticmethod
    def _squares(a: int) -> tuple[int, str]:
        jump, (sq, d) = a % 2, divmod(a // 2, 8)
        r, c = divmod(sq, N)
        rr, cc = r + DIRS[d][0] * (1 + jump), c + DIRS[d][1] * (1 + jump)
        if 0 <= rr < N and 0 <= cc < N and not (d % 2 and (r + c) % 2):
            return sq, cell_name(rr, cc, N, bottom_up=True)
        return sq, f"{DIR_NAMES[d]}{'-jump' if jump else ''}"

    # -- generate
    def random_start(self, rng: np.random.Generator):
        picks = rng.permutation(N * N)[:self.mine + self.theirs]
        b = [0] * (N * N)
        for k, sq in enumerate(picks):
            b[int(sq)] = ME if k < self.mine else THEM
        return tuple(b), ME, -1, None

    def standard_start(self):
        """Each side's two home rows full plus two points of the middle row (on its right), black to move."""
        b = (THEM,) * 10 + (THEM, THEM, 0, ME, ME) + (ME,) * 10
        return b, ME, -1, None

    # -- rules
    def _moves(self, b, p: int, only: int = -1) -> list[int]:
        jumps, steps, lines = [], [], lines_from()
        forward = FORWARD[p]
        for sq in ([only] if only >= 0 else [i for i, v in enumerate(b) if v == p]):
            for d in range(8):
                mid, land = lines[sq][d]
                if mid < 0:
                    continue
                if b[mid] == 0:
                    if d in forward:
                        steps.append(16 * sq + 2 * d)
                elif b[mid] != p and land >= 0 and b[land] == 0:
                    jumps.append(16 * sq + 2 * d + 1)
        return jumps if (jumps or only >= 0) else steps

    def legal(self, s) -> list[int]:
        return self._moves(s[0], s[1], s[2])

    def play(self, s, a: int):
        b, p = list(s[0]), s[1]
        jump, (sq, d) = a % 2, divmod(a // 2, 8)
        mid, land = lines_from()[sq][d]
        to = land if jump else mid
        b[sq], b[to] = 0, p
        if jump:
            b[mid] = 0
        b = tuple(b)
        if jump and self._moves(b, p, to):
            return b, p, to, None
        q = 3 - p
        return b, q, -1, (p if not self._moves(b, q) else None)

    def result(self, s):
        return s[3]

    def heuristic(self, s) -> float:
        b = s[0]
        return 3.0 * (b.count(ME) - b.count(THEM)) + 0.1 * len(self._moves(b, ME)) - 0.1 * len(self._moves(b, THEM))

    def describe_invalid(self, s, a: int) -> str:
        return capture_chain_invalid(self, s, a, point(s[2]) if s[2] >= 0 else "")

    # -- draw
    def cell_keys(self, s):
        b, prev = s[0], self.before[0]
        return [[(b[r * N + c], b[r * N + c] != prev[r * N + c], r, c) for c in range(N)] for r in range(N)]

    def _tile(self, key, h: int, w: int) -> np.ndarray:
        piece, lit, r, c = key
        tile = intersection_tile((0, lit, r == 0, r == N - 1, c == 0, c == N - 1), h, w)
        if (r + c) % 2 == 0:
            width = max(1, h // 16)
            with pil_draw(tile) as d:
                for dr, dc in DIRS[1::2]:
                    if 0 <= r + dr < N and 0 <= c + dc < N:
                        d.line((w / 2, h / 2, w / 2 + dc * w / 2, h / 2 + dr * h / 2), fill=WOOD_LINE, width=width)
        return disc(tile, STONE_C[piece], 0.7, edge=STONE_EDGE[piece]) if piece else tile

    def _task_text(self) -> str:
        return ("You play Alquerque as black against white on the 5x5 board shown: pieces stand on the points where "
                "lines meet. Columns are labelled A to E from left to right and rows 1 to 5 from bottom to top. Lines "
                "join neighbouring points across and down, and diagonal lines run through the points drawn with "
                "them. Black moves up, white moves down. Each action moves one piece along a line: a step to the "
                "neighbouring empty point, forward, sideways or diagonally forward (never backward), or a capture: a "
                "jump in any direction along a line over a neighbouring white piece onto the empty point just beyond, "
                "removing it. Name a move by its two points, like C2-C3 or C2-C4. Capturing is compulsory, and after "
                "a capture the same piece must keep jumping while it can (one jump per action). The opponent answers "
                f"at once (it {OPPONENT_TEXT[self.opponent]}). A side with no pieces or no legal move loses: you win "
                "+1 or lose -1. It is your turn and black can force a win.")

    def _state_text(self) -> str:
        return grid_text(self.state[0], N, N, {0: ".", ME: "B", THEM: "W"})


SPECS = (
    TaskSpec(name="Alquerque", entry_point=Alquerque, max_episode_steps=40,
             tags=("board-game", "adversarial", "planning")),
)
