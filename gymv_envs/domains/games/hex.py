"""Hex: connect your two sides of a rhombus board against a built-in opponent."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    PALETTE,
    disc,
    draw_text,
    fill_rect,
    fit_text_size,
    new_frame,
)
from gymv_envs.core.cells import LETTERS, cell_names
from gymv_envs.core.rng import choice
from gymv_envs.domains.games._board import LOSS_VALUE, ME, OPPONENT_TEXT, THEM, BoardGameEnv
from gymv_envs.domains.games._hex_graph import (
    adjacency,
    connected,
    distance,
    gap,
    joins,
    layers,
    masks,
    winning_cells,
    winning_mask,
)

LEVELS = {0: (5, 8), 1: (6, 12), 2: (7, 16)}   # difficulty -> (board side, random opening plies)
STONE_C = {ME: PALETTE["red"], THEM: PALETTE["blue"]}
CELL_C, LIT_C = (235, 225, 200), (250, 225, 120)


class Hex(BoardGameEnv):
    """Play red in Hex and join the top and bottom edges.

    ## Description
    A rhombus of hexagonal cells is shown mid-game. Red (yours) joins the top and bottom
    edges, blue (the opponent's) the left and right edges; the edges are coloured to match.
    Columns are labelled A, B, ... along the top and rows 1, 2, ... from top to bottom (each row
    is shifted half a cell to the right of the one above). Players take turns placing one
    stone on an empty cell; Hex has no draws. The opponent answers within the same step.

    ## Action Space
    `Discrete(side * side)`: the cell to play, named like ``C2`` (column letter, row number).
    Playing an occupied cell is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with labels and coloured edges; stones of the
    last step sit on lighter cells.

    ## Rewards
    +1 for a win, -1 for a loss, given when the game ends (``max_return`` 1).

    ## Starting State
    A random opening drawn from the seed with red to move, kept only when red can force a
    connection by a sequence of threats (each answered by a forced block) in exactly 1
    (difficulty 0), 2 or 3 of its own moves and has no shorter such win.

    ## Episode End
    Terminates when a player joins its edges; success is a red connection.

    ## Arguments
    ``difficulty``: 0 (5x5, random opponent), 1 (6x6, greedy opponent), 2 (7x7, 2-ply alpha-beta
    opponent on connection distance); ``obs_size``. The registered id defaults to difficulty 1.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's action-space
      seeding (a seeded random policy no longer replays the level's draws). The registered id defaults
      to difficulty 1: random play won 50% of the difficulty-0 games (a win in one on 5x5 against a
      random opponent), 1% at difficulty 1.
    """

    labels = False
    transient_attrs = (*BoardGameEnv.transient_attrs, "_layout")

    def _configure(self) -> None:
        super()._configure()
        self.side, self.plies = LEVELS[self.difficulty]
        n = self.side
        self.action_names = cell_names(n, n)

    # -- generate
    def standard_start(self):
        """The empty board, red to move (no swap rule)."""
        return (0,) * (self.side ** 2), ME, None

    def random_start(self, rng: np.random.Generator):
        s = self.standard_start()
        for _ in range(self.plies):
            if s[2] is not None:
                break
            s = self.play(s, choice(rng, self.legal(s)))
        return s

    # -- rules
    def legal(self, s) -> list[int]:
        return [i for i, v in enumerate(s[0]) if v == 0]

    def play(self, s, a: int):
        p = s[1]
        b = s[0][:a] + (p,) + s[0][a + 1:]
        return b, 3 - p, (p if connected(b, p, self.side) else None)

    def result(self, s):
        return s[2]

    def immediate_win(self, s) -> bool:
        return bool(winning_cells(s[0], s[1], self.side))

    def wins(self, s, k: int) -> bool:
        """Whether red connects within ``k`` moves by a sequence of threats (sound, not complete)."""
        if s[2] is not None:
            return s[2] == ME
        if k <= 0:
            return False
        memo, key = self._memo_table(), (s, k)
        if key in memo:
            return memo[key]
        n, b = self.side, s[0]
        if s[1] == ME:
            hit = bool(winning_cells(b, ME, n)) or (k > 1 and any(self.wins(self.play(s, a), k - 1) for a in self.attack_moves(s)))
        else:
            threat = winning_cells(b, ME, n)
            if winning_cells(b, THEM, n) or not threat:
                hit = False
            else:
                hit = len(threat) >= 2 or self.wins(self.play(s, threat[0]), k)
        memo[key] = hit
        return hit

    def attack_moves(self, s) -> list[int]:
        n, b = self.side, s[0]
        now = winning_cells(b, ME, n)
        if now:
            return now
        block = winning_cells(b, THEM, n)
        if block:
            return block if len(block) == 1 else []
        own, empty = masks(b, ME)   # the board's masks once; each move adds its stone to them
        return [a for a in self.legal(s) if winning_mask(own | 1 << a, empty & ~(1 << a), ME, n)]

    def candidate_moves(self, s) -> list[int]:
        """Empty cells touching a stone (all empty cells on an empty board)."""
        adj, b = adjacency(self.side), s[0]
        return [i for i in self.legal(s) if any(b[j] for j in adj[i])] or self.legal(s)

    def heuristic(self, s) -> float:
        n = self.side
        return float(distance(s[0], THEM, n) - distance(s[0], ME, n))

    def _greedy_reply(self, s, order: list[int]) -> int:
        """The base's greedy reply with the board's bit masks and both players' distance layers made once:
        each reply's `heuristic` and `immediate_win` follow from them (see below): the same values, so
        the same move."""
        n = self.side
        red, empty = masks(s[0], ME)
        blue = ((1 << n * n) - 1) & ~red & ~empty
        # blue's distance with a stone on a: its shortest path, or the best path through a (a now free);
        # red's with a taken: unchanged unless a lies on one of red's shortest paths; red's wins: minus a
        blue_gap, red_gap = gap(blue, empty, THEM, n), gap(red, empty, ME, n)
        bf, bb = layers(blue, empty, THEM, n, 0), layers(blue, empty, THEM, n, 1)
        rf, rb = layers(red, empty, ME, n, 0), layers(red, empty, ME, n, 1)
        red_wins = winning_mask(red, empty, ME, n)
        best, best_v = order[0], np.inf
        for a in order:
            bit = 1 << a
            if joins(blue | bit, THEM, n):
                return a
            them = min(blue_gap, bf[a] + bb[a] - 2) if a in bf and a in bb else blue_gap
            me = gap(red, empty & ~bit, ME, n) if a in rf and a in rb and rf[a] + rb[a] - 1 == red_gap else red_gap
            v = float(them - me) + (LOSS_VALUE if red_wins & ~bit else 0.0)
            if v < best_v:
                best, best_v = a, v
        return best

    def describe_invalid(self, s, a: int) -> str:
        return f"{self.action_names[a]} is occupied; choose an empty cell"

    # -- draw
    def _geometry(self):
        """Cached per env: (empty board, cell width, row height, x0, y0)."""
        H, W = self.obs_size
        n = self.side
        cw = min((W * 0.9) / (n + (n - 1) / 2 + 1), (H * 0.9) / (n * 0.9 + 1))
        rh = cw * 0.9
        x0 = (W - cw * (n + (n - 1) / 2)) / 2
        y0 = (H - rh * n) / 2
        base = new_frame(H, W, BACKGROUND)
        t = max(2, int(cw / 8))
        for c in range(n):   # red edges above and below, blue edges left and right
            fill_rect(base, x0 + c * cw, y0 - t - 1, x0 + (c + 1) * cw, y0 - 1, STONE_C[ME])
            fill_rect(base, x0 + c * cw + (n - 1) * cw / 2, y0 + n * rh + 1, x0 + (c + 1) * cw + (n - 1) * cw / 2, y0 + n * rh + t + 1, STONE_C[ME])
        for r in range(n):
            fill_rect(base, x0 + r * cw / 2 - t - 1, y0 + r * rh, x0 + r * cw / 2 - 1, y0 + (r + 1) * rh, STONE_C[THEM])
            fill_rect(base, x0 + n * cw + r * cw / 2 + 1, y0 + r * rh, x0 + n * cw + r * cw / 2 + t + 1, y0 + (r + 1) * rh, STONE_C[THEM])
        size = fit_text_size("10", int(cw * 0.8), int(min(rh * 0.6, y0 * 0.7)) or 4, bold=True)
        if y0 - t >= 6:
            for c in range(n):
                draw_text(base, LETTERS[c], (x0 + (c + 0.5) * cw, (y0 - t) / 2), size, INK, bold=True)
            for r in range(n):
                draw_text(base, str(r + 1), (x0 + r * cw / 2 - t - cw / 3, y0 + (r + 0.5) * rh), size, INK, bold=True)
        self._layout = (base, cw, rh, x0, y0, {})
        return self._layout

    def _draw(self) -> np.ndarray:
        base, cw, rh, x0, y0, tiles = getattr(self, "_layout", None) or self._geometry()
        frame = base.copy()
        n, b, prev = self.side, self.state[0], self.before[0]
        w, h = int(cw), int(rh)
        for i in range(n * n):
            key = (b[i], b[i] != prev[i])
            tile = tiles.get(key)
            if tile is None:
                tile = tiles[key] = disc(new_frame(h, w, LIT_C if key[1] else BACKGROUND), STONE_C[b[i]] if b[i] else CELL_C, 0.92, edge=(110, 100, 80))
            r, c = divmod(i, n)
            x, y = int(x0 + c * cw + r * cw / 2), int(y0 + r * rh)
            frame[y:y + h, x:x + w] = tile
        return frame

    def _task_text(self) -> str:
        n = self.side
        return (f"You play Hex as red against blue on the {n}x{n} rhombus of hexagonal cells shown. Columns are "
                f"labelled A to {LETTERS[n - 1]} along the top and rows 1 to {n} from top to bottom; each row is shifted "
                "half a cell right of the one above, so a cell touches six others. Red wins by joining the top and "
                "bottom edges (coloured red) with a chain of red stones; blue by joining the left and right edges. "
                "Each turn place one red stone on an empty cell, named like C2; the opponent then answers at once (it "
                f"{OPPONENT_TEXT[self.opponent]}). A red chain wins (+1); a blue chain loses (-1). It is your turn "
                "and red can force a win.")

    def _state_text(self) -> str:
        n, sym = self.side, {0: ".", ME: "R", THEM: "B"}
        return "\n".join(" " * r + f"{r + 1:>2} " + " ".join(sym[self.state[0][r * n + c]] for c in range(n)) for r in range(n))


SPECS = (
    TaskSpec(name="Hex", entry_point=Hex, version=1, max_episode_steps=40,
             tags=("board-game", "adversarial", "planning"), kwargs={"difficulty": 1}),
)
