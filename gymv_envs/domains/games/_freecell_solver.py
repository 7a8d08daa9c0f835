"""FreeCell rules and a best-first solver whose plans are single-card moves (used by `freecell.py`).

A card is ``rank * 4 + suit`` (rank 1-13, suit 0-3 = spades, hearts, diamonds, clubs; hearts and
diamonds are red); 0 is no card. A position is ``(cascades, cells, found)``: a tuple of 8
tuples (each cascade bottom to top, the last card is the one you can move), a tuple of 4 free
cells and a tuple of 4 foundation heights, one per suit. Places are numbered 0-7 (cascades),
8-11 (free cells) and 12 (the foundations).
"""

from __future__ import annotations

import heapq
from itertools import count

CASCADES, CELLS = 8, 4
FOUNDATION = CASCADES + CELLS
W_LEFT, W_DISORDER = 2, 2   # weights of the search's cost estimate

State = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]


def rank(card: int) -> int:
    return card >> 2


def suit(card: int) -> int:
    return card & 3


def red(card: int) -> bool:
    return (card & 3) in (1, 2)


def stacks(below: int, card: int) -> bool:
    """Whether ``card`` may go on ``below`` in a cascade: one rank lower and the other colour."""
    return rank(below) == rank(card) + 1 and red(below) != red(card)


ON = tuple(tuple(bool(b and c) and stacks(b, c) for c in range(56)) for b in range(56))   # ON[below][card]


def card_at(s: State, src: int) -> int:
    """The movable card of a place (0 when it is empty or the foundations)."""
    if src < CASCADES:
        col = s[0][src]
        return col[-1] if col else 0
    return s[1][src - CASCADES] if src < FOUNDATION else 0


def check(s: State, src: int, dst: int) -> str:
    """Why moving the top card of ``src`` to ``dst`` is illegal, or "" when it is legal."""
    card = card_at(s, src)
    if not card:
        return "there is no card to move there"
    if dst == FOUNDATION:
        if s[2][suit(card)] != rank(card) - 1:
            return "that card is not the next one for its foundation"
    elif dst >= CASCADES:
        if s[1][dst - CASCADES]:
            return "that free cell is taken"
    else:
        col = s[0][dst]
        if col and not stacks(col[-1], card):
            return "a card goes on a card one rank higher of the other colour (or on an empty cascade)"
    return ""


def move(s: State, src: int, dst: int) -> State:
    """The position after a legal move."""
    cascades, cells, found = list(s[0]), list(s[1]), list(s[2])
    if src < CASCADES:
        card = cascades[src][-1]
        cascades[src] = cascades[src][:-1]
    else:
        card = cells[src - CASCADES]
        cells[src - CASCADES] = 0
    if dst == FOUNDATION:
        found[suit(card)] += 1
    elif dst >= CASCADES:
        cells[dst - CASCADES] = card
    else:
        cascades[dst] = (*cascades[dst], card)
    return tuple(cascades), tuple(cells), tuple(found)


def legal_moves(s: State) -> list[tuple[int, int]]:
    """Every legal (source, destination) pair, free cell to free cell left out."""
    out = []
    for src in range(FOUNDATION):
        if card_at(s, src):
            for dst in range(FOUNDATION + 1):
                if dst != src and not (src >= CASCADES and CASCADES <= dst < FOUNDATION) and not check(s, src, dst):
                    out.append((src, dst))
    return out


def can_move(s: State) -> bool:
    """Whether any card can move (free cell to free cell aside)."""
    cascades, cells, found = s
    tops = [col[-1] for col in cascades if col]
    if not tops and not any(cells):
        return False
    if len(tops) < CASCADES or not all(cells):
        return True   # an empty cascade, or an empty free cell and a cascade card
    return any(found[c & 3] == (c >> 2) - 1 or any(ON[t][c] for t in tops) for c in (*tops, *cells) if c)


def safe_home(s: State, card: int) -> bool:
    """Whether ``card`` can go to its foundation now with no loss: no card still in play could need it as a base."""
    r, f = rank(card), s[2]
    if f[suit(card)] != r - 1:
        return False
    other = (0, 3) if red(card) else (1, 2)
    return r <= 2 or all(f[o] >= r - 1 for o in other)


def autoplay(s: State) -> tuple[State, list[tuple[int, int]]]:
    """Move safe cards to the foundations until none is left; returns the position and those moves."""
    done: list[tuple[int, int]] = []
    again = True
    while again:
        again = False
        for src in range(FOUNDATION):
            card = card_at(s, src)
            if card and safe_home(s, card):
                s = move(s, src, FOUNDATION)
                done.append((src, FOUNDATION))
                again = True
    return s, done


def _candidates(s: State) -> list[tuple[tuple[int, int], ...]]:
    """Moves worth searching, each a short sequence of single-card moves: a card to its foundation or to the
    first empty free cell; a run of cards onto another cascade or into the first empty cascade (a run of
    k cards goes through k - 1 empty free cells). Symmetric choices (which empty cell or cascade) are tried once."""
    out: list[tuple[tuple[int, int], ...]] = []
    cascades, cells, found = s
    empty_col = -1
    tops: dict[int, int] = {}
    for j, col in enumerate(cascades):
        if col:
            tops[col[-1]] = j
        elif empty_col < 0:
            empty_col = j
    spare = [CASCADES + k for k, c in enumerate(cells) if not c]
    for k, card in enumerate(cells):
        if card:
            src = CASCADES + k
            if found[card & 3] == (card >> 2) - 1:
                out.append(((src, FOUNDATION),))
            out.extend(((src, j),) for top, j in tops.items() if ON[top][card])
            if empty_col >= 0:
                out.append(((src, empty_col),))
    for src, col in enumerate(cascades):
        if not col:
            continue
        card = col[-1]
        if found[card & 3] == (card >> 2) - 1:
            out.append(((src, FOUNDATION),))
        run, n = 1, len(col)
        while run < n and ON[col[-run - 1]][col[-run]]:
            run += 1
        run = min(run, len(spare) + 1)
        for i in range(1, run + 1):
            base = col[-i]
            for top, j in tops.items():
                if j != src and ON[top][base]:
                    via = spare[:i - 1]
                    out.append((*((src, c) for c in via), (src, j), *((c, j) for c in reversed(via))))
        if empty_col >= 0 and run < n:
            via = spare[:run - 1]
            out.append((*((src, c) for c in via), (src, empty_col), *((c, empty_col) for c in reversed(via))))
        if spare:
            out.append(((src, spare[0]),))
    return out


def _key(s: State) -> tuple:
    return tuple(sorted(s[0])), tuple(sorted(s[1])), s[2]


def _cost(s: State) -> int:
    """Estimated work left: cards not home, cards out of sequence, cards above the next card each foundation
    needs, less free cells and (twice) empty cascades."""
    cascades, cells, found = s
    left = disorder = above = room = 0
    for col in cascades:
        n = len(col)
        if not n:
            room += 2
            continue
        left += n
        prev = 0
        for i, card in enumerate(col):
            if prev and not ON[prev][card]:
                disorder += 1
            if found[card & 3] == (card >> 2) - 1:
                above += n - 1 - i
            prev = card
    for card in cells:
        if card:
            left += 1
        else:
            room += 1
    return W_LEFT * left + W_DISORDER * disorder + above - room


def solve(s: State, limit: int = 60_000) -> list[tuple[int, int]] | None:
    """A winning sequence of single-card moves from ``s`` (best-first search with safe moves to the
    foundations played at once), or None when none is found within ``limit`` expanded positions."""
    start, first = autoplay(s)
    tie = count()
    heap = [(_cost(start), next(tie), start)]
    came: dict[tuple, tuple] = {_key(start): (None, first)}
    while heap and limit > 0:
        _, _, cur = heapq.heappop(heap)
        limit -= 1
        ck = _key(cur)
        if not any(cur[0]) and not any(cur[1]):
            segments = []
            while ck is not None:
                ck, moves = came[ck]
                segments.append(moves)
            return [m for seg in reversed(segments) for m in seg]
        for steps in _candidates(cur):
            nxt = cur
            for src, dst in steps:
                nxt = move(nxt, src, dst)
            nxt, auto = autoplay(nxt)
            k = _key(nxt)
            if k not in came:
                came[k] = (ck, [*steps, *auto])
                heapq.heappush(heap, (_cost(nxt), next(tie), nxt))
    return None
