"""Kakuro runs and digit solver for Kakuro: runs of white cells, digits a run's sum allows, search."""

from __future__ import annotations

import functools
import itertools

from gymv_envs.core.rng import ScalarDraws
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


ALL = 0b1111111110  # the digits 1-9 as a bit mask
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


def solve(cells: list, runs: list, sums: list, givens: dict, limit: int = 2, budget: int = 5_000) -> list[dict]:
    """Up to ``limit`` digit assignments (cell -> digit): distinct digits in each run, each adding to its sum.

    Restarts from scratch per call (the tests count a level's solutions with it, apart from `reveal`).
    Branches on the cell with the fewest digits left (the first such in ``cells`` order), which the
    runs' sums and used digits allow; digits in increasing order.
    """
    at = {x: j for j, x in enumerate(cells)}
    of = [[] for _ in cells]
    for i, run in enumerate(runs):
        for x in run:
            of[at[x]].append(i)
    pair = [(o[0], o[-1]) for o in of]  # the runs through each cell (once if only one)
    used, total, left = [0] * len(runs), [0] * len(runs), [len(run) for run in runs]
    # per run, the digits its open cells may still take (kept up to date by `put`)
    can = [allowed(k, t, 0) for k, t in zip(left, sums, strict=True)]
    val = [0] * len(cells)
    out, nodes, filled = [], [0], [0]

    def put(j: int, d: int, sign: int) -> None:
        for i in of[j]:
            used[i] ^= 1 << d
            total[i] += sign * d
            left[i] -= sign
            t = sums[i]
            can[i] = allowed(left[i], t - total[i], used[i])
        val[j] = d if sign > 0 else 0
        filled[0] += sign

    for x, d in givens.items():
        a, b = pair[at[x]]
        if not (can[a] & can[b]) >> d & 1:
            return []
        put(at[x], d, 1)
    n = len(cells)
    ra, rb, keep = [p[0] for p in pair], [p[1] for p in pair], [ALL] * n

    def rec() -> None:
        if filled[0] == n:
            out.append({x: val[j] for j, x in enumerate(cells)})
            return
        best, best_m = fewest(val, can, ra, rb, keep)
        if not best_m:
            return
        digits = DIGITS[best_m]
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
                can[i] = allowed(left[i], t - total[i], used[i])
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


def fewest(val: list[int], can: list[int], ra: list[int], rb: list[int], keep: list[int]) -> tuple[int, int]:
    """The open cell (``val`` 0) with the fewest digits its two runs (``ra``, ``rb``: their digits left in
    ``can``) and ``keep`` allow, the first such, and those digits as a mask ((-1, 0) when none is open)."""
    best, best_m, best_k = -1, 0, 10
    for j, v in enumerate(val):
        if v:
            continue
        m = can[ra[j]] & can[rb[j]] & keep[j]
        k = m.bit_count()
        if k < best_k:
            best, best_m, best_k = j, m, k
            if k <= 1:
                break
    return best, best_m


@functools.cache
def run_table(k: int, total: int) -> list[int]:
    """For a run of ``k`` cells adding to ``total``: at each bit mask of the digits placed so far, the
    digits its open cells may still take (0: no way to finish it); what `allowed` gives, as one list
    (1,024 ints; at most 9 x 46 such lists, about 8 KiB each)."""
    out = [0] * 1024
    for digits in itertools.combinations(range(1, 10), k):
        if sum(digits) == total:
            whole = sum(1 << d for d in digits)
            sub = whole
            while True:  # every subset of the set, the empty one last
                out[sub] |= whole & ~sub
                if not sub:
                    break
                sub = (sub - 1) & whole
    return out


def reveal(cells: list, runs: list, sums: list, fill: dict, draws: ScalarDraws, budget: int = 5_000) -> dict:
    """Givens (cell -> digit of ``fill``) under which ``fill`` is the only solution of the sums.

    One depth-first search over every filling: a cell that its two runs leave one digit is filled at
    once, else it branches on the cell with the fewest digits left (the first such in ``cells``
    order), digits in increasing order. Each time it finds a filling other than ``fill``, a cell where
    the two differ (``draws.integers``) becomes a given and the search goes on under the givens it
    has: what it searched before held no filling but those it found, each now ruled out by its
    given. After ``budget`` branchings without a new given, a random cell is revealed (and the
    search goes on).
    """
    n = len(cells)
    at = {x: j for j, x in enumerate(cells)}
    members = [[at[x] for x in run] for run in runs]
    of = [[] for _ in cells]
    for i, run in enumerate(members):
        for j in run:
            of[j].append(i)
    ra, rb = [o[0] for o in of], [o[-1] for o in of]  # the runs through each cell
    seen = [[c for i in o for c in members[i] if c != j] for j, o in enumerate(of)]  # the cells it shares a run with
    table = [run_table(len(run), t) for run, t in zip(runs, sums, strict=True)]
    used = [0] * len(runs)  # the digits placed in each run
    can = [t[0] for t in table]  # the digits each run's open cells may still take
    want = [fill[x] for x in cells]
    val, keep, depth_of = [0] * n, [ALL] * n, [0] * n  # keep: the given digit's bit, or all
    cut, nodes = [n + 1], [0]  # cut: the depth of an assignment a new given contradicts

    def give(j: int) -> None:
        keep[j] = 1 << want[j]
        nodes[0] = 0
        if val[j] and val[j] != want[j]:
            cut[0] = min(cut[0], depth_of[j])

    def put(j: int, d: int, depth: int) -> bool:
        """Fill ``j`` with ``d`` and every cell that is left one digit; False at a contradiction."""
        stack = []
        while True:
            bit = 1 << d
            a, b = ra[j], rb[j]
            used[a] |= bit
            can[a] = table[a][used[a]]
            used[b] |= bit
            can[b] = table[b][used[b]]
            val[j], depth_of[j] = d, depth
            for c in seen[j]:
                if not val[c]:
                    m = can[ra[c]] & can[rb[c]] & keep[c]
                    if not m:
                        return False
                    if not m & (m - 1):
                        stack.append(c)
            while stack:
                j = stack.pop()
                if not val[j]:
                    break
            else:
                return True
            m = can[ra[j]] & can[rb[j]] & keep[j]
            if not m:
                return False
            d = m.bit_length() - 1

    def rec(depth: int) -> None:
        nodes[0] += 1
        if nodes[0] > budget:
            pick = [j for j in range(n) if keep[j] == ALL]
            give(pick[draws.integers(len(pick))])
            if cut[0] < depth:  # it contradicts a cell above: that frame goes on
                return
        best, best_m = fewest(val, can, ra, rb, keep)
        if not best_m:
            return
        snap = used[:], can[:], val[:]
        for d in DIGITS[best_m]:
            if not keep[best] >> d & 1:
                continue
            if put(best, d, depth):
                if 0 in val:
                    rec(depth + 1)
                elif val != want:
                    differ = [j for j in range(n) if val[j] != want[j]]
                    give(differ[draws.integers(len(differ))])
            used[:], can[:], val[:] = snap
            if cut[0] <= depth:
                if cut[0] < depth:
                    return
                cut[0] = n + 1

    rec(0)
    return {x: want[j] for j, x in enumerate(cells) if keep[j] != ALL}
