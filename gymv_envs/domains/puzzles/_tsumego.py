"""Tsumego search on the Go rules of `gymv_envs.rules.go` (GoCapture / GoSave): whether a group can be
captured within a few moves against every defence, the points that capture or save it, random
positions, and the board's eight symmetries."""

from __future__ import annotations

import numpy as np

from gymv_envs.rules.go import BLACK, Geo, each_group, group_libs, moves, play


def captures_within(s, t: int, k: int, g: Geo) -> bool:
    """Whether the player to move captures the group holding stone bit ``t`` within ``k`` of its own
    moves, whatever the other side replies (any legal move or a pass), by exhaustive search. A group
    with more than ``k`` liberties cannot be (each stone fills one liberty and the defender may pass)."""
    if not (s[0] | s[1]) & t:
        return True
    libs = group_libs(s, t, g)[1]
    L = libs.bit_count()
    if L > k:
        return False
    lib_points = [g.index[b] for b in _bits(libs)]
    tries = lib_points if L == k else lib_points + [a for a in moves(s, g) if a not in lib_points]
    return any(_wins(s, a, t, k, g) for a in tries)


def _wins(s, a: int, t: int, k: int, g: Geo) -> bool:
    """Whether the attacker's move ``a`` captures the group within ``k`` moves, this one included."""
    u = play(s, a, g)
    if u is None:
        return False
    if not (u[0] | u[1]) & t:
        return True
    if k == 1 or group_libs(u, t, g)[1].bit_count() > k - 1:
        return False
    libs = group_libs(u, t, g)[1]
    first = [g.n * g.n] + [g.index[b] for b in _bits(libs)]  # a pass and the liberties: the likely saves
    replies = first + [w for w in moves(u, g) if w not in first]
    return all((v := play(u, w, g)) is None or captures_within(v, t, k - 1, g) for w in replies)


def _bits(x: int):
    while x:
        low = x & -x
        yield low
        x ^= low


def answers(s, t: int, k: int, goal: str, g: Geo) -> frozenset[int]:
    """Every point that works: it captures the group within ``k`` moves (``capture``, the attacker to
    move), or after it the other side cannot capture the group within ``k`` moves (``save``)."""
    if goal == "capture":
        return frozenset(a for a in moves(s, g) if _wins(s, a, t, k, g))
    return frozenset(a for a in moves(s, g) if (u := play(s, a, g)) is not None and not captures_within(u, t, k, g))


def random_position(rng: np.random.Generator, g: Geo) -> tuple[int, int]:
    """Random black and white stones (about a third of the points each), groups without liberties removed."""
    draw = rng.random(g.n * g.n)
    black = sum(b for b, x in zip(g.bits, draw) if x < 0.34)
    white = sum(b for b, x in zip(g.bits, draw) if 0.34 <= x < 0.68)
    for stones in (black, white):
        for _, grp in each_group(stones, stones, g):
            if not group_libs((black, white, BLACK, 0, 0, 0), grp & -grp, g)[1]:
                black, white = black & ~grp, white & ~grp
    return black, white


def transform(x: int, g: Geo, sym: int) -> int:
    """A bitboard under one of the eight symmetries of the square board."""
    out = 0
    for i, b in enumerate(g.bits):
        if x & b:
            out |= g.bits[point_under(i, g.n, sym)]
    return out


def point_under(i: int, n: int, sym: int) -> int:
    r, c = divmod(i, n)
    if sym & 1:
        c = n - 1 - c
    if sym & 2:
        r = n - 1 - r
    if sym & 4:
        r, c = c, r
    return r * n + c
