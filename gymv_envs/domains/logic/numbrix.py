"""Numbrix: fill a grid with 1..n² so that consecutive numbers are orthogonal neighbours."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.logic._grid import (
    Budget,
    GridAnswerEnv,
    blank_board,
    cell_text,
    smallest_true,
)
from gymv_envs.domains.logic._placement import edge_masks, flood

# difficulty -> (side, fewest givens tried: keeps the uniqueness search in its fast regime)
LEVELS = {0: (4, 1), 1: (5, 8), 2: (6, 12)}
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
        if empty & ~flood(seeds, ways, n, n):
            return False
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


class Numbrix(GridAnswerEnv):
    """Complete a Numbrix grid: 1..n² along a path of orthogonal steps.

    ## Description
    An ``n x n`` grid shows some of the numbers 1..n². Fill every empty cell so that each
    number from 1 to n² appears once and every number (except n²) has the next number in a
    cell directly above, below, left or right of it: the numbers trace a path through every
    cell. The solution is unique (checked by the solver at generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the full grid row by row (numbers separated by spaces
    or commas, ``/`` or newlines between rows, JSON lists accepted). ``"mcq"``: `Discrete(k)`
    over complete grids.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid with the given numbers.

    ## Rewards
    1.0 if the grid keeps the givens, uses 1..n² once each and consecutive numbers are
    orthogonal neighbours, else 0.0.

    ## Starting State
    A random Hamiltonian path (4x4: uniform over all 552; larger: a snake scrambled by
    backbite moves); numbers are revealed in
    a random order until the solution is unique (binary search over the order; at least
    8 givens at 5x5 and 12 at 6x6, which keeps the uniqueness search fast).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, 1: 5x5, 2: 6x6), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    cell_kind = "number"

    def _configure(self) -> None:
        self.n, self.min_givens = LEVELS[self.difficulty]
        self.rows = self.cols = self.n
        self.answer_hint = (f"the completed grid as {self.n} rows of {self.n} numbers separated by spaces, rows "
                            f"separated by `/` (for example `{' '.join(str(i + 1) for i in range(self.n))} / ...`)")

    def _values(self) -> range:
        return range(1, self.n * self.n + 1)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        path = random_path(rng, n)
        order = [int(i) + 1 for i in rng.permutation(n * n)]

        def unique(k: int) -> bool:
            if n <= ENUMERATED:
                return count_small(n, {v: path[v - 1] for v in order[:k]}) == 1
            try:
                return len(solve(n, {v: path[v - 1] for v in order[:k]})) == 1
            except Budget:
                return False

        k = smallest_true(self.min_givens, n * n, unique)
        self.givens = {v: path[v - 1] for v in order[:k]}
        cells = {cell: v for v, cell in self.givens.items()}
        self.given_at = cells
        self.free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in cells]

    # -- draw
    def _paint(self) -> np.ndarray:
        n = self.n
        img, g = blank_board(self.obs_size, n, n)
        for (r, c), v in self.given_at.items():
            cell_text(img, g, r, c, str(v), scale=0.5)
        return img

    def _task_text(self) -> str:
        n, N = self.n, self.n * self.n
        return (f"The image shows a {n}x{n} Numbrix puzzle. Fill every empty cell with a number so that each number "
                f"from 1 to {N} appears exactly once and, for every number below {N}, the next number is in a cell "
                "directly above, below, left or right of it (so 1, 2, 3, ... form a path of orthogonal steps through "
                "every cell). Keep the given numbers.")

    def _state_text(self) -> str:
        return self._state_rows(lambda r, c: str(self.given_at.get((r, c), ".")))

    # -- verify
    def _check(self, answer) -> bool:
        n = self.n
        where = {v: (r, c) for r, row in enumerate(answer) for c, v in enumerate(row)}
        if sorted(where) != list(range(1, n * n + 1)) or any(where[v] != cell for v, cell in self.givens.items()):
            return False
        return all(abs(where[v][0] - where[v + 1][0]) + abs(where[v][1] - where[v + 1][1]) == 1 for v in range(1, n * n))

    # -- oracle
    def _solve(self):
        if self.n <= ENUMERATED:
            paths = all_paths(self.n)
            ok = np.ones(len(paths), dtype=bool)
            for v, (r, c) in self.givens.items():
                ok &= paths[:, v - 1] == r * self.n + c
            at = {v + 1: divmod(int(i), self.n) for v, i in enumerate(paths[int(np.argmax(ok))])}
        else:
            at = solve(self.n, self.givens, limit=1, budget=10**8)[0]
        grid = [[0] * self.n for _ in range(self.n)]
        for v, (r, c) in at.items():
            grid[r][c] = v
        return tuple(tuple(row) for row in grid)


SPECS = (
    TaskSpec(name="Numbrix", entry_point=Numbrix, domain="logic", max_episode_steps=1,
             tags=("puzzle", "path", "constraint-satisfaction")),
)
