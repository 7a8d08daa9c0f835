"""Kalah's rules: the board (six pits a side and two stores, as one tuple) and sowing, with captures and the
end of the game."""

from __future__ import annotations

import functools
from collections.abc import Callable

from gymv_envs.domains.games._board import DRAW, ME, THEM

PITS = 6
STORE = {ME: PITS, THEM: 2 * PITS + 1}           # board index of each side's store
FIRST = {ME: 0, THEM: PITS + 1}                   # board index of each side's first pit
ROW = {ME: range(0, PITS), THEM: range(PITS + 1, 2 * PITS + 1)}   # board indices of each side's pits
# PATH[p][pit]: the 13 board indices that seeds sown by player p from `pit` pass, in order (the
# opponent's store skipped, `pit` itself last): seed k (from 0) lands on PATH[p][pit][k % 13].
PATH = {p: tuple(tuple(q for q in ((pit + k) % (2 * PITS + 2) for k in range(1, 2 * PITS + 3)) if q != STORE[3 - p])[:2 * PITS + 1]
                 for pit in range(2 * PITS + 2)) for p in (ME, THEM)}


def sow_into(b: list[int], p: int, pit: int) -> tuple[int, int | None]:
    """`sow` on the board list ``b``, changed in place: returns (the player to move next, the result)."""
    seeds, b[pit] = b[pit], 0
    if seeds:
        path = PATH[p][pit]
        if seeds <= 2 * PITS + 1:
            for q in path[:seeds]:
                b[q] += 1
        else:
            laps, rest = divmod(seeds, 2 * PITS + 1)
            for q in path:
                b[q] += laps
            for q in path[:rest]:
                b[q] += 1
        pos = path[(seeds - 1) % (2 * PITS + 1)]
    else:
        pos = pit
    store = STORE[p]
    if pos in ROW[p] and b[pos] == 1 and b[2 * PITS - pos]:   # capture: the last seed in an empty pit of yours
        b[store] += 1 + b[2 * PITS - pos]
        b[pos] = b[2 * PITS - pos] = 0
    nxt = p if pos == store else 3 - p
    mine, theirs = sum(b[0:PITS]), sum(b[PITS + 1:2 * PITS + 1])
    if not mine or not theirs:   # one side is empty: the rest goes to its owner's store
        b[STORE[ME]] += mine
        b[STORE[THEM]] += theirs
        b[0:PITS] = b[PITS + 1:2 * PITS + 1] = [0] * PITS
    total = sum(b)
    if 2 * b[STORE[ME]] > total:
        return nxt, ME
    if 2 * b[STORE[THEM]] > total:
        return nxt, THEM
    if not mine or not theirs:
        return nxt, DRAW
    return nxt, None


def sow(board: tuple[int, ...], p: int, pit: int) -> tuple[tuple[int, ...], int, int | None]:
    """Player ``p`` sows pit ``pit`` of ``board``: the state (board, player to move, result) it leads to."""
    b = list(board)
    nxt, result = sow_into(b, p, pit)
    return tuple(b), nxt, result


# -- the same rules on a board packed into one int (a byte a pit or store, pit 0 lowest), for the start search:
# a move is one addition of a precomputed increment. Boards of at most 128 seeds (Kalah's levels hold 36 or 48).
MOST = 128
CELLS = 2 * PITS + 2
ROWS = {p: sum(0xFF << (8 * q) for q in ROW[p]) for p in (ME, THEM)}


def _side(p: int) -> tuple:
    """Player ``p``'s tables: (adds 127 to each pit of p, bit 7 of each pit of p, {bit 7 of p's non-empty pits:
    their board indices}, per pit and seed count (increment, last pit's bit offset or -1 when not p's own pit,
    opposite pit's bit offset, next to move), p's store's bit offset)."""
    low = sum(0x7F << (8 * q) for q in ROW[p])
    high = sum(0x80 << (8 * q) for q in ROW[p])
    nonempty = {sum(0x80 << (8 * q) for q in pits): pits
                for pits in (tuple(q for k, q in enumerate(ROW[p]) if m >> k & 1) for m in range(1 << PITS))}
    sows = []
    for pit in range(CELLS):
        path = PATH[p][pit]
        ring = sum(1 << (8 * q) for q in path)
        rows = []
        for n in range(MOST + 1):
            laps, rest = divmod(n, 2 * PITS + 1)
            pos = path[(n - 1) % (2 * PITS + 1)] if n else pit
            rows.append((laps * ring + sum(1 << (8 * q) for q in path[:rest]) - (n << (8 * pit)),
                         8 * pos if pos in ROW[p] else -1, 8 * (2 * PITS - pos), p if pos == STORE[p] else 3 - p))
        sows.append(rows)
    return low, high, nonempty, sows, 8 * STORE[p]


SIDE = {p: _side(p) for p in (ME, THEM)}


def pack(board: tuple[int, ...]) -> int:
    if sum(board) > MOST:
        raise ValueError(f"packed Kalah boards hold at most {MOST} seeds, not {sum(board)}")
    return int.from_bytes(bytes(board), "little")


def unpack(x: int) -> tuple[int, ...]:
    return tuple(x.to_bytes(CELLS, "little"))


def sow_packed(x: int, p: int, pit: int, total: int) -> tuple[int, int, int | None]:
    """`sow` on packed board ``x`` holding ``total`` seeds: (packed board, player to move next, result)."""
    _, _, _, sows, store = SIDE[p]
    inc, cap, opp, nxt = sows[pit][(x >> (8 * pit)) & 0xFF]
    x += inc
    if cap >= 0 and (x >> cap) & 0xFF == 1:   # capture: the last seed in an empty pit of yours
        o = (x >> opp) & 0xFF
        if o:
            x += ((1 + o) << store) - (1 << cap) - (o << opp)
    if not x & ROWS[ME] or not x & ROWS[THEM]:   # one side is empty: the rest goes to its owner's store
        b = x.to_bytes(CELLS, "little")
        x = ((x & ~(ROWS[ME] | ROWS[THEM])) + (sum(b[0:PITS]) << (8 * STORE[ME]))
             + (sum(b[PITS + 1:2 * PITS + 1]) << (8 * STORE[THEM])))
        me, them = (x >> (8 * STORE[ME])) & 0xFF, x >> (8 * STORE[THEM])
        return x, nxt, ME if 2 * me > total else THEM if 2 * them > total else DRAW
    if 2 * ((x >> (8 * STORE[ME])) & 0xFF) > total:
        return x, nxt, ME
    if 2 * (x >> (8 * STORE[THEM])) > total:
        return x, nxt, THEM
    return x, nxt, None


def random_walk(board: tuple[int, ...], p: int, stop: int, draw: Callable[[int], int]) -> tuple[tuple[int, ...], int, int | None]:
    """Random moves from ``board``, ``p`` to move, until the game ends or at most ``stop`` seeds are left in the
    pits: each move sows the ``draw(n)``-th (from 0, in board order) of the mover's n non-empty pits. Returns
    the state reached. (A level walks about 45,000 moves: `sow_packed` is written out for the moves that do
    not end the game, and called for the one that does.)"""
    x, total = pack(board), sum(board)
    limit, mine, theirs, mine_row, their_row = total - stop, 8 * STORE[ME], 8 * STORE[THEM], ROWS[ME], ROWS[THEM]
    low, high, nonempty, sows, store = SIDE[p]
    while ((x >> mine) & 0xFF) + (x >> theirs) < limit:
        pits = nonempty[(x + low) & high]
        pit = pits[draw(len(pits))]
        inc, cap, opp, nxt = sows[pit][(x >> (8 * pit)) & 0xFF]
        y = x + inc
        if cap >= 0 and (y >> cap) & 0xFF == 1:
            o = (y >> opp) & 0xFF
            if o:
                y += ((1 + o) << store) - (1 << cap) - (o << opp)
        if not y & mine_row or not y & their_row or 2 * ((y >> mine) & 0xFF) > total or 2 * (y >> theirs) > total:
            x, p, result = sow_packed(x, p, pit, total)   # the game ends (a row swept, or a store holds most seeds)
            return unpack(x), p, result
        x = y
        if nxt != p:
            p = nxt
            low, high, nonempty, sows, store = SIDE[p]
    return unpack(x), p, None


def forced_win(x: int, p: int, side: int, k: int, memo: dict, total: int) -> bool:
    """Whether ``side`` can force a win within ``k`` of its own moves from packed board ``x`` (holding ``total``
    seeds, no result yet), ``p`` to move: the AND-OR search. ``memo`` maps ``x << 2 | p`` to [the largest k known
    to fail, the smallest known to win] for ME, then for THEM: the answer only grows with k, so one search at a
    depth settles the shallower failures and the deeper wins."""
    if k <= 0:
        return False
    key, i = x << 2 | p, 0 if side == ME else 2
    bounds = memo.get(key)
    if bounds is None:
        bounds = memo[key] = [0, 1 << 30, 0, 1 << 30]
    elif k <= bounds[i]:
        return False
    elif k >= bounds[i + 1]:
        return True
    low, high, nonempty = SIDE[p][:3]
    if p == side:
        hit = False
        for pit in nonempty[(x + low) & high]:
            y, q, r = sow_packed(x, p, pit, total)
            if r == side if r is not None else forced_win(y, q, side, k - 1, memo, total):
                hit = True
                break
    else:
        hit = True
        for pit in nonempty[(x + low) & high]:
            y, q, r = sow_packed(x, p, pit, total)
            if not (r == side if r is not None else forced_win(y, q, side, k, memo, total)):
                hit = False
                break
    if hit:
        bounds[i + 1] = k
    else:
        bounds[i] = k
    return hit


# `sow`, cached: the opponent's searches of successive steps meet the same positions again (the start
# check meets mostly new ones, so it sows directly). 20,000 entries of about 500 bytes: 10 MB at most.
sown = functools.lru_cache(maxsize=20_000)(sow)
