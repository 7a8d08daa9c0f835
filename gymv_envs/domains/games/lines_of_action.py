"""Lines of Action: connect all your pieces into one group against a built-in opponent."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.cells import LETTERS, cell_name
from gymv_envs.domains.games._board import (
    ME,
    OPPONENT_TEXT,
    THEM,
    BoardGameEnv,
    CheckeredDiscs,
    grid_text,
)

LEVELS = {0: (6, 3, 3), 1: (7, 4, 3), 2: (8, 4, 4)}   # difficulty -> (board side, your pieces, the opponent's)
WINDOW = 5   # your pieces start inside a 5x5 window of the board, the opponent's anywhere
DIRS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
LIGHT, DARK, LIT_C = (238, 222, 190), (190, 150, 110), (250, 220, 110)
PIECE_C = {ME: (30, 30, 35), THEM: (250, 250, 250)}
EDGE_C = {ME: (0, 0, 0), THEM: (110, 110, 110)}


@functools.cache
def geometry(n: int):
    """Per square: per direction the squares of the ray from it (nearest first), its 8 neighbours, and
    per axis (across, down, two diagonals) the number of the line through it; and each line's squares."""
    rays, nbrs = [], []
    for sq in range(n * n):
        r, c = divmod(sq, n)
        rays.append(tuple(tuple((r + k * dr) * n + c + k * dc for k in range(1, n) if 0 <= r + k * dr < n and 0 <= c + k * dc < n)
                          for dr, dc in DIRS))
        nbrs.append(tuple(x[0] for x in rays[-1] if x))
    lines: list[tuple[int, ...]] = []
    line_of = [[0] * 4 for _ in range(n * n)]
    for sq in range(n * n):
        for axis in range(4):   # directions axis and axis + 4 are the two halves of one line
            line = tuple(sorted((sq, *rays[sq][axis], *rays[sq][axis + 4])))
            if line not in lines:
                lines.append(line)
            line_of[sq][axis] = lines.index(line)
    return tuple(rays), tuple(nbrs), tuple(tuple(x) for x in line_of), tuple(lines)


def connected(b: tuple[int, ...], p: int, n: int) -> bool:
    """Whether all of ``p``'s pieces form one group (neighbours across, down or diagonally)."""
    nbrs = geometry(n)[1]
    cells = [i for i, v in enumerate(b) if v == p]
    if not cells:
        return False
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        for j in nbrs[todo.pop()]:
            if b[j] == p and j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(cells)


class LinesOfAction(CheckeredDiscs, BoardGameEnv):
    """Play black in a Lines of Action endgame and connect all your pieces first.

    ## Description
    A square board (6x6, 7x7 or 8x8: a smaller board and fewer pieces than the 8x8 game of twelve a side)
    shows black pieces (yours) and white pieces (the opponent's). Columns are labelled A, B, ... and
    rows 1, 2, ... from the bottom. A piece moves in a straight line (across, down or diagonally)
    exactly as many squares as there are pieces of both colours on that whole line (counting itself).
    It may jump over its own pieces but not over enemy pieces, and may land on an empty square or an
    enemy piece, which is captured, never on its own piece. A player whose pieces all form one group
    (touching across, down or diagonally) wins; a move that connects both sides wins for the mover;
    a player with no legal move loses. The opponent answers within the same step.

    ## Action Space
    `Discrete(side ** 4)`: index ``side * side * from + to`` (squares row-major from the top-left),
    named by its squares like ``B1-B3``. A move that is not legal is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the checkered board with labels; the squares changed by the
    last step are highlighted.

    ## Rewards
    +1 for a win, -1 for a loss, given when the game ends (``max_return`` 1).

    ## Starting State
    A random endgame drawn from the seed (a few pieces each, yours within a 5x5 window of the board,
    the opponent's anywhere, neither side connected) with
    black to move, kept only when black can force a win in exactly 1 (difficulty 0), 2 or 3 of its
    own moves against any reply (verified by an AND-OR search).

    ## Episode End
    Terminates when a side is connected or the player to move has no legal move; success is a black win.

    ## Arguments
    ``difficulty``: 0 (6x6, 3 against 3, win in 1, random opponent), 1 (7x7, 4 against 3, win in 2,
    greedy opponent), 2 (8x8, 4 against 4, win in 3, 2-ply alpha-beta opponent); ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    LIGHT, DARK, LIT_C, PIECE_C, EDGE_C = LIGHT, DARK, LIT_C, PIECE_C, EDGE_C
    memo_views = True

    def _configure(self) -> None:
        super()._configure()
        self.side, self.mine, self.theirs = LEVELS[self.difficulty]
        n = self.side
        self.board_shape = (n, n)
        cells = [cell_name(*divmod(i, n), n, bottom_up=True) for i in range(n * n)]
        self.action_names = tuple(f"{a}-{b}" for a in cells for b in cells)
        self.action_aliases = tuple((f"{a}{b}", i * n * n + j) for i, a in enumerate(cells) for j, b in enumerate(cells))

    # -- generate
    def random_start(self, rng: np.random.Generator):
        n, w = self.side, WINDOW
        r0, c0 = (int(x) for x in rng.integers(0, n - w + 1, size=2))   # your pieces lie in a w x w window
        window = [(r0 + i // w) * n + c0 + i % w for i in range(w * w)]
        b = [0] * (n * n)
        for k in rng.permutation(w * w)[:self.mine]:
            b[window[int(k)]] = ME
        free = [i for i in range(n * n) if not b[i]]
        for k in rng.permutation(len(free))[:self.theirs]:
            b[free[int(k)]] = THEM
        b = tuple(b)
        done = connected(b, ME, n) or connected(b, THEM, n) or not self._moves(b, ME, first=True)
        return b, ME, (0 if done else None)

    def standard_start(self):
        """Black on the top and bottom rows, white on the left and right columns (corners empty), black to move."""
        n = self.side
        b = [0] * (n * n)
        for k in range(1, n - 1):
            b[k] = b[(n - 1) * n + k] = ME
            b[k * n] = b[k * n + n - 1] = THEM
        return tuple(b), ME, None

    # -- rules
    def _moves(self, b, p: int, first: bool = False) -> list[int]:
        """The legal moves of ``p`` (only the first one found when ``first``)."""
        n = self.side
        rays, _, line_of, lines = geometry(n)
        count = [0] * len(lines)   # pieces on each line: each piece counts on its four lines
        for sq, v in enumerate(b):
            if v:
                a, c, d, e = line_of[sq]
                count[a] += 1
                count[c] += 1
                count[d] += 1
                count[e] += 1
        out = []
        for sq, v in enumerate(b):
            if v != p:
                continue
            for d in range(8):
                ray, k = rays[sq][d], count[line_of[sq][d % 4]]
                if k > len(ray) or b[ray[k - 1]] == p:
                    continue
                if any(b[j] and b[j] != p for j in ray[:k - 1]):
                    continue
                out.append(sq * n * n + ray[k - 1])
                if first:
                    return out
        return out

    def legal(self, s) -> list[int]:
        return self._moves(s[0], s[1])

    def play(self, s, a: int):
        n, (b, p) = self.side, s[:2]
        frm, to = divmod(a, n * n)
        b = list(b)
        b[frm], b[to] = 0, p
        b, q = tuple(b), 3 - p
        if connected(b, p, n):
            return b, q, p
        if connected(b, q, n) or not self._moves(b, q, first=True):
            return b, q, q if connected(b, q, n) else p
        return b, q, None

    def result(self, s):
        return s[2]

    def attack_moves(self, s) -> list[int]:
        """All legal moves, those that land nearest the centre of your other pieces first (search order only)."""
        n, b = self.side, s[0]
        pts = [divmod(i, n) for i, x in enumerate(b) if x == ME]
        cr, cc = sum(r for r, _ in pts) / len(pts), sum(c for _, c in pts) / len(pts)
        return sorted(self.legal(s), key=lambda a: max(abs(a % (n * n) // n - cr), abs(a % n - cc)))

    def heuristic(self, s) -> float:
        """Spread: minus the summed distance of each side's pieces from their centre (tighter is better)."""
        n, v = self.side, 0.0
        for p, sign in ((ME, 1.0), (THEM, -1.0)):
            pts = [divmod(i, n) for i, x in enumerate(s[0]) if x == p]
            if pts:
                cr, cc = sum(r for r, _ in pts) / len(pts), sum(c for _, c in pts) / len(pts)
                v -= sign * sum(max(abs(r - cr), abs(c - cc)) for r, c in pts)
        return v

    def describe_invalid(self, s, a: int) -> str:
        n = self.side
        frm = a // (n * n)
        if s[0][frm] != ME:
            return f"there is no black piece on {cell_name(*divmod(frm, n), n, bottom_up=True)}"
        return (f"{self.action_names[a]} is not legal: a piece moves exactly as many squares as there are pieces on "
                "its line, over no enemy piece, and not onto its own")

    # -- draw
    def _task_text(self) -> str:
        n = self.side
        return (f"You play Lines of Action as black against white on the {n}x{n} board shown. Columns are labelled A "
                f"to {LETTERS[n - 1]} from left to right and rows 1 to {n} from bottom to top. Each turn move one of "
                "your pieces in a straight line (across, down or diagonally) exactly as many squares as there are "
                "pieces of both colours on that whole line, counting itself. It may jump over black pieces but not "
                "over white ones, and may land on an empty square or capture a white piece by landing on it. Name a "
                "move by its two squares, like B1-B3. The opponent then answers at once (it "
                f"{OPPONENT_TEXT[self.opponent]}). When all your pieces form one group, touching across, down or "
                "diagonally, you win (+1), also when a move connects both sides; when all white pieces do first, you "
                "lose (-1); a player with no legal move loses. It is your turn and black can force a win.")

    def _state_text(self) -> str:
        return grid_text(self.state[0], self.side, self.side, {0: ".", ME: "B", THEM: "W"})


SPECS = (
    TaskSpec(name="LinesOfAction", entry_point=LinesOfAction, max_episode_steps=30,
             tags=("board-game", "adversarial", "planning")),
)
