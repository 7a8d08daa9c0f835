"""Minesweeper deduction for MinesweeperSafe: the numbers as constraints, single-number rules and the search for possible mines."""

from __future__ import annotations

import numpy as np

from gymv_envs.domains.logic._placement import NEIGHBOURS8


def constraints(counts, shown) -> list[tuple[int, list[tuple[int, int]]]]:
    """Each opened cell with covered neighbours: its number and those neighbours (arrays or row lists)."""
    if isinstance(counts, np.ndarray):
        counts = counts.tolist()
    if isinstance(shown, np.ndarray):
        shown = shown.tolist()
    rows, cols = len(shown), len(shown[0])
    out = []
    for r in range(rows):
        for c in range(cols):
            if not shown[r][c]:
                continue
            nb = [(r + dr, c + dc) for dr, dc in NEIGHBOURS8
                  if 0 <= r + dr < rows and 0 <= c + dc < cols and not shown[r + dr][c + dc]]
            if nb:
                out.append((int(counts[r][c]), nb))
    return out


def _rules(cons: list[tuple[int, list[tuple[int, int]]]]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The frontier cells in order, and each number as (its covered neighbours as bits of that order, number)."""
    cells = sorted({x for _, nb in cons for x in nb})
    index = {x: i for i, x in enumerate(cells)}
    return cells, [(sum(1 << index[x] for x in nb), n) for n, nb in cons]


def settle(rules: list[tuple[int, int]], mine: int, safe: int) -> tuple[int, int] | None:
    """The single-number rules (all mines placed: the rest are safe; as many unknowns as mines left:
    all mines) applied until nothing changes: (mine, safe) bits, or None when a number is broken."""
    changed, free = True, ~(mine | safe)
    while changed:
        changed = False
        for mask, n in rules:
            unknown = mask & free
            on = mask & mine
            left = n - on.bit_count() if on else n
            if left < 0:
                return None
            if unknown:
                k = unknown.bit_count()
                if left > k:
                    return None
                if left == 0:
                    safe |= unknown
                    free ^= unknown
                    changed = True
                elif left == k:
                    mine |= unknown
                    free ^= unknown
                    changed = True
            elif left:
                return None
    return mine, safe


def maybe_bits(rules: list[tuple[int, int]], everything: int, base: tuple[int, int], budget: int) -> int | None:
    """The cells (bits of ``everything``, the frontier) that are a mine in at least one configuration fitting
    every number, given ``base``, what `settle` finds with nothing assumed (None: more than ``budget`` nodes).

    For each cell not yet seen as a mine in a configuration found so far (and not forced safe), a
    search for one with that cell a mine: `settle` before each branch on the first open cell."""
    nodes = 0

    def search(mine: int, safe: int) -> int:
        """The mines of a configuration extending (mine, safe), or 0 where there is none."""
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise TimeoutError
        state = settle(rules, mine, safe)
        if state is None:
            return 0
        mine, safe = state
        open_ = everything & ~(mine | safe)
        if not open_:
            return mine
        low = open_ & -open_
        return search(mine | low, safe) or search(mine, safe | low)

    mine, safe = base
    seen = 0
    try:
        todo = everything
        while todo:
            low = todo & -todo
            todo ^= low
            if not (seen | safe) & low:
                seen |= search(mine | low, safe)
    except TimeoutError:
        return None
    return seen


def possible_mines(cons: list[tuple[int, list[tuple[int, int]]]], budget: int = 200_000) -> set | None:
    """Frontier cells that are a mine in at least one configuration fitting every number (None: too costly)."""
    cells, rules = _rules(cons)
    base = settle(rules, 0, 0)
    seen = 0 if base is None else maybe_bits(rules, (1 << len(cells)) - 1, base, budget)
    return None if seen is None else {x for i, x in enumerate(cells) if seen >> i & 1}


def simple_safe(cons: list[tuple[int, list[tuple[int, int]]]]) -> set:
    """Safe cells found by single-number rules alone (all mines placed / all unknowns are mines), repeated."""
    mines, safe, changed = set(), set(), True
    while changed:
        changed = False
        for n, nb in cons:
            unknown = [x for x in nb if x not in mines and x not in safe]
            left = n - sum(x in mines for x in nb)
            if unknown and left == 0:
                safe.update(unknown)
                changed = True
            elif unknown and left == len(unknown):
                mines.update(unknown)
                changed = True
    return safe
