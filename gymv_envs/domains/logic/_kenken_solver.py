"""KenKen rules: a cage's value under its operation, the fillings a cage's target allows, and a counting
solver over them (what a KenKen level must have exactly one of)."""

from __future__ import annotations

import functools
import itertools
import math

from gymv_envs.domains.logic._latin import latin_search, perms


def cage_value(op: str, vals: list[int]) -> int | None:
    if op == "+":
        return sum(vals)
    if op == "*":
        return math.prod(vals)
    if op == "-":
        return abs(vals[0] - vals[1])
    if op == "/":
        hi, lo = max(vals), min(vals)
        return hi // lo if hi % lo == 0 else None
    return vals[0]


@functools.lru_cache(maxsize=32)
def _by_value(n: int, size: int) -> dict[tuple[str, int], list[tuple[tuple[int, ...], int, int]]]:
    """Every tuple of ``size`` values 1..n (in `itertools.product` order) with its cage code (see
    `cage_codes`) and its equal pairs (bit ``i * size + j`` for ``i < j`` holding one value), under
    each ``(op, cage value)`` it gives (6 x 6, size 4: about 4,000 entries)."""
    ops = ("+", "*", "=") + (("-", "/") if size == 2 else ())
    out: dict[tuple[str, int], list] = {}
    for vals in itertools.product(range(1, n + 1), repeat=size):
        code = sum(1 << (k * n + v - 1) for k, v in enumerate(vals))
        same = sum(1 << (i * size + j) for i in range(size) for j in range(i + 1, size) if vals[i] == vals[j])
        for op in ops:
            t = cage_value(op, list(vals))
            if t is not None:
                out.setdefault((op, t), []).append((vals, code, same))
    return out


def _kept(n: int, op: str, target: int, size: int, apart: tuple[tuple[int, int], ...]) -> list:
    m = sum(1 << (i * size + j) for i, j in apart)
    return [x for x in _by_value(n, size).get((op, target), ()) if not x[2] & m]


@functools.lru_cache(maxsize=4096)
def cage_codes(n: int, op: str, target: int, size: int, apart: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """The values 1..n a cage of ``size`` cells may hold for its target (cells ``i, j`` of a pair in ``apart``
    share a row or column, so differ) as the cage codes of `latin_search` (its k-th cell holding v: bit
    ``k * n + v - 1``; cached: at most 4,096 short tuples, about 2 MB)."""
    return tuple(x[1] for x in _kept(n, op, target, size, apart))


@functools.lru_cache(maxsize=4096)
def _shape(n: int, cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """A cage's flat cells and its pairs of cells that share a row or column (cached: 4,096 cages, about 1 MB)."""
    apart = tuple((i, j) for i in range(len(cells)) for j in range(i + 1, len(cells))
                  if cells[i][0] == cells[j][0] or cells[i][1] == cells[j][1])
    return tuple(r * n + c for r, c in cells), apart


def solve(n: int, cages: list, limit: int = 2, budget: int = 20_000) -> list:
    """Latin squares satisfying every cage ``(cells, op, target)``: each cage is a table of the fillings
    its target allows (see `latin_search`)."""
    tables = []
    for cells, op, t in cages:
        flat, apart = _shape(n, tuple(cells))
        tables.append((flat, cage_codes(n, op, t, len(cells), apart)))
    return latin_search(n, [perms(n).full] * (2 * n), tables, None, limit, budget)
