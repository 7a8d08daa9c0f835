"""Binairo rules and solvers: the valid lines as bit tables, line reasoning, a counting search, and the
generators of full grids and of puzzles with one solution."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from gymv_envs.domains.logic._grid import (
    Table,
    cell_bits,
    decode_cells,
    smallest_true,
    table_search,
)


@functools.lru_cache(maxsize=16)
def valid_lines(n: int, no_triples: bool = True) -> tuple[tuple[int, ...], ...]:
    """Every line of n cells with n/2 ones and (``no_triples``) no three equal cells in a row."""
    return tuple(p for p in itertools.product((0, 1), repeat=n)
                 if sum(p) == n // 2 and not (no_triples and any(p[i] == p[i + 1] == p[i + 2] for i in range(n - 2))))


@functools.lru_cache(maxsize=16)
def valid_set(n: int, no_triples: bool) -> frozenset:
    return frozenset(valid_lines(n, no_triples))


def line_ok(line: list[int] | tuple[int, ...], no_triples: bool = True) -> bool:
    return tuple(line) in valid_set(len(line), no_triples)


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


@functools.lru_cache(maxsize=16)
def _balanced(n: int, no_triples: bool = False) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """The lines of n cells with n/2 ones (and, with ``no_triples``, no triple) as bit masks (bit k:
    cell k), and per cell k the sets (bit i: line i) of those lines that hold 0, and 1, there."""
    masks = tuple(sum(v << k for k, v in enumerate(p)) for p in valid_lines(n, no_triples))
    return masks, tuple(tuple(sum(1 << i for i, m in enumerate(masks) if (m >> k & 1) == v) for v in (0, 1))
                        for k in range(n))


@functools.lru_cache(maxsize=1 << 16)  # keys: a line set of 70 lines at most; about 10 MB when full
def _agreed(n: int, fits: int, no_triples: bool = False) -> tuple[int, int]:
    """The cells on which all the lines of the set ``fits`` (of `_balanced`) agree, and their values (n-bit masks)."""
    masks = _balanced(n, no_triples)[0]
    every, some = (1 << n) - 1, 0
    while fits:
        low = fits & -fits
        fits ^= low
        every &= masks[low.bit_length() - 1]
        some |= masks[low.bit_length() - 1]
    return every | ~some & ((1 << n) - 1), every


def plain_deduce(n: int, fits: list[int], known: list[int], todo: list[int], no_triples: bool = False,
                 strike: bool = True) -> bool:
    """Line reasoning for the rules of BinairoPlain, in place, until nothing changes; ``False`` on a contradiction.

    Line i < n is row i, line n + c column c. ``fits[i]``: the set of balanced lines (bit j: line j of
    `_balanced`) that line i may still be; ``known[i]``: the cells of line i already settled (bit k:
    cell k). ``todo``: the lines whose sets shrank. A cell on which all of a line's fits agree is
    settled in the crossing line; a line with one fit left is struck from the other lines of its
    direction (distinct rows, distinct columns; not with ``strike=False``, which leaves the fixpoint
    of `solve`'s tables). Sound: no grid that obeys the rules is lost."""
    support = _balanced(n, no_triples)[1]
    while todo:
        i = todo.pop()
        fit = fits[i]
        if not fit:
            return False
        cells, values = _agreed(n, fit, no_triples)
        new = cells & ~known[i]
        if new:
            known[i] |= new
            cross, pos = (n, i) if i < n else (0, i - n)
            while new:
                low = new & -new
                new ^= low
                k = low.bit_length() - 1
                known[cross + k] |= 1 << pos
                kept = fits[cross + k] & support[pos][values >> k & 1]
                if kept != fits[cross + k]:
                    fits[cross + k] = kept
                    todo.append(cross + k)
        if strike and not fit & (fit - 1):
            for j in range(0, n) if i < n else range(n, 2 * n):
                if j != i and fits[j] & fit:
                    fits[j] &= ~fit
                    todo.append(j)
    return True


def _fewest(fits: list[int]) -> int:
    """The first line with the fewest allowed lines left, of those with more than one (-1: none)."""
    best, size = -1, 1 << 30
    for i, fit in enumerate(fits):
        if fit & (fit - 1):
            k = fit.bit_count()
            if k < size:
                best, size = i, k
    return best


def random_grid(n: int, rng: np.random.Generator) -> tuple[tuple[int, ...], ...]:
    """``solve(n, {}, rng, limit=1)[0]`` (the same draws, the same grid) on line sets: each line's
    allowed lines in a random order, the propagation of `solve`'s tables (`plain_deduce` without the
    strike of equal lines), the first line with the fewest lines left split in that order, the first
    leaf with distinct rows and columns."""
    masks, _ = _balanced(n, True)
    orders = [rng.permutation(len(masks)).tolist() for _ in range(2 * n)]
    found: list[list[int]] = []

    def rec(fits: list[int], known: list[int], todo: list[int]) -> None:
        if not plain_deduce(n, fits, known, todo, True, strike=False):
            return
        best = _fewest(fits)
        if best < 0:
            if len(set(fits[:n])) == n and len(set(fits[n:])) == n:
                found.append(fits)
            return
        for j in orders[best]:
            if fits[best] >> j & 1:
                sub = fits[:]
                sub[best] = 1 << j
                rec(sub, known[:], [best])
                if found:
                    return

    rec([(1 << len(masks)) - 1] * (2 * n), [0] * (2 * n), list(range(2 * n)))
    return tuple(tuple(masks[found[0][r].bit_length() - 1] >> c & 1 for c in range(n)) for r in range(n))


def count_solutions(n: int, givens: dict[tuple[int, int], int], limit: int = 2, no_triples: bool = True) -> int:
    """How many grids (up to ``limit``) obey the rules and the givens: `plain_deduce` on the lines
    allowed by the rules, then a search on the line with the fewest lines left (each leaf is one grid)."""
    masks, support = _balanced(n, no_triples)
    fits, known = [(1 << len(masks)) - 1] * (2 * n), [0] * (2 * n)
    for (r, c), v in givens.items():
        known[r] |= 1 << c
        known[n + c] |= 1 << r
        fits[r] &= support[c][v]
        fits[n + c] &= support[r][v]
    found = 0

    def rec(fits: list[int], known: list[int], todo: list[int]) -> None:
        nonlocal found
        if not plain_deduce(n, fits, known, todo, no_triples):
            return
        best = _fewest(fits)
        if best < 0:
            found += 1
            return
        rest = fits[best]
        while rest and found < limit:
            low = rest & -rest
            rest ^= low
            sub = fits[:]
            sub[best] = low
            rec(sub, known[:], [best])

    rec(fits, known, list(range(2 * n)))
    return found


def fewest_givens(n: int, full: tuple[tuple[int, ...], ...], order: list[tuple[int, int]]) -> int:
    """The fewest first cells of ``order`` whose digits leave ``full`` the only solution (what `fewest_clues`
    finds, the uniqueness being monotone in the count): line reasoning (`plain_deduce`), which settles
    only what every solution shares, settles every cell from the first ``top`` givens, so ``top`` is
    enough; then ``top - 1``, ``top - 2``, ``top - 4``, ... are searched until one is not, and the
    gap left is halved."""
    masks, support = _balanced(n, True)
    fits, known, top = [(1 << len(masks)) - 1] * (2 * n), [0] * (2 * n), n * n
    for k, (r, c) in enumerate(order, 1):
        if known[r] >> c & 1:
            continue
        known[r] |= 1 << c
        known[n + c] |= 1 << r
        fits[r] &= support[c][full[r][c]]
        fits[n + c] &= support[r][full[r][c]]
        plain_deduce(n, fits, known, [r, n + c], True)
        if not any(fit & (fit - 1) for fit in fits):
            top = k
            break

    def unique(k: int) -> bool:
        return count_solutions(n, {rc: full[rc[0]][rc[1]] for rc in order[:k]}) == 1

    lo, step = 0, 1
    while top > lo:
        k = max(lo, top - step)
        if not unique(k):
            lo = k + 1
            break
        top, step = k, 2 * step
    return smallest_true(lo, top, unique)


def plain_puzzle(n: int, rng: np.random.Generator) -> tuple[tuple[tuple[int, ...], ...], dict[tuple[int, int], int]]:
    """A BinairoPlain grid and givens that `plain_deduce` alone completes (so the grid is their only solution).

    The cells are visited in a random order; each one not yet settled by the givens so far gets a random
    digit, becomes a given, and the line reasoning runs on; a contradiction starts over with new draws."""
    masks, support = _balanced(n)
    while True:
        fits, known, givens = [(1 << len(masks)) - 1] * (2 * n), [0] * (2 * n), []
        for x, v in zip(rng.permutation(n * n).tolist(), rng.integers(0, 2, n * n).tolist()):
            r, c = divmod(x, n)
            if known[r] >> c & 1:
                continue
            givens.append((r, c))
            known[r] |= 1 << c
            known[n + c] |= 1 << r
            fits[r] &= support[c][v]
            fits[n + c] &= support[r][v]
            if not plain_deduce(n, fits, known, [r, n + c]):
                break
        else:
            full = tuple(tuple(masks[fits[r].bit_length() - 1] >> c & 1 for c in range(n)) for r in range(n))
            return full, {(r, c): full[r][c] for r, c in givens}
