"""What the geometry tasks share besides the plot: answer parsing (point letters, numbers as decimals and
fractions, integers) and twice a polygon's area (`shoelace2`)."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_NUM = re.compile(r"[-+]?(?:\d+\s*/\s*\d+|\d+\.\d*|\.\d+|\d+)")


def parse_letters(text: str, n: int) -> tuple[int, ...] | None:
    """Point letters in order (``A C F``, ``A, C, F``, ``A->C``), each among the first ``n``; None otherwise."""
    t = text.strip().strip("[](){}.").upper()
    if not t or len(t) > 400 or not re.fullmatch(r"[A-Z](?:[\s,;\->→]*[A-Z])*", t):
        return None
    seq = tuple(LETTERS.index(c) for c in re.findall(r"[A-Z]", t))
    return seq if all(i < n for i in seq) else None


def parse_letter_set(text: str, n: int) -> frozenset[int] | None:
    """A set of point letters (no repeats); ``none`` or ``{}`` is the empty set."""
    t = text.strip().strip(".")
    if re.fullmatch(r"(?i)none|nothing|empty|\{\s*\}|\[\s*\]|-", t):
        return frozenset()
    seq = parse_letters(t.replace("{", "").replace("}", ""), n)
    if seq is None or len(set(seq)) != len(seq):
        return None
    return frozenset(seq)


def parse_numbers(text: str, count: int) -> list[float] | None:
    """The last ``count`` numbers in a short candidate (``3/2`` and ``1.5`` alike); None if fewer."""
    t = text.strip()
    if len(t) > 300:
        return None
    nums = _NUM.findall(t)
    if len(nums) < count:
        return None
    return [float(Fraction(x.replace(" ", ""))) for x in nums[-count:]]


def parse_exact(text: str) -> Fraction | None:
    """The one number a candidate states, exactly (``17.5``, ``35/2``, ``17 1/2`` is not accepted)."""
    t = text.strip().rstrip(".")
    if len(t) > 100:
        return None
    nums = _NUM.findall(t)
    if len(nums) != 1:
        return None
    try:
        return Fraction(nums[0].replace(" ", ""))
    except (ValueError, ZeroDivisionError):
        return None


def fmt_exact(x: Fraction) -> str:
    """Integers as ``17``, halves and other finite decimals as ``17.5``, anything else as ``35/3``."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d == 1:
        return f"{float(x):g}"
    return f"{x.numerator}/{x.denominator}"


def shoelace2(poly) -> int:
    """Twice a simple polygon's area (integer corners)."""
    pts = poly.tolist() if isinstance(poly, np.ndarray) else poly
    xa, ya = pts[-1]
    total = 0
    for xb, yb in pts:
        total += int(xa) * int(yb) - int(xb) * int(ya)
        xa, ya = xb, yb
    return abs(total)
