"""Nurikabe: shade the sea so that every number sits in an island of that size."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.core.board import blank_labelled_board, cell_centre, labelled_base, labelled_layout
from gymv_envs.core.canvas import INK, WHITE, base_is_uniform, draw_layers, layers_tile, text_layer
from gymv_envs.domains.logic._nurikabe_islands import grow_islands
from gymv_envs.domains.logic._nurikabe_solver import (
    cells_of,
    fill,
    number_cells,
    nurikabe_solutions,
    sea_ok,
)
from gymv_envs.domains.logic._placement import (
    CellsAnswerEnv,
    mask_cells,
    parse_cell_list,
    parse_char_grid,
)

# difficulty -> (side, largest island)
LEVELS = {0: (5, 4), 1: (6, 4), 2: (6, 6)}
REPAIRS = 2  # numbers moved to rule out a second solution before a level is redrawn
SHADED_MARKS = "#*XB@"


def _holds(n: int, sea: int, at: list[int], sizes: list[int]) -> bool:
    """Whether the shading ``sea`` (bit mask) solves the numbers ``sizes`` at cells ``at``."""
    land, taken = ((1 << (n * n)) - 1) & ~sea, 0
    for j, k in zip(at, sizes, strict=True):
        island = fill(1 << j, land, n)
        if island.bit_count() != k or island & taken:
            return False
        taken |= island
    return True


@functools.lru_cache(maxsize=2048)  # per frame, side, cell and number: two slices and a shared tile
def _number_tile(h: int, w: int, n: int, i: int, k: int) -> tuple | None:
    """What `draw_layers` pastes for number ``k`` at cell ``i`` (its layer's box all white on the
    base): (rows, columns, its cached tile). None where the box is not all white (then it blends)."""
    layout = labelled_layout((h, w), n, n)
    mask, x, y, c = text_layer(str(k), cell_centre(layout, *divmod(i, n)), max(5, int(layout[2] * 0.55)), INK, bold=True)
    x1, y1 = x + mask.shape[1], y + mask.shape[0]
    if not base_is_uniform(labelled_base(h, w, n, n, True, WHITE), x, y, x1, y1, WHITE):
        return None
    return slice(y, y1), slice(x, x1), layers_tile([(mask, x, y, c)], x, y, x1, y1, WHITE)


class Nurikabe(CellsAnswerEnv):
    """Shade cells so that every number lies in an unshaded island of exactly that many cells (Nurikabe).

    ## Description
    An ``n x n`` grid (columns A, B, ... left to right, rows 1, 2, ... top to bottom) with
    some numbered cells. Shade cells so that: every island (group of orthogonally connected
    unshaded cells) contains exactly one number, equal to its size; all shaded cells form one
    orthogonally connected area; no 2x2 block is fully shaded; numbered cells stay unshaded.
    Every level has exactly one solution (checked by the solver when it is generated).

    ## Action Space
    ``answer_format="open"``: `Text`, the shaded cells such as ``A2 B2 C1`` (any order), or
    the grid as ``n`` rows of ``#`` (shaded) and ``.`` (numbers may be written in place of
    ``.``). ``"mcq"``: `Discrete(k)` over shadings.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled grid with the numbers.

    ## Rewards
    1.0 if the shading keeps every rule, else 0.0.

    ## Starting State
    Islands of random shapes are grown one at a time at free cells while the shaded area stays
    connected; a 2x2 block left all shaded gets a cell added to the island beside it. Each island
    shows its size in one random cell that no other shape of the island holds in a solution where
    the other islands keep theirs (a layout with an island without such a cell is redrawn). When the
    solver (an exact search over island shapes) finds another solution, a number moves to such a cell
    of its island that the other solution's island lacks and where the other solutions found before
    stay ruled out (at most twice) before the level is redrawn.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5 with islands up to 4, 1: 6x6 up to 4, 2: 6x6 up to 6),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    - v2: a second solution in which one island alone takes another shape is looked for first (the
      number moved is then one of that island's), before the solver's search (faster; same rules,
      sizes and guarantees, other levels).
    - v3: numbers are drawn only among the cells that rule out every second solution in which one
      island alone changes shape, and a layout where some island has no such cell is redrawn at once;
      an island grows by a free neighbour drawn once however many of its cells touch it; a number
      moves at most twice, only where the other solutions found before stay ruled out (faster; same
      rules, sizes and guarantees, other levels).
    """

    answer_hint = "the cells to shade, column letter then row number, separated by spaces (for example `A2 B2 C1`)"

    def _configure(self) -> None:
        self.n, self.largest = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        full = (1 << (n * n)) - 1
        while True:
            masks = grow_islands(rng, n, self.largest)
            if masks is None:
                continue
            # where each number can stand without another shape of its island alone making a second solution
            spots = [0] * len(masks)
            for i in sorted(range(len(masks)), key=lambda i: -masks[i].bit_count()):  # the likeliest to fail first
                spots[i] = number_cells(n, masks, i)
                if not spots[i]:
                    break
            if not all(spots):
                continue
            sea = full & ~sum(masks)
            places = [cells_of(m) for m in spots]
            at = [cells[int(u * len(cells))] for cells, u in zip(places, rng.random(len(places)).tolist(), strict=True)]
            sizes = [m.bit_count() for m in masks]
            seen: list[int] = []
            for _ in range(REPAIRS + 1):
                numbers = dict(zip(at, sizes, strict=True))
                others = nurikabe_solutions(n, numbers, 1, sea, masks)
                if not others:
                    self.numbers, self._sea = numbers, sea
                    return
                other = others[0]
                # move a number to a cell of its island that the other solution's island lacks: that
                # solution now has an island without a number (or with two), the level's still holds;
                # the other solutions found before must stay ruled out
                land = full & ~other
                moves = [(i, c) for i, j in enumerate(at) if masks[i] & other  # (else all its cells are land there)
                         for c in cells_of(spots[i] & ~fill(1 << j, land, n))
                         if not any(_holds(n, s, at[:i] + [c] + at[i + 1:], sizes) for s in seen)]
                seen.append(other)
                if not moves:
                    break
                i, c = moves[int(rng.integers(len(moves)))]
                at[i] = c

    # -- draw
    def _draw(self) -> np.ndarray:
        img, layout = blank_labelled_board(self.obs_size, self.n, self.n)
        tiles = [_number_tile(*self.obs_size, self.n, i, k) for i, k in self.numbers.items()]
        if None not in tiles:  # every number's box all white: `draw_layers`' tiles, pasted
            for rows, cols, tile in tiles:
                img[rows, cols] = tile
            return img
        size = max(5, int(layout[2] * 0.55))
        numbers = [[text_layer(str(k), cell_centre(layout, *divmod(i, self.n)), size, INK, bold=True)]
                   for i, k in self.numbers.items()]
        # each number from a tile blended once over its white cell (the pixels of blending it there)
        draw_layers(img, numbers, labelled_base(*self.obs_size, self.n, self.n, True, WHITE), WHITE)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Nurikabe puzzle with columns A to {chr(64 + n)} (left to right) and rows 1 "
                f"to {n} (top to bottom). Shade some cells so that: every group of orthogonally connected unshaded "
                "cells (an island) contains exactly one number, and that number equals the island's size; numbered "
                "cells are never shaded; all shaded cells are orthogonally connected into one area; and no 2x2 block "
                "of cells is entirely shaded. Name all the shaded cells.")

    def _state_text(self) -> str:
        n, cells = self.n, ["."] * (self.n * self.n)
        for i, k in self.numbers.items():
            cells[i] = str(k)
        return "\n".join("".join(cells[r * n:r * n + n]) for r in range(n))

    # -- verify
    def _parse_answer(self, text: str) -> tuple[tuple[int, int], ...] | None:
        n = self.n
        cells = parse_cell_list(text, n, n)
        if cells is not None:
            return cells
        grid = parse_char_grid(text, n, n, SHADED_MARKS + ".-_0123456789")
        if grid is None:
            return None
        return tuple((r, c) for r in range(n) for c in range(n) if grid[r][c] in SHADED_MARKS)

    def _check(self, answer: tuple[tuple[int, int], ...]) -> bool:
        n = self.n
        sea = sum(1 << (r * n + c) for r, c in answer)
        if any(sea >> i & 1 for i in self.numbers) or not sea_ok(sea, n):
            return False
        seen, land = sea, ((1 << (n * n)) - 1) & ~sea
        for i, k in self.numbers.items():
            if seen >> i & 1:
                return False  # two numbers in one island
            island = fill(1 << i, land, n)  # its island: the unshaded cells joined to it
            if island.bit_count() != k:
                return False
            seen |= island
        return seen == (1 << (n * n)) - 1

    # -- oracle
    def _solve(self) -> tuple[tuple[int, int], ...]:
        return mask_cells(self._sea, self.n)  # the one solution, which the generator checked

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[tuple[int, int], ...]]:
        n, sol = self.n, set(self._solution)
        free = [(r, c) for r in range(n) for c in range(n) if r * n + c not in self.numbers]
        fewer = [tuple(sorted(sol - {x})) for x in sorted(sol)]
        more = [tuple(sorted(sol | {x})) for x in free if x not in sol]
        swapped = [tuple(sorted(sol - {x} | {y})) for x in sorted(sol) for y in free
                   if y not in sol and abs(x[0] - y[0]) + abs(x[1] - y[1]) == 1]
        return interleave(rng, swapped, fewer, more)


SPECS = (
    TaskSpec(name="Nurikabe", entry_point=Nurikabe, version=3, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "connectivity")),
)
