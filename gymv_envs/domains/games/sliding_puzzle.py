"""Sliding puzzle: slide numbered tiles into order (the 8- and 15-puzzle)."""

from __future__ import annotations

import functools
import heapq
from bisect import bisect_left

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import INK, fit_text_size, text_mask

# difficulty -> (board side, random moves scrambling the solved board)
LEVELS = {0: (3, 8), 1: (3, 20), 2: (4, 30)}
# weighted A* rounds: (weight on the heuristic, node cap); the first round that finishes wins
ROUNDS = {3: ((1.0, 30_000), (2.0, 200_000)), 4: ((1.2, 8_000), (2.0, 20_000), (3.0, 400_000))}


@functools.lru_cache(maxsize=1 << 16)
def line_conflicts(n: int, line: int, horizontal: bool, tiles: tuple[int, ...]) -> int:
    """Linear-conflict bonus of one row (or column): 2 per tile that must leave the line to let
    the tiles whose home is in it pass each other (length minus their longest in-order run)."""
    homes = [(v - 1) % n if horizontal else (v - 1) // n for v in tiles
             if v and ((v - 1) // n if horizontal else (v - 1) % n) == line]
    run: list[int] = []
    for x in homes:
        i = bisect_left(run, x)
        run[i:i + 1] = [x]
    return 2 * (len(homes) - len(run))


FACE, EDGE, HOLE = (240, 214, 160), (150, 105, 55), (70, 72, 84)


class SlidingPuzzle(MultiTurnEnv):
    """Slide the numbered tiles of an n x n puzzle back into order.

    ## Description
    The classic 8-puzzle (3x3) and 15-puzzle (4x4): ``n*n - 1`` numbered tiles and one
    empty cell. A move slides a tile next to the empty cell into it. The goal is the tiles
    in increasing order, left to right and top to bottom, with the empty cell last.

    ## Action Space
    `Discrete(4)`: ``up``, ``down``, ``left``, ``right``, the direction a tile slides into the
    empty cell (``up`` moves the tile below the empty cell up). A move with no tile on that
    side is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board, numbered tiles and one dark empty cell.

    ## Rewards
    1.0 when the puzzle is solved, else 0.0 (``max_return`` 1.0).

    ## Starting State
    The solved board scrambled by random moves without immediate backtracking (redrawn if
    it comes back solved), so every level is solvable.

    ## Episode End
    Terminates with success when the tiles are in order; the step budget truncates.

    ## Arguments
    ``difficulty`` (0: 3x3, 8 scrambling moves; 1: 3x3, 20 moves; 2: 4x4, 30 moves), ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    action_names = ("up", "down", "left", "right")

    def _configure(self) -> None:
        self.n, self.scramble = LEVELS[self.difficulty]
        n = self.n
        self.solved = tuple(range(1, n * n)) + (0,)
        self.shifts = (n, -n, 1, -1)  # where the empty cell goes for each action
        # dist[v][i]: Manhattan distance of tile v at cell i from its home cell
        self.dist = [[0] * (n * n)] + [[abs(i // n - (v - 1) // n) + abs(i % n - (v - 1) % n) for i in range(n * n)]
                                       for v in range(1, n * n)]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        board = self.solved
        while board == self.solved:
            board, back = self.solved, -1
            for _ in range(self.scramble):
                moves = [a for a in range(4) if self._can(board.index(0), a) and a != back]
                a = moves[int(rng.integers(len(moves)))]
                board, back = self._slide(board, board.index(0), a), a ^ 1
        self.board, self.blank = board, board.index(0)
        self._start_h = self._h(board)
        self._plan: dict = {}

    def _h(self, board: tuple[int, ...]) -> int:
        return sum(self.dist[v][i] for i, v in enumerate(board))

    def _conflicts(self, board: tuple[int, ...], k: int, horizontal: bool) -> int:
        n = self.n
        return line_conflicts(n, k, horizontal, board[k * n:(k + 1) * n] if horizontal else board[k::n])

    # -- rules
    def _can(self, blank: int, a: int) -> bool:
        n, (r, c) = self.n, divmod(blank, self.n)
        return (r < n - 1, r > 0, c < n - 1, c > 0)[a]

    def _slide(self, board: tuple[int, ...], blank: int, a: int) -> tuple[int, ...]:
        b, z = list(board), blank + self.shifts[a]
        b[blank], b[z] = b[z], 0
        return tuple(b)

    def _apply(self, action: int) -> Outcome:
        name = self.action_names[action]
        if not self._can(self.blank, action):
            side = ("below", "above", "to the right of", "to the left of")[action]
            return Outcome(invalid=True, feedback=f"no tile {side} the empty cell to slide {name}")
        tile = self.board[self.blank + self.shifts[action]]
        self.board = self._slide(self.board, self.blank, action)
        self.blank += self.shifts[action]
        done = self.board == self.solved
        return Outcome(reward=float(done), terminated=done, success=done,
                       feedback="solved" if done else f"slid tile {tile} {name}")

    def _progress(self) -> float:
        return 1.0 if self._success else max(0.0, 1.0 - self._h(self.board) / max(1, self._start_h))

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        keys = [self.board[r * n: (r + 1) * n] for r in range(n)]
        return self.grid_painter(n, n, self._tile).paint(keys)

    def _tile(self, v: int, h: int, w: int) -> np.ndarray:
        t = np.empty((h, w, 3), dtype=np.uint8)
        t[...] = HOLE
        if v == 0:
            return t
        m = max(1, h // 24)
        t[m:h - m, m:w - m] = EDGE
        e = m + max(1, h // 16)
        t[e:h - e, e:w - e] = FACE
        mask = text_mask(str(v), fit_text_size(str(v), int(w * 0.62), int(h * 0.5), bold=True), True)
        mh, mw = mask.shape
        y, x = (h - mh) // 2, (w - mw) // 2
        a = mask[..., None].astype(np.float32) / 255
        region = t[y:y + mh, x:x + mw].astype(np.float32)
        t[y:y + mh, x:x + mw] = (region * (1 - a) + np.asarray(INK, np.float32) * a + 0.5).astype(np.uint8)
        return t

    def _task_text(self) -> str:
        n = self.n
        goal = " / ".join(" ".join(str(v or "_") for v in self.solved[r * n:(r + 1) * n]) for r in range(n))
        return (f"The image shows a {n}x{n} sliding puzzle: {n * n - 1} numbered tiles and one dark empty cell. "
                "Put the tiles in order: numbers increase from left to right and top to bottom, with the empty "
                f"cell in the bottom-right corner (rows: {goal}). Each move slides one tile next to the empty cell "
                "into it; name the direction the tile moves: up slides the tile below the empty cell up, down "
                "slides the tile above it down, left slides the tile to its right leftwards, and right slides the "
                "tile to its left rightwards.")

    def _state_text(self) -> str:
        n = self.n
        width = len(str(n * n - 1))
        return "\n".join(" ".join(str(v or "_").rjust(width) for v in self.board[r * n:(r + 1) * n]) for r in range(n))

    # -- oracle
    def oracle_action(self) -> int:
        if self.board not in self._plan:
            self._plan = {}
            for weight, cap in ROUNDS[self.n]:
                self._plan = self._search(self.board, weight, cap)
                if self._plan is not None:
                    break
            if self.board not in (self._plan or {}):  # solved already (or no plan): any legal move
                self._plan = {self.board: next(a for a in range(4) if self._can(self.blank, a))}
        return self._plan[self.board]

    def _search(self, board: tuple[int, ...], weight: float, cap: int) -> dict | None:
        """Weighted A*, heuristic Manhattan distance plus linear conflicts (kept incrementally: a
        move changes one tile's distance and the conflicts of the two rows or columns it crosses).
        The plan maps each board on the path to its move."""
        n = self.n
        h0 = self._h(board) + sum(self._conflicts(board, k, o) for k in range(n) for o in (True, False))
        best, parent = {board: 0}, {board: None}
        heap = [(weight * h0, 0, h0, board, board.index(0))]
        while heap and len(best) < cap:
            _, g, h, b, z = heapq.heappop(heap)
            if b == self.solved:
                plan = {}
                while parent[b] is not None:
                    b, a = parent[b]
                    plan[b] = a
                return plan
            if g > best[b]:
                continue
            for a in range(4):
                if not self._can(z, a):
                    continue
                nz = z + self.shifts[a]
                nb = self._slide(b, z, a)
                if g + 1 < best.get(nb, 1 << 30):
                    tile, rows = b[nz], a < 2  # up/down moves a tile between rows
                    k0, k1 = (nz // n, z // n) if rows else (nz % n, z % n)
                    nh = (h - self.dist[tile][nz] + self.dist[tile][z]
                          - self._conflicts(b, k0, rows) - self._conflicts(b, k1, rows)
                          + self._conflicts(nb, k0, rows) + self._conflicts(nb, k1, rows))
                    best[nb], parent[nb] = g + 1, (b, a)
                    heapq.heappush(heap, (g + 1 + weight * nh, g + 1, nh, nb, nz))
        return None


SPECS = (
    TaskSpec(name="SlidingPuzzle", entry_point=SlidingPuzzle, version=1, max_episode_steps=150,
             tags=("puzzle", "planning", "grid")),
)
