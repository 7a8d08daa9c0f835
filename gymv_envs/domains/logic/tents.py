"""Tents: place one tent beside each tree, tents never touching, with row and column counts."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import GIVEN, Geom, board_base, cell_text, cell_text_spot
from gymv_envs.core.canvas import (
    BACKGROUND,
    PALETTE,
    WHITE,
    base_is_uniform,
    draw_layers,
    layers_tile,
    shape_layer,
)
from gymv_envs.domains.logic._grid import Budget, GridAnswerEnv
from gymv_envs.domains.logic._tents_solver import pairing, solve

# difficulty -> (side, tents as a share of the cells)
LEVELS = {0: (5, 0.2), 1: (6, 0.2), 2: (8, 0.19)}


@functools.cache
def _edge(n: int) -> bytes:
    """The border cells (1) of an ``(n + 2) x (n + 2)`` grid around an ``n x n`` board, row by row."""
    w = n + 2
    return bytes(int(not (0 < i // w <= n and 0 < i % w <= n)) for i in range(w * w))


def _plain_board(obs_size: tuple[int, int], n: int) -> tuple[np.ndarray, Geom]:
    """Tents-v1's empty board, counts' room right and below (read-only, cached)."""
    return board_base(obs_size, n, n, pad=(0, 0.8, 0.8, 0))


def _count_spot(g: Geom, shape: tuple, r: float, c: float, v: int) -> tuple | None:
    """Where `cell_text` pastes count ``v`` at (r, c) and its tile, or None where it would draw it instead."""
    spot = cell_text_spot(g, shape, r, c, str(v), 0.5, GIVEN, True, BACKGROUND)
    return spot if len(spot) == 3 else None


@functools.lru_cache(maxsize=32)
def _sprites(board, obs_size: tuple[int, int], n: int) -> tuple:
    """For ``board(obs_size, n)``: its base and geometry, each cell's tree tile and where it goes (None where
    `draw_layers` would blend it), and each row's and column's count spots (by count) from `_count_spot`."""
    base, g = board(obs_size, n)
    size, trees = int(g.cell * 0.7), []
    for r in range(n):
        for c in range(n):
            layer = shape_layer("triangle", *g.center(r, c), size, PALETTE["green"])
            x0, y0 = layer[1], layer[2]
            x1, y1 = x0 + layer[0].shape[1], y0 + layer[0].shape[0]
            trees.append((slice(y0, y1), slice(x0, x1), layers_tile([layer], x0, y0, x1, y1, WHITE))
                         if base_is_uniform(base, x0, y0, x1, y1, WHITE) else None)
    rows = tuple(tuple(_count_spot(g, base.shape, i, n - 0.1, v) for v in range(n + 1)) for i in range(n))
    cols = tuple(tuple(_count_spot(g, base.shape, n - 0.1, i, v) for v in range(n + 1)) for i in range(n))
    return base, g, tuple(trees), rows, cols


class Tents(GridAnswerEnv):
    """Place the tents: one beside each tree, none touching, matching the row and column counts.

    ## Description
    An ``n x n`` grid holds trees (green). Place tents on empty cells so that the trees and
    tents pair up one to one with each tent directly above, below, left or right of its
    tree; no two tents touch, not even diagonally; and the number right of each row and
    below each column is how many tents that line holds. The solution is unique (checked by
    the solver at generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the grid row by row with ``#`` (or ``1``) for a tent
    and ``.`` (or ``0``) for any other cell (trees included), ``/`` or newlines between rows.
    ``"mcq"``: `Discrete(k)` over tent layouts.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid, the trees and the counts.

    ## Rewards
    1.0 if the tents obey all three rules, else 0.0.

    ## Starting State
    Tents are scattered without touching, each gets a tree on a free neighbouring cell; the
    layout is redrawn until the solution is unique.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5, 1: 6x6, 2: 8x8), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    cell_kind = "mask"

    def _configure(self) -> None:
        self.n, self.share = LEVELS[self.difficulty]
        self.rows = self.cols = self.n
        self.answer_hint = self._mask_hint("the tents", "a tent", "any other cell")

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        want = max(2, round(self.share * n * n))
        w = n + 2  # cell (r, c) at index (r + 1) * w + c + 1 of grids with a border one cell wide
        steps = (1, w, -1, -w)  # right, down, left, up: `_tents_solver.ORTHO`
        around = tuple(dr * w + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1))
        edge = _edge(n)
        for _ in range(2000):
            tents, trees = [], []
            is_tree = bytearray(w * w)
            taken = bytearray(edge)  # a tree, a tent or off the board
            near = bytearray(w * w)  # a tent or next to one
            for i in rng.permutation(n * n).tolist():
                if len(tents) == want:
                    break
                r, c = divmod(i, n)
                p = (r + 1) * w + c + 1
                if is_tree[p] or near[p]:
                    continue
                spots = [p + d for d in steps if not taken[p + d]]
                if not spots:
                    continue
                q = spots[int(rng.integers(len(spots)))]
                tents.append((r, c))
                trees.append((q // w - 1, q % w - 1))
                taken[p] = taken[q] = is_tree[q] = 1
                for d in around:
                    near[p + d] = 1
            rc, cc = [0] * n, [0] * n
            for r, c in tents:
                rc[r] += 1
                cc[c] += 1
            try:
                sols = solve(n, sorted(trees), rc, cc)
            except Budget:
                sols = []
            if len(sols) == 1:
                break
        self.trees, self.row_counts, self.col_counts = sorted(trees), rc, cc
        self.tents = sols[0] if len(sols) == 1 else None  # the solution, when the solver found it unique

    @property
    def free(self) -> list:
        """The cells without a tree, where near-miss answers change cells (made when asked: open answers never are)."""
        trees = set(self.trees)
        return [(r, c) for r in range(self.n) for c in range(self.n) if (r, c) not in trees]

    # -- draw
    def _draw(self) -> np.ndarray:
        return self._paint(_plain_board)

    def _paint(self, board) -> np.ndarray:
        """The trees and counts on a copy of ``board(obs_size, n)``: tiles pasted from `_sprites` (the very
        pixels of `_draw_trees` and `cell_text`, which draw what has no tile)."""
        n = self.n
        base, g, trees, rows, cols = _sprites(board, tuple(self.obs_size), n)
        img = base.copy()
        spots = [trees[r * n + c] for r, c in self.trees]
        if None in spots:
            self._draw_trees(img, g, base)
        else:
            for ys, xs, tile in spots:
                img[ys, xs] = tile
        for i in range(n):
            for spot, r, c, v in ((rows[i][self.row_counts[i]], i, n - 0.1, self.row_counts[i]),
                                  (cols[i][self.col_counts[i]], n - 0.1, i, self.col_counts[i])):
                if spot is None:
                    cell_text(img, g, r, c, str(v), scale=0.5, bg=BACKGROUND)
                else:
                    img[spot[0], spot[1]] = spot[2]
        return img

    def _draw_trees(self, img: np.ndarray, g: Geom, base: np.ndarray) -> None:
        """The trees on ``img``, a fresh copy of the read-only ``base`` (each from a cached tile where its
        box is white there: the very pixels of blending it)."""
        size, green = int(g.cell * 0.7), PALETTE["green"]
        draw_layers(img, [[shape_layer("triangle", *g.center(r, c), size, green)] for r, c in self.trees], base, WHITE)

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Tents puzzle; green triangles are trees. Place tents on empty cells so "
                "that: trees and tents pair up one to one, each tent directly above, below, left or right of its own "
                "tree; no two tents touch each other, not even diagonally; and the number right of each row and "
                "below each column is how many tents that row or column has. Where are the tents?")

    def _state_text(self) -> str:
        n = self.n
        cells = ["."] * (n * n)
        for r, c in self.trees:
            cells[r * n + c] = "T"
        body = "\n".join(" ".join(cells[r * n:r * n + n]) for r in range(n))
        return f"{body}\nrow counts: {' '.join(map(str, self.row_counts))}\ncolumn counts: {' '.join(map(str, self.col_counts))}"

    # -- verify
    def _check(self, answer) -> bool:
        n = self.n
        tents = [(r, c) for r in range(n) for c in range(n) if answer[r][c]]
        if not set(self.trees).isdisjoint(tents):
            return False
        if [sum(row) for row in answer] != self.row_counts or [sum(col) for col in zip(*answer, strict=True)] != self.col_counts:
            return False
        w, bits = n + 1, 0  # the tents as bits r * w + c: a column of blanks keeps rows apart
        for r, c in tents:
            bits |= 1 << (r * w + c)
        if bits & (bits >> 1 | bits >> (w - 1) | bits >> w | bits >> (w + 1)):  # two tents touch
            return False
        return pairing(self.trees, tents)

    # -- oracle
    def _tent_cells(self) -> tuple:
        if self.tents is not None:
            return self.tents
        return solve(self.n, self.trees, self.row_counts, self.col_counts, limit=1, budget=10**8)[0]

    def _solve(self):
        tents = set(self._tent_cells())
        return tuple(tuple(int((r, c) in tents) for c in range(self.n)) for r in range(self.n))


SPECS = (
    TaskSpec(name="Tents", entry_point=Tents, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction")),
)
