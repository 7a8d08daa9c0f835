"""Binairo (Takuzu): fill a grid with 0s and 1s under the balance, no-triple and distinct-lines rules."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import blank_board, cell_text
from gymv_envs.domains.logic._grid import (
    Budget,
    GridAnswerEnv,
    Table,
    cell_bits,
    decode_cells,
    fewest_clues,
    table_search,
)

SIDES = {0: 4, 1: 6, 2: 8}
PLAIN_PROBE = 3  # solutions of a BinairoPlain draft looked at per given added
PLAIN_START = 0.375  # share of the cells a BinairoPlain draft gives before the cells that break other solutions


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


@functools.lru_cache(maxsize=8)
def _balanced_masks(n: int) -> tuple[int, ...]:
    """The lines of n cells with n/2 ones, as bit masks (bit k: cell k)."""
    return tuple(sum(v << k for k, v in enumerate(p)) for p in valid_lines(n, False))


@functools.lru_cache(maxsize=20_000)
def _agreeing(n: int, known: int, value: int) -> tuple[int, ...]:
    """The balanced lines (`_balanced_masks`) whose cells in ``known`` hold the bits of ``value``."""
    return tuple(m for m in _balanced_masks(n) if not (m ^ value) & known)


def plain_solve(n: int, givens: dict[tuple[int, int], int], rng: np.random.Generator | None = None,
                limit: int = 2, budget: int = 10**6) -> list[tuple[tuple[int, ...], ...]]:
    """Grids with as many ones as zeros in every row and column, distinct rows and distinct columns (no
    rule on triples) that keep the givens.

    Rows and columns are lines of bit masks (a row's bit c is column c, a column's bit r is row r),
    each with the balanced lines that agree with its known cells and differ from every complete line
    of its direction; each step fills the open line with the fewest such lines left, trying each (in
    a random order with ``rng``). Raises `Budget` after ``budget`` steps."""
    full = (1 << n) - 1
    known, val = [0] * (2 * n), [0] * (2 * n)

    def put(r: int, c: int, v: int) -> None:
        known[r] |= 1 << c
        val[r] |= v << c
        known[n + c] |= 1 << r
        val[n + c] |= v << r

    for (r, c), v in givens.items():
        put(r, c, v)
    out: list[tuple[tuple[int, ...], ...]] = []
    nodes = [0]

    def rec() -> None:
        nodes[0] += 1
        if nodes[0] > budget:
            raise Budget
        done = []
        for lo in (0, n):
            vals = [val[i] for i in range(lo, lo + n) if known[i] == full]
            if len(set(vals)) < len(vals):
                return
            done.append(set(vals))
        best, here_best = -1, ()
        for i in range(2 * n):
            k = known[i]
            if k == full:
                continue
            seen = done[i >= n]
            here = _agreeing(n, k, val[i])
            if seen:
                here = [m for m in here if m not in seen]
            if not here:
                return
            if best < 0 or len(here) < len(here_best):
                best, here_best = i, here
        if best < 0:
            out.append(tuple(tuple(val[r] >> c & 1 for c in range(n)) for r in range(n)))
            return
        saved = known[:], val[:]
        if rng is not None:
            here_best = [here_best[int(j)] for j in rng.permutation(len(here_best))]
        for m in here_best:
            for k in range(n):
                if not known[best] >> k & 1:
                    put(best, k, m >> k & 1) if best < n else put(k, best - n, m >> k & 1)
            rec()
            known[:], val[:] = saved[0][:], saved[1][:]
            if len(out) >= limit:
                return

    rec()
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
    BinairoPlain: 3/8 of the cells at random, then, while the solver (`plain_solve`) finds
    other solutions, the cell where most of them differ from the grid.

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
        full = solve(n, {}, rng, limit=1, budget=10**6)[0] if rule else plain_solve(n, {}, rng, limit=1)[0]
        order = [divmod(int(i), n) for i in rng.permutation(n * n)]

        def givens(k: int) -> dict[tuple[int, int], int]:
            return {rc: full[rc[0]][rc[1]] for rc in order[:k]}

        if rule:
            self.givens = givens(fewest_clues(0, n * n, lambda k: solve(n, givens(k))))
        else:  # a quarter of the cells, then the cell where most other solutions found differ, until none is left
            self.givens = givens(int(n * n * PLAIN_START))
            while True:
                others = [g for g in plain_solve(n, self.givens, limit=PLAIN_PROBE) if g != full]
                if not others:
                    break
                miss = [(sum(g[r][c] != full[r][c] for g in others), r, c) for r in range(n) for c in range(n)]
                top = max(miss)[0]
                best = [(r, c) for k, r, c in miss if k == top]
                r, c = best[int(rng.integers(len(best)))]
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
