"""Falling blocks: real-time falling tetrominoes; move, rotate and drop them to clear lines."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.temporal._arcade import ARCADE_ARGS, ArcadeEnv
from gymv_envs.domains.temporal._falling_blocks_well import COLS, ROWS, drop_row, evaluate, fits
from gymv_envs.rules.tetromino import KINDS, TURNS

C = 8.0                                         # a cell's size (units)
FW, FH, X0 = 160.0, 160.0, 40.0                 # field, the well's left edge
REP = 4                                          # frames between two moves (or two turns) while held
LINES = 10
# per difficulty: frames per row of gravity, garbage rows at the start
LEVELS = {0: (24, 0), 1: (14, 2), 2: (8, 4)}
COLORS = ((0, 0, 0), (80, 220, 240), (240, 220, 60), (180, 90, 230), (90, 220, 90), (235, 70, 70),
          (70, 110, 240), (245, 150, 50), (130, 130, 140))  # by cell value: empty, the 7 kinds, garbage
WELL, WALL = (18, 18, 30), (110, 110, 130)


class FallingBlocks(ArcadeEnv):
    """Clear lines with falling blocks in a well, in real time.

    ## Description
    A real-time falling-blocks game. Pieces of four squares (seven shapes) appear at the top of a
    10-wide, 20-deep well and fall a row at a time; you slide the falling piece sideways, turn it a
    quarter clockwise, speed up its fall or drop it at once. A piece that can fall no further locks in
    place and the next one (shown at the right) appears; a full row vanishes and the rows above come
    down. Holding a direction repeats the move every 4 frames. The game is over when a new piece has
    no room. Motion is only visible over consecutive frames (the SB3 stack stacks four).

    ## Action Space
    `Discrete(6)` minimal set ``NOOP``, ``FIRE`` (drop at once; press again after releasing), ``UP``
    (turn), ``RIGHT``, ``LEFT``, ``DOWN`` (fall faster); ``full_action_space=True``: the 18 ALE actions
    (those with one direction or ``FIRE`` alone act as such, the rest as ``NOOP``).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a status band (score bar: lines cleared) above the well.

    ## Rewards
    +1 per row cleared (``max_return`` 10).

    ## Starting State
    An empty well (difficulty 1 and 2: grey rows with one gap each at the bottom); the sequence of
    pieces (each shape once in every seven, in an order drawn from the seed) and the gaps come from
    the seed.

    ## Episode End
    Success at 10 rows cleared; failure when a new piece has no room (the game is over).

    ## Arguments
    ``difficulty``: 0 (a row every 24 frames), 1 (every 14 frames, 2 grey rows), 2 (every 8 frames,
    4 grey rows); ``obs_size``; {ARCADE_ARGS}.

    ## Version History
    - v0: initial version.
    """

    minimal_actions = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN")
    start_lives = 0
    target = float(LINES)
    field = (FW, FH)
    field_color = (30, 30, 44)

    def _setup(self) -> None:
        self.gravity, self.garbage = LEVELS[self.difficulty]

    def _new_game(self, rng: np.random.Generator) -> None:
        self.board = np.zeros((ROWS, COLS), np.int8)
        for r in range(ROWS - self.garbage, ROWS):
            self.board[r] = 8
            self.board[r, int(rng.integers(COLS))] = 0
        self.bag_rng = np.random.default_rng(int(rng.integers(2 ** 32)))
        self.queue: list[str] = []
        self.dealt, self.lines, self.fall, self.move_cool, self.turn_cool, self.fire_prev = 0, 0, 0, 0, 0, False
        self._plan: tuple[int, int, int] | None = None
        self._spawn()

    def _next_kind(self) -> str:
        if len(self.queue) < 2:
            self.queue += [KINDS[i] for i in self.bag_rng.permutation(len(KINDS))]
        return self.queue.pop(0)

    def _spawn(self) -> None:
        self.kind, self.rot, self.row, self.col, self.fall = self._next_kind(), 0, 0, 3, 0
        self.dealt += 1
        if not fits(self.board, self.cells, self.row, self.col):
            self.game_over = True
            self.events.append("no room for the next piece: game over")

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        return TURNS[self.kind][self.rot]

    # -- rules
    def _tick(self, dx: int, dy: int, fire: bool) -> None:
        if self.game_over:
            return
        self.move_cool, self.turn_cool = max(0, self.move_cool - 1), max(0, self.turn_cool - 1)
        if dy < 0 and not self.turn_cool:
            self.turn_cool = REP
            rot = (self.rot + 1) % len(TURNS[self.kind])
            for kick in (0, -1, 1, -2):
                if fits(self.board, TURNS[self.kind][rot], self.row, self.col + kick):
                    self.rot, self.col = rot, self.col + kick
                    break
        if dx and not self.move_cool:
            self.move_cool = REP
            if fits(self.board, self.cells, self.row, self.col + dx):
                self.col += dx
        if fire and not self.fire_prev:
            self.row = drop_row(self.board, self.cells, self.row, self.col)
            self.fire_prev = True
            self._lock()
            return
        self.fire_prev = fire
        self.fall += max(1, self.gravity // 2) if dy > 0 else 1
        if self.fall >= self.gravity:
            self.fall = 0
            if fits(self.board, self.cells, self.row + 1, self.col):
                self.row += 1
            else:
                self._lock()

    def _lock(self) -> None:
        value = KINDS.index(self.kind) + 1
        for r, c in self.cells:
            self.board[self.row + r, self.col + c] = value
            self.paint_static(X0 + (self.col + c) * C, (self.row + r) * C, C - 0.5, C - 0.5, COLORS[value])
        full = self.board.all(axis=1)
        n = int(full.sum())
        if n:
            self.board = np.vstack([np.zeros((n, COLS), np.int8), self.board[~full]])
            self.lines += n
            self.score += n
            self.events.append(f"{n} row{'s' if n > 1 else ''} cleared")
            self._bg = None  # the rows above came down: repaint the well
        self._spawn()

    # -- draw
    def _paint_background(self, frame: np.ndarray) -> None:
        self.rect(frame, X0 - 3, 0, COLS * C + 6, FH, WALL)
        self.rect(frame, X0, 0, COLS * C, ROWS * C, WELL)
        self.rect(frame, X0 + COLS * C + 10, 6, 5 * C, 4 * C, WELL)
        for r, c in zip(*np.nonzero(self.board)):
            self.rect(frame, X0 + c * C, r * C, C - 0.5, C - 0.5, COLORS[self.board[r, c]])

    def _draw_field(self, frame: np.ndarray) -> None:
        color = COLORS[KINDS.index(self.kind) + 1]
        for r, c in self.cells:
            if self.row + r >= 0:
                self.rect(frame, X0 + (self.col + c) * C, (self.row + r) * C, C - 0.5, C - 0.5, color)
        nxt = self.queue[0]
        for r, c in TURNS[nxt][0]:
            self.rect(frame, X0 + COLS * C + 10 + (c + 0.5) * C, 6 + (r + 1) * C, C - 0.5, C - 0.5, COLORS[KINDS.index(nxt) + 1])

    def _task_text(self) -> str:
        grey = (f" The well starts with {self.garbage} grey rows at the bottom, each with one gap; clearing "
                "them counts too." if self.garbage else "")
        return ("You play a falling-blocks game: pieces of four squares fall one row at a time down the well in "
                "the middle; the box at the right shows the next piece. LEFT and RIGHT slide the falling piece, "
                "UP turns it a quarter clockwise, DOWN makes it fall faster and FIRE drops it at once (release "
                "FIRE before the next drop). A piece that cannot fall further locks in place; a full row "
                f"vanishes and the rows above come down.{grey} Clear 10 rows to win (the bar at the top shows how "
                "many); the game is over when a new piece has no room. One action lasts a few frames and may be "
                "repeated by the game (sticky actions).")

    def _state_text(self) -> str:
        heights = [int(ROWS - np.argmax(self.board[:, c] != 0)) if self.board[:, c].any() else 0 for c in range(COLS)]
        return (f"rows cleared {self.lines}; falling {self.kind} piece at row {self.row}, column {self.col}, turn "
                f"{self.rot}; next {self.queue[0]}; column heights {heights}; " + super()._state_text())

    # -- oracle
    def _choose(self) -> tuple[int, int]:
        """The (turn, column) with the best Dellacherie score among placements the piece can reach from where
        it is (turned first, then slid along rows it will still be above)."""
        best, choice = -1e18, (self.rot, self.col)
        n_rot = len(TURNS[self.kind])
        for rot in range(n_rot):
            cells = TURNS[self.kind][rot]
            turns = (rot - self.rot) % n_rot
            width = max(c for _, c in cells) + 1
            for col in range(COLS - width + 1):
                steps = turns + abs(col - self.col) + 2
                sweep = self.row + (steps * self.frameskip) // self.gravity + 1
                lo, hi = min(col, self.col), max(col, self.col)
                if not all(fits(self.board, cells, r, c) for r in range(self.row, sweep + 1) for c in range(lo, hi + 1)):
                    continue
                row = drop_row(self.board, cells, sweep, col)
                score = evaluate(self.board, cells, row, col) - 0.01 * steps
                if score > best:
                    best, choice = score, (rot, col)
        return choice

    def oracle_action(self) -> int:
        """Place each piece where Dellacherie's heuristic scores best: turn, slide, then (once the held
        action has stopped moving the piece) drop it."""
        if self._terminated:
            return 0
        if self._plan is None or self._plan[0] != self.dealt:
            self._plan = (self.dealt, *self._choose())
        _, rot, col = self._plan
        if self.rot != rot:
            return self.action_index("UP")
        if self.col != col:
            return self.action_index("RIGHT" if col > self.col else "LEFT")
        if self.held == (0, 0, False):
            return self.action_index("FIRE")
        return self.action_index("NOOP")


FallingBlocks.__doc__ = FallingBlocks.__doc__.replace("{ARCADE_ARGS}", ARCADE_ARGS)

SPECS = (
    TaskSpec(name="FallingBlocks", entry_point=FallingBlocks, max_episode_steps=2000, max_return=float(LINES),
             tags=("arcade", "real-time", "control", "puzzle")),
)
