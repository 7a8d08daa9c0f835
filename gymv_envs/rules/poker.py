"""Poker hand ranking: the best five-card hand of up to seven cards, as a comparable tuple.

A card is an int ``4 * rank + suit``: rank 0..12 for 2..A, suit 0..3 for clubs, diamonds,
hearts, spades. `evaluate(cards)` returns ``(category, *tiebreak)``: a larger tuple is a
better hand and equal tuples tie. Categories: 0 high card, 1 pair, 2 two pair, 3 three of a
kind, 4 straight, 5 flush, 6 full house, 7 four of a kind, 8 straight flush. With fewer than
five cards, straights and flushes cannot be made and the kickers are the cards there are
(so a partial board can be ranked the same way).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "cdhs"
CATEGORIES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
              "four of a kind", "straight flush")
_WHEEL = (12, 3, 2, 1, 0)


def rank_of(card: int) -> int:
    return card >> 2


def suit_of(card: int) -> int:
    return card & 3


def card(text: str) -> int:
    """``"Ah"`` -> the card int (``"10h"`` and ``"th"`` are accepted too)."""
    t = text.strip()
    r, s = t[:-1].upper().replace("10", "T"), t[-1].lower()
    return 4 * RANKS.index(r) + SUITS.index(s)


def card_text(c: int) -> str:
    """The card as ``"Ah"``, ``"Tc"``."""
    return RANKS[c >> 2] + SUITS[c & 3]


def _straight_high(ranks: set[int]) -> int:
    """The top rank of the highest straight in ``ranks`` (3 for the wheel A-2-3-4-5), else -1."""
    for top in range(12, 3, -1):
        if all(r in ranks for r in range(top - 4, top + 1)):
            return top
    return 3 if all(r in ranks for r in _WHEEL) else -1


def evaluate(cards: Iterable[int]) -> tuple[int, ...]:
    """The best five-card hand of ``cards`` (1 to 7 cards) as ``(category, *tiebreak)``."""
    cs = list(cards)
    counts = [0] * 13
    by_suit: list[list[int]] = [[], [], [], []]
    for c in cs:
        counts[c >> 2] += 1
        by_suit[c & 3].append(c >> 2)
    if len(cs) >= 5:
        for ranks in by_suit:
            if len(ranks) >= 5:
                sf = _straight_high(set(ranks))
                if sf >= 0:
                    return (8, sf)
                flush = sorted(ranks, reverse=True)[:5]
                break
        else:
            flush = None
    else:
        flush = None
    # ranks grouped by multiplicity, high first
    quads = [r for r in range(12, -1, -1) if counts[r] == 4]
    trips = [r for r in range(12, -1, -1) if counts[r] == 3]
    pairs = [r for r in range(12, -1, -1) if counts[r] == 2]
    singles = [r for r in range(12, -1, -1) if counts[r] == 1]
    if quads:
        q = quads[0]
        rest = max((r for r in range(13) if counts[r] and r != q), default=-1)
        return (7, q, rest) if rest >= 0 else (7, q)
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        p = max([*trips[1:], *pairs])
        return (6, t, p)
    if flush is not None:
        return (5, *flush)
    if len(cs) >= 5:
        st = _straight_high({r for r in range(13) if counts[r]})
        if st >= 0:
            return (4, st)
    if trips:
        return (3, trips[0], *sorted(singles, reverse=True)[:2])
    if len(pairs) >= 2:
        kick = max([*pairs[2:], *singles], default=-1)
        return (2, pairs[0], pairs[1], kick) if kick >= 0 else (2, pairs[0], pairs[1])
    if pairs:
        return (1, pairs[0], *singles[:3])
    return (0, *singles[:5])


def compare(a: Sequence[int], b: Sequence[int], board: Sequence[int]) -> int:
    """+1 if hole cards ``a`` beat ``b`` on ``board``, -1 if they lose, 0 for a split pot."""
    va, vb = evaluate([*a, *board]), evaluate([*b, *board])
    return (va > vb) - (va < vb)


def describe(value: Sequence[int]) -> str:
    """``(1, 12, ...)`` -> ``"pair of aces"``-style words (category and top rank)."""
    names = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens",
             "kings", "aces")
    cat = value[0]
    if cat == 1:
        return f"pair of {names[value[1]]}"
    if cat in (3, 7):
        return f"{CATEGORIES[cat]}, {names[value[1]]}"
    if cat == 2:
        return f"two pair, {names[value[1]]} and {names[value[2]]}"
    if cat == 6:
        return f"full house, {names[value[1]]} over {names[value[2]]}"
    return f"{CATEGORIES[cat]}, {RANKS[value[1]]} high" if len(value) > 1 else CATEGORIES[cat]
