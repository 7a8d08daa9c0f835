"""Slitherlink loop checks and solver for Slitherlink: inside sets as row bit masks, clue counts, search."""

from __future__ import annotations

import functools

from gymv_envs.domains.logic._placement import NEIGHBOURS4, flood, is_connected


def loop_ok(inside: set[tuple[int, int]], n: int) -> bool:
    """The boundary of ``inside`` is one simple loop: both sides connected, no vertex touched twice."""
    if any(not (0 <= r < n and 0 <= c < n) for r, c in inside):
        return False
    rows = [0] * n
    for r, c in inside:
        rows[r] |= 1 << c
    return _rows_loop_ok(rows, n)


def _rows_loop_ok(rows: list[int] | tuple[int, ...], n: int) -> bool:
    """`loop_ok` for the inside cells given row by row as bit masks (bit c: column c)."""
    inside = 0
    for r, row in enumerate(rows):
        inside |= row << (r * n)
    full = (1 << (n * n)) - 1
    if not inside or inside == full:
        return False
    if any(_crossed(rows[r - 1], rows[r], n) for r in range(1, n)):
        return False
    outside = full & ~inside
    return is_connected(inside, n, n) and flood(outside & _border(n), outside, n, n) == outside


@functools.lru_cache(maxsize=16)
def _border(n: int) -> int:
    return sum(1 << (r * n + c) for r in range(n) for c in range(n) if r in (0, n - 1) or c in (0, n - 1))


def _crossed(above: int, below: int, n: int) -> bool:
    """Two loop corners meet at a vertex between these rows: the 2x2 cells round it are a checkerboard."""
    return bool((above ^ above >> 1) & ~(above ^ below >> 1) & ~(above >> 1 ^ below) & ((1 << (n - 1)) - 1))


def clue_counts(inside: set[tuple[int, int]], n: int) -> dict[tuple[int, int], int]:
    """Loop edges around each cell: neighbours (or the outer edge) on the other side of the loop."""
    return {(r, c): sum(((r + dr, c + dc) in inside) != ((r, c) in inside) for dr, dc in NEIGHBOURS4)
            for r in range(n) for c in range(n)}


@functools.lru_cache(maxsize=16)
def _row_tables(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """For each row mask: the rows that may lie below it (no crossed vertex between them). For each pair
    (row above, row), indexed ``above << n | row``: how many of each cell's sides up, left and right the
    loop uses, that count and the count plus one as bit planes ``(c0, c1, d0, d1, d2)``."""
    width = 1 << n
    below = tuple(tuple(b for b in range(width) if not _crossed(a, b, n)) for a in range(width))
    planes = []
    for a in range(width):
        for b in range(width):
            up, left, right = a ^ b, b ^ (b << 1 & (width - 1)), b ^ (b >> 1)
            c0, c1 = up ^ left ^ right, (up & left) | (up & right) | (left & right)
            planes.append((c0, c1, ~c0, c1 ^ c0, c1 & c0))
    return below, tuple(planes)


@functools.lru_cache(maxsize=1 << 16)
def _below_fit(n: int, row: int, must: int, want: int) -> tuple[int, ...]:
    """The rows that may lie below ``row`` and hold ``want`` on the cells of ``must``."""
    return tuple(b for b in _row_tables(n)[0][row] if b & must == want)


def loop_solutions(n: int, clues: dict[tuple[int, int], int], limit: int, budget: int,
                   memo: dict | None = None, differ: tuple[tuple[int, int], int] | None = None
                   ) -> list[frozenset] | None:
    """Up to ``limit`` inside sets whose loop fits ``clues`` (None when the node budget runs out);
    with ``differ=(cell, k)`` only loops that use other than ``k`` sides of ``cell`` (a cell without a
    number in ``clues``).

    Fills the grid row by row (each row a bit mask of inside cells): once a row and the one above it
    are set, its numbers fix the cells of the next row below them, and no vertex may be crossed;
    full grids are checked for one loop. A row, with what it asks of the next, from which no filling
    of the rest fits the numbers is remembered and not tried again. ``memo`` keeps the rows that may
    follow a row under given numbers across calls on the same board.
    """
    planes = _row_tables(n)[1]
    memo = {} if memo is None else memo
    # per row: the cells with a number and the numbers' bit planes
    numbers = []
    for r in range(n):
        m = k0 = k1 = k2 = 0
        for c in range(n):
            k = clues.get((r, c))
            if k is not None:
                m |= 1 << c
                k0 |= (k & 1) << c
                k1 |= (k >> 1 & 1) << c
                k2 |= (k >> 2 & 1) << c
        numbers.append((m, k0, k1, k2, 0, 0, 0, 0))
    if differ is not None:  # the cell's bit and the planes of the count it must not have
        (r, c), k = differ
        numbers[r] = numbers[r][:4] + (1 << c, (k & 1) << c, (k >> 1 & 1) << c, (k >> 2 & 1) << c)
    out: list[frozenset] = []
    rows: list[int] = []
    dead: set[tuple[int, int, int, int]] = set()
    nodes = [0]

    def steps(row: int, must: int, want: int, number: tuple[int, ...]) -> list[tuple[int, int, int]]:
        """The rows that may come below ``row``, each with what its numbers ``number`` ask of the row
        after it: the cells ``must`` whose values ``w`` are fixed."""
        key = (row, must, want, number)
        found = memo.get(key)
        if found is None:
            m, k0, k1, k2, x, v0, v1, v2 = number
            found = memo[key] = []
            for nxt in _below_fit(n, row, must, want):
                c0, c1, d0, d1, d2 = planes[row << n | nxt]
                same = ~((k0 ^ c0) | (k1 ^ c1) | k2)       # the number is met without the side below
                more = ~((k0 ^ d0) | (k1 ^ d1) | (k2 ^ d2))  # the number needs the side below too
                if not m & ~(same | more):
                    w = (nxt & same | ~nxt & more) & m
                    if x:  # the count to avoid: reached without the side below (take it) or with it (not)
                        xs = x & ~((v0 ^ c0) | (v1 ^ c1) | v2)
                        xm = x & ~((v0 ^ d0) | (v1 ^ d1) | (v2 ^ d2))
                        found.append((nxt, m | xs | xm, w | (~nxt & xs | nxt & xm) & x))
                    else:
                        found.append((nxt, m, w))
        return found

    def search(r: int, row: int, must: int, want: int) -> bool:
        """Rows 0..r are set (row r is ``row``): try the rest; whether some filling fit the numbers."""
        if r == n - 1:
            if want:  # below the last row is the outside
                return False
            if _rows_loop_ok(rows, n):
                out.append(frozenset((i, c) for i, m in enumerate(rows) for c in range(n) if m >> c & 1))
            return True
        fit = False
        for nxt, m, w in steps(row, must, want, numbers[r + 1]):
            key = (r, nxt, m, w)
            if key in dead:
                continue
            nodes[0] += 1
            if nodes[0] > budget:
                raise TimeoutError
            rows.append(nxt)
            if search(r + 1, nxt, m, w):
                fit = True
            else:
                dead.add(key)
            rows.pop()
            if len(out) >= limit:
                break
        return fit

    try:
        search(-1, 0, 0, 0)
    except TimeoutError:
        return None
    return out
