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
    mine = empty = 0
    for i, st in enumerate(board):
        if not st:
            empty |= 1 << i
        elif st[-1] == ME:
            mine |= 1 << i
    if s[2][ME - 1] <= 1 or empty.bit_count() <= n:
        return True
    if road_squares(n, mine) & empty:
        return True
    rays = ray_table(n)
    for sq, st in enumerate(board):
        if not st or owner(st[-1]) != ME:
            continue
        base = mine | 1 << sq if ME in st[:-1] else mine
        for ray in rays[sq]:
            line = base
            for t in ray[:len(st)]:   # at most min(height, n) squares: a ray holds at most n - 1
                if board[t] and board[t][-1] > 2:
                    break
                line |= 1 << t
            if road_bits(n, line):
                return True
    return False


@functools.lru_cache(maxsize=1 << 17)   # pure, and at most 2^9 + 2^16 bitboards on the 3x3 and 4x4 boards
def road_squares(n: int, mine: int) -> int:
    """The bitboard of the squares that, added to ``mine``, make a road."""
    return sum(1 << e for e in range(n * n) if road_bits(n, mine | 1 << e))


@functools.cache
def drop_tops(n: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Per drop sequence of `drops`: the stones carried and, per square passed, the index in the carried stones of
    the one left on top there (the last of those dropped on it)."""
    return tuple((sum(seq), tuple(sum(seq[:j + 1]) - 1 for j in range(len(seq)))) for seq in drops(n))


def wins_at_once(s, n: int, moves) -> bool:
    """Whether one of ``moves`` (the legal moves of ME, to move in ``s``) ends the game in ME's favour. `Tak.play`
    and `verdict` written out on bitboards of the flat tops (the same rules, kept apart for the level search's
    speed: only the tops a move changes are looked at, and no state is built)."""
    board, reserve = s[0], s[2]
    me = them = empty = 0
    for i, st in enumerate(board):
        if not st:
            empty |= 1 << i
        elif st[-1] == ME:
            me |= 1 << i
        elif st[-1] == THEM:
            them |= 1 << i
    places, rays, tops = 2 * n * n, ray_table(n), drop_tops(n)
    per_square = 4 * len(tops)

    def ends_mine(mine: int, theirs: int, full: bool, stones: int) -> bool:   # verdict(...) == ME, ME moving
        if mine.bit_count() >= n and road_bits(n, mine):
            return True
        if theirs.bit_count() >= n and road_bits(n, theirs):
            return False
        return (full or stones == 0 or reserve[THEM - 1] == 0) and mine.bit_count() > theirs.bit_count()

    for a in moves:
        if a < places:
            bit = 1 << (a // 2)
            if ends_mine(me if a % 2 else me | bit, them, empty == bit, reserve[ME - 1] - 1):
                return True
            continue
        sq, j = divmod(a - places, per_square)
        d, j = divmod(j, len(tops))
        stack, (k, on_top) = board[sq], tops[j]
        bit = 1 << sq
        mine, theirs, left = me & ~bit, them & ~bit, len(stack) - k
        if left:
            mine |= bit if stack[left - 1] == ME else 0
            theirs |= bit if stack[left - 1] == THEM else 0
        gaps = empty if left else empty | bit
        for t, top in zip(rays[sq][d], on_top):
            bit = 1 << t
            piece = stack[left + top]
            mine = mine | bit if piece == ME else mine & ~bit
            theirs = theirs | bit if piece == THEM else theirs & ~bit
            gaps &= ~bit
        if ends_mine(mine, theirs, not gaps, reserve[ME - 1]):
            return True
    return False
