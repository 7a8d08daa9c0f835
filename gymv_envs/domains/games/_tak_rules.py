"""Tak's pure rules helpers: piece owners, stack moves and their drop sequences, bitboard roads, square names, game ends."""

from __future__ import annotations

import functools

from gymv_envs.domains.games._board import ME, THEM

DIRS = ((-1, 0, "+"), (1, 0, "-"), (0, 1, ">"), (0, -1, "<"))   # up, down, right, left as PTN writes them


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


@functools.lru_cache(maxsize=1 << 17)   # pure, and at most 2^9 + 2^16 bitboards on the 3x3 and 4x4 boards
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


@functools.cache
def ray_table(n: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per square of an ``n`` board and direction of `DIRS`: the squares along it, nearest first."""
    return tuple(tuple(tuple((r + dr * k) * n + c + dc * k for k in range(1, n) if 0 <= r + dr * k < n and 0 <= c + dc * k < n)
                       for dr, dc, _ in DIRS) for r, c in (divmod(sq, n) for sq in range(n * n)))


@functools.cache
def stack_moves(n: int) -> tuple[tuple[tuple[tuple[tuple[int, ...], ...], ...], ...], ...]:
    """Per square of an ``n`` board, stones carried at most (0..n), direction of `DIRS` and squares reached at most
    (0..n-1): the action indices of those stack moves, a table worked out once per board side."""
    first, seqs = 2 * n * n, len(drops(n))
    return tuple(tuple(tuple(tuple(tuple(first + (4 * sq + d) * seqs + j for j in fitting(n, height, reach)) for reach in range(n))
                             for d in range(len(DIRS))) for height in range(n + 1)) for sq in range(n * n))


def verdict(board, p: int, reserve, n: int) -> int | None:
    flats = [0, 0, 0]   # bitboards of ME's and THEM's flat tops (at 1 and 2)
    for i, st in enumerate(board):
        if st:
            top = st[-1]
            if top <= 2:
                flats[top] |= 1 << i
    for who in (p, 3 - p):
        if flats[who].bit_count() >= n and road_bits(n, flats[who]):   # a road holds a square of every row or column
            return who
    if all(board) or 0 in reserve:
        me, them = flats[ME].bit_count(), flats[THEM].bit_count()   # the flat tops of each
        return ME if me > them else THEM if them > me else 0
    return None


def could_end(s, n: int) -> bool:
    """Whether some black move might end the game: its reserve or the empty squares nearly gone, or a road on
    its flat tops plus the squares one move could change (one empty square, or one stack's line)."""
    board = s[0]
    empties = [i for i, st in enumerate(board) if not st]
    if s[2][ME - 1] <= 1 or len(empties) <= n:
        return True
    mine = 0
    for i, st in enumerate(board):
        if st and st[-1] == ME:
            mine |= 1 << i
    if any(road_bits(n, mine | 1 << e) for e in empties):
        return True
    for sq, st in enumerate(board):
        if not st or owner(st[-1]) != ME:
            continue
        r, c = divmod(sq, n)
        for dr, dc, _ in DIRS:
            line = mine | 1 << sq if ME in st[:-1] else mine
            for step in range(1, min(len(st), n) + 1):
                rr, cc = r + dr * step, c + dc * step
                if not (0 <= rr < n and 0 <= cc < n) or (board[rr * n + cc] and board[rr * n + cc][-1] > 2):
                    break
                line |= 1 << (rr * n + cc)
            if road_bits(n, line):
                return True
    return False
