"""Norinori: shade two cells in every region so that the shaded cells form separate dominoes."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.core.board import REGION_COLOURS, blank_labelled_board, cell_centre, paint_regions
from gymv_envs.core.canvas import INK, draw_shape, is_uniform, shape_tile
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.logic._placement import (
    NEIGHBOURS4,
    CellsAnswerEnv,
    bits,
    grow_regions,
    move_one,
    repair_regions,
)

# difficulty -> (side, chance to skip a cell while packing dominoes, region repair rounds)
LEVELS = {0: (5, 0.0, 20), 1: (6, 0.0, 20), 2: (7, 0.0, 20)}
KEPT = 12  # solutions one search finds and later steps check before searching again


@functools.lru_cache(maxsize=16)
def _neighbour_cells(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(r2 * n + c2 for r2, c2 in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= r2 < n and 0 <= c2 < n)
                 for r in range(n) for c in range(n))


@functools.lru_cache(maxsize=16)
def _rings(n: int) -> tuple[int, ...]:
    """Each cell and its orthogonal neighbours, as a bit mask."""
    return tuple(1 << j | sum(1 << q for q in nb) for j, nb in enumerate(_neighbour_cells(n)))


def norinori_solutions(regions: np.ndarray, limit: int = 2, blank: frozenset = frozenset()) -> list[frozenset[tuple[int, int]]]:
    """Up to ``limit`` shadings: two shaded cells per region, each shaded cell next to exactly one other,
    none on a ``blank`` cell."""
    n = regions.shape[0]
    return [frozenset(divmod(j, n) for j in bits(m)) for m in shading_masks(regions, limit, blank)]


def shading_masks(regions: np.ndarray, limit: int = 2, blank: frozenset = frozenset()) -> list[int]:
    """`norinori_solutions` as bit masks of the shaded cells (bit ``r * n + c``)."""
    n = regions.shape[0]
    reg = regions.ravel().tolist()
    masks = [0] * (max(reg) + 1)
    for j, g in enumerate(reg):
        masks[g] |= 1 << j
    return _shadings(n, masks, reg, sum(1 << (r * n + c) for r, c in blank), limit)


def _shadings(n: int, masks: list[int], reg: list[int], blank: int, limit: int) -> list[int]:
    """Up to ``limit`` shadings (bit masks) of the regions ``masks`` (bit masks; ``reg``: each cell's
    region) leaving ``blank`` unshaded.

    The shaded cells are dominoes that never touch along a side. The search (on bit masks) takes the
    region with the fewest cells left open and its first open cell: either a domino covers it (one
    branch per direction) or it stays blank. Placing a domino closes the cells round it, and a region
    with its two cells closes the rest; a region that can no longer get two cells ends the branch.
    """
    k = len(masks)
    closed0 = blank
    nbrs = _neighbour_cells(n)
    rings = _rings(n)
    out: list[int] = []

    count = [0] * k
    regions_k = range(k)

    def search(shaded: int, closed: int) -> None:
        best, fewest = -1, 1 << 30
        open_ = ~closed
        for g in regions_k:
            have = count[g]
            if have < 2:
                free = (masks[g] & open_).bit_count()
                if free + have < 2:
                    return
                if free < fewest:
                    best, fewest = g, free
        if best < 0:
            out.append(shaded)
            return
        open_ &= masks[best]
        x = (open_ & -open_).bit_length() - 1
        gx = best
        for y in nbrs[x]:
            if closed >> y & 1:
                continue
            gy = reg[y]
            if gy == gx:
                if count[gx]:
                    continue
            elif count[gy] == 2:
                continue
            count[gx] += 1
            count[gy] += 1
            shut = closed | rings[x] | rings[y]
            if count[gx] == 2:
                shut |= masks[gx]
            if count[gy] == 2:
                shut |= masks[gy]
            search(shaded | 1 << x | 1 << y, shut)
            count[gx] -= 1
            count[gy] -= 1
            if len(out) >= limit:
                return
        search(shaded, closed | 1 << x)

    search(0, closed0)
    return out


class Norinori(CellsAnswerEnv):
    """Shade exactly two cells in every outlined region so that the shaded cells form dominoes.

    ## Description
    An ``n x n`` grid (columns A, B, ... left to right, rows 1, 2, ... top to bottom) cut
    into outlined, tinted regions. Shade cells so that every region holds exactly two shaded
    cells and every shaded cell is orthogonally adjacent to exactly one other shaded cell: the
    shaded cells form dominoes (pairs) that never touch another domino along a side (a
    domino may cross a region border). Every level has exactly one solution (checked by the
    solver when it is generated); answers are checked against the rules.

    ## Action Space
    ``answer_format="open"``: `Text`, the shaded cells such as ``A1 A2 C4 D4`` (any order), or
    the grid as ``n`` rows of ``#`` (shaded) and ``.``. ``"mcq"``: `Discrete(k)` over shadings.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled grid with its regions.

    ## Rewards
    1.0 if the shading keeps every rule, else 0.0.

    ## Starting State
    Random non-touching dominoes are packed into the grid, one region is grown around each,
    and cells are handed between neighbouring regions to break other solutions the solver
    finds; if some remain, a few cells are marked with a dot (must stay unshaded) until
    exactly one solution is left.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5, 1: 6x6, 2: 7x7), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    - v2: the dots are chosen from the other solutions one search finds (up to 12) until none of them
      is left, instead of searching again after every dot (faster; same rules, sizes and dot counts
      on average, other levels).
    """

    answer_hint = "the cells to shade, column letter then row number, separated by spaces (for example `A1 A2 C4 D4`)"

    def _configure(self) -> None:
        self.n, self.skip, self.repairs = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        while True:
            used: set[tuple[int, int]] = set()
            dominoes = []
            with ScalarDraws(rng) as d:  # `rng.random`/`rng.integers` one by one, at Python speed
                for i in d.permutation(n * n):
                    r, c = divmod(i, n)
                    if d.random() < self.skip:
                        continue
                    dr, dc = ((0, 1), (1, 0))[d.integers(2)]
                    pair = ((r, c), (r + dr, c + dc))
                    if r + dr >= n or c + dc >= n:
                        continue
                    if any(x in used or (x[0] + a, x[1] + b) in used for x in pair for a, b in NEIGHBOURS4):
                        continue
                    used.update(pair)
                    dominoes.append(pair)
            if len(dominoes) >= n - 1:
                break
        regions = grow_regions(rng, dominoes, n, n)
        truth = frozenset(used)
        true_mask = sum(1 << (r * n + c) for r, c in truth)
        kept: list[int] = []
        reg = [0] * (n * n)
        seen: tuple[int, ...] = ()

        def others(masks: list[int], blank: int = 0, limit: int = 2) -> list[int]:
            """Shadings other than the truth of these regions and blanks: those found before that
            still fit (moving cells between regions or adding a blank keeps the rest), else a search."""
            nonlocal kept, reg, seen
            kept = [m for m in kept if not m & blank and all((m & g).bit_count() == 2 for g in masks)]
            if not kept:
                if tuple(masks) != seen:  # each cell's region: the regions a repair move changed, again
                    for g, m in enumerate(masks):
                        if not seen or m != seen[g]:
                            for j in bits(m):
                                reg[j] = g
                    seen = tuple(masks)
                kept = [m for m in _shadings(n, masks, reg, blank, limit) if m != true_mask]
            return kept

        def solve(masks: list[int]) -> list[frozenset[tuple[int, int]]]:
            left = others(masks)
            return [frozenset(divmod(j, n) for j in bits(left[0]))] if left else [truth]

        repair_regions(rng, regions, truth, solve, tries=self.repairs, on_masks=True)
        masks = [0] * len(dominoes)
        for j, g in enumerate(regions.ravel().tolist()):
            masks[g] |= 1 << j
        blank, kept = 0, []
        while left := others(masks, blank, KEPT):  # mark cells known to stay blank until one solution is left
            votes: dict[int, int] = {}
            for other in left:  # the blank that rules out most of the other solutions found
                for cell in bits(other & ~true_mask):
                    votes[cell] = votes.get(cell, 0) + 1
            top = max(votes.values())
            best = sorted(cell for cell, v in votes.items() if v == top)
            blank |= 1 << best[int(rng.integers(len(best)))]
        self.regions, self.blank = regions, tuple(divmod(j, n) for j in bits(blank))
        self._truth = tuple(sorted(truth))  # the one solution left

    # -- draw
    def _draw(self) -> np.ndarray:
        img, layout = blank_labelled_board(self.obs_size, self.n, self.n)
        paint_regions(img, layout, self.regions)
        size = max(2, int(layout[2] * 0.22))
        for r, c in self.blank:
            cx, cy = cell_centre(layout, r, c)
            x, y = int(round(cx - size / 2)), int(round(cy - size / 2))
            tint = REGION_COLOURS[int(self.regions[r, c]) % len(REGION_COLOURS)]
            if is_uniform(img, x, y, x + size, y + size, tint):  # the dot blended once over its cell's tint
                img[y:y + size, x:x + size] = shape_tile("circle", size, INK, tint)
            else:
                draw_shape(img, "circle", cx, cy, size, INK)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Norinori puzzle with columns A to {chr(64 + n)} (left to right) and rows "
                f"1 to {n} (top to bottom), divided by thick lines into tinted regions. Shade cells so that every "
                "region contains exactly two shaded cells, and every shaded cell shares a side with exactly one other "
                "shaded cell (so the shaded cells form dominoes, and no two dominoes share a side; a domino may "
                "cross a region border). Cells marked with a black dot must stay unshaded. Name all the shaded "
                "cells.")

    def _state_text(self) -> str:
        blank = set(self.blank)
        return "\n".join("".join(chr(97 + int(v) % 26) + ("." if (r, c) in blank else " ") for c, v in enumerate(row)).rstrip()
                         for r, row in enumerate(self.regions))

    # -- verify
    def _check(self, answer: tuple[tuple[int, int], ...]) -> bool:
        cells = set(answer)
        if cells & set(self.blank):
            return False
        counts = np.bincount([int(self.regions[r, c]) for r, c in cells], minlength=int(self.regions.max()) + 1)
        if not np.all(counts == 2):
            return False
        return all(sum((r + a, c + b) in cells for a, b in NEIGHBOURS4) == 1 for r, c in cells)

    # -- oracle
    def _solve(self) -> tuple[tuple[int, int], ...]:
        return self._truth

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[tuple[int, int], ...]]:
        n, sol = self.n, self._solution
        moved = move_one(sol, n, n)
        slid, cells = [], set(sol)
        for r, c in sol:
            for dr, dc in NEIGHBOURS4:
                if (r + dr, c + dc) in cells:  # slide the whole domino one step sideways
                    for a, b in NEIGHBOURS4:
                        moved_pair = {(r + a, c + b), (r + dr + a, c + dc + b)}
                        if all(0 <= x < n and 0 <= y < n for x, y in moved_pair):
                            slid.append(tuple(sorted(cells - {(r, c), (r + dr, c + dc)} | moved_pair)))
        return interleave(rng, moved, slid)


SPECS = (
    TaskSpec(name="Norinori", entry_point=Norinori, version=2, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "regions")),
)
