"""Nurikabe: shade the sea so that every number sits in an island of that size."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import INK, draw_text
from gymv_envs.domains.logic._placement import (
    NEIGHBOURS4,
    CellsAnswerEnv,
    blank_board,
    cell_centre,
    interleave,
    mask_cells,
    parse_cell_list,
    parse_char_grid,
)

# difficulty -> (side, largest island)
LEVELS = {0: (5, 4), 1: (6, 4), 2: (6, 6)}
SHADED_MARKS = "#*XB@"


def _neighbours(i: int, n: int) -> tuple[int, ...]:
    return _NEIGHBOURS(n)[i]


@functools.cache
def _BLOCKS(n: int) -> tuple[int, ...]:  # noqa: N802 - a cached table
    return tuple((0b11 << (r * n + c)) | (0b11 << ((r + 1) * n + c)) for r in range(n - 1) for c in range(n - 1))


@functools.cache
def _NEIGHBOURS(n: int) -> tuple[tuple[int, ...], ...]:  # noqa: N802 - a cached table
    return tuple(tuple((r + dr) * n + c + dc for dr, dc in NEIGHBOURS4 if 0 <= r + dr < n and 0 <= c + dc < n)
                 for r in range(n) for c in range(n))


def _sea_ok(sea: int, n: int) -> bool:
    """The shaded cells (bit mask) are connected and hold no 2x2 block."""
    for block in _BLOCKS(n):
        if sea & block == block:
            return False
    return not sea or _connected_sea(sea, n)


def _connected_sea(sea: int, n: int) -> bool:
    """The shaded cells (bit mask) are one non-empty orthogonally connected area."""
    if not sea:
        return False
    start = (sea & -sea).bit_length() - 1
    seen, stack = 1 << start, [start]
    while stack:
        for j in _neighbours(stack.pop(), n):
            if sea >> j & 1 and not seen >> j & 1:
                seen |= 1 << j
                stack.append(j)
    return seen == sea


def island_shapes(n: int, cell: int, size: int, other_numbers: int) -> list[int]:
    """Every connected set (bit mask) of ``size`` cells holding ``cell`` and touching no other number."""
    halo = other_numbers
    for j in range(n * n):
        if other_numbers >> j & 1:
            for k in _neighbours(j, n):
                halo |= 1 << k
    if halo >> cell & 1:
        return []
    shapes, layer = set(), {1 << cell}
    for _ in range(size - 1):
        nxt = set()
        for s in layer:
            for j in range(n * n):
                if s >> j & 1:
                    for k in _neighbours(j, n):
                        if not (s >> k & 1) and not (halo >> k & 1):
                            nxt.add(s | 1 << k)
        layer = nxt
    shapes = layer
    return sorted(shapes)


def nurikabe_solutions(n: int, numbers: dict[int, int], limit: int) -> list[int]:
    """Up to ``limit`` sea masks (shaded cells) that solve the puzzle."""
    every = sum(1 << i for i in numbers)
    full = (1 << (n * n)) - 1
    options = []
    for i, k in numbers.items():
        shapes = island_shapes(n, i, k, every & ~(1 << i))
        halos = []
        for s in shapes:
            h = s
            for j in range(n * n):
                if s >> j & 1:
                    for q in _neighbours(j, n):
                        h |= 1 << q
            halos.append(h)
        options.append(list(zip(shapes, halos)))
    options.sort(key=len)
    out: list[int] = []

    def search(k: int, land: int, near: int) -> None:
        if len(out) >= limit:
            return
        if k == len(options):
            if _sea_ok(full & ~land, n):
                out.append(full & ~land)
            return
        for shape, halo in options[k]:
            if shape & near == 0:
                search(k + 1, land | shape, near | halo)

    search(0, 0, 0)
    return out


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
    Islands of random shapes are grown one at a time while the shaded area stays connected,
    until no 2x2 block is shaded; each island shows its size in one random cell; levels the
    solver (an exact search over island shapes) finds ambiguous are redrawn.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5 with islands up to 4, 1: 6x6 up to 4, 2: 6x6 up to 6),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the cells to shade, column letter then row number, separated by spaces (for example `A2 B2 C1`)"

    def _configure(self) -> None:
        self.n, self.largest = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        full = (1 << (n * n)) - 1
        while True:
            land, near, islands = 0, 0, []
            for _ in range(6 * n * n):
                seed = int(rng.integers(n * n))
                if near >> seed & 1:
                    continue
                island, size = 1 << seed, int(rng.integers(1, self.largest + 1))
                for _ in range(4 * size):
                    if island.bit_count() >= size:
                        break
                    cells = [j for j in range(n * n) if island >> j & 1]
                    grow = [k for j in cells for k in _neighbours(j, n) if not (island >> k & 1) and not (near >> k & 1)]
                    if not grow:
                        break
                    island |= 1 << grow[int(rng.integers(len(grow)))]
                if not _connected_sea(full & ~(land | island), n):
                    continue
                islands.append([j for j in range(n * n) if island >> j & 1])
                land |= island
                for j in islands[-1]:
                    near |= 1 << j
                    for k in _neighbours(j, n):
                        near |= 1 << k
                if all(land & b for b in _BLOCKS(n)):
                    break
            if not _sea_ok(full & ~land, n):
                continue
            for _ in range(4):  # a few placements of the numbers inside the islands
                numbers = {cells[int(rng.integers(len(cells)))]: len(cells) for cells in islands}
                if len(nurikabe_solutions(n, numbers, 2)) == 1:
                    break
            else:
                continue
            break
        self.numbers = numbers

    # -- draw
    def _paint(self) -> np.ndarray:
        img, layout = blank_board(self.obs_size, self.n, self.n)
        size = max(5, int(layout[2] * 0.55))
        for i, k in self.numbers.items():
            draw_text(img, str(k), cell_centre(layout, *divmod(i, self.n)), size, INK, bold=True)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Nurikabe puzzle with columns A to {chr(64 + n)} (left to right) and rows 1 "
                f"to {n} (top to bottom). Shade some cells so that: every group of orthogonally connected unshaded "
                "cells (an island) contains exactly one number, and that number equals the island's size; numbered "
                "cells are never shaded; all shaded cells are orthogonally connected into one area; and no 2x2 block "
                "of cells is entirely shaded. Name all the shaded cells.")

    def _state_text(self) -> str:
        n = self.n
        return "\n".join("".join(str(self.numbers.get(r * n + c, ".")) for c in range(n)) for r in range(n))

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
        if any(sea >> i & 1 for i in self.numbers) or not _sea_ok(sea, n):
            return False
        seen = sea
        for i, k in self.numbers.items():
            if seen >> i & 1:
                return False  # two numbers in one island
            island, stack = 1 << i, [i]
            while stack:
                for j in _neighbours(stack.pop(), n):
                    if not (sea >> j & 1) and not (island >> j & 1):
                        island |= 1 << j
                        stack.append(j)
            if island.bit_count() != k:
                return False
            seen |= island
        return seen == (1 << (n * n)) - 1

    # -- oracle
    def _solve(self) -> tuple[tuple[int, int], ...]:
        sea = nurikabe_solutions(self.n, self.numbers, 1)[0]
        return mask_cells(sea, self.n)

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[tuple[int, int], ...]]:
        n, sol = self.n, set(self._solution)
        free = [(r, c) for r in range(n) for c in range(n) if r * n + c not in self.numbers]
        fewer = [tuple(sorted(sol - {x})) for x in sorted(sol)]
        more = [tuple(sorted(sol | {x})) for x in free if x not in sol]
        swapped = [tuple(sorted(sol - {x} | {y})) for x in sorted(sol) for y in free
                   if y not in sol and abs(x[0] - y[0]) + abs(x[1] - y[1]) == 1]
        return interleave(rng, swapped, fewer, more)


SPECS = (
    TaskSpec(name="Nurikabe", entry_point=Nurikabe, domain="logic", max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "connectivity")),
)
