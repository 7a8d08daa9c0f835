"""Bit-mask helpers shared by the generators and opponents that keep a board as one int (bit ``i``: cell ``i``)."""

from __future__ import annotations


def set_bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first.

    >>> set_bits(0b101001)
    [0, 3, 5]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
