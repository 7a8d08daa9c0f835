"""SameGame's board (columns of colours, bottom-up): groups and their removal, and the level builder."""

from __future__ import annotations

import numpy as np

TRIPLE_CHANCE = 0.5  # share of inserted groups that are three blocks long
INSERT_CHOICES = 4   # candidate insertions per step; the one that splits most groups wins
PLAYOUTS = 16        # random games played on each candidate board


def group_at(board, c: int, h: int) -> list[tuple[int, int]]:
    color, seen, stack = board[c][h], {(c, h)}, [(c, h)]
    while stack:
        x, y = stack.pop()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < len(board) and 0 <= ny < len(board[nx]) and (nx, ny) not in seen and board[nx][ny] == color:
                seen.add((nx, ny))
                stack.append((nx, ny))
    return list(seen)


def remove(board, cells) -> tuple:
    gone = set(cells)
    cols = (tuple(v for y, v in enumerate(col) if (x, y) not in gone) for x, col in enumerate(board))
    return tuple(col for col in cols if col)


def removable_groups(board) -> list[list[tuple[int, int]]]:
    """Every removable group (two or more blocks), in order of their first cell column by column."""
    cells = {(x, y): v for x, col in enumerate(board) for y, v in enumerate(col)}
    seen, out = set(), []
    for start, colour in cells.items():
        if start in seen:
            continue
        seen.add(start)
        group = [start]
        for x, y in group:  # grows while it is walked: a breadth-first search
            for cell in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if cell not in seen and cells.get(cell) == colour:
                    seen.add(cell)
                    group.append(cell)
        if len(group) >= 2:
            out.append(group)
    return out


def build(rng: np.random.Generator, rows: int, columns: int, colors: int, blocks: int) -> tuple:
    """Insert same-coloured groups of 2 or 3 blocks until the board holds ``blocks`` blocks.

    An insertion is kept only if its blocks form exactly one group, so removing that group
    undoes it and removing the groups in reverse order clears the board. Of a few candidate
    insertions the one that leaves most earlier groups split wins: a split group (a triple
    cut into a pair and a single) strands its single if its pair is removed too early.
    """
    board, tries, tag = (), 0, 0
    while (left := blocks - sum(map(len, board))) > 0:
        size = 3 if left == 3 else 2 if left in (2, 4) else 2 + int(rng.random() < TRIPLE_CHANCE)
        cands = []
        for _ in range(6 * INSERT_CHOICES):
            tries += 1
            nxt = insert(board, size, (int(rng.integers(colors)), tag), rng, rows, columns)
            if nxt is not None:
                cands.append((splits(nxt), nxt))
                if len(cands) == INSERT_CHOICES:
                    break
        if cands:
            board, tag = max(cands, key=lambda sc: sc[0])[1], tag + 1
        if tries > 2000:  # boxed in: start again
            board, tries = (), 0
    return tuple(tuple(colour for colour, _ in col) for col in board)


def insert(board, size: int, block: tuple, rng: np.random.Generator, rows: int, columns: int) -> tuple | None:
    """``board`` (columns of (colour, tag) blocks) with ``size`` copies of ``block`` inserted
    as a new column, into one column or across neighbouring columns, if they form one group."""
    R, C, kind = rows, columns, int(rng.integers(3))
    cols = [list(col) for col in board]
    if kind == 0 and len(cols) < C:  # a new column
        c = int(rng.integers(len(cols) + 1))
        cols.insert(c, [block] * size)
        cells = [(c, i) for i in range(size)]
    elif kind == 1 and cols:  # a vertical run pushed into a column
        c = int(rng.integers(len(cols)))
        if len(cols[c]) + size > R:
            return None
        h = int(rng.integers(len(cols[c]) + 1))
        cols[c][h:h] = [block] * size
        cells = [(c, h + i) for i in range(size)]
    elif kind == 2 and len(cols) >= size:  # a horizontal run pushed into neighbouring columns
        c = int(rng.integers(len(cols) - size + 1))
        span = cols[c:c + size]
        h = int(rng.integers(min(map(len, span)) + 1))
        if max(map(len, span)) + 1 > R:
            return None
        for col in span:
            col.insert(h, block)
        cells = [(c + i, h) for i in range(size)]
    else:
        return None
    nxt = tuple(tuple(col) for col in cols)
    return nxt if sorted(group_at(colours(nxt), *cells[0])) == sorted(cells) else None


def colours(board) -> tuple:
    return tuple(tuple(colour for colour, _ in col) for col in board)


def splits(board) -> int:
    """How many inserted groups of a (colour, tag) board no longer form one group."""
    plain, cells = colours(board), {}
    for x, col in enumerate(board):
        for y, (_, tag) in enumerate(col):
            cells.setdefault(tag, []).append((x, y))
    return sum(not set(group).issubset(group_at(plain, *group[0])) for group in cells.values())


def random_clears(board, rng: np.random.Generator) -> int:
    """How many of ``PLAYOUTS`` games that click a random removable block each move clear ``board``."""
    clears = 0
    for _ in range(PLAYOUTS):
        b = board
        while b and (groups := removable_groups(b)):
            i = int(rng.integers(sum(map(len, groups))))  # a random block in some group
            for g in groups:
                if i < len(g):
                    break
                i -= len(g)
            b = remove(b, g)
        clears += not b
    return clears
