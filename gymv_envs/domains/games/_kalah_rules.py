"""Kalah's rules: the board (six pits a side and two stores, as one tuple) and sowing, with captures and the
end of the game."""

from __future__ import annotations

import functools

from gymv_envs.domains.games._board import DRAW, ME, THEM

PITS = 6
STORE = {ME: PITS, THEM: 2 * PITS + 1}           # board index of each side's store
FIRST = {ME: 0, THEM: PITS + 1}                   # board index of each side's first pit


def sow(board: tuple[int, ...], p: int, pit: int) -> tuple[tuple[int, ...], int, int | None]:
    b = list(board)
    seeds, b[pit], pos, skip = b[pit], 0, pit, STORE[3 - p]
    while seeds:
        pos = (pos + 1) % (2 * PITS + 2)
        if pos != skip:
            b[pos] += 1
            seeds -= 1
    first, store = FIRST[p], STORE[p]
    if first <= pos < first + PITS and b[pos] == 1 and b[2 * PITS - pos]:   # capture: the last seed in an empty pit of yours
        b[store] += 1 + b[2 * PITS - pos]
        b[pos] = b[2 * PITS - pos] = 0
    nxt = p if pos == store else 3 - p
    mine, theirs = sum(b[0:PITS]), sum(b[PITS + 1:2 * PITS + 1])
    if not mine or not theirs:   # one side is empty: the rest goes to its owner's store
        b[STORE[ME]] += mine
        b[STORE[THEM]] += theirs
        b[0:PITS] = b[PITS + 1:2 * PITS + 1] = [0] * PITS
    total = sum(b)
    me, them = b[STORE[ME]], b[STORE[THEM]]
    if 2 * me > total:
        return tuple(b), nxt, ME
    if 2 * them > total:
        return tuple(b), nxt, THEM
    if not mine or not theirs:
        return tuple(b), nxt, DRAW
    return tuple(b), nxt, None


# `sow`, cached: the opponent's searches of successive steps meet the same positions again (the start
# check meets mostly new ones, so it sows directly). 20,000 entries of about 500 bytes: 10 MB at most.
sown = functools.lru_cache(maxsize=20_000)(sow)
