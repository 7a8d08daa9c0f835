"""Shared pieces of the logic grid-placement tasks (N-Queens, Star Battle, Light Up, ...).

Cells are named by `gymv_envs.core.cells` (``A1`` top-left). Answers are read either as cell
lists (``A1 C2``, any separators) or as a grid of characters, one row per line or all rows in
sequence (`CellsAnswerEnv`, the base of tasks answered by a set of cells). Boards are drawn with
`gymv_envs.core.board` (`blank_labelled_board`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np

from gymv_envs.core import SingleTurnEnv
from gymv_envs.core.bits import flood
from gymv_envs.core.cells import LETTERS, Cell, cell_name, cell_tokens, format_cells

_CELL_SEPS = re.compile(r"(?:[\s,;/|+&.:\[\](){}'\"\-]|\bAND\b)+")
_LETTER_SPACE = re.compile(r"\b([A-Z])\s+(?=\d)")  # "B 3" -> "B3"
_GRID_SEPS = re.compile(r"[\s,;/|\[\](){}'\"`]+")
MARKS = frozenset("*QXSB#1@O●★")
BLANKS = frozenset(".0-_")
NEIGHBOURS4 = ((-1, 0), (1, 0), (0, -1), (0, 1))
NEIGHBOURS8 = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


def mask_cells(mask: int, n: int) -> tuple[Cell, ...]:
    """The cells of a bit mask over an ``n x n`` board (bit ``r * n + c``), in reading order."""
    return tuple(divmod(i, n) for i in range(n * n) if mask >> i & 1)


def parse_cell_list(text: str, rows: int, cols: int) -> tuple[Cell, ...] | None:
    """Sorted distinct cells named in ``text`` (``A1, c3``), or ``None`` if anything else is there."""
    t = text.strip().upper()
    if not t or len(t) > 4000:
        return None
    named = _cell_names(rows, cols)
    cells = [named.get(tok) for tok in t.split(" ")]  # cell names one space apart, as `format_cells` writes them
    if None not in cells:  # (the slower reading below would find the same cells)
        return tuple(sorted(set(cells))) if len(set(cells)) == len(cells) else None
    t = _LETTER_SPACE.sub(r"\1", t)
    cells = cell_tokens(t, _CELL_SEPS, rows, cols)
    return tuple(sorted(set(cells))) if cells and len(set(cells)) == len(cells) else None


@functools.lru_cache(maxsize=64)
def _cell_names(rows: int, cols: int) -> dict[str, Cell]:
    """Each cell of a ``rows x cols`` board under its name (``A1``), which `cell_tokens` reads as that cell."""
    return {cell_name(r, c): (r, c) for r in range(rows) for c in range(min(cols, len(LETTERS)))}


def parse_char_grid(text: str, rows: int, cols: int, alphabet: str) -> tuple[str, ...] | None:
    """``rows`` strings of ``cols`` characters from ``alphabet`` (case-insensitive), or ``None``.

    Rows may be on separate lines, separated by spaces, ``/`` or ``|``, or run together;
    characters of a row may be separated by spaces or commas when rows are on lines.
    """
    t = text.strip().upper()
    if not t or len(t) > 8 * rows * cols + 200:
        return None
    lines = [ln for ln in t.splitlines() if ln.strip()]
    if len(lines) == rows:
        out = ["".join(_GRID_SEPS.split(ln)) for ln in lines]
    else:
        flat = "".join(_GRID_SEPS.split(t))
        if len(flat) != rows * cols:
            return None
        out = [flat[i * cols:(i + 1) * cols] for i in range(rows)]
    if any(len(row) != cols for row in out) or not set("".join(out)).issubset(alphabet):
        return None
    return tuple(out)


def parse_marked_cells(text: str, rows: int, cols: int) -> tuple[Cell, ...] | None:
    """Cells from a cell list, or from a grid where marked cells are ``* Q X S B # 1 @ O``."""
    cells = parse_cell_list(text, rows, cols)
    if cells is not None:
        return cells
    grid = parse_char_grid(text, rows, cols, "".join(sorted(MARKS | BLANKS)))
    if grid is None:
        return None
    return tuple((r, c) for r in range(rows) for c in range(cols) if grid[r][c] in MARKS)


def move_one(cells: Sequence[Cell], rows: int, cols: int, fixed: Iterable[Cell] = ()) -> list[tuple[Cell, ...]]:
    """Every placement that moves one non-fixed cell to a free orthogonal or diagonal neighbour."""
    fixed, here, out = set(fixed), set(cells), []
    for cell in cells:
        if cell in fixed:
            continue
        for dr, dc in NEIGHBOURS8:
            nr, nc = cell[0] + dr, cell[1] + dc
            if 0 <= nr < rows and 0 <= nc < cols and (nr, nc) not in here:
                out.append(tuple(sorted((here - {cell}) | {(nr, nc)})))
    return out


# -- bit masks of cells (bit ``r * cols + c``)
def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@functools.lru_cache(maxsize=64)
def neighbours4(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Per cell index ``r * cols + c``, the indices of its orthogonal neighbours in `NEIGHBOURS4` order."""
    return tuple(tuple((r + dr) * cols + c + dc for dr, dc in NEIGHBOURS4 if 0 <= r + dr < rows and 0 <= c + dc < cols)
                 for r in range(rows) for c in range(cols))


def grow_regions(rng: np.random.Generator, seeds: Sequence[Cell | Sequence[Cell]], rows: int, cols: int) -> np.ndarray:
    """Partition the grid into connected regions grown at random from ``seeds`` (region i holds seed i).

    A seed is a cell or a connected group of cells, all of which start in its region. Each step
    takes a random entry of the frontier (a cell beside a region, and that region): every cell
    pushes at most four entries, so the ``4 * rows * cols + 16`` uniform draws made up front suffice.
    """
    return np.array(grow_cells(rng, seeds, rows, cols), dtype=np.int64).reshape(rows, cols)


def grow_cells(rng: np.random.Generator, seeds: Sequence[Cell | Sequence[Cell]], rows: int, cols: int) -> list[int]:
    """`grow_regions` as a flat list: the region of cell ``r * cols + c`` at that index."""
    groups = [s if isinstance(s[0], (tuple, list)) else (s,) for s in seeds]
    regions = [-1] * (rows * cols)
    beside = neighbours4(rows, cols)
    frontier: list[tuple[int, int]] = []
    for i, group in enumerate(groups):
        for r, c in group:
            regions[r * cols + c] = i
    for i, group in enumerate(groups):
        for r, c in group:
            frontier += [(x, i) for x in beside[r * cols + c] if regions[x] < 0]
    pop, push = frontier.pop, frontier.append
    left, k = regions.count(-1), len(frontier)  # (the draws are made up front: stopping once every cell has a region changes nothing)
    for pick in rng.random(4 * rows * cols + 16).tolist():
        if not (left and k):
            break
        j = int(pick * k)  # entry j leaves, the last entry takes its place
        k -= 1
        if j < k:
            cell, i = frontier[j]
            frontier[j] = pop()
        else:
            cell, i = pop()
        if regions[cell] < 0:
            regions[cell] = i
            left -= 1
            for x in beside[cell]:
                if regions[x] < 0:
                    push((x, i))
                    k += 1
    return regions


def repair_regions(rng: np.random.Generator, regions: list[int], n: int, truth: frozenset[Cell],
                   solve: Callable[[list[int]], list[frozenset[Cell]]], tries: int = 80) -> bool:
    """Move cells between the regions of an ``n x n`` board (``regions[r * n + c]``, changed in place)
    until ``truth`` is the only solution; False when stuck.

    ``solve(masks)`` gives up to two solutions as sets of marked cells, from the regions as bit
    masks (region ``k``'s cells, bit ``r * n + c``; read-only). Each round takes a second solution
    and hands one of its marked cells that ``truth`` leaves blank to a neighbouring region, which
    breaks that solution (its region counts change) but not ``truth``; a part of the old region cut
    off by the move goes along, so every region stays connected and keeps its cells of ``truth``.
    """
    flat = regions
    masks = [0] * (max(flat) + 1)
    for i, k in enumerate(flat):
        masks[k] |= 1 << i
    anchor = {flat[r * n + c]: 1 << (r * n + c) for r, c in truth}
    beside = neighbours4(n, n)  # up, down, left, right
    for _ in range(tries):
        for other in solve(masks):
            if other != truth:
                break
        else:
            return True
        moves = [(i, flat[j]) for r, c in other - truth for i in (r * n + c,) for j in beside[i] if flat[j] != flat[i]]
        if not moves:
            return False
        i, new = moves[int(rng.integers(len(moves)))]
        old, cell = flat[i], 1 << i
        rest, start = masks[old] ^ cell, anchor[old]
        kept = rest & flood(start, rest | start, n, n)  # the part of the old region still joined to its anchor
        moved = rest ^ kept | cell  # the rest of it goes along with the cell
        masks[old] ^= moved
        masks[new] |= moved
        for i in bits(moved):
            flat[i] = new
    return False


class CellsAnswerEnv(SingleTurnEnv):
    """Base of tasks on an ``n x n`` board answered by a set of cells, written as a cell list or a
    grid of marks (`parse_marked_cells`) and formatted as ``A1 B3 ...``."""

    n: int = 0

    def _parse_answer(self, text: str) -> tuple[Cell, ...] | None:
        return parse_marked_cells(text, self.n, self.n)

    def _format(self, answer: tuple[Cell, ...]) -> str:
        return format_cells(answer)
