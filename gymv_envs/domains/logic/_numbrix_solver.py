"""Numbrix paths and solver for Numbrix: grid neighbours, Hamiltonian paths, counting and search."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.bits import edge_masks
from gymv_envs.domains.logic._grid import Budget

ENUMERATED = 4  # sides up to this count solutions over every Hamiltonian path (552 at 4x4)


def random_path(rng: np.random.Generator, n: int) -> list[tuple[int, int]]:
    """A random Hamiltonian path of the n x n grid: uniform over `all_paths` for small n, else a
    snake scrambled by random backbite moves."""
    if n <= ENUMERATED:
        paths = all_paths(n)
        return [divmod(int(i), n) for i in paths[int(rng.integers(len(paths)))]]
    # flat cells r * n + c; the path is read backwards while `back` (a reversal costs nothing), and the
    # pick among an end's 2, 3 or 4 neighbours is computed for all three counts at once
    path = [r * n + (c if r % 2 == 0 else n - 1 - c) for r in range(n) for c in range(n)]
    if rng.integers(2):
        path = [(i % n) * n + i // n for i in path]
    pick = _picks(n)
    draws = rng.random((12 * n * n, 2))
    backs = (np.cumsum(draws[:, 0] < 0.5) & 1).tolist()
    picks = draws[:, 1]
    codes = ((picks * 2).astype(np.int64) + 2 * (picks * 3).astype(np.int64) + 6 * (picks * 4).astype(np.int64)).tolist()
    index, last = path.index, n * n - 2
    for back, code in zip(backs, codes, strict=True):
        if back:
            i = index(pick[path[0]][code])
            if i != 1:
                path[:i] = path[i - 1::-1]
        else:
            i = index(pick[path[-1]][code])
            if i != last:
                path[i + 1:] = path[:i:-1]
    if backs[-1]:
        path.reverse()
    return [divmod(i, n) for i in path]


@functools.lru_cache(maxsize=8)
def _picks(n: int) -> tuple[tuple[int, ...], ...]:
    """Per flat cell, its neighbour picked by each code ``p2 + 2 * p3 + 6 * p4`` (``pk``: the pick among
    k neighbours; the cell has 2, 3 or 4 of them): 24 per cell."""
    return tuple(tuple(nb[(p2, p3, p4)[len(nb) - 2]] for p4 in range(4) for p3 in range(3) for p2 in range(2))
                 for nb in flat_neighbours(n))


@functools.lru_cache(maxsize=8)
def flat_neighbours(n: int) -> tuple[tuple[int, ...], ...]:
    """Per flat cell r * n + c, its neighbours (right, below, left, above) as flat cells."""
    return tuple(tuple((r + dr) * n + c + dc for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                       if 0 <= r + dr < n and 0 <= c + dc < n) for r, c in (divmod(i, n) for i in range(n * n)))


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


def fewest_small(n: int, path: list[tuple[int, int]], order: list[int]) -> int:
    """The fewest givens ``order[:k]`` (values, placed as on ``path``) that only ``path`` of `all_paths`
    agrees with: one more than the latest place where some other path first disagrees."""
    paths = all_paths(n)
    cells = np.array([path[v - 1][0] * n + path[v - 1][1] for v in order], dtype=np.int8)
    differs = paths[:, np.array(order) - 1] != cells
    first = differs.argmax(axis=1)[differs.any(axis=1)]
    return int(first.max()) + 1


@functools.lru_cache(maxsize=4)
def _tables(n: int) -> tuple:
    """Per flat cell of the n x n grid (n <= 7; about 1 MB at 6x6, cached per n):

    - its neighbours (below, above, right, left) and its Manhattan distance to every cell;
    - ``ellipse[a][b][L]``: the cells x with dist(a, x) + dist(x, b) <= L (L < len, else every cell), the
      cells a path of L steps from a to b can visit (a = b, L = 2r: the cells within r of a);
    - its 8 surrounding cells as a mask, and the set of their subsets in which the orthogonal neighbours
      present are joined around the ring (removing the cell then disconnects nothing).
    """
    N = n * n
    r, c = np.divmod(np.arange(N), n)
    dist = np.abs(r[:, None] - r[None, :]) + np.abs(c[:, None] - c[None, :])
    nbs = tuple(tuple(int(rr * n + cc) for rr, cc in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1))
                      if 0 <= rr < n and 0 <= cc < n) for a, b in zip(r.tolist(), c.tolist(), strict=True))
    through = dist[:, None, :] + dist[None, :, :]  # [a, b, x]
    weights = np.left_shift(np.uint64(1), np.arange(N, dtype=np.uint64))
    steps = np.arange(4 * (n - 1) + 1)
    ellipse = ((through[:, :, None, :] <= steps[:, None]) * weights).sum(axis=-1, dtype=np.uint64).tolist()
    ellipse = tuple(tuple(tuple(row) for row in rows) for rows in ellipse)
    rings = []
    for a, b in zip(r.tolist(), c.tolist(), strict=True):
        around = [(a - 1, b), (a - 1, b + 1), (a, b + 1), (a + 1, b + 1), (a + 1, b), (a + 1, b - 1), (a, b - 1), (a - 1, b - 1)]
        bits = [1 << (y * n + x) if 0 <= y < n and 0 <= x < n else 0 for y, x in around]
        joined = set()
        for sub in range(256):
            if all(bits[j] or not sub >> j & 1 for j in range(8)):
                sides = sum(sub >> j & 1 for j in (0, 2, 4, 6))
                links = sum(sub >> j & 1 & sub >> (j + 1) & sub >> ((j + 2) % 8) for j in (0, 2, 4, 6))
                if sides - links <= 1:
                    joined.add(sum(bits[j] for j in range(8) if sub >> j & 1))
        rings.append((sum(bits), frozenset(joined)))
    return nbs, tuple(map(tuple, dist.tolist())), ellipse, tuple(rings)


def solve(n: int, givens: dict[int, tuple[int, int]], limit: int = 2, budget: int = 5_000,
          other_than: list[int] | None = None) -> list[dict]:
    """Paths (value -> cell) through every cell that put each given value on its cell (not reporting the
    path ``other_than``, flat cells in value order: the planted one, when the question is whether there
    is another).

    Walks up from the smallest given value to n², then down from it to 1. A step must keep the next
    given value in reach (Manhattan distance and parity); a state is dropped when an empty cell can
    no longer get a value (outside every stretch between given values a path could still take), has
    no way in, or is cut off from the head, or when more empty cells have a single way in than there
    are free path ends (1 and n² when not given).
    """
    N = n * n
    nbs, dist, ellipse, rings = _tables(n)
    top = 4 * (n - 1)
    full, not_first, not_last = edge_masks(n, n)

    def reach(a: int, b: int, steps: int) -> int:
        return ellipse[a][b][steps] if steps <= top else full

    given = [-1] * (N + 2)  # value -> its given flat cell, or -1
    for v, (r, c) in givens.items():
        given[v] = r * n + c
    ups = sorted(givens)
    start, last = ups[0], ups[-1]
    ends_free = (start > 1) + (last < N)
    nxt = [0] * (N + 2)  # per value v, the smallest given value above v (0: none)
    above = [0] * (N + 2)  # per value v, the cells of the given values above v
    for v in range(N - 1, 0, -1):
        g = given[v + 1]
        nxt[v] = v + 1 if g >= 0 else nxt[v + 1]
        above[v] = above[v + 1] | (1 << g if g >= 0 else 0)
    # per given value g, the cells the path may use from g up and below the start (fixed while walking up)
    below = reach(given[start], given[start], 2 * (start - 1)) if start > 1 else 0
    later = [0] * (N + 2)
    later[0] = below
    later[last] = below | (reach(given[last], given[last], 2 * (N - last)) if last < N else 0)
    for a, b in zip(ups[-2::-1], ups[:0:-1], strict=True):
        later[a] = later[b] | reach(given[a], given[b], b - a)
    start_seed = 1 << given[start] if start > 1 else 0
    at = given[:]
    taken = sum(1 << i for i in given if i >= 0)
    out, nodes = [], 0

    def rec(h: int, v: int, d: int, prev: int) -> None:
        nonlocal taken, nodes
        empty = full & ~taken
        if d > 0:
            g = nxt[v]
            gap = g - v if g else 2 * (N - v)
            if empty & ~((ellipse[h][given[g] if g else h][gap] if gap <= top else full) | later[g]):
                return
            seeds = 1 << h | start_seed
            ways = empty | seeds | above[v]
        else:
            if 2 * v - 2 <= top and empty & ~ellipse[h][h][2 * v - 2]:
                return
            seeds = 1 << h
            ways = empty | seeds
        # per cell, whether 1 and whether 2 or more of its neighbours are ways in
        right, left, down, up = ways >> 1 & not_last, ways << 1 & not_first, ways >> n, ways << n & full
        if empty & ~(right | left | down | up):
            return
        if (empty & ~((right & (left | down | up)) | (left & (down | up)) | (down & up))).bit_count() > ends_free:
            return
        # every empty cell reachable from the seeds through ways in: it was before this step, so it still is
        # when the cells around the one the head left stay joined without it
        ring, joined = rings[prev] if prev >= 0 else (0, ())
        if (ways & ring) not in joined:
            region = seeds
            while empty & ~region:
                grown = (region | (region << 1 & not_first) | (region >> 1 & not_last) | (region << n) | (region >> n)) & ways
                if grown == region:
                    return
                region = grown
        if v == (N if d > 0 else 1):
            if d > 0 and start > 1:
                rec(given[start], start, -1, -1)
            elif at[1:N + 1] != other_than:
                out.append({u: divmod(i, n) for u, i in enumerate(at[1:N + 1], 1)})
            return
        nv = v + d
        p = given[nv]
        if p >= 0:
            if dist[h][p] == 1:
                rec(p, nv, d, h)
            return
        g = nxt[nv] if d > 0 else 0
        to, gap = (dist[given[g]], g - nv) if g else (None, 0)
        for nb in nbs[h]:
            if taken >> nb & 1 or (to is not None and (to[nb] > gap or (gap - to[nb]) & 1)):
                continue
            nodes += 1
            if nodes > budget:
                raise Budget
            taken ^= 1 << nb
            at[nv] = nb
            rec(nb, nv, d, h)
            taken ^= 1 << nb
            if len(out) >= limit:
                return

    rec(given[start], start, 1, -1)
    return out
