"""Binairo (Takuzu): fill a grid with 0s and 1s under the balance, no-triple and distinct-lines rules."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import blank_board, cell_text
from gymv_envs.domains.logic._grid import (
    GridAnswerEnv,
    Table,
    cell_bits,
    decode_cells,
    fewest_clues,
    table_search,
)

SIDES = {0: 4, 1: 6, 2: 8}


@functools.lru_cache(maxsize=16)
def valid_lines(n: int, no_triples: bool = True) -> tuple[tuple[int, ...], ...]:
    """Every line of n cells with n/2 ones and (``no_triples``) no three equal cells in a row."""
    return tuple(p for p in itertools.product((0, 1), repeat=n)
                 if sum(p) == n // 2 and not (no_triples and any(p[i] == p[i + 1] == p[i + 2] for i in range(n - 2))))


def line_ok(line: list[int] | tuple[int, ...], no_triples: bool = True) -> bool:
    return tuple(line) in valid_lines(len(line), no_triples)


@functools.lru_cache(maxsize=128)
def line_table(n: int, line: int, no_triples: bool = True) -> Table:
    """Row ``line`` (< n) or column ``line - n`` as a table of `table_search` (cell value 0 or 1)."""
    cells = [line * n + k if line < n else k * n + line - n for k in range(n)]
    scope = cell_bits(cells, 2)
    codes = tuple(sum(1 << (2 * cells[k] + v) for k, v in enumerate(p)) for p in valid_lines(n, no_triples))
    return scope, codes, scope


def solve(n: int, givens: dict[tuple[int, int], int], rng: np.random.Generator | None = None,
          limit: int = 2, budget: int = 20_000, no_triples: bool = True) -> list[tuple[tuple[int, ...], ...]]:
    """Grids obeying the rules and the givens: each row and column is a table of the lines with as many
    ones as zeros and (``no_triples``) no triple (see `table_search`), full grids must have distinct rows
    and columns. With ``rng``, each table's lines are tried in a random order."""
    tables = [line_table(n, line, no_triples) for line in range(2 * n)]
    if rng is not None:
        tables = [(scope, [codes[i] for i in rng.permutation(len(codes)).tolist()], union) for scope, codes, union in tables]
    dom = (1 << (2 * n * n)) - 1
    for (r, c), v in givens.items():
        dom &= ~(1 << (2 * (r * n + c) + 1 - v))

    def grid(code: int) -> tuple[tuple[int, ...], ...]:
        return tuple(zip(*[iter(decode_cells(code, n * n, 2))] * n))

    width, line = 2 * n * n, 2 * n

    def distinct(code: int) -> bool:
        # bit 2 * cell is set where the cell holds 0: a line's pattern of those bits names the line
        bit = format(code, f"0{width}b")[::-1]
        return (len({bit[r * line:(r + 1) * line:2] for r in range(n)}) == n
                and len({bit[2 * c::line] for c in range(n)}) == n)

    return [grid(x) for x in table_search(tables, dom, limit, budget, distinct)]


def plain_solve(n: int, givens: dict[tuple[int, int], int], rng: np.random.Generator | None = None,
                limit: int = 2) -> list[tuple[tuple[int, ...], ...]]:
    """Grids with as many ones as zeros in every row and column, distinct rows and distinct columns (no
    rule on triples) that keep the givens. Rows are bit masks; each step places the open row with the
    fewest lines left, where a line may not put a one (zero) in a column whose ones (zeros), placed or
    given, already number n/2, nor repeat a placed row; columns are compared at the end. With ``rng``
    the lines of each row are tried in a random order."""
    half, full = n // 2, (1 << n) - 1
    lines = [sum(v << k for k, v in enumerate(p)) for p in valid_lines(n, False)]
    ones, zeros = [0] * n, [0] * n
    for (r, c), v in givens.items():
        (ones if v else zeros)[r] |= 1 << c
    cands = [[m for m in lines if m & ones[r] == ones[r] and not m & zeros[r]] for r in range(n)]
    if rng is not None:
        cands = [[x[int(i)] for i in rng.permutation(len(x))] for x in cands]
    col_ones = [sum(ones[r] >> c & 1 for r in range(n)) for c in range(n)]
    col_zeros = [sum(zeros[r] >> c & 1 for r in range(n)) for c in range(n)]
    rows: list[int | None] = [None] * n
    out: list[tuple[tuple[int, ...], ...]] = []

    def rec(used: frozenset) -> None:
        no_one = sum(1 << c for c in range(n) if col_ones[c] == half)
        no_zero = sum(1 << c for c in range(n) if col_zeros[c] == half)
        best, best_left = -1, None
        for r in range(n):
            if rows[r] is None:
                free_one, free_zero = no_one & ~ones[r], no_zero & ~zeros[r]
                left = [m for m in cands[r] if not m & free_one and m & free_zero == free_zero and m not in used]
                if not left:
                    return
                if best_left is None or len(left) < len(best_left):
                    best, best_left = r, left
        if best_left is None:
            cols = {sum((rows[r] >> c & 1) << r for r in range(n)) for c in range(n)}
            if len(cols) == n:
                out.append(tuple(tuple(rows[r] >> c & 1 for c in range(n)) for r in range(n)))
            return
        r = best
        for m in best_left:
            new_one, new_zero = m & ~ones[r], ~m & full & ~zeros[r]
            rows[r] = m
            for c in range(n):
                col_ones[c] += new_one >> c & 1
                col_zeros[c] += new_zero >> c & 1
            rec(used | {m})
            for c in range(n):
                col_ones[c] -= new_one >> c & 1
                col_zeros[c] -= new_zero >> c & 1
            rows[r] = None
            if len(out) >= limit:
                return

    if all(cands) and max(col_ones + col_zeros) <= half:
        rec(frozenset())
    return out


class Binairo(GridAnswerEnv):
    """Fill a Binairo grid with 0s and 1s.

    ## Description
    An ``n x n`` grid shows some 0s and 1s. Fill every empty cell with 0 or 1 so that each
    row and each column has as many 0s as 1s, no row or column has three equal digits next
    to each other (not a rule with ``no_triples=False``, the BinairoPlain id), and no two rows
    and no two columns are the same. The solution is unique (checked by the solver at
    generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the full grid, row by row (``0``/``1`` per cell, any
    separators, ``/`` or newlines between rows). ``"mcq"``: `Discrete(k)` over complete grids.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid with the given digits.

    ## Rewards
    1.0 if the grid keeps the givens and obeys the rules, else 0.0.

    ## Starting State
    A random valid grid (row-by-row search in a random order); cells are revealed in a
    random order until the puzzle has exactly one solution (binary search over the order).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, 1: 6x6, 2: 8x8); ``no_triples`` (``True``: three equal digits in a
    row are forbidden, Binairo-v1; ``False``: allowed, BinairoPlain-v0); ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
      BinairoPlain-v0 (``no_triples=False``) added; Binairo-v1's levels are unchanged.
    """

    cell_kind = "digit"

    def __init__(self, no_triples: bool = True, **kwargs) -> None:
        if not isinstance(no_triples, (bool, np.bool_)):
            raise ValueError(f"invalid no_triples={no_triples!r}; valid values: True, False")
        self.no_triples = bool(no_triples)
        super().__init__(**kwargs)

    def _configure(self) -> None:
        self.rows = self.cols = self.n = SIDES[self.difficulty]
        self.answer_hint = self._grid_hint("the completed grid", "digits 0 or 1", " ".join("01" * (self.n // 2)))

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        rule = self.no_triples
        full = solve(n, {}, rng, limit=1, budget=10**6, no_triples=rule)[0]
        order = [divmod(int(i), n) for i in rng.permutation(n * n)]

        def givens(k: int) -> dict[tuple[int, int], int]:
            return {rc: full[rc[0]][rc[1]] for rc in order[:k]}

        if rule:
            self.givens = givens(fewest_clues(0, n * n, lambda k: solve(n, givens(k))))
        else:  # a quarter of the cells, then a cell where a second solution differs, until there is none
            self.givens = givens(n * n // 4)
            while True:
                other = next((g for g in plain_solve(n, self.givens, rng) if g != full), None)
                if other is None:
                    break
                diff = [(r, c) for r in range(n) for c in range(n) if other[r][c] != full[r][c]]
                r, c = diff[int(rng.integers(len(diff)))]
                self.givens[r, c] = full[r][c]
        self._full = full  # the givens have one solution: this grid
        self.free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in self.givens]

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank_board(self.obs_size, self.n, self.n)
        for (r, c), v in self.givens.items():
            cell_text(img, g, r, c, str(v))
        return img

    def _task_text(self) -> str:
        n = self.n
        triples = ("no row or column has three equal digits next to each other; " if self.no_triples else
                   "three or more equal digits may stand next to each other; ")
        return (f"The image shows a {n}x{n} Binairo puzzle. Fill every empty cell with 0 or 1 so that: each row "
                f"and each column contains {n // 2} zeros and {n // 2} ones; {triples}"
                "and no two rows are identical and no two columns are identical. "
                "Keep the given digits.")

    def _state_text(self) -> str:
        return self._state_rows(lambda r, c: str(self.givens.get((r, c), ".")))

    # -- verify
    def _check(self, answer) -> bool:
        if any(answer[r][c] != v for (r, c), v in self.givens.items()):
            return False
        cols = list(zip(*answer, strict=True))
        return (all(line_ok(x, self.no_triples) for x in (*answer, *cols))
                and len(set(answer)) == self.n and len(set(cols)) == self.n)

    # -- oracle
    def _solve(self):
        return self._full


SPECS = (
    TaskSpec(name="Binairo", entry_point=Binairo, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "binary")),
    TaskSpec(name="BinairoPlain", entry_point=Binairo, max_episode_steps=1, kwargs={"no_triples": False},
             tags=("puzzle", "constraint-satisfaction", "binary")),
)
