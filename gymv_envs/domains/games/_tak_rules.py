"""Tak's pure rules helpers: piece owners, the drop sequences of stack moves, bitboard roads, square names."""

from __future__ import annotations

import functools

from gymv_envs.domains.games._board import ME, THEM


def owner(piece: int) -> int:
    return ME if piece % 2 else THEM


@functools.cache
def drops(n: int) -> tuple[tuple[int, ...], ...]:
    """Every drop sequence of a stack move on an ``n`` board: 1..n stones carried, at least one left per square."""
    out: list[tuple[int, ...]] = []

    def grow(seq: tuple[int, ...], left: int) -> None:
        if seq:
            out.append(seq)
        for k in range(1, left + 1):
            grow((*seq, k), left - k)

    grow((), n)
    return tuple(sorted(out, key=lambda s: (sum(s), len(s), s)))


@functools.cache
def fitting(n: int, height: int, reach: int) -> tuple[int, ...]:
    """The indices in `drops` of the sequences that carry at most ``height`` stones over at most ``reach`` squares."""
    return tuple(j for j, seq in enumerate(drops(n)) if sum(seq) <= height and len(seq) <= reach)


@functools.cache
def masks(n: int) -> tuple[int, int, int, int, int]:
    """Bitboards of an ``n`` board (bit ``row * n + column``): all squares, top row, bottom row, left and right columns."""
    row, col = (1 << n) - 1, sum(1 << (r * n) for r in range(n))
    return (1 << n * n) - 1, row, row << n * (n - 1), col, col << (n - 1)


def square(sq: int, n: int) -> str:
    return f"{'abcdefgh'[sq % n]}{n - sq // n}"


def road_bits(n: int, mine: int) -> bool:
    """Whether the squares of bitboard ``mine`` (bit ``row * n + column``) join opposite edges (a flood fill)."""
    full, top, bottom, left, right = masks(n)
    for start, goal in ((top, bottom), (left, right)):
        reach = mine & start
        while reach:
            if reach & goal:
                return True
            grown = (reach | (reach << n) | (reach >> n) | ((reach << 1) & ~left) | ((reach >> 1) & ~right)) & mine & full
            if grown == reach:
                break
            reach = grown
    return False
