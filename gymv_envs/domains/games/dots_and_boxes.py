"""Dots and Boxes: finish a won endgame against a built-in opponent."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    PALETTE,
    draw_text,
    fill_rect,
    fit_text_size,
    new_frame,
)
from gymv_envs.core.cells import LETTERS, cell_name, cell_names
from gymv_envs.core.rng import choice
from gymv_envs.domains.games._board import DRAW, ME, THEM, BoardGameEnv
from gymv_envs.domains.games._dots_search import closes, geometry, value

LEVELS = {0: (2, 7), 1: (3, 10), 2: (3, 13)}   # difficulty -> (boxes per side, undrawn lines at the start)
SOLVE_LINES = 13   # the search opponent solves exactly with this many undrawn lines or fewer
OWNER_C = {ME: (150, 190, 245), THEM: (245, 160, 150)}
LINE_C = {ME: PALETTE["blue"], THEM: PALETTE["red"]}
LIT_C = (240, 200, 20)
OPPONENT_TEXT = {"random": "draws a random line", "search": "plays the endgame perfectly",
                 "greedy": "claims a box when it can, otherwise avoids drawing the third side of a box"}


class DotsAndBoxes(BoardGameEnv):
    """Win a Dots and Boxes endgame: own more boxes than the opponent.

    ## Description
    A grid of dots is shown with some lines already drawn; boxes are shaded blue (yours) or
    red (the opponent's). Dot columns are labelled A, B, ... and dot rows 1, 2, ... from the
    bottom. Each turn a player draws one line between two neighbouring dots; completing the
    fourth side of a box claims it and gives that player another turn. The opponent's replies
    are played within your step. The endgame is won for you with perfect play.

    ## Action Space
    `Discrete(2 * n * (n + 1))`: a line, named by its two dots like ``A1-B1`` (across) or
    ``A1-A2`` (down). Drawing a line that is already there is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: dots with labels, drawn lines (blue yours, red the
    opponent's, gold the lines of the last step) and claimed boxes; the score is in the corner.

    ## Rewards
    +1 for owning more boxes at the end, 0 for a tie, -1 for fewer (``max_return`` 1).

    ## Starting State
    A random game played from the empty board until 7 (difficulty 0), 10 or 13 lines are
    left, kept when you are to move and win with perfect play (solved exactly) and, above
    difficulty 0, some legal line would throw the win away.

    ## Episode End
    Terminates when every line is drawn; success is owning more boxes.

    ## Arguments
    ``difficulty``: 0 (2x2 boxes, random opponent), 1 (3x3 boxes, greedy opponent: claims a box when it
    can, otherwise avoids drawing a box's third side), 2 (3x3 boxes, opponent that solves the endgame
    exactly); ``obs_size``. The registered id defaults to difficulty 1.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's action-space
      seeding (a seeded random policy no longer replays the level's draws). The registered id defaults
      to difficulty 1: random play won 80% of the difficulty-0 games (2x2 boxes against a random
      opponent), 1% at difficulty 1.
    """

    labels = False
    score_names = ("you", "opponent")   # the two sides in the score strip (two-player play names the colours)
    transient_attrs = (*BoardGameEnv.transient_attrs, "_base", "_banners")

    def _configure(self) -> None:
        super()._configure()
        self.n, self.left = LEVELS[self.difficulty]
        ends, _, _ = geometry(self.n)
        rows = self.n + 1
        dot = cell_names(rows, rows, bottom_up=True)
        self.action_names = tuple(f"{dot[a[0] * rows + a[1]]}-{dot[b[0] * rows + b[1]]}" for a, b in ends)
        self.action_aliases = tuple((f"{dot[b[0] * rows + b[1]]}-{dot[a[0] * rows + a[1]]}", i) for i, (a, b) in enumerate(ends))

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        total = 2 * self.n * (self.n + 1)
        while True:
            s = (0, ME, (0,) * (self.n * self.n))
            for _ in range(total - self.left):
                s = self.play(s, choice(rng, self.legal(s)))
            if s[1] != ME or self.margin(s) <= 0:
                continue
            if self.difficulty == 0 or any(self.margin(self.play(s, a)) <= 0 for a in self.legal(s)):
                break
        self.state = self.start = self.before = s
        self.moves, self.last = 0, ()

    def standard_start(self):
        """No line drawn yet, blue to move."""
        return 0, ME, (0,) * (self.n * self.n)

    # -- rules
    def legal(self, s) -> list[int]:
        return [i for i in range(2 * self.n * (self.n + 1)) if not s[0] >> i & 1]

    def play(self, s, a: int):
        drawn, p, owners = s
        got = closes(self.n, drawn, a)
        if got:
            owners = tuple(p if b in got else o for b, o in enumerate(owners))
        return drawn | 1 << a, p if got else 3 - p, owners

    def result(self, s):
        if s[0] != (1 << 2 * self.n * (self.n + 1)) - 1:
            return None
        mine, theirs = s[2].count(ME), s[2].count(THEM)
        return ME if mine > theirs else THEM if theirs > mine else DRAW

    def margin(self, s) -> int:
        """Final box margin for the agent if both sides play perfectly from ``s``."""
        v = value(self.n, s[0])
        return s[2].count(ME) - s[2].count(THEM) + (v if s[1] == ME else -v)

    def describe_invalid(self, s, a: int) -> str:
        return f"the line {self.action_names[a]} is already drawn; choose an undrawn line"

    def _opponent_move(self) -> int:
        s, rng = self.state, self.np_random
        moves = self.legal(s)
        if self.opponent == "search" and len(moves) <= SOLVE_LINES:
            return max(moves, key=lambda a: -self.margin(self.play(s, a)))
        if self.opponent != "random":   # greedy, and the search opponent before the endgame (two-player play)
            taking = [a for a in moves if closes(self.n, s[0], a)]
            if taking:
                return choice(rng, taking)
            _, boxes, touching = geometry(self.n)
            safe = [a for a in moves if all(bin((s[0] | 1 << a) & boxes[b]).count("1") < 3 for b in touching[a])]
            moves = safe or moves
        return choice(rng, moves)

    # -- verify
    def _progress(self) -> float:
        if self._success:
            return 1.0
        if self._terminated:
            return 0.0
        left = len(self.legal(self.state))
        return 0.9 * (self.left - left) / self.left

    # -- oracle
    def oracle_action(self) -> int:
        """The line that keeps the best final margin (exact endgame solve)."""
        s = self.state
        moves = self.legal(s)
        if not moves or self.result(s) is not None:
            return 0
        return max(moves, key=lambda a: self.margin(self.play(s, a)))

    # -- draw
    def _layout(self):
        """Cached per obs_size: (background with dot labels, x0, y0, step, line half-width, header height)."""
        H, W = self.obs_size
        n = self.n
        head = max(8, H // 10)
        step = min((H - head) / (n + 0.9), W / (n + 0.9))
        x0, y0 = (W - n * step) / 2, head + (H - head - n * step) / 2
        base = new_frame(H, W, BACKGROUND)
        lsize = max(4, int(step / 5))
        for r in range(n + 1):
            for c in range(n + 1):
                x, y = x0 + c * step, y0 + r * step
                draw_text(base, cell_name(r, c, n + 1, bottom_up=True), (x + step / 10, y - step / 10), lsize, (90, 90, 100), anchor="lb")
        self._banners = {}
        self._base = (base, x0, y0, step, max(1, int(step / 14)), head)
        return self._base

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        n = self.n
        base, x0, y0, step, th, head = getattr(self, "_base", None) or self._layout()
        frame = base.copy()
        ends, _, _ = geometry(n)
        owners, drawn, prev = self.state[2], self.state[0], self.before[0]
        for b, o in enumerate(owners):
            if o:
                r, c = divmod(b, n)
                fill_rect(frame, x0 + c * step + th, y0 + r * step + th, x0 + (c + 1) * step - th, y0 + (r + 1) * step - th, OWNER_C[o])
        for i, ((r1, c1), (r2, c2)) in enumerate(ends):
            if drawn >> i & 1:
                color = LIT_C if not prev >> i & 1 else INK
                fill_rect(frame, x0 + c1 * step - th, y0 + r1 * step - th, x0 + c2 * step + th + 1, y0 + r2 * step + th + 1, color)
        dot = 2 * th + 2
        for r in range(n + 1):
            for c in range(n + 1):
                fill_rect(frame, x0 + c * step - dot / 2, y0 + r * step - dot / 2, x0 + c * step + dot / 2 + 1, y0 + r * step + dot / 2 + 1, INK)
        frame[:head] = self._banner(owners.count(ME), owners.count(THEM), head, W)
        return frame

    def _banner(self, mine: int, theirs: int, head: int, width: int) -> np.ndarray:
        """The score strip at the top, cached per score."""
        cache = getattr(self, "_banners", None)
        if cache is None:
            cache = self._banners = {}
        if (mine, theirs) not in cache:
            strip = new_frame(head, width, BACKGROUND)
            a, b = self.score_names
            size = fit_text_size(f"{a} 9 - 9 {b}", int(width * 0.9), int(head * 0.8))
            draw_text(strip, f"{a} {mine} - {theirs} {b}", (width / 2, head / 2), size, INK)
            cache[mine, theirs] = strip
        return cache[mine, theirs]

    def _task_text(self) -> str:
        n = self.n
        return (f"You play Dots and Boxes (blue) against an opponent (red) on a {n + 1}x{n + 1} grid of dots "
                f"({n}x{n} boxes). Dots are named by column letter A to {LETTERS[n]} (left to right) and row number "
                f"1 to {n + 1} (bottom to top), e.g. A1 is the bottom-left dot. Each turn draw one undrawn line "
                "between two neighbouring dots, named by its dots like A1-B1. Completing the fourth side of a box "
                "claims it and you must move again; otherwise the opponent answers at once (it "
                f"{OPPONENT_TEXT[self.opponent]}). "
                "When every line is drawn, owning more boxes wins (+1), a tie is 0, fewer loses (-1). Blue "
                "boxes are yours, red ones the opponent's; the score is shown at the top.")

    def _state_text(self) -> str:
        drawn = [self.action_names[i] for i in range(len(self.action_names)) if self.state[0] >> i & 1]
        return (f"lines drawn: {', '.join(drawn)}\nscore: you {self.state[2].count(ME)}, "
                f"opponent {self.state[2].count(THEM)}")


SPECS = (
    TaskSpec(name="DotsAndBoxes", entry_point=DotsAndBoxes, version=1, max_episode_steps=40,
             tags=("board-game", "adversarial", "planning"), kwargs={"difficulty": 1}),
)
