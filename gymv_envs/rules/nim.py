"""Normal-play Nim (whoever takes the last counter wins): the nim-sum and the winning moves.

A position is a sequence of heap sizes; the player to move wins exactly when the nim-sum (the
XOR of the sizes) is not zero, by leaving a nim-sum of zero.
"""

from __future__ import annotations

from collections.abc import Sequence


def nim_sum(heaps: Sequence[int]) -> int:
    """The XOR of the heap sizes: zero exactly when the player to move loses against best play."""
    x = 0
    for h in heaps:
        x ^= h
    return x


def winning_moves(heaps: Sequence[int]) -> list[tuple[int, int]]:
    """Every move ``(heap, counters taken)`` that leaves a nim-sum of zero, heap by heap (empty when
    the nim-sum already is zero)."""
    x = nim_sum(heaps)
    return [(h, n - (n ^ x)) for h, n in enumerate(heaps) if x and n ^ x < n]
