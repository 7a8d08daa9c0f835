"""Futoshiki: a Latin square with inequality signs between neighbouring cells."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import Geom, cell_text
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    WHITE,
    blend_mask,
    draw_text,
    fill_rect,
    new_frame,
    outline_rect,
    text_mask,
)
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.logic._grid import LatinSquareEnv, is_latin, keeps, latin_square
from gymv_envs.domains.logic._latin import fewest_clues, latin_search, perms

SIDES = {0: 4, 1: 5, 2: 6}
GIVEN_SHARE = 0.15  # share of the clue order that are given digits (the rest are inequalities)
GAP = 0.45          # gap between cells, in cells, where the signs sit
FIRST = {0: 0.25, 1: 0.28, 2: 0.42}  # where the fewest-clues search looks first, as a share of the clue order
# (about a quarter of the levels need fewer clues: `_latin.fewest_clues`)


def solve(n: int, givens: dict, less: list, limit: int = 2, budget: int = 20_000, other_than: tuple | None = None,
          base: tuple | None = None, keep: list | None = None) -> list:
    """Latin squares with the givens and every ``a < b`` of ``less`` (pairs of neighbouring cells): each
    row and column reads a permutation its signs allow (see `latin_search`; ``other_than`` is not reported)."""
    P = perms(n)
    lines = [P.full] * (2 * n)
    for (r1, c1), (r2, c2) in less:
        if r1 == r2:
            lines[r1] &= P.less[c1][c2]
        else:
            lines[n + c1] &= P.less[r1][r2]
    return latin_search(n, lines, (), givens, limit, budget, other_than, base, keep)


def _geometry(H: int, W: int, n: int) -> tuple[float, float, float, float]:
    """Box side, pitch (box and gap) and the top-left corner of an n x n board."""
    span = n + (n - 1) * GAP
    size = min(H, W) * 0.94 / span
    return size, size * (1 + GAP), (W - span * size) / 2, (H - span * size) / 2


@functools.lru_cache(maxsize=32)
def _boxes(H: int, W: int, n: int) -> np.ndarray:
    """The empty boxes of an n x n board (read-only); `Futoshiki._draw` fits the rest around them."""
    size, pitch, x0, y0 = _geometry(H, W, n)
    img = new_frame(H, W, BACKGROUND)
    line = max(1, int(size / 20))
    for r in range(n):
        for c in range(n):
            x, y = x0 + c * pitch, y0 + r * pitch
            fill_rect(img, x, y, x + size, y + size, WHITE)
            outline_rect(img, x, y, x + size, y + size, INK, line)
    img.setflags(write=False)
    return img


@functools.lru_cache(maxsize=32)
def _signs(H: int, W: int, n: int) -> dict:
    """Each sign ``(a, b)`` (``a < b``, neighbours) as ``(x, y, pixels)``: drawn once over the empty board
    where it lies clear of every box, so that drawing it is a copy (None: draw it; 120 small tiles a side)."""
    size, pitch, x0, y0 = _geometry(H, W, n)
    base = _boxes(H, W, n)
    sign_size = max(4, int(size * GAP * 0.95))
    out = {}
    for r in range(n):
        for c in range(n):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 == n or c2 == n:
                    continue
                for a, b in (((r, c), (r2, c2)), ((r2, c2), (r, c))):
                    sym, cx, cy = _sign(a, b, size, pitch, x0, y0)
                    mask = text_mask(sym, sign_size, True)
                    h, w = mask.shape
                    x, y = int(round(cx - w / 2)), int(round(cy - h / 2))
                    clear = (0 <= x and 0 <= y and x + w <= W and y + h <= H and all(
                        x + w <= x0 + k * pitch or x >= x0 + k * pitch + size + 1 or
                        y + h <= y0 + j * pitch or y >= y0 + j * pitch + size + 1 for j in range(n) for k in range(n)))
                    if clear:
                        tile = base[y:y + h, x:x + w].copy()
                        blend_mask(tile, mask, 0, 0, INK)
                        tile.setflags(write=False)
                    out[a, b] = (x, y, tile) if clear else None
    return out


def _sign(a: tuple[int, int], b: tuple[int, int], size: float, pitch: float, x0: float, y0: float) -> tuple:
    """The symbol of the sign ``a < b`` and its centre."""
    (r1, c1), (r2, c2) = sorted((a, b))
    if r1 == r2:  # across: the sign opens towards the larger digit
        return ("<" if a == (r1, c1) else ">"), x0 + c1 * pitch + size + size * GAP / 2, y0 + r1 * pitch + size / 2
    return ("∧" if a == (r1, c1) else "∨"), x0 + c1 * pitch + size / 2, y0 + r1 * pitch + size + size * GAP / 2


class Futoshiki(LatinSquareEnv):
    """Fill a Futoshiki grid: a Latin square that obeys the inequality signs.

    ## Description
    An ``n x n`` grid of boxes; some hold digits and some neighbouring boxes have a sign
    between them (``<`` or ``>`` across a row, ``∧`` or ``∨`` down a column, pointing at the
    smaller digit). Fill every box with 1..n so that each row and column holds each digit
    once and every sign holds. The solution is unique (checked by the solver).

    ## Action Space
    ``answer_format="open"``: `Text`, the full grid, row by row (digits, any separators, ``/``
    or newlines between rows). ``"mcq"``: `Discrete(k)` over complete grids.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the boxes, given digits and signs.

    ## Rewards
    1.0 if the grid is a Latin square that keeps the givens and satisfies every sign, else 0.0.

    ## Starting State
    A random Latin square; clues (mostly inequalities, about 15% digits) are added in a
    random order until the solution is unique (binary search over the order).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, 1: 5x5, 2: 6x6), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    def _configure(self) -> None:
        self._set_side(SIDES[self.difficulty])

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        sq = latin_square(rng, n)
        pairs = [((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
        pairs += [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)]
        signs = [(a, b) if sq[a[0]][a[1]] < sq[b[0]][b[1]] else (b, a) for a, b in pairs]
        cells = [(r, c) for r in range(n) for c in range(n)]
        signs = [signs[int(i)] for i in rng.permutation(len(signs))]
        cells = [cells[int(i)] for i in rng.permutation(len(cells))]
        order = []
        with ScalarDraws(rng) as d:  # `rng.random()` one by one, at Python speed
            while signs or cells:
                take_cell = cells and (not signs or d.random() < GIVEN_SHARE)
                order.append(("g", cells.pop()) if take_cell else ("s", signs.pop()))

        def clues(k: int) -> tuple[dict, list]:
            givens = {x: sq[x[0]][x[1]] for kind, x in order[:k] if kind == "g"}
            return givens, [x for kind, x in order[:k] if kind == "s"]

        planted = tuple(map(tuple, sq))

        def first_broken(grid) -> int | None:
            for i, (kind, x) in enumerate(order):
                if grid[x[0]][x[1]] != sq[x[0]][x[1]] if kind == "g" else grid[x[0][0]][x[0][1]] > grid[x[1][0]][x[1][1]]:
                    return i
            return None

        def others(k: int, base, keep: list) -> list:
            return solve(n, *clues(k), 1, 20_000, planted, base, keep)

        self.givens, self.less = clues(fewest_clues(0, len(order), others, first_broken, int(len(order) * FIRST[self.difficulty])))
        self._grid = planted  # the unique solution
        self.free = [x for x in ((r, c) for r in range(n) for c in range(n)) if x not in self.givens]

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        n = self.n
        size, pitch, x0, y0 = _geometry(H, W, n)
        img = _boxes(H, W, n).copy()
        for (r, c), v in self.givens.items():
            cell_text(img, Geom(x0 + c * pitch, y0 + r * pitch, size), 0, 0, str(v))
        signs = _signs(H, W, n)
        for a, b in self.less:
            tile = signs[a, b]
            if tile is None:
                sym, cx, cy = _sign(a, b, size, pitch, x0, y0)
                draw_text(img, sym, (cx, cy), max(4, int(size * GAP * 0.95)), INK, bold=True)
            else:
                x, y, pixels = tile
                img[y:y + pixels.shape[0], x:x + pixels.shape[1]] = pixels
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Futoshiki puzzle. Fill every box with a digit from 1 to {n} so that each "
                f"row and each column contains every digit from 1 to {n} exactly once. A sign between two neighbouring "
                "boxes must hold: `<` and `>` compare boxes in a row, `∧` and `∨` compare a box with the one below it "
                "(`∧`: the upper digit is smaller; `∨`: the upper digit is larger). Keep the given digits.")

    def _state_text(self) -> str:
        n = self.n
        across = [["   "] * (n - 1) for _ in range(n)]  # the sign right of each box, then the one below it
        down = [[" "] * n for _ in range(n - 1)]
        for (r1, c1), (r2, c2) in self.less:  # the box (r1, c1) holds the smaller digit
            if r1 == r2:
                across[r1][min(c1, c2)] = " < " if c1 < c2 else " > "
            else:
                down[min(r1, r2)][c1] = "∧" if r1 < r2 else "∨"
        rows = []
        for r in range(n):
            digits = [str(self.givens.get((r, c), ".")) for c in range(n)]
            rows.append(digits[0] + "".join(sign + d for sign, d in zip(across[r], digits[1:])))
            if r < n - 1:
                rows.append("   ".join(down[r]).rstrip())
        return "\n".join(rows)

    # -- verify
    def _check(self, answer) -> bool:
        return (is_latin(answer, self.n) and keeps(answer, self.givens)
                and all(answer[a[0]][a[1]] < answer[b[0]][b[1]] for a, b in self.less) and len(answer) == self.n)

    # -- oracle
    def _solve(self):
        return self._grid


SPECS = (
    TaskSpec(name="Futoshiki", entry_point=Futoshiki, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "latin-square")),
)
