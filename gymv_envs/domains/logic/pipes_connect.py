"""Pipes: rotate every tile so that the pipes form one network with no open ends."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.core.board import blank_labelled_board, cell_rect, labelled_layout
from gymv_envs.core.canvas import WHITE, draw_shape, fill_rect, new_frame
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.logic._placement import parse_char_grid
from gymv_envs.rules.pipes import (
    DOWN,
    LEFT,
    OPPOSITE,
    RIGHT,
    STEP,
    UP,
    connected,
    open_ends,
    rotate,
    solve_pipes,
)

SIZES = {0: 3, 1: 5, 2: 7}
PIPE = (30, 90, 170)
END = (230, 120, 20)
_TURNED = tuple(tuple(rotate(m, k) for k in range(4)) for m in range(16))  # mask m turned k times: _TURNED[m][k]
_HEX = "0123456789abcdef"
_TURN = re.compile(r"([A-Z])\s?(\d{1,2})\s*(?:[:=]|->)?\s*(-?\d{1,3})\s*(°|DEGREES|DEG)?")


@functools.lru_cache(maxsize=16)
def _carve_steps(n: int) -> tuple[int, ...]:
    """Per carving move ``cell << 4 | d`` (cell ``r * n + c``, direction bit ``d``), the cell it leads to, or -1 off the board."""
    out = [-1] * (n * n << 4)
    for i in range(n * n):
        r, c = divmod(i, n)
        for d, (dr, dc) in STEP.items():
            if 0 <= r + dr < n and 0 <= c + dc < n:
                out[i << 4 | d] = (r + dr) * n + c + dc
    return tuple(out)


@functools.lru_cache(maxsize=16)
def _tile_spots(h: int, w: int, n: int) -> tuple[tuple[int, int, int], ...]:
    """Per cell in reading order, the top, the left and the side of its tile's square in pixels."""
    layout, out = labelled_layout((h, w), n, n), []
    for r in range(n):
        for c in range(n):
            x0, y0, x1, y1 = (int(v) for v in cell_rect(layout, r, c))
            out.append((y0, x0, min(x1 - x0, y1 - y0)))
    return tuple(out)


@functools.lru_cache(maxsize=256)
def tile_image(mask: int, size: int) -> np.ndarray:
    img = new_frame(size, size, WHITE)
    w = max(2, size // 5)
    a, b, mid = (size - w) / 2, (size + w) / 2, size / 2
    if mask & UP:
        fill_rect(img, a, 0, b, b, PIPE)
    if mask & DOWN:
        fill_rect(img, a, a, b, size, PIPE)
    if mask & LEFT:
        fill_rect(img, 0, a, b, b, PIPE)
    if mask & RIGHT:
        fill_rect(img, a, a, size, b, PIPE)
    if mask.bit_count() == 1:
        draw_shape(img, "circle", mid, mid, max(3, int(size * 0.42)), END)
    img.setflags(write=False)
    return img


class PipesConnect(SingleTurnEnv):
    """Rotate the pipe tiles so that all of them join into one network with no open end.

    ## Description
    An ``n x n`` grid of pipe tiles (columns A, B, ... left to right, rows 1, 2, ... top to
    bottom): end pieces (with an orange cap), straights, bends, T-pieces and crosses. Each
    tile may be turned by quarter turns. The answer gives, for every tile, how many clockwise
    quarter turns to apply so that every pipe end meets the pipe end of its neighbour, no
    pipe points off the board, and all tiles form one connected network. Any rotation grid
    that satisfies these rules is accepted (checked against the rules).

    ## Action Space
    ``answer_format="open"``: `Text`, ``n`` rows of ``n`` digits 0-3 (clockwise quarter
    turns per tile), e.g. ``012 300 121``; or turns per cell such as ``A1:1 B3:2`` (cells
    not named are not turned; degrees like ``A1:90`` also work). ``"mcq"``: `Discrete(k)`
    over rotation grids.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled grid of scrambled tiles.

    ## Rewards
    1.0 if the turned tiles form one network with no open ends, else 0.0.

    ## Starting State
    A random spanning tree of the grid gives the pipes; every tile is then turned at random.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3x3, 1: 5x5, 2: 7x7), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = ("the clockwise quarter turns of every tile, as one row of digits 0-3 per grid row, rows "
                   "separated by spaces (for example `012 300 121`)")

    def _configure(self) -> None:
        self.n = SIZES[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        masks, step, ways = [0] * (n * n), _carve_steps(n), tuple(STEP)
        with ScalarDraws(rng) as draw:  # the same draws as `rng.integers` one at a time, faster
            r = draw.integers(n)
            start = r * n + draw.integers(n)
            # a random spanning tree: moves are cell << 4 | direction, taken in `STEP` order, one drawn at a time
            seen, edges = 1 << start, [start << 4 | d for d in ways]
            while edges:
                move = edges.pop(draw.integers(len(edges)))
                j = step[move]
                if j >= 0 and not seen >> j & 1:
                    seen |= 1 << j
                    d = move & 15
                    masks[move >> 4] |= d
                    masks[j] |= OPPOSITE[d]
                    edges += [j << 4 | e for e in ways]
            while True:  # every tile turned at random, in reading order, until one is turned
                shown = [_TURNED[m][draw.integers(4)] for m in masks]
                if shown != masks:
                    break
        self.tiles = [shown[i:i + n] for i in range(0, n * n, n)]

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        img, spots = blank_labelled_board(self.obs_size, n, n)[0], _tile_spots(*self.obs_size, n)
        for (y0, x0, size), m in zip(spots, [m for row in self.tiles for m in row]):
            if size > 2:
                img[y0:y0 + size, x0:x0 + size] = tile_image(m, size)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} grid of pipe tiles with columns A to {chr(64 + n)} (left to right) and rows "
                f"1 to {n} (top to bottom). Tiles with an orange cap are dead ends. Each tile can be rotated by "
                "quarter turns. Rotate the tiles so that every pipe end connects to a pipe end of the neighbouring "
                "tile, no pipe points off the edge of the grid, and all tiles form one single connected network. "
                "For every tile, say how many clockwise quarter turns (0, 1, 2 or 3) to apply.")

    def _state_text(self) -> str:
        return "\n".join([" ".join([_HEX[m] for m in row]) for row in self.tiles])

    # -- verify
    def _parse_answer(self, text: str) -> tuple[tuple[int, ...], ...] | None:
        n = self.n
        grid = parse_char_grid(text, n, n, "0123")
        if grid is not None:
            return tuple(tuple(map(int, row)) for row in grid)
        t = text.strip().upper()
        if not t or len(t) > 2000:
            return None
        turns = [[0] * n for _ in range(n)]
        rest = _TURN.sub("", t)
        if re.sub(r"[\s,;/|.()\[\]{}]|\bAND\b", "", rest):
            return None
        hits = _TURN.findall(t)
        for col, row, k, deg in hits:
            r, c, k = int(row) - 1, ord(col) - 65, int(k)
            if not (0 <= r < n and 0 <= c < n):
                return None
            if deg or abs(k) >= 4:
                if k % 90:
                    return None
                k //= 90
            turns[r][c] = k % 4
        return tuple(tuple(row) for row in turns) if hits else None

    def _check(self, answer: tuple[tuple[int, ...], ...]) -> bool:
        masks = [[_TURNED[m][k % 4] for m, k in zip(tiles, turns)] for tiles, turns in zip(self.tiles, answer)]
        return not open_ends(masks) and connected(masks)

    def _format(self, answer: tuple[tuple[int, ...], ...]) -> str:
        return " ".join("".join(str(k) for k in row) for row in answer)

    # -- oracle
    def _solve(self) -> tuple[tuple[int, ...], ...]:
        return solve_pipes(self.tiles, 1)[0]

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[tuple[int, ...], ...]]:
        n, sol = self.n, [list(row) for row in self._solution]
        one, two = [], []
        for r in range(n):
            for c in range(n):
                for k in (1, 2, 3):
                    g = [list(row) for row in sol]
                    g[r][c] = (g[r][c] + k) % 4
                    one.append(tuple(map(tuple, g)))
                    r2, c2 = divmod(int(rng.integers(n * n)), n)
                    g[r2][c2] = (g[r2][c2] + int(rng.integers(1, 4))) % 4
                    two.append(tuple(map(tuple, g)))
        zero = [tuple(tuple(0 for _ in range(n)) for _ in range(n))]
        return interleave(rng, one, two) + zero


SPECS = (
    TaskSpec(name="PipesConnect", entry_point=PipesConnect, version=1, max_episode_steps=1,
             tags=("puzzle", "spatial-reasoning", "rotation")),
)
