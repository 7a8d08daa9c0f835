"""Thermometers: fill thermometers from their bulbs so every row and column has its count."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import GIVEN, board_base, cell_text, text_tile
from gymv_envs.core.canvas import (
    BACKGROUND,
    WHITE,
    color_block,
    draw_shape,
    is_uniform,
    layers_tile,
    rect_box,
    rect_layer,
    shape_layer,
)
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.logic._grid import Budget, GridAnswerEnv
from gymv_envs.domains.logic._thermometers_solver import second_solution, solve

# difficulty -> (side, longest thermometer)
LEVELS = {0: (4, 3), 1: (5, 4), 2: (6, 5)}
TUBE = (150, 155, 170)
PAD = (0, 0.8, 0.8, 0)  # the board's room for the counts


@functools.lru_cache(maxsize=1024)  # per frame, side, cell and direction: a tile of (0.66 cell)^2 pixels
def _bulb(size: tuple, n: int, r: int, c: int, dr: int, dc: int) -> tuple | None:
    """The bulb at cell (r, c) of a thermometer going on in direction (dr, dc) ((0, 0): one cell) as
    (rows, columns, tile): the white cell, the tube's end there and the circle, as `_draw` blended them
    before (a thermometer draws only inside its own cells: the box on the frame is the base board's).
    None where the box is not all white (blend it there)."""
    base, g = board_base(size, n, n, pad=PAD)
    w, side = g.cell * 0.32, int(g.cell * 0.66)
    (x0, y0), (x1, y1) = g.center(r, c), g.center(r + dr, c + dc)  # the tube's end in the box: as far as it goes
    tube = (min(x0, x1) - w / 2, min(y0, y1) - w / 2, max(x0, x1) + w / 2, max(y0, y1) + w / 2)
    bulb = shape_layer("circle", x0, y0, side, TUBE)
    bx, by = bulb[1], bulb[2]
    box = (bx, by, bx + side, by + side)
    if not is_uniform(base, *box, WHITE):
        return None
    a, c, b, d = rect_box(base.shape, *tube)
    end = rect_layer(base.shape, max(a, box[0]), max(c, box[1]), min(b, box[2]), min(d, box[3]), TUBE)
    return slice(by, by + side), slice(bx, bx + side), layers_tile([end, bulb] if end else [bulb], *box, WHITE)


@functools.lru_cache(maxsize=4096)  # per frame, side and end cells
def _thermometer(size: tuple, n: int, r0: int, c0: int, r1: int, c1: int) -> tuple:
    """A thermometer from bulb (r0, c0) to (r1, c1): the box `fill_rect` fills with its tube (rows, columns,
    a block of the tube's colour; None when empty), its `_bulb` and the bulb's centre (x, y)."""
    base, g = board_base(size, n, n, pad=PAD)
    w = g.cell * 0.32
    (x0, y0), (x1, y1) = g.center(r0, c0), g.center(r1, c1)
    box = rect_box(base.shape, min(x0, x1) - w / 2, min(y0, y1) - w / 2, max(x0, x1) + w / 2, max(y0, y1) + w / 2)
    tube = None if box is None else (slice(box[1], box[3]), slice(box[0], box[2]), color_block(box[3] - box[1], box[2] - box[0], TUBE))
    return tube, _bulb(size, n, r0, c0, (r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)), x0, y0


@functools.lru_cache(maxsize=1024)  # per frame, side, place and count: one text tile (shared with text_tile's)
def _count(size: tuple, n: int, r: float, c: float, v: int) -> tuple | None:
    """What `cell_text` pastes for count ``v`` at (r, c): (rows, columns, tile), None where it draws."""
    _, g = board_base(size, n, n, pad=PAD)
    tile = text_tile(str(v), max(4, int(g.cell * 0.5)), GIVEN, True, BACKGROUND)
    h, w = tile.shape[:2]
    cx, cy = g.center(r, c)
    x, y = int(round(cx - w / 2)), int(round(cy - h / 2))
    if x < 0 or y < 0 or x + w > size[1] or y + h > size[0]:
        return None
    return slice(y, y + h), slice(x, x + w), tile


class Thermometers(GridAnswerEnv):
    """Fill the thermometers so that every row and column holds its number of filled cells.

    ## Description
    An ``n x n`` grid is covered by straight thermometers, each with a round bulb at one end.
    A thermometer is filled from its bulb without gaps: any number of its cells, from none
    to all, starting at the bulb. The number right of each row and below each column is how
    many filled cells that line holds. Find the filled cells. The solution is unique
    (checked by the solver at generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the grid row by row with ``#`` (or ``1``) for a filled
    cell and ``.`` (or ``0``) for an empty one, ``/`` or newlines between rows.
    ``"mcq"``: `Discrete(k)` over fillings.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid, the thermometers and the counts.

    ## Rewards
    1.0 if every thermometer is filled from its bulb without gaps and every count holds,
    else 0.0.

    ## Starting State
    The grid is cut into random straight thermometers (1 to the difficulty's longest cells)
    with random bulb ends and random fill levels, redrawn until the solution is unique.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, up to 3 long; 1: 5x5, up to 4; 2: 6x6, up to 5), ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    cell_kind = "mask"

    def _configure(self) -> None:
        self.n, self.longest = LEVELS[self.difficulty]
        self.rows = self.cols = self.n
        self.answer_hint = self._mask_hint("the filled cells", "filled", "empty")

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        self._unique: tuple | None = None
        with ScalarDraws(rng) as d:  # `rng.integers` one by one, at Python speed
            for _ in range(2000):
                thermos = self._cut(d)
                grid = [[0] * n for _ in range(n)]
                rc, cc = [0] * n, [0] * n
                levels = [d.integers(len(t) + 1) for t in thermos]
                for t, level in zip(thermos, levels):
                    for r, c in t[:level]:
                        grid[r][c] = 1
                        rc[r] += 1
                        cc[c] += 1
                if second_solution(n, thermos, levels):  # a second solution at hand: `solve` would find two
                    continue
                try:
                    if len(solve(n, thermos, rc, cc)) == 1:
                        self._unique = tuple(tuple(row) for row in grid)  # the drawn filling is the solution
                        break
                except Budget:
                    continue
        self.thermos, self.row_counts, self.col_counts = thermos, rc, cc
        self.free = [(r, c) for r in range(n) for c in range(n)]

    def _cut(self, d: ScalarDraws) -> list:
        n, longest = self.n, self.longest
        owner = [False] * (n * n)
        thermos = []
        for i in d.permutation(n * n):
            if owner[i]:
                continue
            r, c = divmod(i, n)
            want = d.integers(2, longest + 1)
            runs, best = [], 0  # the longest free runs (up to `want` cells) right, down, left and up
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                k, a, b = 1, r + dr, c + dc
                while k < want and 0 <= a < n and 0 <= b < n and not owner[a * n + b]:
                    k, a, b = k + 1, a + dr, b + dc
                if k > best:
                    runs, best = [(dr, dc)], k
                elif k == best:
                    runs.append((dr, dc))
            dr, dc = runs[d.integers(len(runs))]
            cells = [(r + k * dr, c + k * dc) for k in range(best)]
            for a, b in cells:
                owner[a * n + b] = True
            thermos.append(cells[::-1] if d.integers(2) else cells)
        return thermos

    # -- draw
    def _draw(self) -> np.ndarray:
        n, size = self.n, tuple(self.obs_size)
        base, g = board_base(size, n, n, pad=PAD)
        img = base.copy()
        for t in self.thermos:
            tube, hit, x0, y0 = _thermometer(size, n, *t[0], *t[-1])
            if tube is not None:
                img[tube[0], tube[1]] = tube[2]
            if hit is None:  # not the white cell under the bulb: blend it
                draw_shape(img, "circle", x0, y0, int(g.cell * 0.66), TUBE)
            else:
                img[hit[0], hit[1]] = hit[2]
        for i in range(n):
            for r, c, v in ((i, n - 0.1, self.row_counts[i]), (n - 0.1, i, self.col_counts[i])):
                hit = _count(size, n, r, c, v)
                if hit is None:
                    cell_text(img, g, r, c, str(v), scale=0.5, bg=BACKGROUND)
                else:
                    img[hit[0], hit[1]] = hit[2]
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Thermometers puzzle. Grey thermometers cover the grid, each with a round "
                "bulb at one end. Fill some cells: each thermometer is filled starting from its bulb, without gaps "
                "(it may be empty, partly filled or full). The number right of each row and below each column is "
                "how many filled cells that row or column has. Which cells are filled?")

    def _state_text(self) -> str:
        ts = "; ".join(" ".join(f"r{r + 1}c{c + 1}" for r, c in t) for t in self.thermos)
        return (f"thermometers (bulb first): {ts}\nrow counts: {' '.join(map(str, self.row_counts))}\n"
                f"column counts: {' '.join(map(str, self.col_counts))}")

    # -- verify
    def _check(self, answer) -> bool:
        for t in self.thermos:
            vals = [answer[r][c] for r, c in t]
            if vals != sorted(vals, reverse=True):
                return False
        return ([sum(row) for row in answer] == self.row_counts
                and [sum(col) for col in zip(*answer, strict=True)] == self.col_counts)

    # -- oracle
    def _solve(self):
        if self._unique is not None:
            return self._unique
        levels = solve(self.n, self.thermos, self.row_counts, self.col_counts, limit=1, budget=10**8)[0]
        grid = [[0] * self.n for _ in range(self.n)]
        for t, level in zip(self.thermos, levels, strict=True):
            for r, c in t[:level]:
                grid[r][c] = 1
        return tuple(tuple(row) for row in grid)


SPECS = (
    TaskSpec(name="Thermometers", entry_point=Thermometers, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction")),
)
