"""Ultimate tic-tac-toe's game states, worked with table look-ups: the legal moves, a move, the random
opening and the forced-win search of `ultimate_tic_tac_toe` (pure code, no drawing).

A state is (codes of the nine small boards, mover, the last move's cell in its board or -1, the boards'
status, the result or None); boards and cells are numbered 0-8 in reading order, a board's code holds
cell i as base-3 digit i (1 X, 2 O), its status is 0 open, 1 or 2 won, 3 full. Grid cell ``a`` is
``9 * row + column`` of the big 9x9 grid. Every function gives what the plain rules give (the same
moves in the same order, the same states, the same search answers); only the work differs. A game under
way never holds a line of three boards won by one player (the move that makes one ends the game), so
whether a move wins the game is read from the lines through the board it is played in.
"""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.domains.games._board import ME, THEM
from gymv_envs.rules.ultimate_ttt import (
    LINES,
    MASK_CELLS,
    POW3,
    board_digits,
    board_tables,
    line_won,
    small_board,
)

NO_LINE = 99   # the cost of a big-board line that cannot be X's (a board of it won by O or full)


def split(a: int) -> tuple[int, int]:
    """(small board, cell in it) of grid cell ``a``; both numbered 0-8 in reading order."""
    r, c = divmod(a, 9)
    return (r // 3) * 3 + c // 3, (r % 3) * 3 + c % 3


def joined(b: int, i: int) -> int:
    return (b // 3 * 3 + i // 3) * 9 + (b % 3) * 3 + i % 3


SPLIT = tuple(split(a) for a in range(81))
PAIRS = tuple(tuple((x, y) for line in LINES if b in line for x, y in [tuple(j for j in line if j != b)])
              for b in range(9))   # per board: the other two boards of each big-board line through it
OTHER_LINES = tuple(tuple(j for j, line in enumerate(LINES) if b not in line) for b in range(9))


@functools.lru_cache(maxsize=1)
def _grid_cells() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per board b and 9-bit mask of its empty cells: the grid cells of those cells, ascending."""
    return tuple(tuple(tuple(joined(b, i) for i in MASK_CELLS[m]) for m in range(512)) for b in range(9))


@functools.lru_cache(maxsize=1)
def needs() -> tuple[int, ...]:
    """Per board code: the fewest X marks that would win the small board (4 when O blocks every line)."""
    v = board_digits()
    best = np.full(3 ** 9, 4)
    for line in LINES:
        cells = v[:, list(line)]
        best = np.where((cells != THEM).all(axis=1), np.minimum(best, (cells == 0).sum(axis=1)), best)
    return tuple(best.tolist())


def _line_score(got: tuple[int, int, int]) -> int:
    if 3 in got:
        return 0
    return (got.count(ME) ** 2 if THEM not in got else 0) - (got.count(THEM) ** 2 if ME not in got else 0)


LINE_SCORE = tuple(_line_score((v // 16, v // 4 % 4, v % 4)) for v in range(64))   # by 16 a + 4 b + c


def heuristic(status) -> float:
    """The game's static value from X's side: per big-board line, + (X's boards)^2 when it holds no O or
    full board, - (O's boards)^2 when it holds no X or full board."""
    return float(sum(LINE_SCORE[16 * status[x] + 4 * status[y] + status[z]] for x, y, z in LINES))


def legal(s) -> list[int]:
    """The mover's legal grid cells, ascending (a new list)."""
    if s[4] is not None:
        return []
    codes, _, sent, status = s[:4]
    empty, grid = board_tables()[1], _grid_cells()
    if sent >= 0 and status[sent] == 0:
        return list(grid[sent][empty[codes[sent]]])
    moves: list[int] = []
    for b in range(9):
        if status[b] == 0:
            moves += grid[b][empty[codes[b]]]
    moves.sort()
    return moves


def step(s, b: int, i: int):
    """The state after the mover marks cell ``i`` of small board ``b``."""
    codes, p, _, status = s[:4]
    code = codes[b] + p * POW3[i]
    codes = codes[:b] + (code,) + codes[b + 1:]
    st = board_tables()[0][code]
    status = status[:b] + (st,) + status[b + 1:]
    if 0 < st < 3 and line_won(status, p):
        return codes, 3 - p, i, status, p
    return codes, 3 - p, i, status, (0 if 0 not in status else None)


def play(s, a: int):
    """The state after the mover plays grid cell ``a``."""
    return step(s, *SPLIT[a])


def playout(rng: np.random.Generator, plies: int):
    """Up to ``plies`` random moves from the empty board, each the first in a random order of the legal
    moves that does not end the game; stops early when every move would end it."""
    status_of, empty = board_tables()
    grid = _grid_cells()
    codes, status, p, sent = [0] * 9, [0] * 9, ME, -1
    for _ in range(plies):
        if sent >= 0 and status[sent] == 0:
            moves = list(grid[sent][empty[codes[sent]]])
        else:
            moves = []
            for b in range(9):
                if status[b] == 0:
                    moves += grid[b][empty[codes[b]]]
            moves.sort()
        rng.shuffle(moves)   # the same draws and order as moves[j] for j in rng.permutation(len(moves))
        for a in moves:
            b, i = SPLIT[a]
            code = codes[b] + p * POW3[i]
            st = status_of[code]
            if st == 0:
                break
            status[b] = st
            if not ((st < 3 and line_won(status, p)) or 0 not in status):
                break
            status[b] = 0
        else:
            break
        codes[b], status[b], sent, p = code, st, i, 3 - p
    return tuple(codes), p, sent, tuple(status), None


def _hot(codes, status, p: int) -> set[int]:
    """The open boards where a move of ``p`` wins the board and, with it, the game (a game under way)."""
    return {b for b in range(9) if status[b] == 0 and small_board(codes[b])[p]
            and any(status[x] == p and status[y] == p for x, y in PAIRS[b])}


def wins_now(codes, status, boards, p: int) -> bool:
    """Whether player ``p`` wins the game with a move in one of ``boards`` (a game under way)."""
    for b in boards:
        if small_board(codes[b])[p] and any(status[x] == p and status[y] == p for x, y in PAIRS[b]):
            return True
    return False


def ends_now(codes, status, boards, p: int) -> bool:
    """Whether some move of player ``p`` in ``boards`` ends the game (a win, or the last open board closed)."""
    last, empty = status.count(0) == 1, board_tables()[1]
    for b in boards:
        if small_board(codes[b])[p] and (last or any(status[x] == p and status[y] == p for x, y in PAIRS[b])):
            return True
        if last and empty[codes[b]] & (empty[codes[b]] - 1) == 0:
            return True
    return False


def wins(s, k: int, memo: dict) -> bool:
    """Whether X can force a win from ``s`` within ``k`` more of its own moves against any reply: the
    AND-OR search over every legal move. ``memo`` keeps the answers by (state, k).

    The search is cut where no big-board line can be X's within ``k`` more X marks (each open board of
    the line needs as many marks as its best O-free small line lacks). The cut never changes an answer:
    an X mark lowers a line's count by at most one and an O mark never lowers it, so a position X wins
    within ``k`` has a line within ``k``; it only spares the work."""
    r = s[4]
    if r is not None:
        return r == ME
    if k <= 0:
        return False
    key = (s, k)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _search(s, k, memo)
    return hit


def _search(s, k: int, memo: dict) -> bool:
    codes, p, sent, status = s[:4]
    boards = (sent,) if sent >= 0 and status[sent] == 0 else [b for b in range(9) if status[b] == 0]
    if k == 1:
        return wins_now(codes, status, boards, ME) if p == ME else _holds_last(codes, status, boards)
    need, (status_of, empty), cells = needs(), board_tables(), MASK_CELLS
    cost = [0 if st == ME else need[c] if st == 0 else NO_LINE for c, st in zip(codes, status)]
    sums = [cost[x] + cost[y] + cost[z] for x, y, z in LINES]
    if min(sums) > k or (p == THEM and ends_now(codes, status, boards, THEM)):
        return False
    kc, kids = (k - 1 if p == ME else k), []   # the children's k; the moves that pass the cut
    for b in boards:
        rest = min(sums[j] for j in OTHER_LINES[b])
        pair = min(cost[x] + cost[y] for x, y in PAIRS[b])
        if p == ME and rest > kc and pair > kc:
            continue   # no X move in b leaves a line within reach (a game won by it has pair 0)
        code = codes[b]
        for i in cells[empty[code]]:
            c = code + p * POW3[i]
            st = status_of[c]
            c_cost = 0 if st == ME else need[c] if st == 0 else NO_LINE
            if rest > kc and pair + c_cost > kc:
                if p == THEM:
                    return False   # this O reply holds: no line within reach (and no O move ends the game)
            elif p == ME and c_cost == 0 and pair == 0:
                return True   # X wins the board and, with two won boards in line, the game
            else:
                kids.append((b, i, c, st))
    for b, i, c, st in kids:   # none ends the game but by filling the last open board (a draw)
        after = status if st == 0 else status[:b] + (st,) + status[b + 1:]
        if wins((codes[:b] + (c,) + codes[b + 1:], 3 - p, i, after, None if 0 in after else 0), kc, memo) == (p == ME):
            return p == ME
    return p == THEM


def _holds_last(codes, status, boards) -> bool:
    """Whether every O move in ``boards`` leaves X a move that wins the game (O to move, game under way)."""
    if ends_now(codes, status, boards, THEM):
        return False
    hot = _hot(codes, status, ME)
    if not hot:
        return False   # O marks never give X a winning move
    (status_of, empty), cells = board_tables(), MASK_CELLS
    for b in boards:
        code, others = codes[b], len(hot) - (b in hot)
        for i in cells[empty[code]]:
            c = code + THEM * POW3[i]
            st = status_of[c]
            hot_b = b in hot and st == 0 and bool(small_board(c)[ME])
            if i != b:
                ok = i in hot if status[i] == 0 else others > 0 or hot_b
            else:
                ok = hot_b if st == 0 else others > 0
            if not ok:
                return False
    return True
