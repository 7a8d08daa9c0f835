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


DIGITS = tuple(tuple(d for d in range(1, 10) if m >> d & 1) for m in range(1 << 10))  # the digits of a mask


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

    Branches on the cell with the fewest digits left (the first such in ``cells`` order), which the
    runs' sums and used digits allow; digits in increasing order, or shuffled by ``rng``.
    """
    at = {x: j for j, x in enumerate(cells)}
    of = [[] for _ in cells]
    for i, run in enumerate(runs):
        for x in run:
            of[at[x]].append(i)
    pair = [(o[0], o[-1]) for o in of]  # the runs through each cell (once if only one)
    used, total, left = [0] * len(runs), [0] * len(runs), [len(run) for run in runs]
    ALL = 0b1111111110
    # per run, the digits its open cells may still take (kept up to date by `put`)
    can = [ALL if t is None else allowed(k, t, 0) for k, t in zip(left, sums, strict=True)]
    val = [0] * len(cells)
    out, nodes, filled = [], [0], [0]

    def put(j: int, d: int, sign: int) -> None:
        for i in of[j]:
            used[i] ^= 1 << d
            total[i] += sign * d
            left[i] -= sign
            t = sums[i]
            can[i] = ALL & ~used[i] if t is None else allowed(left[i], t - total[i], used[i])
        val[j] = d if sign > 0 else 0
        filled[0] += sign

    for x, d in givens.items():
        a, b = pair[at[x]]
        if not (can[a] & can[b]) >> d & 1:
            return []
        put(at[x], d, 1)
    todo = [(j, *pair[j]) for j, x in enumerate(cells) if x not in givens]
    n = len(cells)

    def rec() -> None:
        if filled[0] == n:
            out.append({x: val[j] for j, x in enumerate(cells)})
            return
        best, best_m, best_k = -1, 0, 10
        for j, a, b in todo:
            if val[j]:
                continue
            m = can[a] & can[b]
            k = m.bit_count()
            if k < best_k:
                best, best_m, best_k = j, m, k
                if k <= 1:
                    break
        if not best_m:
            return
        digits = DIGITS[best_m]
        if rng is not None:
            digits = [digits[int(j)] for j in rng.permutation(len(digits))]
        mine = [(i, can[i]) for i in of[best]]
        for d in digits:
            nodes[0] += 1
            if nodes[0] > budget:
                raise Budget
            bit = 1 << d
            for i, _ in mine:  # `put`, inline
                used[i] ^= bit
                total[i] += d
                left[i] -= 1
                t = sums[i]
                can[i] = ALL & ~used[i] if t is None else allowed(left[i], t - total[i], used[i])
            val[best] = d
            filled[0] += 1
            rec()
            filled[0] -= 1
            val[best] = 0
            for i, was in mine:
                used[i] ^= bit
                total[i] -= d
                left[i] += 1
                can[i] = was
            if len(out) >= limit:
                return

    rec()
    return out
