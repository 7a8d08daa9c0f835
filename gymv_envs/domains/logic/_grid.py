"""Shared parts of the grid logic puzzles: a base env, board drawing, answer parsing, solvers.

`GridAnswerEnv` is a `SingleTurnEnv` whose answer is a filled ``rows x cols`` grid: it reads
grids written in any common way (spaces, commas, newlines, ``/`` between rows, brackets,
JSON lists, ``Row 1:`` labels), formats them one way, and draws near-miss options by
swapping or changing one or two cells the puzzle left open. A task sets ``cell_kind``
(``"digit"``: one character per cell; ``"number"``: separated integers; ``"mask"``: ``#``
for a shaded cell and ``.`` for an empty one), and implements ``_generate`` (setting
``rows``, ``cols``, ``free`` and its clues), ``_draw``, ``_check``, ``_solve``. `LatinSquareEnv`
and `HiddenCellsEnv` add what Latin-square puzzles and puzzles made by hiding cells of a full grid
share. Boards are drawn with `gymv_envs.core.board`.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import ClassVar

import numpy as np

from gymv_envs.core import SingleTurnEnv
from gymv_envs.core.board import Geom, cell_text

Grid = tuple[tuple[int, ...], ...]
_LABEL = re.compile(r"(?i)\b(?:row|line)\s*\d+\s*[:=.)\]-]")
_SEP = re.compile(r"[\s,;/|\[\](){}\"'`]+")
MASK_ON = "#1*■█●X"
MASK_OFF = ".0_-□·o"
MAX_TEXT = 20_000
# str.translate tables: drop the characters a cell may be (what is left is not a grid); mask cells as 1 / 0
_DROP_DIGIT = str.maketrans("", "", "0123456789")
_DROP_MASK = str.maketrans("", "", MASK_ON + MASK_OFF)
_MASK_BITS = str.maketrans(MASK_ON + MASK_OFF, "1" * len(MASK_ON) + "0" * len(MASK_OFF))


# ----------------------------------------------------------------- answers
def read_cells(text: str, kind: str) -> list[str] | None:
    """The cell tokens of a written grid, or ``None`` when the text holds anything else."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        return None
    if kind == "number":
        toks = [t for t in _SEP.split(_LABEL.sub(" ", text)) if t]
        return toks if toks and all(t.isdigit() and len(t) <= 4 for t in toks) else None
    chars = _SEP.sub("", _LABEL.sub(" ", text))  # the tokens, joined
    if not chars or chars.translate(_DROP_DIGIT if kind == "digit" else _DROP_MASK):
        return None
    return list(chars.translate(_MASK_BITS) if kind == "mask" else chars)


def format_grid(grid: Grid, kind: str) -> str:
    if kind == "mask":
        return " / ".join(["".join(["#" if v else "." for v in row]) for row in grid])
    return " / ".join([" ".join(map(str, row)) for row in grid])


def counting_row(n: int) -> str:
    """``1 2 ... n``: an example row of an answer hint."""
    return " ".join(str(i + 1) for i in range(n))


def latin_square(rng: np.random.Generator, n: int) -> list[list[int]]:
    """A random n x n Latin square over 1..n (shuffled cyclic square, rows/columns/symbols permuted)."""
    rows, cols, syms = rng.permutation(n).tolist(), rng.permutation(n).tolist(), (rng.permutation(n) + 1).tolist()
    return [[syms[(r + c) % n] for c in cols] for r in rows]


def smallest_true(lo: int, hi: int, ok: Callable[[int], bool]) -> int:
    """The smallest k in [lo, hi] with ``ok(k)`` for a monotone ``ok`` (``hi`` when none below is)."""
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


class Budget(Exception):
    """Raised by a solver when it has searched more nodes than allowed."""


def fewest_clues(lo: int, hi: int, solutions: Callable[[int], Sequence], doubling: bool = False) -> int:
    """The fewest clues k in [lo, hi] for which ``solutions(k)``, the puzzle with its first k clues, has
    exactly one solution (monotone in k); a search that runs out of budget counts as not unique.
    ``doubling``: try lo, lo + 1, lo + 3, lo + 7, ... first, then halve the last gap (fewer searches
    where few clues usually suffice; the same k)."""
    def unique(k: int) -> bool:
        try:
            return len(solutions(k)) == 1
        except Budget:
            return False

    if doubling:
        k, step = lo, 1
        while k < hi and not unique(k):
            lo, k, step = k + 1, k + step, 2 * step
        hi = min(hi, k)
    return smallest_true(lo, hi, unique)


@functools.lru_cache(maxsize=16)
def permutations(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.permutations(range(1, n + 1)))


Table = tuple[int, Sequence[int]] | tuple[int, Sequence[int], int] | tuple[int, Sequence[int], int, dict[int, int]]


def cell_bits(cells: Iterable[int], width: int) -> int:
    """The bits of every value of ``cells`` in the one-hot code of `table_search` (cell i, value v: bit ``i * width + v``)."""
    full = (1 << width) - 1
    out = 0
    for i in cells:
        out |= full << i * width
    return out


_union = functools.partial(functools.reduce, int.__or__)


def _settle(scopes: list[int], sups: list, dom: int, cands: list, unions: list, seen: list) -> int | None:
    """`table_search`'s propagation, in place on ``cands``, ``unions`` and ``seen``: the domain at the
    fixpoint, or None when a table has no code left."""
    # ``seen[i]``: table i's domain when last looked at (the parent's fixpoint, or -1); a table
    # whose domain has not changed since is skipped. The fixpoint does not depend on the order
    # tables are looked at, so neither do the search tree, its solutions and its branch count.
    dirty = True
    while dirty:
        dirty = False
        for i, scope in enumerate(scopes):
            cur = dom & scope
            if cur == seen[i]:
                continue
            bad = scope ^ cur
            u = unions[i]
            gone = u & bad
            if gone:
                sup = sups[i]
                if sup is None:
                    cs = [p for p in cands[i] if not p & bad]
                    if not cs:
                        return None
                    cands[i] = cs
                    unions[i] = u = _union(cs)
                else:  # a live code outside the domain uses a bit of ``gone``: strike those out
                    kill = 0
                    while gone:
                        low = gone & -gone
                        kill |= sup[low]
                        gone ^= low
                    live = cands[i] & ~kill
                    if not live:
                        return None
                    cands[i] = live
                    u, rest = 0, cur & u
                    while rest:
                        low = rest & -rest
                        if sup[low] & live:
                            u |= low
                        rest ^= low
                    unions[i] = u
            new = cur & u
            if new != cur:
                dom ^= cur ^ new
                dirty = True
            seen[i] = new
    return dom


def table_search(tables: Sequence[Table], domain: int, limit: int = 2, budget: int = 20_000,
                 accept: Callable[[int], bool] | None = None) -> list[int]:
    """Assignments that agree with one entry of every table: table constraints on one-hot bit codes.

    Cell ``i`` taking value ``v`` is bit ``i * width + v`` (see `cell_bits`); ``domain`` holds the
    values every cell may still take. A table is ``(scope, codes)``: the bits of its cells and the
    allowed joint values of those cells, each a code (a third item, the OR of the codes, saves
    working it out). Propagation keeps, in every table, the codes inside the domain and, in the
    domain, only values some kept code uses (arc consistency), until nothing changes; then the
    search branches on the table with the fewest codes left. The answer is the final domain of
    each solution (one bit per cell covered by a table) that ``accept`` allows (a rule no table
    holds); stops after ``limit`` solutions and raises `Budget` after ``budget`` branches.

    A table may carry a fourth item, its *supports*: for each bit of its scope (as the one-bit int),
    the codes that use it as a bit mask over their indices. Such a table keeps its live codes as one
    such mask (a "compact table"): a value leaving the domain strikes out its support at once, where
    a plain table filters its list code by code. Both keep the codes in their given order, so the
    search tree, its solutions and its branch count are the same either way.
    """
    scopes = [t[0] for t in tables]
    count = len(scopes)
    out: list[int] = []
    nodes = [0]
    sups = [t[3] if len(t) > 3 else None for t in tables]
    compact = sups.count(None) < count
    codes_of = [t[1] for t in tables] if compact else []

    def rec(dom: int, cands: list, unions: list, seen: list) -> None:
        dom = _settle(scopes, sups, dom, cands, unions, seen)
        if dom is None:
            return
        best, size = -1, 1 << 30
        for i in range(count):
            c = cands[i]
            k = c.bit_count() if compact and sups[i] is not None else len(c)
            if 1 < k < size:
                best, size = i, k
        if best < 0:
            if accept is None or accept(dom):
                out.append(dom)
            return
        rest = dom & ~scopes[best]
        if sups[best] is None:
            branches = [(p, (p,)) for p in cands[best]]
        else:  # the live codes in index order, each as its one-code mask
            live, codes, branches = cands[best], codes_of[best], []
            while live:
                low = live & -live
                branches.append((codes[low.bit_length() - 1], low))
                live ^= low
        for p, alone in branches:
            nodes[0] += 1
            if nodes[0] > budget:
                raise Budget
            sub, subu = list(cands), list(unions)
            sub[best], subu[best] = alone, p
            rec(rest | p, sub, subu, list(seen))
            if len(out) >= limit:
                return

    # lists are replaced, never changed in place; a compact table starts with every code live
    tabs = [t[1] if sup is None else (1 << len(t[1])) - 1 for t, sup in zip(tables, sups)]
    if all(tabs):
        rec(domain, tabs, [t[2] if len(t) > 2 else _union(t[1]) for t in tables], [-1] * count)
    return out


def narrow_tables(tables: Sequence[Table], domain: int) -> tuple[list[Table], int] | None:
    """The tables (as lists of the codes kept) and the domain at `table_search`'s propagation fixpoint,
    or None when it leaves a table empty. A search from them with a smaller domain is the search from
    the given tables with that domain (the same fixpoint, codes in the same order: the same tree), so
    callers that search one puzzle many times with more and more clues narrow it once."""
    sups = [t[3] if len(t) > 3 else None for t in tables]
    cands = [t[1] if sup is None else (1 << len(t[1])) - 1 for t, sup in zip(tables, sups)]
    unions = [t[2] if len(t) > 2 else _union(t[1]) for t in tables]
    dom = _settle([t[0] for t in tables], sups, domain, cands, unions, [-1] * len(tables)) if all(cands) else None
    if dom is None:
        return None
    kept = [c if sup is None else [p for k, p in enumerate(t[1]) if c >> k & 1]
            for t, c, sup in zip(tables, cands, sups)]
    return [(t[0], c, u) for t, c, u in zip(tables, kept, unions)], dom


def decode_cells(code: int, cells: int, width: int) -> list[int]:
    """The value of each of ``cells`` cells in a one-hot code of `table_search`."""
    full = (1 << width) - 1
    return [((code >> i * width) & full).bit_length() - 1 for i in range(cells)]


@functools.lru_cache(maxsize=16)
def permutation_array(n: int) -> np.ndarray:
    """`permutations` of 1..n as a read-only ``(n!, n)`` array, for vectorised filters of Latin lines."""
    out = np.array(permutations(n), dtype=np.int64).reshape(-1, n)
    out.setflags(write=False)
    return out


def _line_cells(n: int, line: int) -> list[int]:
    """The flat cells of row ``line`` (< n) or column ``line - n`` of an n x n grid, left to right or top down."""
    return [line * n + k if line < n else k * n + line - n for k in range(n)]


@functools.lru_cache(maxsize=16)
def latin_line_codes(n: int) -> tuple[tuple[int, np.ndarray], ...]:
    """For rows 0..n-1 then columns 0..n-1 of an n x n grid: the line's `cell_bits` and the one-hot
    code (width n, value v as v - 1) of every permutation of 1..n laid along it (an object array in
    `permutations` order)."""
    out = []
    for line in range(2 * n):
        cells = _line_cells(n, line)
        codes = np.empty(len(permutations(n)), dtype=object)
        codes[:] = [sum(1 << (cells[k] * n + p[k] - 1) for k in range(n)) for p in permutations(n)]
        codes.setflags(write=False)
        out.append((cell_bits(cells, n), codes))
    return tuple(out)


# whole Latin lines of this size and more are compact tables (below, filtering the short list costs
# less): KenKen d2 27% fewer instructions a level
COMPACT_FROM = 6


def latin_line_table(n: int, line: int, keep: np.ndarray | None = None) -> Table:
    """Row (``line`` < n) or column ``line - n`` of a Latin square as a table: the permutations (read
    from the left or the top) that ``keep``, a mask over `permutation_array`, allows (all when None),
    with their union. A whole line from n = `COMPACT_FROM` is a compact table (with its supports);
    a filtered one is a list (its supports would cost more to build than they save)."""
    if keep is None:
        return _whole_line(n, line)
    scope, codes = latin_line_codes(n)[line]
    kept = codes[keep].tolist()
    return scope, kept, functools.reduce(int.__or__, kept, 0)


def _supports(n: int, line: int, perms: np.ndarray) -> dict[int, int]:
    """The supports of a line's table whose codes are the rows of ``perms``: for each value v of each
    cell (as its one-hot bit), the rows holding it as a bit mask over row indices."""
    sups = {}
    for k, cell in enumerate(_line_cells(n, line)):
        for v in range(1, n + 1):
            sups[1 << (cell * n + v - 1)] = int.from_bytes(np.packbits(perms[:, k] == v, bitorder="little").tobytes(), "little")
    return sups


@functools.lru_cache(maxsize=32)
def _whole_line(n: int, line: int) -> Table:
    """A whole line as a table; from n = `COMPACT_FROM` (720 codes) a compact one."""
    scope, codes = latin_line_codes(n)[line]
    if n < COMPACT_FROM:
        return scope, tuple(codes.tolist()), scope
    return scope, tuple(codes.tolist()), scope, _supports(n, line, permutation_array(n))


def latin_domain(n: int, givens: dict[tuple[int, int], int] | None = None) -> int:
    """The domain of `table_search` for an n x n grid over 1..n (cell i, value v: bit ``i * n + v - 1``)
    with ``givens`` fixed."""
    dom = (1 << n ** 3) - 1
    for (r, c), v in (givens or {}).items():
        i = (r * n + c) * n
        dom &= ~(((1 << n) - 1) << i) | 1 << (i + v - 1)
    return dom


def latin_solve(n: int, tables: Sequence[Table], givens: dict[tuple[int, int], int] | None = None,
                limit: int = 2, budget: int = 20_000) -> list[Grid]:
    """Latin squares over 1..n that keep ``givens`` and agree with ``tables`` (every row and column is
    one unless a table stands for it), by `table_search`."""
    sols = table_search(tables, latin_domain(n, givens), limit, budget)
    return [tuple(tuple(v + 1 for v in row) for row in zip(*[iter(decode_cells(s, n * n, n))] * n)) for s in sols]


def is_latin(grid: Grid, n: int) -> bool:
    """Whether every row and every column of ``grid`` holds 1..n once each."""
    want = set(range(1, n + 1))
    return all(set(row) == want for row in grid) and all(set(col) == want for col in zip(*grid, strict=True))


def keeps(grid: Grid, givens: dict[tuple[int, int], int]) -> bool:
    """Whether ``grid`` holds every given value ``{(r, c): v}``."""
    return all(grid[r][c] == v for (r, c), v in givens.items())


def hide_cells(full: Sequence[int], order: Sequence[int], k: int) -> list[int]:
    """The flat grid ``full`` with its cells ``order[:k]`` opened (set to 0)."""
    g = list(full)
    for i in order[:k]:
        g[i] = 0
    return g


# ----------------------------------------------------------------- the base envs
class GridAnswerEnv(SingleTurnEnv):
    """Base of puzzles answered by a filled grid (see the module docstring)."""

    cell_kind: ClassVar[str] = "digit"
    rows: int = 0
    cols: int = 0

    # values a changed cell may take in near misses (digits/numbers); set by the task
    def _values(self) -> Sequence[int]:
        return (0, 1)

    def _grid_hint(self, what: str, cells: str, example: str) -> str:
        """The answer hint: ``what`` as the grid's rows of ``cells``, with ``example`` as a first row."""
        return f"{what} as {self.rows} rows of {self.cols} {cells}, rows separated by `/` (for example `{example} / ...`)"

    def _mask_hint(self, what: str, on: str, off: str) -> str:
        """The answer hint of a ``mask`` grid: `#` for a cell that is ``on``, `.` for one that is ``off``."""
        example = "#." * (self.cols // 2) + "#" * (self.cols % 2)
        return self._grid_hint(what, f"cells, `#` for {on} and `.` for {off}", example)

    def _unflatten(self, flat: Sequence[int]) -> Grid:
        """The grid whose cells, row by row, are ``flat``."""
        return tuple(tuple(flat[r * self.cols:(r + 1) * self.cols]) for r in range(self.rows))

    def _grid_from_cells(self, cells: list[str]) -> Grid | None:
        if len(cells) != self.rows * self.cols:
            return None
        return self._unflatten(list(map(int, cells)))

    def _parse_answer(self, text: str) -> Grid | None:
        cells = read_cells(text, self.cell_kind)
        if cells is None:
            return self._tail_grid(text)
        if cells is None:
            return None
        short = self.rows * self.cols - len(cells)
        if self.cell_kind == "mask" and 0 < short <= self.cols and text.count("/") == self.rows - 1:
            # answer extraction strips trailing dots: `... / .##..` reaches us as `... / .##` (`... / .....` as `... /`)
            cells += ["0"] * short
        return self._grid_from_cells(cells)

    def _cell_counts(self) -> tuple[int, ...]:
        """How many cells a written answer may hold (largest first)."""
        return (self.rows * self.cols,)

    def _tail_grid(self, text: str) -> Grid | None:
        """Prose, then the grid: read the last cells of the text (the last valid mention)."""
        toks = [t for t in _SEP.split(_LABEL.sub(" ", text[-MAX_TEXT:])) if t]
        for need in self._cell_counts():
            cells: list[str] = []
            for tok in reversed(toks):
                part = read_cells(tok, self.cell_kind)
                if part is None or len(cells) + len(part) > need:
                    break
                cells[:0] = part
            if len(cells) == need:
                grid = self._grid_from_cells(cells)
                if grid is not None:
                    return grid
        return None

    def _format(self, answer: Grid) -> str:
        return format_grid(answer, self.cell_kind)

    def _near_misses(self, rng: np.random.Generator) -> Iterator[Grid]:
        """Lazily, up to 200 grids one swap or one or two changed open cells away from the solution."""
        sol = [list(r) for r in self._solution]
        free = list(self.free)
        values = list(self._values())
        for _ in range(200):
            g = [list(r) for r in sol]
            kind = int(rng.integers(4))
            (r, c) = free[int(rng.integers(len(free)))]
            if kind < 2:  # swap with another open cell of the same row (0) or column (1)
                mates = [(a, b) for a, b in free if (a == r if kind == 0 else b == c) and g[a][b] != g[r][c]]
                if not mates:
                    continue
                a, b = mates[int(rng.integers(len(mates)))]
                g[r][c], g[a][b] = g[a][b], g[r][c]
            else:  # change one (2) or two (3) open cells
                for _k in range(kind - 1):
                    others = [v for v in values if v != g[r][c]]
                    g[r][c] = others[int(rng.integers(len(others)))]
                    r, c = free[int(rng.integers(len(free)))]
            yield tuple(tuple(row) for row in g)

    def _state_rows(self, cell: Callable[[int, int], str]) -> str:
        return "\n".join(" ".join(cell(r, c) for c in range(self.cols)) for r in range(self.rows))


class LatinSquareEnv(GridAnswerEnv):
    """Base of puzzles answered by an ``n x n`` Latin square over 1..n (Futoshiki, Skyscrapers, KenKen)."""

    n: int = 0

    def _set_side(self, n: int, what: str = "the completed grid") -> None:
        self.rows = self.cols = self.n = n
        self.answer_hint = self._grid_hint(what, "digits", counting_row(n))

    def _values(self) -> range:
        return range(1, self.n + 1)


class HiddenCellsEnv(GridAnswerEnv):
    """Base of puzzles made by hiding cells of a full grid (Sudoku, Magic square, Survo).

    ``givens`` is the puzzle as a flat list, row by row, with 0 for a hidden cell.
    """

    givens: list[int]

    def _set_givens(self, givens: list[int]) -> None:
        self.givens = givens
        self.free = [divmod(i, self.cols) for i in range(self.rows * self.cols) if not givens[i]]

    def _paint_givens(self, img: np.ndarray, g: Geom, scale: float) -> None:
        for i, v in enumerate(self.givens):
            if v:
                cell_text(img, g, i // self.cols, i % self.cols, str(v), scale=scale)

    def _given_text(self, r: int, c: int) -> str:
        return str(self.givens[r * self.cols + c] or ".")

    def _state_text(self) -> str:
        return self._state_rows(self._given_text)

    def _keeps_givens(self, flat: Sequence[int]) -> bool:
        return all(not g or g == v for g, v in zip(self.givens, flat, strict=True))


__all__ = ["Budget", "GridAnswerEnv", "HiddenCellsEnv", "LatinSquareEnv", "Table",
           "cell_bits", "counting_row", "decode_cells", "fewest_clues", "format_grid",
           "hide_cells", "is_latin", "keeps", "latin_domain", "latin_line_codes", "latin_line_table", "latin_solve", "latin_square",
           "narrow_tables", "permutation_array", "permutations", "read_cells", "smallest_true", "table_search"]
