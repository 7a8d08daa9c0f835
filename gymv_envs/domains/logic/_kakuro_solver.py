"""Kakuro runs and digit solver for Kakuro: runs of white cells, digits a run's sum allows, search."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.domains.logic._grid import Budget


def runs_of(white: list) -> list[tuple[tuple[int, int], ...]]:
    """Every maximal horizontal and vertical run of white cells (length >= 2)."""
    n = len(white)
    out = []
    for horizontal in (True, False):
        for a in range(n):
            cur = []
            for b in range(n + 1):
                r, c = (a, b) if horizontal else (b, a)
                if b < n and white[r][c]:
                    cur.append((r, c))
                else:
                    if len(cur) >= 2:
                        out.append(tuple(cur))
                    cur = []
    return out


@functools.cache
def allowed(k: int, need: int, used: int) -> int:
    """Bit mask of the digits that can appear in some set of ``k`` distinct digits outside ``used``
    (a bit mask) adding up to ``need``."""
    if k == 0:
        return 0
    out = 0
    for d in range(1, 10):
        if used >> d & 1 or d > need:
            continue
        if k == 1:
            if d == need:
                out |= 1 << d
        elif allowed(k - 1, need - d, used | ((1 << (d + 1)) - 1)):  # the other digits are larger than d
            out |= (1 << d) | allowed(k - 1, need - d, used | ((1 << (d + 1)) - 1))
    return out


def solve(cells: list, runs: list, sums: list, givens: dict, rng: np.random.Generator | None = None,
          limit: int = 2, budget: int = 5_000) -> list[dict]:
    """Digit assignments (cell -> digit): distinct digits in each run, each run adding to its sum (``None``: any).

    Branches on the cell with the fewest digits left, which the runs' sums and used digits allow.
    """
    of: dict = {x: [] for x in cells}
    for i, run in enumerate(runs):
        for x in run:
            of[x].append(i)
    used, total, left = [0] * len(runs), [0] * len(runs), [len(run) for run in runs]
    val, out, nodes = {}, [], [0]
    ALL = 0b1111111110

    def options(x) -> int:
        m = ALL
        for i in of[x]:
            s = sums[i]
            m &= ~used[i] if s is None else allowed(left[i], s - total[i], used[i])
        return m

    def put(x, d: int, sign: int) -> None:
        for i in of[x]:
            used[i] ^= 1 << d
            total[i] += sign * d
            left[i] -= sign

    for x, d in givens.items():
        if not options(x) >> d & 1:
            return []
        put(x, d, 1)
        val[x] = d
    todo = [x for x in cells if x not in givens]

    def rec() -> None:
        if len(val) == len(cells):
            out.append(dict(val))
            return
        best, best_m, best_k = None, 0, 10
        for x in todo:
            if x in val:
                continue
            m = options(x)
            k = m.bit_count()
            if k < best_k:
                best, best_m, best_k = x, m, k
                if k <= 1:
                    break
        if not best_m:
            return
        digits = [d for d in range(1, 10) if best_m >> d & 1]
        if rng is not None:
            digits = [digits[int(j)] for j in rng.permutation(len(digits))]
        for d in digits:
            nodes[0] += 1
            if nodes[0] > budget:
                raise Budget
            put(best, d, 1)
            val[best] = d
            rec()
            del val[best]
            put(best, d, -1)
            if len(out) >= limit:
                return

    rec()
    return out
