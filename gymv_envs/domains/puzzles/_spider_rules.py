"""Spider solitaire rules: the run at the end of a column, and the legal moves of a tableau."""

from __future__ import annotations

from gymv_envs.rules.cards import Card


def movable(column: list[Card]) -> int:
    """How many cards at the end of a face-up column form one run (same suit, ranks down by one)."""
    k = 1
    while k < len(column) and column[-k - 1][1] == column[-k][1] and column[-k - 1][0] == column[-k][0] + 1:
        k += 1
    return k if column else 0


def full_run(column: list[Card]) -> bool:
    """Whether a column ends with a whole suit in order, K down to A."""
    return len(column) >= 13 and movable(column) >= 13 and column[-1][0] == 1


def legal_moves(down: list[int], up: list[list[Card]]) -> list[tuple[int, int, int | str]]:
    """Every move (source column, number of cards, destination column or ``"empty"``): a run from the
    end of a column onto a card one rank higher (any suit), or into an empty column (all empty columns
    are one destination; moving a whole column into one does not count)."""
    empty = any(not up[j] for j in range(len(up)))
    moves = []
    for j, col in enumerate(up):
        for k in range(1, movable(col) + 1):
            rank = col[-k][0]
            moves += [(j, k, d) for d, other in enumerate(up) if d != j and other and other[-1][0] == rank + 1]
            if empty and (k < len(col) or down[j]):
                moves.append((j, k, "empty"))
    return moves


def reveal_moves(down: list[int], up: list[list[Card]]) -> set[tuple[int, int | str]]:
    """The (source, destination) of the `legal_moves` that take every face-up card off a face-down one."""
    empty, out = any(not col for col in up), set()
    for j, col in enumerate(up):
        if down[j] and col and movable(col) == len(col):
            out.update((j, d) for d, other in enumerate(up) if d != j and other and other[-1][0] == col[0][0] + 1)
            if empty:
                out.add((j, "empty"))
    return out
