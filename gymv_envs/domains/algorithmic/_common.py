"""Shared parts of the algorithmic tasks: answer kinds (a number, a cell, a grid), question checks,
near-miss helpers and small grid algorithms (BFS distances, connected components).

A task mixes in one answer kind: `IntAnswerEnv`, `CellAnswerEnv` or `GridAnswerEnv`. Each reads the
answer strictly (`gymv_envs.core.grid_answers`), formats it one way, and draws MCQ hard negatives
from the task's semantically similar wrong answers (``_similar``) before generic near misses.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, ClassVar

import numpy as np

from gymv_envs.core import SingleTurnEnv
from gymv_envs.core.grid_answers import (
    Grid,
    cell_name,
    format_grid,
    read_cells,
    read_grid,
    read_int,
)

NEIGHBOURS_4 = ((-1, 0), (0, 1), (1, 0), (0, -1))
NEIGHBOURS_8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def check_question(question: Any, valid: tuple[str, ...]) -> str:
    """``question`` if it is one of ``valid``, else a ValueError naming the valid values."""
    if not isinstance(question, str) or question not in valid:
        raise ValueError(f"invalid question={question!r}; valid values: {', '.join(map(repr, valid))}")
    return question


def board_text(grid: Sequence[Sequence[Any]], cell=str) -> str:
    """A board as text, one row per line (the levels' ``state_text``)."""
    return "\n".join(" ".join(cell(v) for v in row) for row in grid)


class IntAnswerEnv(SingleTurnEnv):
    """A task answered by one integer (a count, a distance, a number of steps)."""

    answer_hint: ClassVar[str] = "one whole number"
    min_value: ClassVar[int] = 0

    def _parse_answer(self, text: str) -> int | None:
        return read_int(text)

    def _check(self, answer: int) -> bool:
        return answer == self._solution

    def _format(self, answer: int) -> str:
        return str(int(answer))

    def _similar(self, rng: np.random.Generator) -> Iterable[int]:
        """Hook: wrong answers of a similar method (another rule, metric, step count)."""
        return ()

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        s = int(self._solution)
        out = [int(v) for v in self._similar(rng) if v >= self.min_value and v != s]
        # then a window of consecutive values in which the answer sits at a random rank
        lo = max(self.min_value, s - int(rng.integers(self.num_options)))
        out += [v for v in range(lo, lo + self.num_options + 1) if v != s]
        out += [s + k for k in range(1, 2 * self.num_options)]
        return out


class CellAnswerEnv(SingleTurnEnv):
    """A task answered by one cell of a board, named like ``B3``."""

    answer_hint: ClassVar[str] = "one cell, its column letter and row number (for example `A1`)"
    rows: int = 0
    cols: int = 0

    def _parse_answer(self, text: str) -> tuple[int, int] | None:
        cells = read_cells(text, self.rows, self.cols)
        return cells[0] if cells and len(cells) == 1 else None

    def _check(self, answer: tuple[int, int]) -> bool:
        return tuple(answer) == tuple(self._solution)

    def _format(self, answer: tuple[int, int]) -> str:
        return cell_name(*answer)

    def _similar(self, rng: np.random.Generator) -> Iterable[tuple[int, int]]:
        return ()

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[int, int]]:
        r, c = self._solution
        out = [tuple(p) for p in self._similar(rng)]
        around = [(r + dr, c + dc) for dr, dc in NEIGHBOURS_8 if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols]
        out += [around[int(i)] for i in rng.permutation(len(around))]
        return out


class GridAnswerEnv(SingleTurnEnv):
    """A task answered by a whole ``answer_rows x answer_cols`` grid (see `core.grid_answers`)."""

    grid_kind: ClassVar[str] = "int"
    grid_alphabet: ClassVar[str] = ""
    grid_symbols: ClassVar[dict[str, int]] = {}
    grid_names: ClassVar[dict[int, str]] = {}
    answer_rows: int = 0
    answer_cols: int = 0

    def _parse_answer(self, text: str) -> Grid | None:
        return read_grid(text, self.answer_rows, self.answer_cols, self.grid_kind, self.grid_alphabet, self.grid_symbols)

    def _check(self, answer: Grid) -> bool:
        return tuple(map(tuple, answer)) == tuple(map(tuple, self._solution))

    def _format(self, answer: Grid) -> str:
        return format_grid(answer, self.grid_kind, self.grid_alphabet, self.grid_names)

    def _grid_hint(self, what: str, cells: str) -> str:
        return (f"{what}: {self.answer_rows} rows of {self.answer_cols} {cells}, row by row from the top, "
                "rows separated by `/`")

    def _similar(self, rng: np.random.Generator) -> Iterable[Grid]:
        return ()

    def _cell_values(self, r: int, c: int, v: int) -> Sequence[int]:
        """Hook: the values a near miss may put in cell (r, c) instead of ``v``."""
        return (v - 1, v + 1)

    def _near_misses(self, rng: np.random.Generator) -> Iterator[Grid]:
        yield from (as_grid(g) for g in self._similar(rng))
        sol = [list(row) for row in self._solution]
        cells = [(r, c) for r in range(self.answer_rows) for c in range(self.answer_cols)]
        for _ in range(100):
            g = [list(row) for row in sol]
            for _k in range(1 + int(rng.integers(2))):
                r, c = cells[int(rng.integers(len(cells)))]
                choices = [v for v in self._cell_values(r, c, g[r][c]) if v != g[r][c]]
                if choices:
                    g[r][c] = choices[int(rng.integers(len(choices)))]
            yield as_grid(g)


def as_grid(g: Any) -> Grid:
    return tuple(tuple(int(v) for v in row) for row in np.asarray(g).tolist())


# ----------------------------------------------------------------- grid algorithms
def bfs_distances(open_: np.ndarray, sources: Iterable[tuple[int, int]], moves=NEIGHBOURS_4) -> np.ndarray:
    """Fewest moves from the nearest source to every cell through ``open_`` cells (-1: unreachable)."""
    rows, cols = open_.shape
    dist = np.full((rows, cols), -1, dtype=np.int64)
    flat = dist.reshape(-1)
    ok = open_.reshape(-1).tolist()
    queue = deque()
    for r, c in sources:
        flat[r * cols + c] = 0
        queue.append((r, c))
    d = flat.tolist()
    while queue:
        r, c = queue.popleft()
        nd = d[r * cols + c] + 1
        for dr, dc in moves:
            y, x = r + dr, c + dc
            if 0 <= y < rows and 0 <= x < cols:
                i = y * cols + x
                if ok[i] and d[i] < 0:
                    d[i] = nd
                    queue.append((y, x))
    return np.asarray(d, dtype=np.int64).reshape(rows, cols)


def components(same: np.ndarray, moves=NEIGHBOURS_4, keep: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """Label the connected regions of equal values of ``same`` (cells outside ``keep`` get -1)."""
    rows, cols = same.shape
    vals = same.tolist()
    keep_l = keep.tolist() if keep is not None else None
    label = [[-1] * cols for _ in range(rows)]
    n = 0
    for r0 in range(rows):
        for c0 in range(cols):
            if label[r0][c0] >= 0 or (keep_l is not None and not keep_l[r0][c0]):
                continue
            label[r0][c0] = n
            stack = [(r0, c0)]
            v = vals[r0][c0]
            while stack:
                r, c = stack.pop()
                for dr, dc in moves:
                    y, x = r + dr, c + dc
                    if 0 <= y < rows and 0 <= x < cols and label[y][x] < 0 and vals[y][x] == v \
                            and (keep_l is None or keep_l[y][x]):
                        label[y][x] = n
                        stack.append((y, x))
            n += 1
    return np.asarray(label), n
