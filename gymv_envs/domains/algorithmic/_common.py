"""Shared parts of the algorithmic tasks: answer kinds (a number, a cell, a grid), question checks,
near-miss helpers and small grid algorithms (BFS distances, connected components).

A task subclasses `AlgoEnv` and picks the kind of its answer (`Number`, `Cell`, `Cells`, `Word`,
`GridOf`): the kind reads answers strictly (`gymv_envs.core.grid_answers`), writes them one way and
supplies generic near misses, after the task's own semantically similar wrong answers (``_similar``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from gymv_envs.core import SingleTurnEnv
from gymv_envs.core.answers import count_near_misses
from gymv_envs.core.cells import cell_name, format_cells
from gymv_envs.core.grid_answers import (
    Grid,
    format_grid,
    read_cells,
    read_grid,
    read_int,
    read_ints,
)

NEIGHBOURS_4 = ((-1, 0), (0, 1), (1, 0), (0, -1))
NEIGHBOURS_8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def board_text(grid: Sequence[Sequence[Any]], cell=str) -> str:
    """A board as text, one row per line (the levels' ``state_text``)."""
    return "\n".join(" ".join(cell(v) for v in row) for row in grid)


class Kind:
    """How one kind of answer is read, written, described and varied into near misses."""

    hint = "the answer"

    def parse(self, text: str) -> Any:
        raise NotImplementedError

    def format(self, answer: Any) -> str:
        return str(answer)

    def nearby(self, answer: Any, rng: np.random.Generator, k: int) -> Iterable[Any]:
        """Generic near misses of ``answer`` (the task's semantically similar ones come first)."""
        return ()


class Number(Kind):
    """One whole number (``min_value`` and up): a count, a distance, a number of steps."""

    def __init__(self, hint: str = "one whole number", min_value: int = 0) -> None:
        self.hint, self.min_value = hint, min_value

    def parse(self, text: str) -> int | None:
        v = read_int(text)
        return v if v is not None and v >= self.min_value else None

    def format(self, answer: int) -> str:
        return str(int(answer))

    def nearby(self, answer: int, rng: np.random.Generator, k: int) -> list[int]:
        # a window of values holding the answer at a random place (no "middle option" tell)
        return count_near_misses(rng, int(answer), self.min_value, k)


class Numbers(Kind):
    """A list of ``count`` whole numbers in order (``3 1 2``, ``[3, 1, 2]``)."""

    def __init__(self, count: int, hint: str) -> None:
        self.count, self.hint = count, hint

    def parse(self, text: str) -> tuple[int, ...] | None:
        values = read_ints(text, self.count)
        return None if values is None else tuple(values)

    def format(self, answer: Sequence[int]) -> str:
        return " ".join(str(int(v)) for v in answer)

    def nearby(self, answer: Sequence[int], rng: np.random.Generator, k: int) -> Iterator[tuple[int, ...]]:
        for _ in range(50):  # two neighbouring entries swapped
            i = int(rng.integers(len(answer) - 1))
            a = list(answer)
            a[i], a[i + 1] = a[i + 1], a[i]
            yield tuple(a)


class Cell(Kind):
    """One cell of a ``rows x cols`` board, named like ``B3``."""

    hint = "one cell, its column letter and row number (for example `A1`)"

    def __init__(self, rows: int, cols: int, hint: str | None = None) -> None:
        self.rows, self.cols = rows, cols
        self.hint = hint or self.hint

    def parse(self, text: str) -> tuple[int, int] | None:
        cells = read_cells(text, self.rows, self.cols)
        return cells[0] if cells and len(cells) == 1 else None

    def format(self, answer: tuple[int, int]) -> str:
        return cell_name(*answer)

    def nearby(self, answer: tuple[int, int], rng: np.random.Generator, k: int) -> list[tuple[int, int]]:
        r, c = answer
        around = [(r + dr, c + dc) for dr, dc in NEIGHBOURS_8 if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols]
        return [around[int(i)] for i in rng.permutation(len(around))]


class Cells(Kind):
    """A set of cells, named like ``B3 C4`` in any order (``none`` for no cell)."""

    def __init__(self, rows: int, cols: int, hint: str) -> None:
        self.rows, self.cols, self.hint = rows, cols, hint

    def parse(self, text: str) -> frozenset | None:
        cells = read_cells(text, self.rows, self.cols)
        return None if cells is None else frozenset(cells)

    def format(self, answer: frozenset) -> str:
        return format_cells(answer) or "none"

    def nearby(self, answer: frozenset, rng: np.random.Generator, k: int) -> list[frozenset]:
        out, cells = [], sorted(answer)
        for i in rng.permutation(len(cells)):
            r, c = cells[int(i)]
            out.append(answer - {(r, c)})
            out += [answer | {(r + dr, c + dc)} for dr, dc in NEIGHBOURS_4
                    if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols and (r + dr, c + dc) not in answer][:1]
        return out


class Word(Kind):
    """One of a few named values (``names[i]`` for value i), read with ``aliases`` too; written after
    ``prefix`` (``facing up``), which a reply may leave out."""

    def __init__(self, names: Sequence[str], hint: str, aliases: dict[str, int] | None = None, prefix: str = "") -> None:
        self.names, self.hint, self.prefix = tuple(names), hint, prefix
        self.table = {n.lower(): i for i, n in enumerate(self.names)} | {a.lower(): i for a, i in (aliases or {}).items()}

    def parse(self, text: str) -> int | None:
        if not isinstance(text, str) or len(text) > 64:
            return None
        t = text.strip().strip(".!*`'\"").strip().lower()
        if self.prefix and t.startswith(self.prefix.lower()):
            t = t[len(self.prefix):].strip()
        return self.table.get(t)

    def format(self, answer: int) -> str:
        return f"{self.prefix}{self.names[answer]}"

    def nearby(self, answer: int, rng: np.random.Generator, k: int) -> list[int]:
        return [int(i) for i in rng.permutation(len(self.names))]


class GridOf(Kind):
    """A whole ``rows x cols`` grid (see `core.grid_answers`); near misses change one or two cells to
    another of ``values`` (or by one, when ``values`` is empty)."""

    def __init__(self, rows: int, cols: int, hint: str, kind: str = "int", alphabet: str = "",
                 symbols: dict[str, int] | None = None, names: dict[int, str] | None = None,
                 values: Sequence[int] = ()) -> None:
        self.rows, self.cols, self.kind, self.alphabet = rows, cols, kind, alphabet
        self.symbols, self.names, self.values = symbols or {}, names or {}, tuple(values)
        self.hint = f"{hint}: {rows} rows of {cols} {'values' if kind == 'int' else 'characters'}, row by row from the top, rows separated by `/`"

    def parse(self, text: str) -> Grid | None:
        return read_grid(text, self.rows, self.cols, self.kind, self.alphabet, self.symbols)

    def format(self, answer: Grid) -> str:
        return format_grid(answer, self.kind, self.alphabet, self.names)

    def nearby(self, answer: Grid, rng: np.random.Generator, k: int) -> Iterator[Grid]:
        fixed = set(self.names)  # symbol cells (walls) stay
        cells = [(r, c) for r in range(self.rows) for c in range(self.cols) if answer[r][c] not in fixed]
        for _ in range(100):
            g = [list(row) for row in answer]
            for _k in range(1 + int(rng.integers(2))):
                r, c = cells[int(rng.integers(len(cells)))]
                v = g[r][c]
                choices = [x for x in (self.values or (v - 1, v + 1)) if x != v and x not in fixed]
                if choices:
                    g[r][c] = choices[int(rng.integers(len(choices)))]
            yield as_grid(g)


class AlgoEnv(SingleTurnEnv):
    """Base of the algorithmic tasks.

    A task sets ``self.kind`` (a `Kind`) in ``_configure`` or ``_generate`` and implements
    ``_generate``, ``_draw``, ``_task_text``, ``_solve``, ``_level_text`` (the level as text, built
    once per level) and, for MCQ hard negatives, ``_similar`` (wrong answers of a similar method:
    another rule, metric or step count; the kind's generic near misses follow). ``_check`` compares
    with the solution; tasks whose answers are not unique override it to judge by the rules.
    """

    kind: Kind = Kind()
    _level_cache: str | None = None

    @property
    def answer_hint(self) -> str:  # type: ignore[override]
        return self.kind.hint

    def _after_generate(self) -> None:
        self._level_cache = None
        super()._after_generate()

    def _level_text(self) -> str:
        raise NotImplementedError

    def _state_text(self) -> str:
        if self._level_cache is None:
            self._level_cache = self._level_text()
        return self._level_cache

    def _parse_answer(self, text: str) -> Any:
        return self.kind.parse(text)

    def _format(self, answer: Any) -> str:
        return self.kind.format(answer)

    def _check(self, answer: Any) -> bool:
        return answer == self._solution

    def _similar(self, rng: np.random.Generator) -> Iterable[Any]:
        return ()

    def _near_misses(self, rng: np.random.Generator) -> Iterator[Any]:
        yield from self._similar(rng)
        yield from self.kind.nearby(self._solution, rng, self.num_options)


def as_grid(g: Any) -> Grid:
    a = np.asarray(g)
    if a.dtype.kind in "iu" and a.ndim == 2:  # already whole numbers: `tolist` gives Python ints
        return tuple(map(tuple, a.tolist()))
    return tuple(tuple(int(v) for v in row) for row in a.tolist())


# ----------------------------------------------------------------- grid algorithms
@functools.lru_cache(maxsize=64)
def neighbour_table(rows: int, cols: int, moves=NEIGHBOURS_4) -> tuple[tuple[int, ...], ...]:
    """Per cell of a ``rows x cols`` board (flat index ``r * cols + c``), the flat indices of its
    ``moves`` neighbours on the board (cached: a search then needs no bounds checks)."""
    return tuple(tuple((r + dr) * cols + c + dc for dr, dc in moves if 0 <= r + dr < rows and 0 <= c + dc < cols)
                 for r in range(rows) for c in range(cols))


def bfs_flat(ok: Sequence[bool], sources: Iterable[int], table: Sequence[Sequence[int]]) -> list[int]:
    """`bfs_distances` on flat lists: fewest moves from the nearest of ``sources`` (flat indices) to
    every cell through ``ok`` cells, the neighbours of cell i being ``table[i]`` (-1: unreachable)."""
    d = [-1] * len(ok)
    queue = []
    for i in sources:
        d[i] = 0
        queue.append(i)
    for i in queue:  # the list grows behind the loop: breadth first
        nd = d[i] + 1
        for j in table[i]:
            if ok[j] and d[j] < 0:
                d[j] = nd
                queue.append(j)
    return d


def bfs_distances(open_: np.ndarray, sources: Iterable[tuple[int, int]], moves=NEIGHBOURS_4) -> np.ndarray:
    """Fewest moves from the nearest source to every cell through ``open_`` cells (-1: unreachable)."""
    rows, cols = open_.shape
    d = bfs_flat(open_.reshape(-1).tolist(), [r * cols + c for r, c in sources], neighbour_table(rows, cols, moves))
    return np.array(d, dtype=np.int64).reshape(rows, cols)


def components(same: np.ndarray, moves=NEIGHBOURS_4, keep: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """Label the connected regions of equal values of ``same`` (cells outside ``keep`` get -1)."""
    rows, cols = same.shape
    vals = same.reshape(-1).tolist()
    keep_l = keep.reshape(-1).tolist() if keep is not None else [True] * len(vals)
    table = neighbour_table(rows, cols, moves)
    label = [-1] * len(vals)
    n = 0
    for i0, v in enumerate(vals):
        if label[i0] >= 0 or not keep_l[i0]:
            continue
        label[i0] = n
        stack = [i0]
        while stack:
            for j in table[stack.pop()]:
                if label[j] < 0 and vals[j] == v and keep_l[j]:
                    label[j] = n
                    stack.append(j)
        n += 1
    return np.array(label).reshape(rows, cols), n
