"""Norinori: shade two cells in every region so that the shaded cells form separate dominoes."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.core.board import REGION_COLOURS, cell_centre, region_board
from gymv_envs.core.canvas import INK, draw_shape, shape_tile
from gymv_envs.domains.logic._norinori_solver import board, dot_pass, local_repair, shadings
from gymv_envs.domains.logic._placement import (
    NEIGHBOURS4,
    CellsAnswerEnv,
    bits,
    grow_regions,
    move_one,
)

# difficulty -> (side, rounds of region repair)
LEVELS = {0: (5, 7), 1: (6, 10), 2: (7, 11)}


def norinori_solutions(regions: np.ndarray, limit: int = 2, blank: frozenset = frozenset()) -> list[frozenset[tuple[int, int]]]:
    """Up to ``limit`` shadings: two shaded cells per region, each shaded cell next to exactly one other,
    none on a ``blank`` cell."""
    n = regions.shape[0]
    reg = regions.ravel().tolist()
    masks = [0] * (max(reg) + 1)
    for j, g in enumerate(reg):
        masks[g] |= 1 << j
    found = shadings(n, masks, reg, sum(1 << (r * n + c) for r, c in blank), limit)
    return [frozenset(divmod(j, n) for j in bits(m)) for m in found]


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
    Random non-touching dominoes are packed into the grid and one region is grown around each.
    For a few rounds (7, 10, 11 by difficulty), a cell where one domino could move inside its
    region is handed to a neighbouring region, which rules that move out. Then one search
    over all shadings marks a cell of each other shading it meets with a dot (must stay
    unshaded) and backs out of what the dot rules out, until exactly one solution is left.

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
    - v3: the regions are repaired against the solutions that move one domino inside its region
      (found on bit masks, no search), and the dots come from one search that marks each other
      solution as it meets it, instead of a search per repair round and per batch of dots (2x-3x
      faster; same rules and sizes, mean dot counts within 0.2 of v2's at every difficulty;
      other levels).
    """

    answer_hint = "the cells to shade, column letter then row number, separated by spaces (for example `A1 A2 C4 D4`)"

    def _configure(self) -> None:
        self.n, self.rounds = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        rings = board(n)[1]
        while True:  # non-touching dominoes packed in a random order, each lying across or down at random
            blocked, dominoes = 0, []
            for i, down in zip(rng.permutation(n * n).tolist(), rng.random(n * n).tolist()):
                j = i + n if down < 0.5 else i + 1
                if j >= n * n or j == i + 1 and j % n == 0 or (blocked >> i | blocked >> j) & 1:
                    continue
                blocked |= rings[i] | rings[j]
                dominoes.append((divmod(i, n), divmod(j, n)))
            if len(dominoes) >= n - 1:
                break
        reg = grow_regions(rng, dominoes, n, n).ravel().tolist()
        masks = [0] * len(dominoes)
        for j, g in enumerate(reg):
            masks[g] |= 1 << j
        pairs = [1 << (a * n + b) | 1 << (c * n + d) for (a, b), (c, d) in dominoes]
        floats: list[float] = []

        def draw(k: int) -> int:
            if not floats:
                floats.extend(rng.random(16).tolist())
            return int(floats.pop() * k)

        local_repair(draw, n, masks, reg, pairs, self.rounds)
        truth = sum(pairs)
        blank = dot_pass(n, masks, reg, truth, lambda m: m if m & m - 1 == 0 else m & -m if draw(2) else m & m - 1)
        self._reg, self.regions = reg, np.array(reg, dtype=np.int64).reshape(n, n)
        self.blank = tuple(divmod(j, n) for j in bits(blank))
        self._truth = tuple(divmod(j, n) for j in bits(truth))  # the one solution left

    # -- draw
    def _draw(self) -> np.ndarray:
        img, layout = region_board(self.obs_size, self.regions)
        x0, y0, cell = layout
        size = max(2, int(cell * 0.22))
        # a dot box this far inside its cell misses the lines and borders: its cell's tint alone lies under it
        low, high = max(int(cell / 30), int(cell / 10) / 2) + 2, cell - int(cell / 10) / 2 - 2
        reg = self._reg
        for r, c in self.blank:
            cx, cy = cell_centre(layout, r, c)
            x, y = int(round(cx - size / 2)), int(round(cy - size / 2))
            tint = REGION_COLOURS[reg[r * self.n + c] % len(REGION_COLOURS)]
            if (x - x0 - c * cell >= low and x + size - x0 - c * cell <= high and y - y0 - r * cell >= low
                    and y + size - y0 - r * cell <= high):  # the dot blended once over its cell's tint
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
        n, reg, marks = self.n, self._reg, [" "] * (self.n * self.n)
        for r, c in self.blank:
            marks[r * n + c] = "."
        return "\n".join("".join(chr(97 + reg[j] % 26) + marks[j] for j in range(r * n, r * n + n)).rstrip() for r in range(n))

    # -- verify
    def _check(self, answer: tuple[tuple[int, int], ...]) -> bool:
        n, reg, cells = self.n, self._reg, set(answer)
        if cells & set(self.blank):
            return False
        counts = [0] * (max(reg) + 1)
        for r, c in cells:
            counts[reg[r * n + c]] += 1
        if counts.count(2) != len(counts):
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
    TaskSpec(name="Norinori", entry_point=Norinori, version=3, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "regions")),
)
