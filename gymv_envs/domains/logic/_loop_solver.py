"""Slitherlink loop checks and solver for Slitherlink: inside sets as row bit masks, clue counts, search."""

from __future__ import annotations

import functools
from collections.abc import Callable

from gymv_envs.core.bits import edge_masks, is_connected


def loop_ok(inside: set[tuple[int, int]], n: int) -> bool:
    """The boundary of ``inside`` is one simple loop: both sides connected, no vertex touched twice."""
    if any(not (0 <= r < n and 0 <= c < n) for r, c in inside):
        return False
    return mask_loop_ok(sum(1 << (r * n + c) for r, c in inside), n)


def mask_loop_ok(inside: int, n: int) -> bool:
    """`loop_ok` for the inside cells as one bit mask (bit ``r * n + c``: cell (r, c))."""
    full = (1 << (n * n)) - 1
    if not inside or inside == full:
        return False
    below = inside >> n  # two loop corners meet at a vertex: the 2x2 cells round it are a checkerboard
    if (inside ^ inside >> 1) & ~(inside ^ below >> 1) & ~(inside >> 1 ^ below) & _corners(n):
        return False
    return _one_loop(inside, n)


def _one_loop(inside: int, n: int) -> bool:
    """Whether the boundary of ``inside`` (not empty, no two loop corners meeting at a vertex) is one
    loop: the inside is connected and has no holes. Components less holes is a fourth of the 2x2
    blocks of cells round the vertices (cells off the grid outside) holding one inside cell less those
    holding three (Gray's bit quads); with one component, it is one when there is no hole."""
    top, left, right, left_up, right_up, corners = _edges(n)
    b, c = inside >> 1, inside >> n
    d = c >> 1
    odd = (inside ^ b ^ c ^ d) & corners
    two = (inside & b | c & d | (inside | b) & (c | d)) & corners
    first, last = inside & top, inside >> (n - 1) * n
    side, other = inside & left, inside & right
    quads = ((odd & ~two).bit_count() - (odd & two).bit_count() + (first ^ first << 1).bit_count()
             + (last ^ last << 1).bit_count() + ((side ^ side >> n) & left_up).bit_count()
             + ((other ^ other >> n) & right_up).bit_count())
    return quads == 4 and is_connected(inside, n, n)


@functools.lru_cache(maxsize=16)
def _edges(n: int) -> tuple[int, int, int, int, int, int]:
    """The first row, the first and the last column (all of them, then without the last row) and the
    cells whose lower right corner is a vertex inside the grid, as bit masks."""
    column = sum(1 << (r * n) for r in range(n))
    up = column >> n
    return (1 << n) - 1, column, column << (n - 1), up, up << (n - 1), _corners(n)


@functools.lru_cache(maxsize=16)
def _corners(n: int) -> int:
    """The cells whose lower right corner is a vertex inside the grid."""
    return sum(1 << (r * n + c) for r in range(n - 1) for c in range(n - 1))


def _crossed(above: int, below: int, n: int) -> bool:
    """Two loop corners meet at a vertex between these rows: the 2x2 cells round it are a checkerboard."""
    return bool((above ^ above >> 1) & ~(above ^ below >> 1) & ~(above >> 1 ^ below) & ((1 << (n - 1)) - 1))


def count_planes(inside: int, n: int) -> tuple[int, int, int]:
    """Loop edges around each cell of the inside mask ``inside``, as three bit planes over the cells."""
    full, not_first, not_last = edge_masks(n, n)
    sides = (inside ^ inside << n, inside ^ inside >> n, inside ^ (inside << 1 & not_first),
             inside ^ (inside >> 1 & not_last))
    a, b, c, d = (side & full for side in sides)
    s0, s1 = a ^ b, a & b  # a + b and c + d as two-bit numbers, then their sum
    t0, t1 = c ^ d, c & d
    carry = s0 & t0
    return s0 ^ t0, s1 ^ t1 ^ carry, s1 & t1 | (s1 ^ t1) & carry


def mask_counts(inside: int, n: int) -> dict[tuple[int, int], int]:
    """`clue_counts` for the inside cells as one bit mask."""
    p0, p1, p2 = count_planes(inside, n)
    return {cell: (p0 >> i & 1) | (p1 >> i & 1) << 1 | (p2 >> i & 1) << 2 for i, cell in enumerate(_cells(n))}


@functools.lru_cache(maxsize=16)
def _cells(n: int) -> tuple[tuple[int, int], ...]:
    return tuple((r, c) for r in range(n) for c in range(n))


def clue_counts(inside: set[tuple[int, int]], n: int) -> dict[tuple[int, int], int]:
    """Loop edges around each cell: neighbours (or the outer edge) on the other side of the loop."""
    return mask_counts(sum(1 << (r * n + c) for r, c in inside if 0 <= r < n and 0 <= c < n), n)


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


@functools.lru_cache(maxsize=16)
def _row_masks(n: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[tuple[int, ...], ...], ...]]:
    """Sets of rows as bit masks over the row values (bit ``b``: row ``b``): for each row, the rows
    that may lie below it; for each ``must << n | want``, the rows holding ``want`` on the cells of
    ``must``; for each column ``c``, number ``k`` and row above, the rows below which cell ``c`` uses
    ``k`` or ``k - 1`` sides up, left and right (so the side below can make up ``k``)."""
    below, planes = _row_tables(n)
    width = 1 << n
    crossing = tuple(sum(1 << b for b in rows) for rows in below)
    holding = [-1] * (1 << 2 * n)  # index must << n | want: the rows holding want on the cells of must
    for must in range(width):
        for want in range(width):
            if want & ~must:
                continue
            mask = 0
            for b in range(width):
                if b & must == want:
                    mask |= 1 << b
            holding[must << n | want] = mask
    near = []
    for c in range(n):
        per_k = []
        for k in range(5):
            per_row = []
            for a in range(width):
                mask = 0
                for b in range(width):
                    c0, c1 = planes[a << n | b][:2]
                    if (c0 >> c & 1) + 2 * (c1 >> c & 1) in (k, k - 1):
                        mask |= 1 << b
                per_row.append(mask)
            per_k.append(tuple(per_row))
        near.append(tuple(per_k))
    return crossing, tuple(holding), tuple(near)


@functools.lru_cache(maxsize=16)
def _row_keys(n: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Per row ``b``: ``b << 2 * n`` (where a state keeps its row) and the cells with one neighbour in
    ``b`` (``b << 1 ^ b >> 1`` on the grid); per column ``c`` and pair (row above, row),
    indexed ``above << n | row``: how many of the cell's sides up, left and right the loop uses."""
    width = 1 << n
    planes = _row_tables(n)[1]
    counts = tuple(tuple((c0 >> c & 1) + 2 * (c1 >> c & 1) for c0, c1, *_ in planes) for c in range(n))
    return (tuple(b << 2 * n for b in range(width)), tuple((b << 1 & (width - 1)) ^ b >> 1 for b in range(width)),
            counts)


@functools.lru_cache(maxsize=4096)
def _row_fits(n: int, m: int, k0: int, k1: int, k2: int) -> tuple[list[int | None], tuple[tuple[int, ...], ...]]:
    """For a row's numbers (on the cells ``m``, as bit planes ``k0, k1, k2``): per row above, the rows
    it allows (`_row_masks`'s sets of rows crossing no vertex and meeting each number), filled in by
    `search_rows` as it asks (None until then), and the sets of rows near each number, per row above.
    Levels share them: rows' numbers recur."""
    near = _row_masks(n)[2]
    near_k = tuple(near[c][(k0 >> c & 1) | (k1 >> c & 1) << 1 | (k2 >> c & 1) << 2] for c in range(n) if m >> c & 1)
    return [None] * (1 << n), near_k


def _planes(k: int, c: int) -> tuple[int, int, int]:
    """The number ``k`` at column ``c`` as three bit planes."""
    return (k & 1) << c, (k >> 1 & 1) << c, (k >> 2 & 1) << c


def clue_rows(n: int, clues: dict[tuple[int, int], int]) -> list[tuple[int, ...]]:
    """Each row's numbers for `search_rows`: ``(m, k0, k1, k2, x, v0, v1, v2)``, the numbered cells ``m``
    and their numbers as bit planes, then a cell ``x`` whose count must differ from ``v`` (none here)."""
    rows = []
    for r in range(n):
        m = k0 = k1 = k2 = 0
        for c in range(n):
            k = clues.get((r, c))
            if k is not None:
                m |= 1 << c
                b0, b1, b2 = _planes(k, c)
                k0, k1, k2 = k0 | b0, k1 | b1, k2 | b2
        rows.append((m, k0, k1, k2, 0, 0, 0, 0))
    return rows


def count_rows(inside: int, n: int) -> list[tuple[int, ...]]:
    """`clue_rows` of every cell's count for the inside cells as one bit mask (`mask_counts`)."""
    p0, p1, p2 = count_planes(inside, n)
    row = (1 << n) - 1
    return [(row, p0 >> r * n & row, p1 >> r * n & row, p2 >> r * n & row, 0, 0, 0, 0) for r in range(n)]


def without(row: tuple[int, ...], c: int, differ: int | None = None) -> tuple[int, ...]:
    """A row of `clue_rows` without the number at column ``c``; with ``differ``, whose count there
    must not be ``differ``."""
    keep = ~(1 << c)
    m, k0, k1, k2 = row[0] & keep, row[1] & keep, row[2] & keep, row[3] & keep
    if differ is None:
        return m, k0, k1, k2, 0, 0, 0, 0
    return (m, k0, k1, k2, 1 << c, *_planes(differ, c))


def loop_solutions(n: int, clues: dict[tuple[int, int], int], limit: int, budget: int,
                   memo: dict | None = None) -> list[frozenset] | None:
    """Up to ``limit`` inside sets whose loop fits ``clues`` (None when the node budget runs out)."""
    found = search_rows(n, clue_rows(n, clues), limit, budget, memo)
    return None if found is None else [frozenset(divmod(i, n) for i in range(n * n) if m >> i & 1) for m in found]


@functools.lru_cache(maxsize=16)
def _stepper(n: int) -> Callable[[int, tuple], list[int]]:
    """`search_rows`'s step on an n x n grid (see ``steps`` within)."""
    crossing, holding, _ = _row_masks(n)
    high, beside, _ = _row_keys(n)
    shift, ask_bits = 2 * n, (1 << 2 * n) - 1

    def steps(state: int, entry: tuple) -> list[int]:
        """The states of the next row that may follow ``state`` under that row's numbers: a state is
        a row and what it asks of the row below it, ``want`` on the cells of ``must``, as one number
        ``(row << n | must) << n | want``."""
        table, free, near_k, m, mn, k0, differ, _ = entry
        row = state >> shift
        fit = free[row]  # the rows below ``row`` its numbers and no crossed vertex allow, once per row
        if fit is None:
            fit = crossing[row]
            for rows_near in near_k:
                fit &= rows_near[row]
            free[row] = fit
        fit &= holding[state & ask_bits]
        found = table[state] = []
        # each numbered cell of the row below has k or k - 1 sides up, left and right: the side below is
        # fixed, and the row below takes the cell's value where k is met, else the other. k - 1 and k
        # differ in their lowest bit, and that of the sides up, left and right is row ^ nxt ^ beside[nxt]
        # (up: row ^ nxt; left and right together: the cells with one neighbour in nxt), so on ``m`` the
        # row below holds nxt ^ that ^ k0 = row ^ k0 ^ beside[nxt]
        rk = row ^ k0
        if differ is None:
            while fit:
                low = fit & -fit
                fit ^= low
                nxt = low.bit_length() - 1
                found.append(high[nxt] | mn | (rk ^ beside[nxt]) & m)
            return found
        x, xn, x_counts, v = differ
        base = row << n
        while fit:  # the count to avoid at x: reached without the side below (take it) or with it (not)
            low = fit & -fit
            fit ^= low
            nxt = low.bit_length() - 1
            key = high[nxt] | mn | (rk ^ beside[nxt]) & m
            short = v - x_counts[base | nxt]
            if short == 0:
                key |= xn | x & ~nxt
            elif short == 1:
                key |= xn | x & nxt
            found.append(key)
        return found

    return steps


def _row_entry(n: int, number: tuple[int, ...], name: int) -> tuple:
    """What `search_rows` keeps of a row's numbers (`clue_rows`): the states below each state that they
    allow (filled in as asked), the rows each row allows below it and the rows near each number
    (`_row_fits`), the numbered cells ``m``, ``m << n``, the lowest bit plane of their numbers, for a
    cell ``x`` whose count must not be ``v`` ``(x, x << n, its counts (`_row_keys`), v)`` (else None),
    and ``name``, the number given to them on first sight."""
    m, k0, k1, k2, x, v0, v1, v2 = number
    free, near_k = _row_fits(n, m, k0, k1, k2)
    differ = None
    if x:
        cx = x.bit_length() - 1
        differ = x, x << n, _row_keys(n)[2][cx], (v0 >> cx & 1) | (v1 >> cx & 1) << 1 | (v2 >> cx & 1) << 2
    return {}, free, near_k, m, m << n, k0, differ, name


def search_rows(n: int, numbers: list[tuple[int, ...]], limit: int, budget: int,
                memo: dict | None = None) -> list[int] | None:
    """Up to ``limit`` inside sets (each one mask, bit ``r * n + c``: cell (r, c)) whose loop fits the
    numbers given row by row as `clue_rows` gives them (None when the node budget runs out); ``n >= 2``.

    Fills the grid row by row (each row a bit mask of inside cells): once a row and the one above it
    are set, its numbers fix the cells of the next row below them, and no vertex may be crossed;
    full grids are checked for one loop. A row, with what it asks of the next, from which no filling
    of the rest fits the numbers is remembered and not tried again. ``memo`` keeps, across calls on
    the same board, the rows that may follow a row under given numbers (keyed by a row's numbers) and
    those dead ends (keyed by the numbers of the rows they depend on, each row's numbers by a number
    given to them on first sight; per row's numbers also the rows each row allows below it, and per
    list of ids the dead ends of every row), and which full grids are one loop.
    """
    if n < 2:
        raise ValueError(f"search_rows needs n >= 2, got {n}")
    memo = {} if memo is None else memo
    steps = _stepper(n)
    tables = []  # per row: the states below each state that its numbers allow, then its numbers (see steps)
    ids = []
    for number in numbers:
        entry = memo.get(number)
        if entry is None:
            entry = memo[number] = _row_entry(n, number, len(memo))
        tables.append(entry)
        ids.append(entry[7])
    key = ("rows", *ids)
    rows = memo.get(key)  # per row r < n - 1: its dead ends, r * n, the states of row r + 1 and its numbers
    if rows is None:
        # dead ends of row r: states (``(row << n | must) << n | want``, with what they ask of row r + 1)
        # with no fitting rest; they depend only on the numbers of rows r + 1 onwards
        below = "dead"  # the key of the last row's dead ends, then (id of row r + 1, key of row r + 1's)
        gone_last = memo.get(below)
        if gone_last is None:
            gone_last = memo[below] = set()
        rows = []
        for r in range(n - 2, -1, -1):
            below = (ids[r + 1], below)
            gone = memo.get(below)
            if gone is None:
                gone = memo[below] = set()
            rows.append((gone, r * n, tables[r + 1][0], tables[r + 1]))
        rows.reverse()
        rows = memo[key] = rows, gone_last
    rows, gone_last = rows
    loops = memo.get("loops")  # full grid -> whether its boundary is one loop
    if loops is None:
        loops = memo["loops"] = {}
    out: list[int] = []  # each loop found, its inside as one mask
    left = budget
    full = (1 << n * n) - 1
    want_bits = (1 << n) - 1
    shift = 2 * n
    last = n - 1
    at_last = last * n

    def search(r: int, found: list[int], inside: int) -> bool:
        """Rows 0..r - 1 are set (all of them the mask ``inside``) and ``found`` holds the states of row r
        that may follow (not empty), r < n - 1: try them and the rest; whether some filling fit the
        numbers. The last row is tried here too, below each state of row n - 2."""
        nonlocal left
        gone, at, table, entry = rows[r]
        fit = False
        r += 1
        if r < last:
            for key in found:
                if key in gone:
                    continue
                left -= 1
                if left < 0:
                    raise TimeoutError
                below = table.get(key)
                if below is None:
                    below = steps(key, entry)
                if below and search(r, below, inside | key >> shift << at):
                    fit = True
                    if len(out) >= limit:
                        break
                else:
                    gone.add(key)
            return fit
        for key in found:  # row n - 2; below it the last row, below which is the outside: it asks nothing
            if key in gone:
                continue
            left -= 1
            if left < 0:
                raise TimeoutError
            below = table.get(key)
            if below is None:
                below = steps(key, entry)
            grid = inside | key >> shift << at
            ok = False
            for end in below:
                if end in gone_last:
                    continue
                left -= 1
                if left < 0:
                    raise TimeoutError
                if end & want_bits:
                    gone_last.add(end)
                    continue
                ok = True
                whole = grid | end >> shift << at_last
                one = loops.get(whole)
                if one is None:
                    one = loops[whole] = 0 != whole != full and _one_loop(whole, n)  # no vertex is crossed
                if one:
                    out.append(whole)
                    if len(out) >= limit:
                        break
            if ok:
                fit = True
                if len(out) >= limit:
                    break
            else:
                gone.add(key)
        return fit

    first = tables[0][0].get(0)  # the row above the first is the outside: it asks nothing
    if first is None:
        first = steps(0, tables[0])
    try:
        if first:
            search(0, first, 0)
    except TimeoutError:
        return None
    return out
