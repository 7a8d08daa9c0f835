"""Playing cards' names as the solitaire tasks print and draw them: rank letters and suit glyphs.

A card is (rank, suit): rank 1-13 (ace low: A, 2-10, J, Q, K), suit 0-3 (spades, hearts, diamonds,
clubs; hearts and diamonds are red). `poker` and `gin_rummy` name their cards their own way.
"""

from __future__ import annotations

RANKS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")  # by rank ("" for none)
GLYPHS = "\u2660\u2665\u2666\u2663"  # by suit: spades, hearts, diamonds, clubs

Card = tuple[int, int]  # (rank 1-13, suit 0-3)

_NAMES = {(r, s): RANKS[r] + GLYPHS[s] for r in range(1, 14) for s in range(4)}


def card_name(card: Card) -> str:
    """A card's rank and suit glyph, e.g. ``10♥``."""
    return _NAMES[card]
