"""Othello's rules on a flat tuple board: the rays from each square, the discs a move turns over, the legal moves."""

from __future__ import annotations

import functools


@functools.cache
def rays(n: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each square, the squares in each of the 8 directions, nearest first."""
    out = []
    for i in range(n * n):
        r, c = divmod(i, n)
        dirs = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if dr or dc:
                    ray, rr, cc = [], r + dr, c + dc
                    while 0 <= rr < n and 0 <= cc < n:
                        ray.append(rr * n + cc)
                        rr, cc = rr + dr, cc + dc
                    if len(ray) >= 2:
                        dirs.append(tuple(ray))
        out.append(tuple(dirs))
    return tuple(out)


def flips(board: tuple[int, ...], i: int, p: int, n: int) -> list[int]:
    """The discs that ``p`` playing on the empty square ``i`` turns over."""
    out, q = [], 3 - p
    for ray in rays(n)[i]:
        if board[ray[0]] != q:
            continue
        for k, j in enumerate(ray):
            v = board[j]
            if v != q:
                if v == p:
                    out.extend(ray[:k])
                break
    return out


def _can_flip(board: tuple[int, ...], i: int, p: int, q: int, all_rays) -> bool:
    for ray in all_rays[i]:
        if board[ray[0]] == q:
            for j in ray[1:]:
                v = board[j]
                if v != q:
                    if v == p:
                        return True
                    break
    return False


def moves_of(board: tuple[int, ...], p: int, n: int) -> list[int]:
    all_rays, q = rays(n), 3 - p
    return [i for i in range(n * n) if board[i] == 0 and _can_flip(board, i, p, q, all_rays)]
