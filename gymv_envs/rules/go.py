"""Go rules on bitboards, the built-in opponents and the oracle's search (the Go game uses them;
tsumego tasks are to build on the same rules).

A position is a tuple ``(black, white, mover, ko, passes, moves)``: two Python-int bitboards,
the player to move (1 black, 2 white), the bit of the point a simple-ko rule forbids (0 when
none), consecutive passes so far and moves (passes included) played since the start. Point
``i = r * n + c`` (row ``r`` from the top) is bit ``r * (n + 1) + c``: the spare column stops
shifts from wrapping around, so a group's neighbours are a handful of shifts and masks.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from gymv_envs.core.rng import choice

BLACK, WHITE = 1, 2
KOMI = 7.5
REACH = 4          # the search opponent: empty points within this many steps go to the nearer colour
READ_DEPTH = 10    # plies of ladder / capture reading in the oracle's evaluation
READ_ZONE = 4      # a reading verdict is reused in positions with the same stones this close to the group
AREA_WEIGHT = 0.5  # the oracle's evaluation: this much exact area count, the rest influence

Pos = tuple[int, int, int, int, int, int]


class Geo(NamedTuple):
    """Bitboard geometry of an n x n board."""

    n: int
    w: int
    mask: int
    bits: tuple[int, ...]              # point -> bit
    nbl: tuple[tuple[int, ...], ...]   # point -> its neighbours' bits
    nbm: tuple[int, ...]               # point -> its neighbours as one mask
    diag: tuple[int, ...]              # point -> its diagonal neighbours
    edge: tuple[bool, ...]
    index: dict[int, int]              # bit -> point
    kernel: np.ndarray                 # influence 2 ** -distance between points
    order: np.ndarray                  # bit positions of the points, for unpacking a bitboard


@functools.cache
def geometry(n: int) -> Geo:
    w, pts = n + 1, [(r, c) for r in range(n) for c in range(n)]
    bits = tuple(1 << (r * w + c) for r, c in pts)

    def near(r: int, c: int, steps) -> tuple[int, ...]:
        return tuple(bits[(r + dr) * n + c + dc] for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n)

    nbl = tuple(near(r, c, ((-1, 0), (1, 0), (0, -1), (0, 1))) for r, c in pts)
    diag = tuple(sum(near(r, c, ((-1, -1), (-1, 1), (1, -1), (1, 1)))) for r, c in pts)
    dist = np.array([[abs(a - c) + abs(b - d) for c, d in pts] for a, b in pts], dtype=np.float64)
    return Geo(n, w, sum(bits), bits, nbl, tuple(map(sum, nbl)), diag,
               tuple(r in (0, n - 1) or c in (0, n - 1) for r, c in pts), {b: i for i, b in enumerate(bits)},
               2.0 ** -dist, np.array([b.bit_length() - 1 for b in bits]))


# ------------------------------------------------------------------ bit helpers
def dilate(x: int, g: Geo) -> int:
    return (x | x << 1 | x >> 1 | x << g.w | x >> g.w) & g.mask


def flood(seed: int, within: int, g: Geo) -> int:
    """The part of ``within`` connected to ``seed`` (a group of stones, a region of empty points)."""
    while True:
        grown = dilate(seed, g) & within
        if grown == seed:
            return seed
        seed = grown


def each_bit(x: int):
    while x:
        low = x & -x
        yield low
        x ^= low


def each_group(seeds: int, stones: int, g: Geo):
    """Each group of ``stones`` that holds a point of ``seeds``, once, as (its lowest seed point, group)."""
    while seeds:
        low = seeds & -seeds
        grp = flood(low, stones, g)
        seeds &= ~grp
        yield low, grp


def to_array(x: int, g: Geo) -> np.ndarray:
    """A bitboard as a 0/1 vector over the points."""
    raw = np.frombuffer(x.to_bytes(g.n * g.w // 8 + 1, "little"), np.uint8)
    return np.unpackbits(raw, bitorder="little")[g.order]


def group_libs(s: Pos, bit: int, g: Geo) -> tuple[int, int]:
    """The group holding stone ``bit`` and its liberties."""
    grp = flood(bit, s[0] if s[0] & bit else s[1], g)
    return grp, dilate(grp, g) & g.mask & ~(s[0] | s[1])


def atari_stones(stones: int, empty: int, g: Geo) -> int:
    """The stones of ``stones`` whose group has exactly one liberty."""
    out = 0
    for _, grp in each_group(stones, stones, g):
        libs = dilate(grp, g) & empty
        if not libs & (libs - 1):
            out |= grp
    return out


# ------------------------------------------------------------------ rules
def play(s: Pos, a: int, g: Geo) -> Pos | None:
    """The position after the player to move plays point ``a`` (``n * n`` is a pass), or None when illegal."""
    black, white, p, ko, passes, moves = s
    if a == g.n * g.n:
        return black, white, 3 - p, 0, passes + 1, moves + 1
    own, opp = (black, white) if p == BLACK else (white, black)
    bit = g.bits[a]
    if (own | opp) & bit or bit == ko:
        return None
    own |= bit
    empty = g.mask & ~(own | opp)
    captured = 0
    for nb in g.nbl[a]:
        if opp & nb and not captured & nb:
            grp = flood(nb, opp, g)
            if not dilate(grp, g) & empty:
                captured |= grp
    opp &= ~captured
    empty |= captured
    mine = flood(bit, own, g)
    libs = dilate(mine, g) & empty
    if not libs:
        return None   # suicide
    single = captured and not captured & (captured - 1)
    ko = captured if single and mine == bit and not libs & (libs - 1) else 0
    return (own, opp, 2, ko, 0, moves + 1) if p == BLACK else (opp, own, 1, ko, 0, moves + 1)


def why_illegal(s: Pos, a: int, g: Geo) -> str:
    if (s[0] | s[1]) & g.bits[a]:
        return "is occupied"
    if g.bits[a] == s[3]:
        return "retakes the ko at once (simple ko: play elsewhere first)"
    return "would be suicide (no liberty and no capture)"


def is_eye(s: Pos, a: int, g: Geo) -> bool:
    """Whether empty point ``a`` is an eye of the player to move: own neighbours only, and not a false eye."""
    own, opp = (s[0], s[1]) if s[2] == BLACK else (s[1], s[0])
    return not g.nbm[a] & ~own and (opp & g.diag[a]).bit_count() < (1 if g.edge[a] else 2)


def moves(s: Pos, g: Geo, eyes: bool = True) -> list[int]:
    """Legal points of the player to move (leaving out its own eyes unless ``eyes``); the pass is not listed."""
    empty = g.mask & ~(s[0] | s[1])
    out = []
    for a, bit in enumerate(g.bits):
        if empty & bit and (eyes or not is_eye(s, a, g)):
            if (g.nbm[a] & empty and bit != s[3]) or play(s, a, g) is not None:
                out.append(a)
    return out


def area(black: int, white: int, g: Geo) -> tuple[int, int]:
    """Area (Chinese, Tromp-Taylor) score: stones plus the empty points that reach only that colour."""
    empty = g.mask & ~(black | white)
    rb = flood(dilate(black, g) & empty, empty, g)
    rw = flood(dilate(white, g) & empty, empty, g)
    return black.bit_count() + (rb & ~rw).bit_count(), white.bit_count() + (rw & ~rb).bit_count()


def margin(s: Pos, g: Geo) -> float:
    """Black's area minus white's area minus komi: positive means black wins."""
    b, w = area(s[0], s[1], g)
    return b - w - KOMI


def over(s: Pos, cap: int) -> bool:
    """Whether the game is over: two passes in a row, or ``cap`` moves played in all."""
    return s[4] >= 2 or s[5] >= cap


def final_value(s: Pos, g: Geo) -> float:
    f = margin(s, g)
    return f + (100.0 if f > 0 else -100.0)


# ------------------------------------------------------------------ evaluations
def estimate(s: Pos, g: Geo) -> float:
    """The search opponent's view of black's margin: groups in atari of the player not to move are
    captured, then each empty point within REACH steps goes to the colour whose stones are strictly nearer."""
    black, white = s[0], s[1]
    empty = g.mask & ~(black | white)
    if s[2] == BLACK:
        white &= ~atari_stones(white, empty, g)
    else:
        black &= ~atari_stones(black, empty, g)
    free = g.mask & ~(black | white)
    for _ in range(REACH):
        nb, nw = dilate(black, g) & free, dilate(white, g) & free
        both = nb & nw
        free &= ~(nb | nw)
        black |= nb & ~both
        white |= nw & ~both
        if not free:
            break
    return black.bit_count() - white.bit_count() - KOMI


def _attack(s: Pos, t: int, depth: int, g: Geo, memo: dict) -> bool:
    """Whether the player to move captures the group at bit ``t`` (ladders and nets, by reading)."""
    if not (s[0] | s[1]) & t:
        return True
    key = (0, s, t, depth)
    if key not in memo:
        libs = group_libs(s, t, g)[1]
        k = libs.bit_count()
        memo[key] = k == 1 or (k == 2 and depth > 0 and any(
            (u := play(s, g.index[lib], g)) is not None and not _defend(u, t, depth - 1, g, memo) for lib in each_bit(libs)))
    return memo[key]


def _defend(s: Pos, t: int, depth: int, g: Geo, memo: dict) -> bool:
    """Whether the player to move saves its group at bit ``t`` (extending, or capturing an attacker in atari)."""
    if not (s[0] | s[1]) & t:
        return False
    key = (1, s, t, depth)
    if key in memo:
        return memo[key]
    grp, libs = group_libs(s, t, g)
    ok = libs.bit_count() >= 2
    if not ok:
        opp = s[1] if s[2] == BLACK else s[0]
        empty = g.mask & ~(s[0] | s[1])
        tries = libs
        for _, other in each_group(dilate(grp, g) & opp, opp, g):
            lib = dilate(other, g) & empty
            if not lib & (lib - 1):
                tries |= lib
        for m in each_bit(tries):
            u = play(s, g.index[m], g)
            if u is None:
                continue
            k = group_libs(u, t, g)[1].bit_count()
            if k >= 3 or (k == 2 and (depth <= 0 or not _attack(u, t, depth - 1, g, memo))):
                ok = True
                break
    memo[key] = ok
    return ok


def settle(s: Pos, g: Geo, memo: dict) -> tuple[int, int]:
    """Black and white stones left after removing groups that reading says are lost: in atari and not
    saved by their owner to move, or with two liberties and captured by the player to move. ``memo``
    is shared by the positions one evaluation compares; a verdict is reused where the stones within
    READ_ZONE points of the group are the same (a far-away ladder breaker can be missed)."""
    black, white, p = s[0], s[1], s[2]
    empty = g.mask & ~(black | white)
    dead = 0
    for stones, moving in ((black, p == BLACK), (white, p == WHITE)):
        for low, grp in each_group(stones, stones, g):
            k = (dilate(grp, g) & empty).bit_count()
            if k > 2 or (k == 2 and moving):
                continue
            zone = grp
            for _ in range(READ_ZONE):
                zone = dilate(zone, g)
            key = (grp, black & zone, white & zone, p)   # the same stones nearby: the same verdict
            if key not in memo:
                memo[key] = not _defend(s, low, READ_DEPTH, g, memo) if moving else \
                    k == 1 or _attack(s, low, READ_DEPTH, g, memo)
            if memo[key]:
                dead |= grp
    return black & ~dead, white & ~dead


def evaluate(positions: list[Pos], g: Geo, cap: int) -> np.ndarray:
    """The oracle's view of black's margin in each position: lost groups removed (reading), then half the
    exact area count and half an influence count (stones, plus each empty point's share of the summed
    2 ** -distance influence, clipped to [-1, 1]); exact, with 100 for the winner, once the game is over."""
    memo: dict = {}
    settled = [settle(s, g, memo) for s in positions]
    b = np.array([to_array(x, g) for x, _ in settled], dtype=np.float64)
    w = np.array([to_array(y, g) for _, y in settled], dtype=np.float64)
    field = np.clip(2.0 * ((b - w) @ g.kernel), -1.0, 1.0) * (1.0 - b - w)
    influence = b.sum(1) - w.sum(1) + field.sum(1)
    exact = np.array([np.subtract(*area(x, y, g)) for x, y in settled], dtype=np.float64)
    out = AREA_WEIGHT * exact + (1.0 - AREA_WEIGHT) * influence - KOMI
    for i, s in enumerate(positions):
        if over(s, cap):
            out[i] = final_value(s, g)
    return out


# ------------------------------------------------------------------ players
def random_move(s: Pos, g: Geo, rng: np.random.Generator, cap: int) -> int:
    """A random legal point that is not one of the mover's own eyes; pass when there is none."""
    legal = moves(s, g, eyes=False)
    return choice(rng, legal) if legal else g.n * g.n


def _takes_the_win(s: Pos, g: Geo) -> bool:
    """The other player just passed and the mover wins if it passes too."""
    return s[4] == 1 and (margin(s, g) > 0) == (s[2] == BLACK)


def greedy_move(s: Pos, g: Geo, rng: np.random.Generator, cap: int) -> int:
    """Capture the most stones; else save a group in atari; else atari the biggest group; else a random
    point that is neither self-atari nor an own eye; pass when none is left."""
    if _takes_the_win(s, g):
        return g.n * g.n
    legal = moves(s, g, eyes=False)
    p = s[2]
    mine, theirs = s[p - 1], s[2 - p]
    empty = g.mask & ~(s[0] | s[1])
    in_atari, theirs_atari = atari_stones(mine, empty, g), atari_stones(theirs, empty, g)
    best, best_key = g.n * g.n, (0, 0)
    for i in rng.permutation(len(legal)):
        a = legal[int(i)]
        t = play(s, a, g)
        t_mine, t_theirs, t_empty = t[p - 1], t[2 - p], g.mask & ~(t[0] | t[1])
        group = flood(g.bits[a], t_mine, g)
        safe = (dilate(group, g) & t_empty).bit_count() >= 2
        taken = (theirs & ~t_theirs).bit_count()
        saved = (in_atari & group).bit_count() if safe else 0
        atari = (atari_stones(t_theirs, t_empty, g) & ~theirs_atari).bit_count() if safe else 0
        key = (3, taken) if taken else (2, saved) if saved else (1, atari) if atari else (0, int(safe))
        if key > best_key:
            best, best_key = a, key
    return best


def search_move(s: Pos, g: Geo, rng: np.random.Generator, cap: int) -> int:
    """The move that most improves the mover's `estimate` (one ply, ties broken at random); pass when none beats passing."""
    if _takes_the_win(s, g):
        return g.n * g.n
    sign = 1.0 if s[2] == BLACK else -1.0

    def score(t: Pos) -> float:
        return sign * (final_value(t, g) if over(t, cap) else estimate(t, g))

    best = g.n * g.n
    best_v = score(play(s, best, g))
    legal = moves(s, g, eyes=False)
    for i in rng.permutation(len(legal)):
        v = score(play(s, legal[int(i)], g))
        if v > best_v:
            best, best_v = legal[int(i)], v
    return best


OPPONENTS = {"random": random_move, "greedy": greedy_move, "search": search_move}


def oracle_move(s: Pos, g: Geo, cap: int, reply=None, width: int = 8) -> int:
    """Black's move: pass to end a won game after the opponent passes; else the point (or pass) that
    `evaluate` rates best, passing only when every point rates below passing.

    With ``reply`` (a function from the position after black's move to the opponent's answer), the
    ``width`` best-rated moves and passing are rated again on the position after that answer: a
    two-ply look-ahead against the very opponent being played."""
    pas = g.n * g.n
    if _takes_the_win(s, g):
        return pas
    legal = moves(s, g, eyes=False)
    if not legal:
        return pas
    after = [play(s, a, g) for a in legal] + [play(s, pas, g)]
    values = evaluate(after, g, cap)
    if reply is None:
        i = int(np.argmax(values[:-1]))
        return legal[i] if values[i] >= values[-1] else pas
    top = [int(i) for i in np.argsort(-values[:-1], kind="stable")[:width]] + [len(legal)]
    answered = []
    for i in top:
        t = after[i]
        answered.append(t if over(t, cap) else play(t, reply(t), g))
    again = evaluate(answered, g, cap)
    j = int(np.argmax(again[:-1]))
    return legal[top[j]] if again[j] >= again[-1] else pas
