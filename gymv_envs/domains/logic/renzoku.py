"""Renzoku: a Latin square where a dot between two neighbouring cells marks consecutive digits, and only there."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import Geom, blank_board, cell_text, cell_text_spot
from gymv_envs.core.canvas import INK, blend_mask, draw_shape, shape_mask
from gymv_envs.domains.logic._grid import (
    LatinSquareEnv,
    fewest_clues,
    is_latin,
    keeps,
    latin_domain,
    latin_line_table,
    latin_solve,
    latin_square,
    narrow_tables,
    permutation_array,
    table_search,
)

SIDES = {0: 4, 1: 5, 2: 6}


def dots_of(grid) -> tuple[frozenset, frozenset]:
    """The dots of a filled grid: cells (r, c) with a dot right of them, and cells with a dot below them."""
    n = len(grid)
    right = frozenset([(r, c) for r, row in enumerate(grid) for c in range(n - 1) if abs(row[c] - row[c + 1]) == 1])
    below = frozenset([(r, c) for r in range(n - 1) for c in range(n) if abs(grid[r][c] - grid[r + 1][c]) == 1])
    return right, below


def solve(n: int, givens: dict, right: frozenset, below: frozenset, limit: int = 2, budget: int = 20_000) -> list:
    """Latin squares with the givens whose dots are exactly ``right`` and ``below``: each row and column is a
    table of the permutations whose neighbours are consecutive where its dots are and only there."""
    return latin_solve(n, _tables(n, right, below), givens, limit, budget)


@functools.lru_cache(maxsize=4)
def _tables(n: int, right: frozenset, below: frozenset) -> tuple:
    """The tables of every row and column for these dots (a level's solve calls share them)."""
    rows = [tuple((r, c) in right for c in range(n - 1)) for r in range(n)]
    cols = [tuple((r, c) in below for r in range(n - 1)) for c in range(n)]
    return tuple(_line(n, line, dots) for line, dots in enumerate(rows + cols))


@functools.lru_cache(maxsize=8192)
def _line(n: int, line: int, dots: tuple[bool, ...]):
    """Line ``line`` as a table of the permutations with ``|p[i] - p[i+1]| == 1`` exactly where ``dots[i]``."""
    perms = permutation_array(n)
    keep = np.all((np.abs(np.diff(perms, axis=1)) == 1) == np.array(dots, dtype=bool), axis=1)
    return latin_line_table(n, line, keep)


@functools.lru_cache(maxsize=256)  # 4x4 levels have about 200 dot patterns; a 6x6 entry is up to ~30 kB
def _narrowed(n: int, right: frozenset, below: frozenset) -> tuple:
    """`narrow_tables` of these dots' tables over the whole domain (read-only: the search replaces lists)."""
    return narrow_tables(_tables(n, right, below), latin_domain(n))


@functools.lru_cache(maxsize=1024)
def _dot_over(under: bytes, h: int, w: int, size: int) -> np.ndarray:
    """A dot (`draw_shape`'s circle of ``size``) blended over the ``h x w`` pixels ``under`` (read-only): a
    board puts the same pixels under the dots of a border from level to level."""
    tile = np.frombuffer(under, dtype=np.uint8).reshape(h, w, 3).copy()
    blend_mask(tile, shape_mask("circle", size), 0, 0, INK)
    tile.setflags(write=False)
    return tile


@functools.lru_cache(maxsize=64)
def _dot_spots(g: Geom, height: int, width: int, n: int) -> tuple:
    """(dot size, mask height, mask width, and per cell (r, c) where its dot right of it and its dot below it
    go on a ``height x width`` frame of board ``g``): (rows, columns) where `draw_shape` would put the
    mask, with the dot over the empty board as a third item where no given digit's tile can reach that
    box; or the dot's centre where the mask leaves the frame."""
    size = max(3, int(g.cell * 0.24))
    h, w = shape_mask("circle", size).shape
    base, shape = blank_board((height, width), n, n)[0], (height, width, 3)
    digits = [cell_text_spot(g, shape, r, c, str(v)) for r in range(n) for c in range(n) for v in range(1, n + 1)]
    boxes = [(d[0].start, d[0].stop, d[1].start, d[1].stop) if len(d) == 3 else (0, height, 0, width) for d in digits]

    def spot(cx: float, cy: float) -> tuple:
        x, y = int(round(cx - size / 2)), int(round(cy - size / 2))
        if not (0 <= x and 0 <= y and x + w <= width and y + h <= height):
            return cx, cy
        if any(y0 < y + h and y < y1 and x0 < x + w and x < x1 for y0, y1, x0, x1 in boxes):
            return slice(y, y + h), slice(x, x + w)
        return slice(y, y + h), slice(x, x + w), _dot_over(base[y:y + h, x:x + w].tobytes(), h, w, size)

    right = {(r, c): spot(g.x0 + (c + 1) * g.cell, g.y0 + (r + 0.5) * g.cell) for r in range(n) for c in range(n - 1)}
    below = {(r, c): spot(g.x0 + (c + 0.5) * g.cell, g.y0 + (r + 1) * g.cell) for r in range(n - 1) for c in range(n)}
    return size, h, w, right, below


class Renzoku(LatinSquareEnv):
    """Fill a Renzoku grid: a Latin square whose consecutive neighbours are exactly the dotted ones.

    ## Description
    An ``n x n`` grid; some cells hold digits and black dots sit on some borders between two
    neighbouring cells. Fill every cell with 1..n so that each row and column holds each digit
    once, two cells with a dot between them hold consecutive digits (differing by one), and two
    neighbouring cells with no dot between them do not. The solution is unique (a solver that
    counts solutions up to two checks it at generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the full grid, row by row (digits, any separators, ``/``
    or newlines between rows). ``"mcq"``: `Discrete(k)` over complete grids.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid, the given digits and the dots.

    ## Rewards
    1.0 if the grid is a Latin square that keeps the givens and whose consecutive neighbours are
    exactly the dotted pairs, else 0.0.

    ## Starting State
    A random Latin square; its dots are read off; digits are given in a random order until the
    solution is unique (binary search over the order).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, 1: 5x5, 2: 6x6), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    def _configure(self) -> None:
        self._set_side(SIDES[self.difficulty])

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        sq = latin_square(rng, n)
        self.right, self.below = dots_of(sq)
        order = [divmod(i, n) for i in rng.permutation(n * n).tolist()]

        def givens(k: int) -> dict:
            return {x: sq[x[0]][x[1]] for x in order[:k]}

        # the dots narrowed once for every count of givens tried; solutions as codes: only their count matters
        tables, dom = _narrowed(n, self.right, self.below)
        # the dots leave few digits to give, and never none: the digits reversed (v -> n + 1 - v) keep every dot
        k = fewest_clues(1, n * n, lambda k: table_search(tables, dom & latin_domain(n, givens(k))), doubling=True)
        self.givens = givens(k)
        self._square = tuple(map(tuple, sq))  # the givens have one solution: this square
        self.free = sorted(order[k:])  # the other cells, row by row

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        img, g = blank_board(self.obs_size, n, n)
        for (r, c), v in self.givens.items():
            cell_text(img, g, r, c, str(v))
        size, h, w, right, below = _dot_spots(g, img.shape[0], img.shape[1], n)
        for spot in [right[x] for x in self.right] + [below[x] for x in self.below]:
            if len(spot) == 3:  # no digit under it: the dot over the empty board
                img[spot[0], spot[1]] = spot[2]
            elif type(spot[0]) is slice:
                under = img[spot]
                under[...] = _dot_over(under.tobytes(), h, w, size)
            else:
                draw_shape(img, "circle", *spot, size, INK)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Renzoku puzzle. Fill every cell with a digit from 1 to {n} so that each row "
                f"and each column contains every digit from 1 to {n} exactly once. A black dot on the border between "
                "two neighbouring cells means their digits are consecutive (they differ by exactly 1); two neighbouring "
                "cells with no dot between them must not hold consecutive digits. Keep the given digits.")

    def _state_text(self) -> str:
        n = self.n
        cells = [["."] * n for _ in range(n)]
        for (r, c), v in self.givens.items():
            cells[r][c] = str(v)
        right, below = [[" "] * n for _ in range(n)], [[" "] * n for _ in range(n)]  # (below's last row: unused)
        for r, c in self.right:
            right[r][c] = "*"
        for r, c in self.below:
            below[r][c] = "*"
        rows = [" ".join([a + b for a, b in zip(cells[r], right[r], strict=True)]).rstrip() for r in range(n)]
        return "\n".join([x for r in range(n) for x in (rows[r], " ".join(below[r]).rstrip())][:-1])

    # -- verify
    def _check(self, answer) -> bool:
        return (len(answer) == self.n and is_latin(answer, self.n) and keeps(answer, self.givens)
                and dots_of(answer) == (self.right, self.below))

    # -- oracle
    def _solve(self):
        return self._square


SPECS = (
    TaskSpec(name="Renzoku", entry_point=Renzoku, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "latin-square")),
)
