"""Go: play a whole game as black on a small board, area scoring with komi, against a built-in opponent."""

from __future__ import annotations

import copy

import numpy as np

from gymv_envs.core import Outcome, TaskSpec
from gymv_envs.core.cells import GO_LETTERS
from gymv_envs.domains.games._board import (
    BoardGameEnv,
    IntersectionBoard,
    grid_text,
    intersection_keys,
)
from gymv_envs.domains.games._go_text import OPPONENT_TEXT, point_name
from gymv_envs.rules.go import (
    BLACK,
    KOMI,
    OPPONENTS,
    WHITE,
    Geo,
    area,
    geometry,
    margin,
    oracle_move,
    over,
    play,
    why_illegal,
)

LEVELS = {0: (7, "random"), 1: (9, "greedy"), 2: (9, "search")}   # difficulty -> (board side, opponent)
OPENING = 2               # stones of each colour placed at random before black's first move
CAPTURE_STEP, CAPTURE_CAP = 0.02, 10   # shaping: 0.02 per stone of net captures, counted up to 10 stones
WIN, MARGIN = 1.0, 0.3    # at the end: +-1, plus 0.3 * (black's margin) / (side^2 - komi)


class Go(IntersectionBoard, BoardGameEnv):
    """Play black in a whole game of Go against a built-in white opponent; win on the area count.

    ## Description
    A Go board (7x7 at difficulty 0, else 9x9) with black stones (yours) and white stones. Columns
    are lettered from the left skipping I (A B C D E F G H J) and rows numbered from the bottom, so a
    point is named like ``D4``. Each turn black places a stone on an empty point or passes; the
    opponent answers within the same step. Rules: a group of stones joined along the lines is
    captured when it has no empty neighbouring point; suicide is illegal; simple ko (a single stone
    may not be retaken at once); the game ends after two passes in a row or once each player has
    made ``side * side`` moves. Area (Chinese, Tromp-Taylor) scoring: stones on the board plus empty
    regions that border only that colour; white adds a komi of 7.5. Stones are not declared dead:
    capture them before the count.

    The oracle removes the groups that ladder/capture reading shows lost, then plays the point that
    maximises half the exact area count plus half an influence count (each empty point's share of
    the summed ``2 ** -distance`` pull of the stones); it passes to end a won game once the opponent
    has passed. It wins seeds 0-9 at every difficulty (the conformance suite) and was checked on
    seeds 0-59 at difficulties 1-2 and 0-39 at difficulty 0.

    ## Action Space
    `Discrete(side * side + 1)`: the point to play (``A1`` ... ``J9``) or ``pass`` (the last
    action). An occupied point, a suicide or an immediate ko retake is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the wooden board with coordinates; points changed by the last
    step (both players' stones and captures) are lighter.

    ## Rewards
    Shaping: ``0.02`` per stone of net captures (yours minus the opponent's, counted up to 10
    stones either way) as it changes. At the end ``+1`` for a win or ``-1`` for a loss, plus
    ``0.3 * margin / (side**2 - 7.5)`` for black's area margin after komi. ``max_return`` 1.5
    (ten net captures and a whole-board win).

    ## Starting State
    Two black and two white stones on random points off the edge, none touching another, drawn from
    the seed; black to move.

    ## Episode End
    Terminates when the game ends (two passes in a row, or the move cap); success is a black win on
    the count. The step budget truncates.

    ## Arguments
    ``difficulty``: 0 (7x7, random opponent), 1 (9x9, greedy capture/atari opponent), 2 (9x9,
    one-ply search on a score estimate); ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    memo_views = True   # the frame; the state text also shows the captures (below)
    transient_attrs = (*BoardGameEnv.transient_attrs, "_area_memo", "_cells_memo")
    _area_memo = _cells_memo = None

    def _configure(self) -> None:
        self.side, self.opponent = LEVELS[self.difficulty]
        n = self.side
        self.board_shape = (n, n)
        self.cap = 2 * n * n
        self.action_names = (*(point_name(i, n) for i in range(n * n)), "pass")

    @property
    def geo(self) -> Geo:
        return geometry(self.side)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n, g = self.side, self.geo
        inner = [r * n + c for r in range(1, n - 1) for c in range(1, n - 1)]
        picked: list[int] = []
        for i in rng.permutation(len(inner)):
            a = inner[int(i)]
            if not any(g.nbm[a] & g.bits[b] for b in picked):
                picked.append(a)
            if len(picked) == 2 * OPENING:
                break
        black, white = sum(g.bits[a] for a in picked[::2]), sum(g.bits[a] for a in picked[1::2])
        self.state = self.before = (black, white, BLACK, 0, 0, 0)
        self.captures = [0, 0]   # stones captured by black, by white

    def standard_start(self):
        """The empty board, black to move (two-player play; the single-player game starts with four stones)."""
        return 0, 0, BLACK, 0, 0, 0

    # -- rules
    def _potential(self) -> float:
        return CAPTURE_STEP * float(max(-CAPTURE_CAP, min(CAPTURE_CAP, self.captures[0] - self.captures[1])))

    def _apply(self, action: int) -> Outcome:
        s, g, n = self.state, self.geo, self.side
        t = play(s, action, g)
        if t is None:
            return Outcome(invalid=True, feedback=f"{self.action_names[action]} {why_illegal(s, action, g)}")
        before = self._potential()
        self.before = s
        text = [self._said("you", action, (s[1] & ~t[1]).bit_count())]
        self.captures[0] += (s[1] & ~t[1]).bit_count()
        if not over(t, self.cap):
            reply = OPPONENTS[self.opponent](t, g, self.np_random, self.cap)
            u = play(t, reply, g)
            text.append(self._said("the opponent", reply, (t[0] & ~u[0]).bit_count()))
            self.captures[1] += (t[0] & ~u[0]).bit_count()
            t = u
        self.state = t
        reward = self._potential() - before
        if not over(t, self.cap):
            return Outcome(reward=reward, feedback=", ".join(text))
        m = margin(t, g)
        b, w = area(t[0], t[1], g)
        why = "two passes" if t[4] >= 2 else "move limit reached"
        verdict = f"you win by {m:g}" if m > 0 else f"the opponent wins by {-m:g}"
        reward += (WIN if m > 0 else -WIN) + MARGIN * m / (n * n - KOMI)
        return Outcome(reward=reward, terminated=True, success=m > 0, feedback=(
            f"{', '.join(text)}; game over ({why}): black {b}, white {w} + {KOMI:g} komi: {verdict}"))

    def _said(self, who: str, a: int, took: int) -> str:
        if a == self.side ** 2:
            return f"{who} passed"
        return f"{who} played {self.action_names[a]}" + (f" capturing {took}" if took else "")

    def _progress(self) -> float:
        if self._success:
            return 1.0
        m = self._area_memo   # black's area, worked out once per position
        if m is None or m[0] is not self.state:
            m = self._area_memo = (self.state, area(self.state[0], self.state[1], self.geo)[0])
        return m[1] / self.side ** 2

    # -- oracle
    def oracle_action(self) -> int:
        if self._terminated:
            return self.side ** 2
        if self.opponent == "random":
            return oracle_move(self.state, self.geo, self.cap)
        g, rng = self.geo, copy.deepcopy(self.np_random)   # the opponent's next draws, replayed exactly

        def reply(t):
            return OPPONENTS[self.opponent](t, g, copy.deepcopy(rng), self.cap)
        return oracle_move(self.state, g, self.cap, reply)

    # -- draw: IntersectionBoard tiles on BoardGameEnv's labelled board
    def _cells(self, s) -> tuple[int, ...]:
        """The colour on each point in reading order (remembered for the last few positions: the frame
        needs those of the position and of the one before it)."""
        memo = self._cells_memo
        if memo is None or len(memo) > 8:
            memo = self._cells_memo = {}
        key = (s[0], s[1], self.side)
        cells = memo.get(key)
        if cells is None:
            cells = memo[key] = tuple(BLACK if s[0] & b else WHITE if s[1] & b else 0 for b in self.geo.bits)
        return cells

    def cell_keys(self, s):
        return intersection_keys(self._cells(s), self._cells(self.before), self.side)

    def col_label(self, c: int) -> str:
        return GO_LETTERS[c]

    # -- VLM protocol
    def _task_text(self) -> str:
        n = self.side
        return (f"You play Go as black (you move first) against white on the {n}x{n} board shown. Columns are "
                f"lettered A to {GO_LETTERS[n - 1]} from left to right, skipping I, and rows numbered 1 to {n} from "
                "bottom to top; a point is named like C3. Each turn place a black stone on an empty point, or pass. "
                "Stones joined along the lines form a group; a group with no empty neighbouring point is captured "
                "and removed. Suicide is illegal, and a single stone that just captured one stone may not be "
                f"recaptured at once (ko). The opponent answers at once: it {OPPONENT_TEXT[self.opponent]}. "
                f"The game ends after two passes in a row, or once each player has made {n * n} moves. Area scoring: each side counts its stones plus the empty regions bordered only "
                f"by its colour, and white adds {KOMI:g} points of komi; stones are not declared dead, so capture "
                "them before the count. Win on the count (+1, plus a bonus for the margin); captures add a little "
                "reward along the way.")

    @property
    def action_prompt(self) -> str:
        n = self.side
        return (f"Each turn, reply with one point (column letter A-{GO_LETTERS[n - 1]}, no I, then row 1-{n}) or "
                "`pass`.\nEnd your reply with a line like `Action: D4` or `Action: pass`.")

    def _current_state_text(self) -> str | None:
        """`_state_text`, remembered while the position and the captures stay as they were."""
        key = (self.state, *self.captures)
        m = self._text_memo
        if m is None or m[0] != key:
            m = self._text_memo = (key, self._state_text())
        return m[1]

    def _state_text(self) -> str:
        n, s = self.side, self.state
        cells = self._cells(s)
        sym = {0: ".", BLACK: "X", WHITE: "O"}
        return (grid_text(cells, n, n, sym, GO_LETTERS) +
                f"\nX black (you), O white; captured by black {self.captures[0]}, by white {self.captures[1]}; "
                f"komi {KOMI:g}; moves played {s[5]} of {self.cap}")


SPECS = (
    TaskSpec(name="Go9x9", entry_point=Go, version=1, max_episode_steps=120, max_return=1.5,
             tags=("board-game", "adversarial", "planning")),
)
