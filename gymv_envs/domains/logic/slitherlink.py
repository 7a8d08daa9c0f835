"""Slitherlink: find the single loop along the grid lines that the numbers describe."""

from __future__ import annotations

import functools
import math

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.core.board import cell_centre, draw_labels, labelled_layout
from gymv_envs.core.canvas import BACKGROUND, INK, blend_mask, draw_shape, new_frame, text_mask
from gymv_envs.domains.logic._loop_solver import (
    clue_counts,
    count_planes,
    count_rows,
    loop_ok,
    mask_counts,
    search_rows,
    without,
)
from gymv_envs.domains.logic._placement import CellsAnswerEnv
from gymv_envs.domains.logic._slitherlink_region import random_region, toggle_fits

# difficulty -> (side, share of the numbers the generator tries to remove, solver budget)
LEVELS = {0: (4, 0.35, 4000), 1: (5, 0.5, 6000), 2: (6, 0.6, 8000)}
BATCH = 4  # numbers tried at once while none has had to stay


@functools.lru_cache(maxsize=32)
def _base(h: int, w: int, n: int) -> np.ndarray:
    g = labelled_layout((h, w), n, n)
    x0, y0, cell = g
    img = new_frame(h, w, BACKGROUND)
    draw_labels(img, g, n, n, max(5, int(0.4 * cell)))
    dot = max(2, int(cell * 0.12))
    for r in range(n + 1):
        for c in range(n + 1):
            draw_shape(img, "circle", x0 + c * cell, y0 + r * cell, dot, INK)
    img.setflags(write=False)
    return img


@functools.lru_cache(maxsize=64)
def _digit(k: int, size: int) -> np.ndarray:
    """The number ``k`` in bold at ``size`` on the background: what `draw_text` leaves in its box."""
    mask = text_mask(str(k), size, True, False)
    tile = new_frame(*mask.shape, BACKGROUND)
    blend_mask(tile, mask, 0, 0, INK)
    tile.setflags(write=False)
    return tile


@functools.lru_cache(maxsize=32)
def _tiles(h: int, w: int, n: int) -> dict[tuple[tuple[int, int], int], tuple[tuple[slice, slice], np.ndarray]]:
    """Per cell and number (0 to 4): the box the number's tile fills, centred in the cell, and the tile."""
    layout = labelled_layout((h, w), n, n)
    size = max(5, int(layout[2] * 0.5))
    out = {}
    for k in range(5):
        tile = _digit(k, size)
        th, tw = tile.shape[:2]
        for r in range(n):
            for c in range(n):
                x, y = cell_centre(layout, r, c)
                x, y = int(round(x - tw / 2)), int(round(y - th / 2))
                out[(r, c), k] = (slice(y, y + th), slice(x, x + tw)), tile
    return out


class Slitherlink(CellsAnswerEnv):
    """Find the single closed loop through the dotted grid that the numbers describe; name the cells inside it.

    ## Description
    An ``n x n`` grid of cells drawn as dots at the corners (columns A, B, ... left to right,
    rows 1, 2, ... top to bottom). A loop runs along the dotted lines: one closed path that
    never crosses or touches itself. A number in a cell says how many of that cell's four
    sides the loop uses. The loop splits the grid into inside and outside; the answer names
    the cells inside the loop, which determines the loop. Every level has exactly one
    solution (checked by the solver when it is generated).

    ## Action Space
    ``answer_format="open"``: `Text`, the inside cells such as ``A1 B1 B2`` (any order), or
    the grid as ``n`` rows of ``#`` (inside) and ``.`` (outside). ``"mcq"``: `Discrete(k)`.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the dotted grid with its numbers and labels.

    ## Rewards
    1.0 if the boundary of the named cells is one simple loop that matches every number, else 0.0.

    ## Starting State
    A random region is grown cell by cell so that its boundary stays one simple loop; all
    numbers are computed (a region they do not pin down is redrawn), then some are removed at
    random while the solution stays unique.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, 1: 5x5, 2: 6x6, with more numbers removed), ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the cells inside the loop, column letter then row number, separated by spaces (for example `A1 B1 B2`)"

    def _configure(self) -> None:
        self.n, self.remove, self.budget = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        # Numbers are removed in a random order while the loop stays the only one. While none has had
        # to stay, the next few go at once when the loop stays the only one without all of them: each
        # would then have gone in turn (fewer numbers than that fix it too, none can have to stay).
        n = self.n
        goal = math.ceil(self.remove * n * n)
        while True:  # a region whose full set of numbers already fixes its loop
            inside = random_region(rng, n)
            clues = mask_counts(inside, n)
            numbers, memo = count_rows(inside, n), {}
            state = rng.bit_generator.state  # the order is drawn after the region is kept
            order = rng.permutation(n * n).tolist()
            cells = [divmod(k, n) for k in order[:min(BATCH, goal)]]
            trial = self._without(numbers, cells)
            if self._unique(trial, memo):  # then all the numbers fix the loop too
                numbers, removed, i, batch = trial, len(cells), len(cells), BATCH
                for cell in cells:
                    del clues[cell]
                break
            if self._unique(numbers, memo):
                removed, i, batch = 0, 0, 1
                break
            rng.bit_generator.state = state
        planes, fits = count_planes(inside, n), {}
        numbered = sum(row[0] << r * n for r, row in enumerate(numbers))  # the cells with a number
        while removed < goal and i < len(order):
            cells = [divmod(k, n) for k in order[i:i + min(batch, goal - removed)]]
            if len(cells) > 1:
                trial = self._without(numbers, cells)
                if self._unique(trial, memo):
                    numbers, removed, i = trial, removed + len(cells), i + len(cells)
                    for r, c in cells:
                        del clues[r, c]
                        numbered &= ~(1 << r * n + c)
                    continue
                batch = 1
            # one number: a second loop would have to use another count in its cell
            (r, c), i = cells[0], i + 1
            if toggle_fits(inside, numbered, r * n + c, planes, fits, n):
                continue
            trial = numbers[:r] + [without(numbers[r], c, clues[r, c])] + numbers[r + 1:]
            if search_rows(n, trial, 1, self.budget, memo) == []:
                numbers[r] = without(numbers[r], c)
                del clues[r, c]
                numbered &= ~(1 << r * n + c)
                removed += 1
        self.clues = clues
        self._inside = tuple(divmod(i, n) for i in range(n * n) if inside >> i & 1)  # the one loop they allow

    @staticmethod
    def _without(numbers: list[tuple[int, ...]], cells: list[tuple[int, int]]) -> list[tuple[int, ...]]:
        trial = list(numbers)
        for r, c in cells:
            trial[r] = without(trial[r], c)
        return trial

    def _unique(self, numbers: list[tuple[int, ...]], memo: dict) -> bool:
        sols = search_rows(self.n, numbers, 2, self.budget, memo)
        return sols is not None and len(sols) == 1

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        img = _base(H, W, self.n).copy()
        tiles = _tiles(H, W, self.n)
        for cell, k in self.clues.items():  # each number's box lies inside its cell, on the background
            box, tile = tiles[cell, k]
            img[box] = tile
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Slitherlink puzzle: a grid of dots with columns of cells A to {chr(64 + n)} "
                f"(left to right) and rows 1 to {n} (top to bottom). Draw one closed loop along the lines between "
                "neighbouring dots; the loop never branches, crosses or touches itself. A number in a cell tells how "
                "many of the four sides of that cell the loop uses; cells without a number can use any number of "
                "sides. Exactly one loop fits. Name the cells inside the loop.")

    def _state_text(self) -> str:
        n = self.n
        return "\n".join("".join(str(self.clues[(r, c)]) if (r, c) in self.clues else "." for c in range(n))
                         for r in range(n))

    # -- verify
    def _check(self, answer: tuple[tuple[int, int], ...]) -> bool:
        inside = set(answer)
        if not loop_ok(inside, self.n):
            return False
        counts = clue_counts(inside, self.n)
        return all(counts[cell] == k for cell, k in self.clues.items())

    # -- oracle
    def _solve(self) -> tuple[tuple[int, int], ...]:
        return self._inside

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[tuple[int, int], ...]]:
        n, sol = self.n, set(self._solution)
        grown = [tuple(sorted(sol | {(r, c)})) for r in range(n) for c in range(n)
                 if (r, c) not in sol and loop_ok(sol | {(r, c)}, n)]
        shrunk = [tuple(sorted(sol - {x})) for x in sorted(sol) if loop_ok(sol - {x}, n)]
        toggled = [tuple(sorted(sol ^ {(r, c)})) for r in range(n) for c in range(n)]
        return interleave(rng, grown, shrunk) + interleave(rng, toggled)


SPECS = (
    TaskSpec(name="Slitherlink", entry_point=Slitherlink, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "loop")),
)
