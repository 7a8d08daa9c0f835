"""Answers for WordSearch: the eight directions, the names they may be given by, and the parsing of a
placement (start cell and direction) or of every word's first and last cells."""

from __future__ import annotations

import re

DIRS = {"right": (0, 1), "left": (0, -1), "down": (1, 0), "up": (-1, 0),
        "down-right": (1, 1), "down-left": (1, -1), "up-right": (-1, 1), "up-left": (-1, -1)}
SYNONYMS = {"east": "right", "west": "left", "south": "down", "north": "up", "e": "right", "w": "left",
            "s": "down", "n": "up", "southeast": "down-right", "southwest": "down-left",
            "northeast": "up-right", "northwest": "up-left", "se": "down-right", "sw": "down-left",
            "ne": "up-right", "nw": "up-left", "rightdown": "down-right", "leftdown": "down-left",
            "rightup": "up-right", "leftup": "up-left", "downright": "down-right", "downleft": "down-left",
            "upright": "up-right", "upleft": "up-left", "right": "right", "left": "left", "down": "down", "up": "up"}
_PLACED = re.compile(r"([A-Z]{3,})\W{0,3}(?:(?:AT|FROM|IS)\s+)?([A-Z])\s?(\d{1,2})(?:\s*(?:-+>?|\u2192|\u2013|TO|:)\s*|\s+)"
                     r"([A-Z])\s?(\d{1,2})(?!\d)")
_CELLS = re.compile(r"(?<![A-Z])([A-Z])\s?(\d{1,2})(?!\d)")


def parse_placement(text: str, n: int, length: int) -> tuple[int, int, int, int] | None:
    """``(r, c, dr, dc)``: a start cell and a direction (a word or compass name), or the first and last
    cells of a word of ``length`` letters; None otherwise."""
    t = text.strip().upper()
    if not t or len(t) > 200:
        return None
    cells = [(int(m.group(2)) - 1, ord(m.group(1)) - 65) for m in _CELLS.finditer(t)]
    if not cells or len(cells) > 2 or any(not (0 <= r < n and 0 <= c < n) for r, c in cells):
        return None
    (r, c) = cells[0]
    if len(cells) == 2:
        dr, dc = cells[1][0] - r, cells[1][1] - c
        steps = max(abs(dr), abs(dc))
        if steps != length - 1 or dr not in (0, steps, -steps) or dc not in (0, steps, -steps):
            return None
        return r, c, dr // steps, dc // steps
    rest = _CELLS.sub(" ", t).lower()
    rest = re.sub(r"\b(diagonal(ly)?|going|reading|starting|start|at|from|towards?|direction|and|cell)\b", " ", rest)
    key = re.sub(r"[^a-z]", "", rest)
    if key not in SYNONYMS:
        return None
    return (r, c, *DIRS[SYNONYMS[key]])


def parse_placements(text: str, n: int) -> tuple | None:
    """``((word, (r0, c0), (r1, c1)), ...)`` sorted by word, each listed word once; None otherwise."""
    t = text.strip().upper()
    if not t or len(t) > 1000:
        return None
    found = {}
    for m in _PLACED.finditer(t):
        word, a, b = m.group(1), (int(m.group(3)) - 1, ord(m.group(2)) - 65), (int(m.group(5)) - 1, ord(m.group(4)) - 65)
        if word in found or any(not (0 <= r < n and 0 <= c < n) for r, c in (a, b)):
            return None
        found[word] = (a, b)
    if not found:
        return None
    return tuple(sorted((w, a, b) for w, (a, b) in found.items()))
