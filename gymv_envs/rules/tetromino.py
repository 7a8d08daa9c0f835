"""The seven tetrominoes and their quarter turns.

A shape is a tuple of (row, column) cells, sorted, shifted to the top-left corner of its bounding box.
"""

from __future__ import annotations

import functools

TETROMINOES = {"I": ((0, 0), (0, 1), (0, 2), (0, 3)), "O": ((0, 0), (0, 1), (1, 0), (1, 1)),
               "T": ((0, 0), (0, 1), (0, 2), (1, 1)), "S": ((0, 1), (0, 2), (1, 0), (1, 1)),
               "Z": ((0, 0), (0, 1), (1, 1), (1, 2)), "J": ((0, 0), (1, 0), (1, 1), (1, 2)),
               "L": ((0, 2), (1, 0), (1, 1), (1, 2))}
KINDS = tuple(TETROMINOES)  # "I", "O", "T", "S", "Z", "J", "L"


@functools.lru_cache(maxsize=64)
def rotate(cells: tuple[tuple[int, int], ...], k: int) -> tuple[tuple[int, int], ...]:
    """The cells turned ``k`` quarter turns clockwise, moved to the top-left corner and sorted."""
    for _ in range(k % 4):
        cells = [(c, -r) for r, c in cells]
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


# per kind, its distinct quarter turns in order (0, 1, 2, 3 turns, repeats left out): O has 1; I, S, Z 2; the rest 4
TURNS = {kind: tuple(dict.fromkeys(rotate(cells, k) for k in range(4))) for kind, cells in TETROMINOES.items()}
