"""Light Up board tables and solver for LightUp: the Akari class (bit masks, forced bulbs, search)."""

from __future__ import annotations

import functools
from itertools import chain
from operator import getitem, or_

from gymv_envs.domains.logic._placement import NEIGHBOURS4


@functools.lru_cache(maxsize=16)
def _tables(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Row r then column r for each r, as cells; each cell's orthogonal neighbours (in `NEIGHBOURS4` order)."""
    lines = []
    for r in range(n):
        lines += [tuple(r * n + c for c in range(n)), tuple(c * n + r for c in range(n))]
    around = tuple(tuple((r + dr) * n + c + dc for dr, dc in NEIGHBOURS4 if 0 <= r + dr < n and 0 <= c + dc < n)
                   for r in range(n) for c in range(n))
    return tuple(lines), around


@functools.lru_cache(maxsize=16)
def _masks(n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The lines of `_tables` as cell masks; each cell's neighbours as a mask."""
    lines, around = _tables(n)
    return tuple(sum(1 << i for i in line) for line in lines), tuple(sum(1 << j for j in a) for a in around)


@functools.lru_cache(maxsize=8192)  # n = 8 has at most 16 lines x 256 patterns (about 3 MB); 8,192 in all
def _runs(n: int, line: int, white: int) -> tuple[int, ...]:
    """Per cell of line ``line`` of `_tables` in order, the run of ``white`` cells along it that holds
    it, as a mask (0 for a black cell); ``white`` is the line's white cells."""
    out, run, m = [], [], 0
    for i in _tables(n)[0][line]:
        if white >> i & 1:
            run.append(len(out))
            m |= 1 << i
        else:
            for t in run:
                out[t] = m
            run, m = [], 0
        out.append(0)
    for t in run:
        out[t] = m
    return tuple(out)


class Akari:
    """A Light Up board as bit masks: cell i = r * n + c; ``black`` maps black cells to their number or None."""

    def __init__(self, n: int, black: dict[int, int | None]) -> None:
        self.n, self.black = n, dict(black)
        dark = sum(1 << i for i in black)
        self.white = white = ((1 << (n * n)) - 1) & ~dark
        line_masks, around_masks = _masks(n)
        rows = [_runs(n, 2 * r, white & line_masks[2 * r]) for r in range(n)]
        cols = [_runs(n, 2 * r + 1, white & line_masks[2 * r + 1]) for r in range(n)]
        self.sees = list(map(or_, chain.from_iterable(rows), chain.from_iterable(zip(*cols))))
        self.adjacent = {i: white & around_masks[i] for i in black}
        self.numbers = [(self.adjacent[i], k) for i, k in black.items() if k is not None]

    def renumbered(self, black: dict[int, int | None]) -> Akari:
        """The same black cells with other numbers (``black`` has the same keys), sharing the tables."""
        out = object.__new__(Akari)
        out.__dict__.update(self.__dict__)
        out.black = dict(black)
        out.numbers = [(self.adjacent[i], k) for i, k in black.items() if k is not None]
        return out

    def unnumbered(self, cell: int) -> Akari:
        """The same board with the number of black ``cell`` taken away, sharing the tables."""
        out = object.__new__(Akari)
        out.__dict__.update(self.__dict__)
        out.black = {**self.black, cell: None}
        out.numbers = self.numbers[:]
        out.numbers.remove((self.adjacent[cell], self.black[cell]))  # (equal entries are alike)
        return out

    def blackened(self, cell: int) -> Akari:
        """This board with white ``cell`` turned black (no number): the tables of `__init__`, updated
        only on the cells of its row and column runs (``black`` gets ``cell`` last)."""
        n, bit = self.n, 1 << cell
        out = object.__new__(Akari)
        out.n, out.white = n, self.white & ~bit
        out.black = {**self.black, cell: None}
        out.sees = sees = self.sees[:]
        seen = sees[cell]
        row = seen & (((1 << n) - 1) << (cell - cell % n))
        below = bit - 1
        for part in (row, seen & ~row):
            lo, hi = part & below, part & ~below & ~bit
            for side, cut in ((lo, hi | bit), (hi, lo | bit)):
                while side:
                    low = side & -side
                    side ^= low
                    sees[low.bit_length() - 1] &= ~cut
        sees[cell] = 0
        out.adjacent = adjacent = dict(self.adjacent)
        m = 0
        for j in _tables(n)[1][cell]:
            if j in adjacent:
                adjacent[j] &= ~bit
            else:
                m |= 1 << j
        adjacent[cell] = m
        out.numbers = [(adjacent[i], k) for i, k in out.black.items() if k is not None]
        return out

    def moves(self, bulbs: int) -> list[int]:
        """Per other solution of the board without its numbers that moves one bulb of ``bulbs`` (a
        solution) within its row or column: the black cells whose count of adjacent bulbs it changes
        (a cell mask). A number kept on none of them does not tell that solution from ``bulbs``."""
        n, white, sees = self.n, self.white, self.sees
        around = _masks(n)[1]
        black_mask = ((1 << (n * n)) - 1) & ~white
        near = {}  # cell -> the black cells beside it (mask)
        out = []
        cells = list(chain.from_iterable(map(getitem, _byte_cells(n), bulbs.to_bytes(len(_byte_cells(n)), "little"))))
        after = [0] * (len(cells) + 1)  # after[k]: the cells the bulbs from the k-th on light
        for k in range(len(cells) - 1, -1, -1):
            after[k] = after[k + 1] | sees[cells[k]]
        before = 0  # the cells the bulbs before this one light
        for k, b in enumerate(cells):
            low = 1 << b
            others, lit = bulbs ^ low, before | after[k + 1]
            before |= sees[b]
            cands = sees[b] & ~low
            while cands:
                c = cands.bit_length() - 1
                cands ^= 1 << c
                seen = sees[c]
                if seen & others or lit | seen != white:
                    continue
                for y in (b, c):
                    if y not in near:
                        near[y] = around[y] & black_mask
                out.append(near[b] ^ near[c])
        return out

    def lit_without(self, bulbs: int, cell: int) -> bool:
        """Whether ``bulbs`` (which light the board, ``cell`` not one of them) still light every white
        cell once ``cell`` turns black: only the cells of its row and column runs see less."""
        n, seen = self.n, self.sees[cell]
        row = seen & (((1 << n) - 1) << (cell - cell % n))
        col = seen & ~row
        below = (1 << cell) - 1
        for part, cut in ((row & below, row & ~below), (col & below, col & ~below)):
            for near, far in ((part, cut), (cut & ~(1 << cell), part)):
                if not near & bulbs:  # that side of the run lost its bulbs: each cell needs its other line
                    while near:
                        low = near & -near
                        near ^= low
                        if not bulbs & self.sees[low.bit_length() - 1] & ~far:
                            return False
        return True

    def solutions(self, limit: int, budget: int = 50_000, known: int = -1) -> list[int] | None:
        """Up to ``limit`` bulb masks that solve the board (None when the search budget runs out),
        in the search's order; ``known`` (a solution already known) is passed over, not counted.

        Before each branch, bulbs that are forced go in (`_settle`). Then the search branches on the
        unlit cell with the fewest cells that could light it.
        """
        out: list[int] = []
        nodes = 0
        white, sees, idx = self.white, self.sees, _byte_cells(self.n)

        def search(bulbs: int, lit: int, banned: int, numbers: list) -> None:
            nonlocal nodes
            nodes += 1
            if nodes > budget:
                raise TimeoutError
            state = _settle(white, sees, idx, bulbs, lit, banned, numbers, 0, -1)
            if state is None:
                return
            bulbs, lit, banned, free, numbers, best = state
            if best < 0:  # all lit, so every number met (an unmet one has no room left)
                if not numbers and bulbs != known:
                    out.append(bulbs)
                return
            opts = sees[best] & free
            while opts and len(out) < limit:
                low = opts & -opts
                j = low.bit_length() - 1
                opts ^= low
                search(bulbs | low, lit | sees[j], banned, numbers)
                banned |= low

        numbers, banned = _split_zeros(self.numbers)
        try:
            search(0, 0, banned, numbers)
        except TimeoutError:
            return None
        return out

    def differs(self, black: int, bulbs: int, budget: int = 50_000) -> bool | None:
        """Whether a solution of the other numbers puts a count other than its number round ``black``.

        ``bulbs`` is the board's one solution (which meets every number). That is whether the board
        keeps one solution with the number of ``black`` removed. Such a solution differs from
        ``bulbs`` on a cell round ``black``: one search per such cell, the cells before it as in
        ``bulbs`` (their bulbs placed, the others banned) and it the other way; each is the search of
        `solutions`, its branches trying the cells of ``bulbs`` first. A number that has its bulbs leaves the
        search below it (its open cells are banned), and a branch whose count round ``black`` is
        settled at the number ends. None when the budget (of nodes, all searches together) runs out."""
        white, sees, adj, idx = self.white, self.sees, self.adjacent[black], _byte_cells(self.n)
        k_out = self.black[black]
        nodes = 0

        def search(on: int, lit: int, banned: int, numbers: list) -> bool:
            nonlocal nodes
            nodes += 1
            if nodes > budget:
                raise TimeoutError
            state = _settle(white, sees, idx, on, lit, banned, numbers, adj, k_out)
            if state is None:
                return False
            on, lit, banned, free, numbers, best = state
            if best < 0:  # all lit, every number met (none is active)
                return not numbers and (on & adj).bit_count() != k_out
            opts = sees[best] & free
            near = opts & bulbs
            for part in (near, opts ^ near):
                while part:
                    low = part & -part
                    part ^= low
                    if search(on | low, lit | sees[low.bit_length() - 1], banned, numbers):
                        return True
                    banned |= low
            return False

        numbers, off, own = [], 0, (adj, k_out)  # the other numbers but 0s; the cells round the 0s
        for number in self.numbers:
            if number == own:  # this number (or one alike) leaves, once
                own = None
            elif number[1]:
                numbers.append(number)
            else:
                off |= number[0]
        on = lit = 0
        try:
            for part in (adj & bulbs, adj & ~bulbs):  # the cell that differs: a bulb taken away, or one added
                while part:
                    low = part & -part
                    part ^= low
                    j = low.bit_length() - 1
                    if bulbs & low:
                        if search(on, lit, off | low, numbers):
                            return True
                        on, lit = on | low, lit | sees[j]
                    else:
                        if not (lit | off) & low and search(on | low, lit | sees[j], off, numbers):
                            return True
                        off |= low
            return False
        except TimeoutError:
            return None


def _split_zeros(numbers: list) -> tuple[list, int]:
    """The numbers other than 0, and the cells round the 0s: what `_settle` makes of them first."""
    banned = 0
    for ring, k in numbers:
        if not k:
            banned |= ring
    return ([x for x in numbers if x[1]] if banned else numbers), banned


@functools.lru_cache(maxsize=4)
def _byte_cells(n: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per byte of an ``n * n``-bit cell mask (lowest first), per value of that byte, its cells in
    order: a mask's cells are read a byte at a time (``n`` = 8: 8 x 256 tuples, about 150 kB)."""
    return tuple(tuple(tuple(8 * k + j for j in range(8) if b >> j & 1) for b in range(256))
                 for k in range((n * n + 7) // 8))


def _settle(white: int, sees: list, idx: tuple, bulbs: int, lit: int, banned: int, numbers: list, adj: int,
            k_out: int):
    """Place the bulbs that are forced: all the open cells round a number that needs every one of them,
    and the only cell that can still light an unlit cell; a met number bans its open cells and leaves
    the list. With ``k_out`` >= 0, a count round ``adj`` settled at ``k_out`` ends the branch too.

    None when the branch ends; else (bulbs, lit, banned, free cells, numbers still unmet, the unlit
    cell with the fewest cells that could light it, the first such; -1 when all are lit). The
    deductions only grow the state and a failed one stays failed, so any order of them reaches the
    same end: this one places the numbers' bulbs before it looks for lone cells, and all of those
    found in one pass together. The unlit cells are read a byte of the mask at a time (``idx``:
    `_byte_cells`)."""
    size = len(idx)
    while True:
        met = None
        for number in numbers:
            on = bulbs & number[0]
            if on:  # (no bulb round it: not met, as every number here is at least 1)
                have = on.bit_count()
                if have >= number[1]:
                    if have > number[1]:
                        return None
                    banned |= number[0]
                    if met is None:
                        met = [number]
                    else:
                        met.append(number)
        if met is not None:  # they leave the list (equal tuples are alike: which one goes does not matter)
            if len(met) == 1:
                numbers = numbers[:]
                numbers.remove(met[0])
            else:
                numbers = [x for x in numbers if x not in met]
        free = white ^ (lit | banned)  # (both only hold white cells: the cells they leave)
        forced = 0
        can = free | bulbs  # a number's bulbs and open cells: all of them needed, when they are as many as it
        for ring, k in numbers:
            most = (can & ring).bit_count()
            if most <= k:
                if most < k:
                    return None
                forced |= free & ring
        if k_out >= 0 and not free & adj and (bulbs & adj).bit_count() == k_out:
            return None
        if not forced:
            best, best_opts = -1, 99
            for cells, byte in zip(idx, (white ^ lit).to_bytes(size, "little")):
                if byte:
                    for i in cells[byte]:
                        opts = sees[i] & free
                        n_opts = opts.bit_count()
                        if n_opts < 2:  # one cell, or none
                            if not n_opts:
                                return None
                            forced |= opts
                        elif n_opts < best_opts:
                            best, best_opts = i, n_opts
            if not forced:
                return bulbs, lit, banned, free, numbers, best
        if lit & forced:
            return None
        bulbs |= forced
        while forced:  # place the forced bulbs; two that see each other end the branch
            i = forced.bit_length() - 1
            forced ^= 1 << i
            if sees[i] & forced:
                return None
            lit |= sees[i]
