"""Thermometers rules: which thermometer cells each line holds, a quick second solution, and a counting
solver (what a Thermometers level must have exactly one of)."""

from __future__ import annotations

from gymv_envs.domains.logic._grid import Budget


def _lines(n: int, thermos: list) -> tuple[list, list]:
    """Per line (rows 0..n-1, then columns) the thermometers on it as (index, -1 when the thermometer
    lies along the line, else the place of its cell there); per thermometer the lines it is on."""
    lines: list[list[tuple[int, int]]] = [[] for _ in range(2 * n)]
    of: list[list[int]] = []
    for k, t in enumerate(thermos):
        (r0, c0), (r1, c1) = t[0], t[-1]
        if r0 != r1:  # a column: along column c0, crossing each row
            on = [n + c0]
            lines[n + c0].append((k, -1))
            for p, (r, _) in enumerate(t):
                lines[r].append((k, p))
                on.append(r)
        elif c0 != c1:  # a row
            on = [r0]
            lines[r0].append((k, -1))
            for p, (_, c) in enumerate(t):
                lines[n + c].append((k, p))
                on.append(n + c)
        else:  # one cell
            on = [r0, n + c0]
            lines[r0].append((k, 0))
            lines[n + c0].append((k, 0))
        of.append(on)
    return lines, of


def second_solution(n: int, thermos: list, levels: list) -> bool:
    """Whether four thermometers can each move their level by one around a rectangle of cells
    (r1, c1) and (r2, c2) filled, (r1, c2) and (r2, c1) emptied, every count kept: a second solution."""
    owner = {}  # cell r * n + c -> the thermometer that can fill it (its next cell) or empty it (its last)
    fills, empties = [0] * n, [0] * n  # per row, those cells' columns as bit masks
    for k, (t, level) in enumerate(zip(thermos, levels)):
        if level < len(t):
            r, c = t[level]
            fills[r] |= 1 << c
            owner[r * n + c] = k
        if level:
            r, c = t[level - 1]
            empties[r] |= 1 << c
            owner[r * n + c] = k
    for r1 in range(n):
        f1, e1 = fills[r1], empties[r1]
        if not (f1 and e1):
            continue
        for r2 in range(r1 + 1, n):
            one, two = f1 & empties[r2], e1 & fills[r2]  # columns c1, and c2
            if not (one and two):
                continue
            for c1 in range(n):
                if one >> c1 & 1:
                    a, b = owner[r1 * n + c1], owner[r2 * n + c1]
                    for c2 in range(n):
                        if two >> c2 & 1 and len({a, b, owner[r1 * n + c2], owner[r2 * n + c2]}) == 4:
                            return True
    return False


def solve(n: int, thermos: list, row_counts: list, col_counts: list, limit: int = 2, budget: int = 50_000) -> list:
    """Fill levels (one per thermometer, in the given order) that give every row and column its count.

    A thermometer's level lies in an interval ``lo..hi``. A line's count grows with a level: by one
    a level along a thermometer lying in the line, by one once the level passes the cell where a
    thermometer crosses it. Each line bounds its thermometers' levels against the least and the most
    the others can still give it; when that settles, the search splits the first thermometer with
    more than one level left (``budget``: most settled nodes, then `Budget`)."""
    lines, of = _lines(n, thermos)
    targets = [*row_counts, *col_counts]
    out: list = []
    nodes = 0

    def settle(lo: list, hi: list, todo: set) -> bool:
        while todo:
            ell = todo.pop()
            target, crossing = targets[ell], lines[ell]
            least = most = 0
            for k, p in crossing:
                if p < 0:
                    least += lo[k]
                    most += hi[k]
                else:
                    least += lo[k] > p
                    most += hi[k] > p
            if least > target or most < target:
                return False
            if least == most:
                continue
            for k, p in crossing:
                a, b = lo[k], hi[k]
                if a == b:
                    continue
                if p < 0:  # k gives a..b here: at most target - (least - a), at least target - (most - b)
                    up, down = target - least + a, target - most + b
                else:  # k gives (a > p)..(b > p) here
                    up, down = target - least + (a > p), target - most + (b > p)
                    up = b if up >= 1 else p
                    down = p + 1 if down >= 1 else a
                if up < b or down > a:
                    if up < b:
                        hi[k] = b = up
                    if down > a:
                        lo[k] = a = down
                    if a > b:
                        return False
                    todo.update(of[k])
        return True

    def rec(lo: list, hi: list, todo: set) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise Budget
        if not settle(lo, hi, todo):
            return
        k = next((k for k, (a, b) in enumerate(zip(lo, hi)) if a < b), -1)
        if k < 0:
            out.append(tuple(lo))
            return
        a, b = lo[k], hi[k]
        for level in range(a, b + 1):
            lo2, hi2 = lo[:], hi[:]
            lo2[k] = hi2[k] = level
            rec(lo2, hi2, set(of[k]))
            if len(out) >= limit:
                return

    rec([0] * len(thermos), [len(t) for t in thermos], set(range(2 * n)))
    return out
