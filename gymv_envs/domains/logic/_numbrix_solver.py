"""Numbrix paths and solver for Numbrix: grid neighbours, Hamiltonian paths, counting and search."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.domains.logic._grid import Budget
from gymv_envs.domains.logic._placement import edge_masks

ENUMERATED = 4  # sides up to this count solutions over every Hamiltonian path (552 at 4x4)


@functools.lru_cache(maxsize=8)
def neighbours(n: int) -> dict[tuple[int, int], tuple[tuple[int, int], ...]]:
    return {(r, c): tuple((r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                          if 0 <= r + dr < n and 0 <= c + dc < n) for r in range(n) for c in range(n)}


def random_path(rng: np.random.Generator, n: int) -> list[tuple[int, int]]:
    """A random Hamiltonian path of the n x n grid: uniform over `all_paths` for small n, else a
    snake scrambled by random backbite moves."""
    if n <= ENUMERATED:
        paths = all_paths(n)
        return [divmod(int(i), n) for i in paths[int(rng.integers(len(paths)))]]
    path = [(r, c if r % 2 == 0 else n - 1 - c) for r in range(n) for c in range(n)]
    if rng.integers(2):
        path = [(c, r) for r, c in path]
    nbs = neighbours(n)
    for flip, pick in rng.random((12 * n * n, 2)).tolist():
        if flip < 0.5:
            path.reverse()
        options = nbs[path[-1]]
        i = path.index(options[int(pick * len(options))])
        if i != len(path) - 2:
            path[i + 1:] = path[i + 1:][::-1]
    return path


@functools.lru_cache(maxsize=2)
def all_paths(n: int) -> np.ndarray:
    """Every directed Hamiltonian path of the n x n grid as rows of flat cell indices (small n only)."""
    out, path, used = [], [], [False] * (n * n)

    def rec(i: int) -> None:
        path.append(i)
        used[i] = True
        if len(path) == n * n:
            out.append(list(path))
        else:
            r, c = divmod(i, n)
            for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= rr < n and 0 <= cc < n and not used[rr * n + cc]:
                    rec(rr * n + cc)
        used[i] = False
        path.pop()

    for start in range(n * n):
        rec(start)
    arr = np.array(out, dtype=np.int8)
    arr.setflags(write=False)
    return arr


def count_small(n: int, givens: dict[int, tuple[int, int]]) -> int:
    """How many paths of `all_paths` agree with the givens."""
    paths = all_paths(n)
    vals = np.fromiter((v - 1 for v in givens), dtype=np.int64, count=len(givens))
    cells = np.fromiter((r * n + c for r, c in givens.values()), dtype=np.int8, count=len(givens))
    return int(np.count_nonzero((paths[:, vals] == cells).all(axis=1)))


def solve(n: int, givens: dict[int, tuple[int, int]], limit: int = 2, budget: int = 5_000) -> list[dict]:
    """Paths (value -> cell) through every cell that put each given value on its cell.

    Walks up from the smallest given value to n², then down from it to 1, pruning cells too far
    from the next given value (Manhattan distance and parity).
    """
    N = n * n
    at = dict(givens)
    taken = {cell: v for v, cell in givens.items()}
    start = min(givens)
    ups = sorted(givens)
    out, nodes = [], [0]

    def next_given(v: int, d: int) -> int | None:
        if d < 0:
            return None  # no given value lies below the start
        for g in ups:
            if g > v:
                return g
        return None

    ends_free = (1 not in givens) + (N not in givens)
    full, not_first, not_last = edge_masks(n, n)
    taken_bits = [0]  # the cells of `taken` as a bit mask (bit r * n + c)
    for r, c in givens.values():
        taken_bits[0] |= 1 << (r * n + c)
    above = [0] * (N + 1)  # per value v, the cells of the given values above v
    for v in range(N - 1, 0, -1):
        g = givens.get(v + 1)
        above[v] = above[v + 1] | (1 << (g[0] * n + g[1]) if g else 0)
    start_bit = 1 << (givens[start][0] * n + givens[start][1])

    def viable(head: tuple[int, int], v: int, d: int) -> bool:
        """Every empty cell can still be reached from the head (or from the start, for the walk down)
        through empty cells and cells of given values still ahead; no empty cell is cut off, and at
        most the free path ends (1 and n² when not given) sit in cells with a single way in."""
        seeds = 1 << (head[0] * n + head[1])
        if d > 0 and start > 1:
            seeds |= start_bit
        empty = full & ~taken_bits[0]
        ways = empty | seeds | (above[v] if d > 0 else 0)
        region = seeds & ways  # `flood`, stopped once every empty cell is reached
        while empty & ~region:
            grown = (region | (region << 1 & not_first) | (region >> 1 & not_last) | (region << n) | (region >> n)) & ways
            if grown == region:
                return False
            region = grown
        # per cell, whether 1 and whether 2 or more of its neighbours are ways in
        right, left, down, up = ways >> 1 & not_last, ways << 1 & not_first, ways >> n, ways << n & full
        one = right | left | down | up
        if empty & ~one:
            return False
        two = (right & (left | down | up)) | (left & (down | up)) | (down & up)
        return (empty & ~two).bit_count() <= ends_free

    def rec(cell: tuple[int, int], v: int, d: int) -> None:
        if len(out) >= limit:
            return
        if not viable(cell, v, d):
            return
        if d > 0 and v == N:
            if start == 1:
                out.append(dict(at))
            else:
                rec(givens[start], start, -1)
            return
        if d < 0 and v == 1:
            out.append(dict(at))
            return
        nv = v + d
        r, c = cell
        if nv in givens:
            p = givens[nv]
            if abs(p[0] - r) + abs(p[1] - c) == 1:
                rec(p, nv, d)
            return
        g = next_given(nv, d)
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if not (0 <= nb[0] < n and 0 <= nb[1] < n) or nb in taken:
                continue
            if g is not None:
                gap, dist = g - nv, abs(givens[g][0] - nb[0]) + abs(givens[g][1] - nb[1])
                if dist > gap or (gap - dist) % 2:
                    continue
            nodes[0] += 1
            if nodes[0] > budget:
                raise Budget
            taken[nb], at[nv] = nv, nb
            taken_bits[0] ^= 1 << (nb[0] * n + nb[1])
            rec(nb, nv, d)
            taken_bits[0] ^= 1 << (nb[0] * n + nb[1])
            del taken[nb], at[nv]

    rec(givens[start], start, 1)
    return out
