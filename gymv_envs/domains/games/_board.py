"""Shared machinery of the two-player board games: rules hooks, opponents, forced-win search, drawing.

A game is a small subclass of `BoardGameEnv` that describes its rules as pure functions of
an immutable, hashable state; the agent is always player 1 (`ME`), the built-in opponent
player 2 (`THEM`). The base plays the opponent's replies inside the agent's step, keeps
score, draws the board with coordinate labels, and supplies the oracle: an AND-OR search
for a forced win within a bounded number of the agent's moves (sound against any reply).

Starting positions are drawn from the seed (usually a random playout) and kept only when
the agent to move can force a win in exactly ``win_in`` of its own moves, verified by that
search, so the oracle wins on every seed against every opponent.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome
from gymv_envs.core.canvas import BACKGROUND, INK, disc, fill_rect, fit_text_size, new_frame
from gymv_envs.core.cells import LETTERS, cell_names
from gymv_envs.core.parsing import parse_choice
from gymv_envs.core.rng import choice

ME, THEM, DRAW = 1, 2, 0


def draw_xo(d: Any, cross: bool, colour: Any, h: int, w: int, pad: float, width: int) -> None:
    """An X (two diagonals) or an O (a ring) on a ``w`` x ``h`` tile, ``pad`` pixels in from its
    edges, with PIL draw ``d`` (tic-tac-toe marks)."""
    if cross:
        d.line((pad, pad, w - pad, h - pad), fill=colour, width=width)
        d.line((pad, h - pad, w - pad, pad), fill=colour, width=width)
    else:
        d.ellipse((pad, pad, w - pad, h - pad), outline=colour, width=width)


def capture_chain_invalid(env: Any, s: Any, a: int, square: str) -> str:
    """Why move ``a`` is illegal in a game with compulsory captures and multi-jumps, one jump per
    action (checkers, Alquerque): state ``s[2]`` is the jumping piece's index (-1 when none),
    odd legal actions are captures, and ``square`` names the jumping piece's square."""
    if s[2] >= 0:
        return f"you are in the middle of a capture: keep jumping with the piece on {square}"
    if any(m % 2 for m in env.legal_now(s)):
        return f"{env.action_names[a]} is not legal: a capture is available and capturing is compulsory"
    return f"{env.action_names[a]} is not a legal move now"


def end_outcome(result: int | None, msg: str, win: str = "you win", loss: str = "the opponent wins") -> Outcome | None:
    """The step's outcome when the game has ended with ``result`` (`ME`, `THEM` or `DRAW`), else None:
    +1 and success for a win, -1 for a loss, 0 for a draw; ``msg`` is the move feedback before it."""
    if result == ME:
        return Outcome(reward=1.0, terminated=True, success=True, feedback=f"{msg}: {win}")
    if result == THEM:
        return Outcome(reward=-1.0, terminated=True, feedback=f"{msg}: {loss}")
    if result == DRAW:
        return Outcome(terminated=True, feedback=f"{msg}: a draw")
    return None
OPPONENTS = {0: "random", 1: "greedy", 2: "search"}
OPPONENT_TEXT = {
    "random": "plays a random legal move",
    "greedy": "takes a win when it has one, avoids handing you an immediate win, and otherwise plays the move that looks best right away",
    "search": "searches a few moves ahead (minimax with alpha-beta)",
}
LOSS_VALUE = 10_000.0


def square_cell_names(n: int) -> tuple[str, ...]:
    """The names of an ``n x n`` board's cells in reading order, rows numbered from the bottom, one action each."""
    return cell_names(n, n, bottom_up=True)


def grid_text(board, rows: int, cols: int, symbols: dict, letters: str = LETTERS) -> str:
    """A board as text: one symbol a cell, rows numbered from the bottom, columns lettered below."""
    w, cell = len(str(rows)), symbols.__getitem__
    lines = [f"{rows - r:>{w}} " + " ".join(map(cell, board[r * cols:(r + 1) * cols])) for r in range(rows)]
    return "\n".join(lines) + "\n" + " " * (w + 1) + " ".join(letters[:cols])


WOOD, WOOD_LINE, WOOD_LIT = (225, 185, 120), (120, 85, 40), (250, 225, 120)
STONE_C = {ME: (25, 25, 30), THEM: (245, 245, 245)}
STONE_EDGE = {ME: (0, 0, 0), THEM: (140, 140, 140)}


def intersection_tile(key: tuple, h: int, w: int) -> np.ndarray:
    """A Go-style board point: key (stone, lit, top, bottom, left, right edge flags)."""
    piece, lit, top, bottom, left, right = key
    tile = new_frame(h, w, WOOD_LIT if lit else WOOD)
    t = max(1, h // 16)
    y, x = h // 2 - t // 2, w // 2 - t // 2   # grid lines through the middle, stopping at the board's edge
    fill_rect(tile, x if left else 0, y, x + t if right else w, y + t, WOOD_LINE)
    fill_rect(tile, x, y if top else 0, x + t, y + t if bottom else h, WOOD_LINE)
    return disc(tile, STONE_C[piece], 0.86, edge=STONE_EDGE[piece]) if piece else tile


def intersection_keys(board: tuple[int, ...], before: tuple[int, ...], n: int) -> list[list[tuple]]:
    return [[(board[r * n + c], board[r * n + c] != before[r * n + c], r == 0, r == n - 1, c == 0, c == n - 1)
             for c in range(n)] for r in range(n)]


class IntersectionBoard:
    """Drawing hooks for games played on the points of a Go-style board (Gomoku, Atari Go)."""

    def cell_keys(self, s):
        return intersection_keys(s[0], self.before[0], self.side)

    def _tile(self, key, h: int, w: int) -> np.ndarray:
        return intersection_tile(key, h, w)


class BoardGameEnv(MultiTurnEnv):
    """Base of the two-player games. Subclasses implement the rules hooks below."""

    transient_attrs = (*MultiTurnEnv.transient_attrs, "_memo", "_legal_memo", "_view_memo", "_text_memo")
    win_in: ClassVar[dict[int, int]] = {0: 1, 1: 2, 2: 3}   # difficulty -> the agent's moves to the fastest forced win
    search_depth: ClassVar[int] = 2                          # plies of the difficulty-2 opponent
    max_tries: ClassVar[int] = 4000
    labels: ClassVar[bool] = True
    action_aliases: tuple[tuple[str, int], ...] = ()
    # Set by games whose states are immutable values and whose `legal`, `cell_keys` and `_state_text`
    # read nothing else (but `before`): the base then works each out once per state, not once a step
    # (random actions are mostly illegal and leave the state as it was).
    memo_views: ClassVar[bool] = False
    _legal_memo = _view_memo = _text_memo = None

    # ---------------------------------------------------------------- rules hooks
    def mover(self, s: Any) -> int:
        """The player to move; by convention states are tuples ``(board, mover, ...)``."""
        return s[1]

    def legal(self, s: Any) -> list[int]:
        raise NotImplementedError

    def play(self, s: Any, a: int) -> Any:
        """The state after the mover plays ``a`` (forced passes resolved inside)."""
        raise NotImplementedError

    def result(self, s: Any) -> int | None:
        """None while the game goes on, else ME, THEM or DRAW."""
        raise NotImplementedError

    def heuristic(self, s: Any) -> float:
        """A static evaluation from the agent's side (positive is good for ME)."""
        return 0.0

    def random_start(self, rng: np.random.Generator) -> Any:
        """A candidate starting position; kept if the agent can force a win in exactly ``win_in`` moves."""
        raise NotImplementedError

    def attack_moves(self, s: Any) -> list[int]:
        """The agent moves tried by the forced-win search (all legal moves unless a game prunes soundly)."""
        return self.legal(s)

    def legal_now(self, s: Any) -> list[int]:
        """`legal` (not to be changed by the caller), remembered for the last state asked about when `memo_views`."""
        if not self.memo_views:
            return self.legal(s)
        m = self._legal_memo
        if m is None or m[0] is not s:
            m = self._legal_memo = (s, self.legal(s))
        return m[1]

    def describe_invalid(self, s: Any, a: int) -> str:
        return f"{self.action_names[a]} is not a legal move now"

    def move_name(self, a: int) -> str:
        """How feedback names a move of either player."""
        return self.action_names[a]

    # ---------------------------------------------------------------- two-player play (gymv_envs.multiagent)
    def standard_start(self) -> Any:
        """The game's usual initial position on this difficulty's board, the first player (`ME`) to move."""
        raise NotImplementedError

    def move_of(self, player: int, a: int) -> int:
        """The rules' move (as `legal` and `play` number them) that action ``a`` of ``player`` names; the
        same number unless the two sides' moves are numbered apart (Breakthrough)."""
        return a

    def action_of(self, move: int) -> int:
        """The action index (``0 .. len(action_names) - 1``) of a rules move of either player."""
        return move

    # ---------------------------------------------------------------- generate
    def _configure(self) -> None:
        self.opponent = OPPONENTS[self.difficulty]
        self.target = self.win_in[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        self._memo = {}
        for _ in range(self.max_tries):
            s = self.random_start(rng)
            if self.result(s) is None and self.mover(s) == ME and self.start_ok(s):
                break
            if len(self._memo) > 200_000:
                self._memo = {}
        else:
            raise RuntimeError(f"{type(self).__name__}: no start position with a forced win in {self.target}")
        self.state = self.start = s
        self.moves = 0
        self.last: tuple[int, ...] = ()
        self.before = s

    def start_ok(self, s: Any) -> bool:
        """Whether a candidate start (agent to move) has its fastest forced win in exactly ``target`` moves."""
        return not self.wins(s, self.target - 1) and self.wins(s, self.target)

    # ---------------------------------------------------------------- search
    def immediate_win(self, s: Any) -> bool:
        """Whether the player to move in ``s`` (the agent) wins with its next move."""
        return any(self.result(self.play(s, a)) == ME for a in self.legal(s))

    def wins(self, s: Any, k: int) -> bool:
        """Whether the agent can force a win from ``s`` within ``k`` more of its own moves."""
        r = self.result(s)
        if r is not None:
            return r == ME
        if k <= 0:
            return False
        memo = self._memo_table()
        key = (s, k)
        hit = memo.get(key)
        if hit is None:
            if self.mover(s) == ME:
                hit = any(self.wins(self.play(s, a), k - 1) for a in self.attack_moves(s))
            else:
                hit = all(self.wins(self.play(s, a), k) for a in self.legal(s))
            memo[key] = hit
        return hit

    def _memo_table(self) -> dict:
        if getattr(self, "_memo", None) is None:
            self._memo = {}
        return self._memo

    def minimax(self, s: Any, depth: int, alpha: float, beta: float) -> float:
        r = self.result(s)
        if r is not None:
            return 0.0 if r == DRAW else (LOSS_VALUE + depth) * (1 if r == ME else -1)
        if depth == 0:
            return self.heuristic(s)
        maximize = self.mover(s) == ME
        best = -np.inf if maximize else np.inf
        for a in self.candidate_moves(s):
            v = self.minimax(self.play(s, a), depth - 1, alpha, beta)
            if maximize:
                best, alpha = max(best, v), max(alpha, v)
            else:
                best, beta = min(best, v), min(beta, v)
            if alpha >= beta:
                break
        return best

    def candidate_moves(self, s: Any) -> list[int]:
        """The moves the greedy and search players consider (all legal moves unless a game narrows them)."""
        return self.legal(s)

    def _opponent_move(self) -> int:
        s, rng = self.state, self.np_random
        moves = self.legal(s)
        if self.opponent == "random" or len(moves) == 1:
            return choice(rng, moves)
        moves = self.candidate_moves(s)
        order = [moves[int(i)] for i in rng.permutation(len(moves))]
        if self.opponent == "greedy":
            return self._greedy_reply(s, order)
        best, best_v = order[0], np.inf
        for a in order:
            v = self.minimax(self.play(s, a), self.search_depth - 1, -np.inf, best_v)
            if v < best_v:
                best, best_v = a, v
        return best

    def _greedy_reply(self, s: Any, order: list[int]) -> int:
        """The greedy player's reply in state ``s`` among ``order`` (the candidate moves in a random
        order): a winning move, else the first with the lowest `heuristic`, an immediate win left to
        the agent counting as a loss. A game may work the same values out faster."""
        best, best_v = order[0], np.inf
        for a in order:
            t = self.play(s, a)
            if self.result(t) == THEM:
                return a
            v = self.heuristic(t)
            if v < best_v:   # the costly test only when it can matter: a win left to the agent only adds
                v += LOSS_VALUE if self.mover(t) == ME and self.immediate_win(t) else 0.0
                if v < best_v:
                    best, best_v = a, v
        return best

    # ---------------------------------------------------------------- step
    def _apply(self, action: int) -> Outcome:
        s = self.state
        if action not in self.legal_now(s):
            return Outcome(invalid=True, feedback=self.describe_invalid(s, action))
        text = [f"you played {self.move_name(action)}"]
        self.before = s
        self.state = self.play(s, action)
        self.moves += 1
        self.last = (action,)
        while self.result(self.state) is None and self.mover(self.state) == THEM:
            reply = self._opponent_move()
            self.state = self.play(self.state, reply)
            self.last = (*self.last, reply)
            text.append(f"the opponent played {self.move_name(reply)}")
        msg = ", ".join(text)
        return end_outcome(self.result(self.state), msg) or Outcome(feedback=msg)

    def _progress(self) -> float:
        if self._success:
            return 1.0
        if self._terminated:
            return 0.0
        return 0.9 * min(self.moves, self.target) / self.target

    # ---------------------------------------------------------------- oracle
    def oracle_action(self) -> int:
        """The first move of the fastest forced win (AND-OR search); a minimax move if none is left."""
        s = self.state
        moves = self.legal(s) if self.result(s) is None else []
        if not moves:
            return 0
        for k in range(1, self.target + 1):
            for a in self.attack_moves(s):
                if self.wins(self.play(s, a), k - 1):
                    return a
        return max(self.candidate_moves(s), key=lambda a: self.minimax(self.play(s, a), self.search_depth - 1, -np.inf, np.inf))

    # ---------------------------------------------------------------- VLM protocol
    def parse_action(self, text: str) -> Any:
        try:
            idx = parse_choice(text, self.action_names)
            if idx is None and self.action_aliases:
                j = parse_choice(text, [n for n, _ in self.action_aliases])
                idx = None if j is None else self.action_aliases[j][1]
            return idx
        except Exception:  # noqa: BLE001 - the contract: never raises
            return None

    # ---------------------------------------------------------------- drawing
    def cell_keys(self, s: Any) -> list[list[Hashable]]:
        raise NotImplementedError

    def _tile(self, key: Hashable, h: int, w: int) -> np.ndarray:
        raise NotImplementedError

    board_shape: tuple[int, int] = (3, 3)
    grid_line: tuple[int, int, int] = INK

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        rows, cols = self.board_shape
        margin = max(6, min(H, W) // 14) if self.labels else max(2, min(H, W) // 32)
        painter = self.grid_painter(rows, cols, self._tile, margin=margin, background=BACKGROUND, line_color=self.grid_line)
        m = self._view_memo
        if m is not None and m[0] is self.state and m[1] is self.before and m[2] is painter:
            return m[3]   # the painter's frame as the same keys would leave it
        frame = painter.paint(self.cell_keys(self.state))
        if self.labels and not painter.labelled:
            band = painter.band
            size = fit_text_size("10", int(band * 0.9), min(int(band * 0.75), max(4, painter.cell // 2)), bold=True)
            if band >= 5:
                painter.draw_labels(frame, [self.col_label(c) for c in range(cols)], [self.row_label(r) for r in range(rows)], size)
            painter.labelled = True
        if self.memo_views:
            self._view_memo = (self.state, self.before, painter, frame)
        return frame

    def _current_state_text(self) -> str | None:
        if not self.memo_views:
            return super()._current_state_text()
        m = self._text_memo
        if m is None or m[0] is not self.state:
            m = self._text_memo = (self.state, super()._current_state_text())
        return m[1]

    def col_label(self, c: int) -> str:
        return LETTERS[c]

    def row_label(self, r: int) -> str:
        return str(self.board_shape[0] - r)


class CheckeredDiscs:
    """Mixin of the square-board race games drawn as discs on a checkerboard (Breakthrough, Lines
    of Action): squares ``LIGHT``/``DARK``, the squares the last move changed ``LIT_C``, pieces in
    ``PIECE_C`` with ``EDGE_C`` rims (class attributes of the game)."""

    LIGHT: tuple[int, int, int]
    DARK: tuple[int, int, int]
    LIT_C: tuple[int, int, int]
    PIECE_C: dict[int, tuple[int, int, int]]
    EDGE_C: dict[int, tuple[int, int, int]]

    def cell_keys(self, s):
        n, b, prev = self.side, s[0], self.before[0]
        return [[(b[r * n + c], (r + c) % 2, b[r * n + c] != prev[r * n + c]) for c in range(n)] for r in range(n)]

    def _tile(self, key, h: int, w: int) -> np.ndarray:
        piece, dark, lit = key
        tile = new_frame(h, w, self.LIT_C if lit else self.DARK if dark else self.LIGHT)
        return disc(tile, self.PIECE_C[piece], 0.72, edge=self.EDGE_C[piece]) if piece else tile
