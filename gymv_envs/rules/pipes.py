"""Pipe tiles: each tile is a 4-bit mask of its openings (up 1, right 2, down 4, left 8), turned by
quarter turns; a board is solved when every opening meets an opening of its neighbour, none points
off the board, and (for `solve_pipes`) all tiles join into one network.

Boards are lists of rows of masks, row 0 at the top.
"""

from __future__ import annotations

UP, RIGHT, DOWN, LEFT = 1, 2, 4, 8
STEP = {UP: (-1, 0), RIGHT: (0, 1), DOWN: (1, 0), LEFT: (0, -1)}
OPPOSITE = {UP: DOWN, DOWN: UP, LEFT: RIGHT, RIGHT: LEFT}


def rotate(mask: int, turns: int) -> int:
    """``mask`` turned clockwise by ``turns`` quarter turns (up -> right -> down -> left)."""
    for _ in range(turns % 4):
        mask = ((mask << 1) | (mask >> 3)) & 15
    return mask


def solve_pipes(tiles: list[list[int]], limit: int = 1) -> list[tuple[tuple[int, ...], ...]]:
    """Up to ``limit`` rotation grids that close every pipe end and join all tiles into one network."""
    n = len(tiles)
    turns = [[0] * n for _ in range(n)]
    placed = [[0] * n for _ in range(n)]
    out: list[tuple[tuple[int, ...], ...]] = []

    def search(i: int) -> None:
        if len(out) >= limit:
            return
        if i == n * n:
            if connected(placed):
                out.append(tuple(tuple(row) for row in turns))
            return
        r, c = divmod(i, n)
        seen = set()
        for k in range(4):
            m = rotate(tiles[r][c], k)
            if m in seen:
                continue
            seen.add(m)
            if (r == 0 and m & UP) or (c == 0 and m & LEFT) or (r == n - 1 and m & DOWN) or (c == n - 1 and m & RIGHT):
                continue
            if r > 0 and bool(m & UP) != bool(placed[r - 1][c] & DOWN):
                continue
            if c > 0 and bool(m & LEFT) != bool(placed[r][c - 1] & RIGHT):
                continue
            turns[r][c], placed[r][c] = k, m
            search(i + 1)

    search(0)
    return out


def connected(masks: list[list[int]]) -> bool:
    """Whether the openings join every tile of the (square) board into one network."""
    n = len(masks)
    seen, stack = {(0, 0)}, [(0, 0)]
    while stack:
        r, c = stack.pop()
        for d, (dr, dc) in STEP.items():
            nb = (r + dr, c + dc)
            if masks[r][c] & d and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return len(seen) == n * n


def open_ends(masks) -> int:
    """How many openings of a rectangular board meet no opening of their neighbour (or point off it)."""
    rows, cols, bad = len(masks), len(masks[0]), 0
    for r in range(rows):
        for c in range(cols):
            for d, (dr, dc) in STEP.items():
                if masks[r][c] & d:
                    rr, cc = r + dr, c + dc
                    if not (0 <= rr < rows and 0 <= cc < cols) or not masks[rr][cc] & OPPOSITE[d]:
                        bad += 1
    return bad
