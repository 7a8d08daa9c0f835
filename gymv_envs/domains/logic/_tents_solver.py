"""Tents rules: the tree-tent pairing and a counting solver (what a Tents level must have exactly one of)."""

from __future__ import annotations

from gymv_envs.domains.logic._grid import Budget

ORTHO = ((0, 1), (1, 0), (0, -1), (-1, 0))


def pairing(trees: list, tents: list) -> bool:
    """Whether trees and tents pair one to one, each tent orthogonally next to its tree (augmenting paths)."""
    if len(trees) != len(tents):
        return False
    tent_set = {t: i for i, t in enumerate(tents)}
    match = [-1] * len(tents)

    def augment(k: int, seen: set) -> bool:
        r, c = trees[k]
        for dr, dc in ORTHO:
            j = tent_set.get((r + dr, c + dc))
            if j is not None and j not in seen:
                seen.add(j)
                if match[j] < 0 or augment(match[j], seen):
                    match[j] = k
                    return True
        return False

    return all(augment(k, set()) for k in range(len(trees)))


def solve(n: int, trees: list, row_counts: list, col_counts: list, limit: int = 2, budget: int = 30_000) -> list:
    """Tent sets obeying the counts, the no-touching rule and the pairing, cell by cell in row-major order.

    Each candidate cell (beside a tree) is tried with a tent, then without; every try counts
    against ``budget`` (`Budget` is raised past it)."""
    tree_set = set(trees)
    cands = sorted({(r + dr, c + dc) for r, c in trees for dr, dc in ORTHO
                    if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr, c + dc) not in tree_set})
    # per line: room, tents it may still take; spare, cells left to try (this one included) past those it
    # needs (a tent tried leaves it as it is, an empty cell takes one off: the branch needs spare >= 0 after)
    row_room, col_room = list(row_counts), list(col_counts)
    row_spare, col_spare = [-v for v in row_counts], [-v for v in col_counts]
    for r, c in cands:
        row_spare[r] += 1
        col_spare[c] += 1
    w = n + 2  # a tent grid with a blank border, as bits: the cells before (r, c) that a tent there would
    # touch are up-left, up, up-right and left of it, bits p - w - 1 .. p - w + 1 and p - 1
    at = [(r, c, 1 << (r + 1) * w + c + 1, (7 << r * w + c) | 1 << (r + 1) * w + c) for r, c in cands]
    last, zeros = len(cands), [0] * n
    tents: list = []
    out: list = []
    nodes = has = 0

    def rec(k: int) -> None:
        nonlocal nodes, has
        if k == last:
            if row_room == zeros and col_room == zeros and pairing(trees, tents):
                out.append(tuple(tents))
            return
        r, c, bit, near = at[k]
        nodes += 1  # a tent on (r, c)
        if nodes > budget:
            raise Budget
        rs, cs = row_spare[r], col_spare[c]
        if row_room[r] and col_room[c] and not has & near:
            if rs >= 0 and cs >= 0:
                row_room[r] -= 1
                col_room[c] -= 1
                has |= bit
                tents.append((r, c))
                rec(k + 1)
                tents.pop()
                has ^= bit
                row_room[r] += 1
                col_room[c] += 1
            if len(out) >= limit:
                return
        nodes += 1  # no tent on (r, c)
        if nodes > budget:
            raise Budget
        if rs > 0 and cs > 0:
            row_spare[r] = rs - 1
            col_spare[c] = cs - 1
            rec(k + 1)
            row_spare[r] = rs
            col_spare[c] = cs

    rec(0)
    return out
