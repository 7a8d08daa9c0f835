"""Tic-tac-toe: a board is a tuple of 9 cells in reading order (0 empty, 1 X, 2 O); X moves first.

`score` is the minimax value for X with faster wins preferred; its sign is the game-theoretic
value (win, draw, loss).
"""

from __future__ import annotations

import functools

EMPTY, CROSS, NOUGHT = 0, 1, 2
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def winner(board: tuple[int, ...]) -> int:
    """The player with three in a line (CROSS or NOUGHT), else EMPTY."""
    for a, b, c in LINES:
        if board[a] and board[a] == board[b] == board[c]:
            return board[a]
    return EMPTY


def to_move(board: tuple[int, ...]) -> int:
    """The player to move: X moves first."""
    return CROSS if board.count(CROSS) == board.count(NOUGHT) else NOUGHT


def play(board: tuple[int, ...], i: int) -> tuple[int, ...]:
    """The board after the player to move marks cell ``i``."""
    return board[:i] + (to_move(board),) + board[i + 1:]


@functools.cache
def score(board: tuple[int, ...]) -> int:
    """Minimax value for X of a non-final position: 100 - p if X wins in p plies, -(100 - p) if O does, 0 for a draw."""
    side = to_move(board)
    best = None
    for i in range(9):
        if board[i]:
            continue
        v = move_score(board, i)
        if best is None or (v > best if side == CROSS else v < best):
            best = v
    return best


def move_score(board: tuple[int, ...], i: int) -> int:
    """The `score` for X of marking cell ``i`` (99 / -99: the move wins at once; 0: it fills the board)."""
    child = play(board, i)
    w = winner(child)
    if w:
        return 99 if w == CROSS else -99
    if EMPTY not in child:
        return 0
    v = score(child)
    return v - (v > 0) + (v < 0)


def win_distance(board: tuple[int, ...]) -> int:
    """Our (X's) moves to the fastest forced win from an X-to-move position, 0 if none."""
    v = score(board)
    return (100 - v + 1) // 2 if v > 0 else 0


@functools.cache
def puzzles(distance: int) -> tuple[tuple[int, ...], ...]:
    """Every reachable, unfinished X-to-move position whose fastest forced win takes ``distance`` moves."""
    seen, found, stack = set(), [], [(EMPTY,) * 9]
    while stack:
        b = stack.pop()
        if b in seen or winner(b) or EMPTY not in b:
            continue
        seen.add(b)
        if to_move(b) == CROSS and any(b) and win_distance(b) == distance:
            found.append(b)
        stack.extend(play(b, i) for i in range(9) if not b[i])
    return tuple(sorted(found))
