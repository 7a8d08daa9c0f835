"""Gin Rummy for two players: melds, the exact deadwood split, lay-offs, scoring, and the hand engine.

A card is an int 0..51, ``suit * 13 + rank`` (rank 0 = ace .. 12 = king, ace low; suits clubs,
diamonds, hearts, spades). A meld is a set (3 or 4 cards of one rank) or a run (3 or more cards
of one suit in consecutive ranks; A-2-3 is a run, Q-K-A is not). Deadwood is the value of the
cards outside melds: ace 1, 2-10 face value, J/Q/K 10. `best_melds` finds the split of a hand
into disjoint melds with the least deadwood exactly (a memoised search over the melds that hold
the lowest remaining card). Hand sets are 52-bit masks.

The engine (`deal`, `legal`, `play`) is pure: a `GinState` is immutable and holds the shuffled
decks of every hand of the episode, so a whole episode is a function of the decks and the actions.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import NamedTuple

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
HAND_SIZE, KNOCK_LIMIT, GIN_BONUS, UNDERCUT_BONUS = 10, 10, 25, 25
STOCK_FLOOR = 2          # a hand is a draw when a discard leaves this many cards in the stock
MAX_DRAWS = 80           # ... or after this many draws in one hand (both players together)

DRAW_STOCK, DRAW_DISCARD, DISCARD0 = 0, 1, 2
KNOCK, GIN = DISCARD0 + 52, DISCARD0 + 53
N_ACTIONS = GIN + 1


def rank(c: int) -> int:
    return c % 13


def suit(c: int) -> int:
    return c // 13


def value(c: int) -> int:
    """The card's deadwood points."""
    return min(c % 13 + 1, 10)


def card_name(c: int) -> str:
    return RANKS[c % 13] + SUITS[c // 13]


def mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def cards_of(m: int) -> tuple[int, ...]:
    return tuple(c for c in range(52) if m >> c & 1)


def _all_melds() -> tuple[int, ...]:
    out = []
    for r in range(13):
        ranks = [s * 13 + r for s in range(4)]
        out.append(mask(ranks))
        out += [mask(ranks[:i] + ranks[i + 1:]) for i in range(4)]
    for s in range(4):
        for lo in range(13):
            for hi in range(lo + 2, 13):
                out.append(mask(s * 13 + r for r in range(lo, hi + 1)))
    return tuple(out)


MELDS = _all_melds()
MELDS_WITH = tuple(tuple(m for m in MELDS if m >> c & 1) for c in range(52))   # the melds that hold each card
VALUES = tuple(value(c) for c in range(52))


@functools.lru_cache(maxsize=1 << 17)
def _best(m: int) -> tuple[int, tuple[int, ...]]:
    if not m:
        return 0, ()
    c = (m & -m).bit_length() - 1        # the lowest card: deadwood, or in one of its melds
    dw, melds = _best(m & ~(1 << c))
    best = (dw + VALUES[c], melds)
    for meld in MELDS_WITH[c]:
        if meld & m == meld:
            dw, melds = _best(m & ~meld)
            if dw < best[0]:
                best = (dw, (meld, *melds))
    return best


def best_melds(cards: Iterable[int] | int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """``(least deadwood, melds)`` of a hand (cards or a mask); each meld is a sorted tuple of cards."""
    dw, melds = _best(cards if isinstance(cards, int) else mask(cards))
    return dw, tuple(cards_of(x) for x in melds)


def deadwood(cards: Iterable[int] | int) -> int:
    return _best(cards if isinstance(cards, int) else mask(cards))[0]


def best_discard(hand: Sequence[int], forbidden: int = -1) -> tuple[int, int]:
    """``(deadwood, card)`` of the discard from an 11-card hand that leaves the least deadwood
    (ties: the higher-valued card, then the higher card); ``forbidden`` may not be discarded."""
    return _best_discard(mask(hand), forbidden)


def _best_discard(m: int, forbidden: int) -> tuple[int, int]:
    best = None
    for c in cards_of(m):
        if c == forbidden:
            continue
        key = (_best(m & ~(1 << c))[0], -VALUES[c], -c)
        if best is None or key < best:
            best = key
    return best[0], -best[2]


def layoff_deadwood(defender: Iterable[int], knocker_melds: Sequence[Sequence[int]]) -> tuple[int, tuple[int, ...]]:
    """``(deadwood, cards laid off)``: the defender's least deadwood when it may lay cards off on the
    knocker's melds (the 4th card of a set, cards extending a run at either end, chained), exactly:
    every choice of lay-offs is tried with the best split of the cards left."""
    d = mask(defender)
    choices: list[list[int]] = []    # per option: the masks that may be laid off there (prefixes of a chain)
    for meld in knocker_melds:
        if len({rank(c) for c in meld}) == 1:
            if len(meld) == 3:
                fourth = next(s * 13 + rank(meld[0]) for s in range(4) if s * 13 + rank(meld[0]) not in meld)
                if d >> fourth & 1:
                    choices.append([0, 1 << fourth])
            continue
        s, lo, hi = suit(meld[0]), min(rank(c) for c in meld), max(rank(c) for c in meld)
        for step, start in ((-1, lo - 1), (1, hi + 1)):
            prefixes, acc, r = [0], 0, start
            while 0 <= r < 13 and d >> (s * 13 + r) & 1:
                acc |= 1 << (s * 13 + r)
                prefixes.append(acc)
                r += step
            if len(prefixes) > 1:
                choices.append(prefixes)
    best = (_best(d)[0], 0)
    laid = {0}
    for opts in choices:
        laid = {a | b for a in laid for b in opts}
    for lay in laid:
        dw = _best(d & ~lay)[0]
        if dw < best[0]:
            best = (dw, lay)
    return best[0], cards_of(best[1])


def score_knock(knocker: Sequence[int], defender: Sequence[int], gin: bool) -> tuple[int, int, int, str]:
    """``(points to the knocker (negative: to the defender), knocker's deadwood, defender's deadwood,
    kind)`` for a knock or gin with the knocker's 10 cards; kind is "gin", "knock" or "undercut"."""
    dk, melds = best_melds(knocker)
    if gin:
        dd = deadwood(defender)
        return GIN_BONUS + dd, dk, dd, "gin"
    dd, _ = layoff_deadwood(defender, melds)
    if dk < dd:
        return dd - dk, dk, dd, "knock"
    return -(UNDERCUT_BONUS + dk - dd), dk, dd, "undercut"


# ----------------------------------------------------------------- the hand engine
class GinState(NamedTuple):
    decks: tuple[tuple[int, ...], ...]   # one shuffled deck per hand of the episode
    hand_no: int
    hands: tuple[tuple[int, ...], tuple[int, ...]]   # sorted cards of seat 0 and seat 1
    stock: tuple[int, ...]               # the next card drawn is stock[0]
    discard: tuple[int, ...]             # the pile; its top is the last card
    mover: int
    phase: str                           # "draw" or "discard" (the mover holds 11 cards) or "over"
    taken: int                           # the card taken from the discard pile this turn, else -1
    drawn: int                           # the card drawn this turn (from either pile), else -1
    draws: int                           # draws so far in this hand
    chips: tuple[int, int]
    picked: tuple[tuple[int, ...], tuple[int, ...]]   # the cards each seat took from the pile this hand
    history: tuple[str, ...]             # what happened this hand, for the pictures
    # the last finished hand: (kind, knocker, winner, points, knocker's deadwood, defender's deadwood,
    # both hands, both best melds); kind is "gin", "knock", "undercut" or "draw" (knocker/winner -1)
    last: tuple = ()


def deal(decks: tuple[tuple[int, ...], ...], hand_no: int, chips: tuple[int, int], last: tuple = ()) -> GinState:
    """The state after dealing hand ``hand_no``: seat 1 deals the even hands, seat 0 the odd ones, and
    the other seat (the non-dealer) moves first. Cards 0-9 of the deck go to the non-dealer, 10-19 to
    the dealer, card 20 turns up as the discard pile, the rest is the stock."""
    deck, first = decks[hand_no], hand_no % 2
    hands = [(), ()]
    hands[first], hands[1 - first] = tuple(sorted(deck[:10])), tuple(sorted(deck[10:20]))
    return GinState(decks, hand_no, (hands[0], hands[1]), tuple(deck[21:]), (deck[20],), first, "draw", -1, -1, 0,
                    chips, ((), ()), (), last)


def legal(s: GinState) -> list[int]:
    if s.phase == "draw":
        return [DRAW_STOCK, DRAW_DISCARD] if s.discard else [DRAW_STOCK]
    if s.phase != "discard":
        return []
    hand = s.hands[s.mover]
    out = [DISCARD0 + c for c in hand if c != s.taken]
    dw, _ = _best_discard(mask(hand), s.taken)
    if dw == 0:
        out.append(GIN)
    elif dw <= KNOCK_LIMIT:
        out.append(KNOCK)
    return out


def action_name(a: int) -> str:
    if a == DRAW_STOCK:
        return "draw stock"
    if a == DRAW_DISCARD:
        return "draw discard"
    if a == KNOCK:
        return "knock"
    if a == GIN:
        return "gin"
    return f"discard {card_name(a - DISCARD0)}"


def _with(hands: tuple, seat: int, cards: tuple[int, ...]) -> tuple:
    return (cards, hands[1]) if seat == 0 else (hands[0], cards)


def _end_hand(s: GinState, delta: tuple[int, int], result: tuple, melds: tuple = ((), ())) -> GinState:
    chips = (s.chips[0] + delta[0], s.chips[1] + delta[1])
    last = (*result, s.hands, melds)
    if s.hand_no + 1 >= len(s.decks):
        return s._replace(chips=chips, phase="over", last=last)
    return deal(s.decks, s.hand_no + 1, chips, last)


def play(s: GinState, a: int) -> GinState:
    """The state after the mover plays legal action ``a`` (the next hand is dealt when one ends)."""
    p, hand = s.mover, s.hands[s.mover]
    if a == DRAW_STOCK:
        c = s.stock[0]
        return s._replace(hands=_with(s.hands, p, tuple(sorted((*hand, c)))), stock=s.stock[1:], phase="discard",
                          taken=-1, drawn=c, draws=s.draws + 1, history=(*s.history, f"{p}:drew from the stock"))
    if a == DRAW_DISCARD:
        c = s.discard[-1]
        picked = _with(s.picked, p, (*s.picked[p], c))
        return s._replace(hands=_with(s.hands, p, tuple(sorted((*hand, c)))), discard=s.discard[:-1],
                          phase="discard", taken=c, drawn=c, draws=s.draws + 1, picked=picked,
                          history=(*s.history, f"{p}:took {card_name(c)}"))
    if a in (KNOCK, GIN):
        _, c = _best_discard(mask(hand), s.taken)
        mine = tuple(x for x in hand if x != c)
        s = s._replace(hands=_with(s.hands, p, mine), discard=(*s.discard, c))
        points, dk, dd, kind = score_knock(mine, s.hands[1 - p], a == GIN)
        winner = p if points > 0 else 1 - p
        delta = (abs(points), 0) if winner == 0 else (0, abs(points))
        melds = [(), ()]
        melds[p] = best_melds(mine)[1]
        melds[1 - p] = best_melds(s.hands[1 - p])[1]
        return _end_hand(s, delta, (kind, p, winner, abs(points), dk, dd), (melds[0], melds[1]))
    c = a - DISCARD0
    s = s._replace(hands=_with(s.hands, p, tuple(x for x in hand if x != c)), discard=(*s.discard, c),
                   phase="draw", taken=-1, drawn=-1, mover=1 - p, history=(*s.history, f"{p}:discarded {card_name(c)}"))
    if len(s.stock) <= STOCK_FLOOR or s.draws >= MAX_DRAWS:
        return _end_hand(s, (0, 0), ("draw", -1, -1, 0, 0, 0))
    return s


# ----------------------------------------------------------------- scripted players
def scripted_action(s: GinState, level: int, rng) -> int:
    """A scripted player of strength ``level`` for the seat to move, from what that seat sees (its cards,
    the discard pile, the cards the other seat took from it); randomness only from ``rng``.

    0: takes the up-card only when it completes a meld, discards a random unmatched card, goes gin when it
    can and knocks only once the stock is down to 10 cards. 1: takes the up-card when it lowers its
    deadwood, discards the card that leaves the least deadwood (the highest of equals), knocks as soon as
    it may. 2: as 1, but a card that fits one the other seat took from the pile (same rank, or same suit
    within two ranks) counts 6 points more against discarding it, and each card of its own hand that fits a
    card counts 2 more for keeping it.
    """
    p, d, hand = s.mover, level, s.hands[s.mover]
    moves = legal(s)
    if s.phase == "draw":
        if len(moves) == 1:
            return DRAW_STOCK
        up, now = s.discard[-1], deadwood(hand)
        with_up = best_discard((*hand, up), up)[0]
        if d == 0:
            in_meld = any(up in m for m in best_melds((*hand, up))[1])
            return DRAW_DISCARD if in_meld and with_up < now else DRAW_STOCK
        return DRAW_DISCARD if with_up < now else DRAW_STOCK
    if GIN in moves:
        return GIN
    if KNOCK in moves and (d > 0 or len(s.stock) <= 10):
        return KNOCK
    if d == 0:
        melded = {c for m in best_melds(hand)[1] for c in m}
        pool = [a for a in moves if a < KNOCK and a - DISCARD0 not in melded] or [a for a in moves if a < KNOCK]
        return pool[int(rng.integers(len(pool)))]
    m = mask(hand)
    danger = set(s.picked[1 - p]) if d == 2 else set()

    def fits(c: int, others) -> int:
        return sum(1 for x in others if x != c and (rank(x) == rank(c) or (suit(x) == suit(c) and abs(rank(x) - rank(c)) <= 2)))

    def key(c: int) -> tuple:
        keep = 2 * fits(c, hand) if d == 2 else 0   # level 2 also keeps cards with partners
        return deadwood(m & ~(1 << c)) + 6 * fits(c, danger) + keep, -value(c), -c
    return DISCARD0 + min((c for c in hand if c != s.taken), key=key)
