"""Nine-puzzle shift: a shortest list of row and column shifts that sorts a grid of numbered tiles."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.cells import LETTERS
from gymv_envs.domains.puzzles._tiles import apply, depth_table, draw_tiles, pick, shortest_solution

LEVELS = {0: (3, (2, 3)), 1: (3, (4, 5)), 2: (4, (4, 5))}  # difficulty -> (side, fewest moves lo..hi)
DIRS = {"l": "L", "left": "L", "r": "R", "right": "R", "u": "U", "up": "U", "d": "D", "down": "D"}
_TOKEN = re.compile(r"(?:row\s*)?([1-9])\s*-?\s*(left|right|l|r)\b|(?:col(?:umn)?\s*)?([a-i])\s*-?\s*(up|down|u|d)\b")
_SEPS = re.compile(r"[\s,;.>\-→|]+|\bthen\b|\band\b|\d+[.)]")


def shift_moves(n: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The moves of an ``n x n`` board as (name, permutation ``new[i] = old[perm[i]]``): ``2L`` shifts
    row 2 one cell left (its leftmost tile wraps to the right end), ``BU`` column B one cell up."""
    out = []
    for r in range(n):
        for name, d in (("L", 1), ("R", -1)):
            p = list(range(n * n))
            for c in range(n):
                p[r * n + c] = r * n + (c + d) % n
            out.append((f"{r + 1}{name}", tuple(p)))
    for c in range(n):
        for name, d in (("U", 1), ("D", -1)):
            p = list(range(n * n))
            for r in range(n):
                p[r * n + c] = ((r + d) % n) * n + c
            out.append((f"{LETTERS[c]}{name}", tuple(p)))
    return tuple(out)


class NinePuzzleShift(SingleTurnEnv):
    """Give a shortest list of row and column shifts that sorts a grid of numbered tiles.

    ## Description
    An ``n x n`` grid (3x3 at difficulty 0 and 1, 4x4 at 2) holds the tiles ``1..n*n`` in a
    scrambled order; rows are numbered from the top and columns lettered from the left. A move
    shifts one whole row one cell left or right, or one whole column one cell up or down,
    cyclically: the tile pushed off one end comes back at the other. The target is the sorted
    grid (1, 2, 3, ... in reading order). Any list of moves that reaches it in the fewest moves
    (known exactly from a breadth-first search) is accepted; the verifier replays it.

    ## Action Space
    ``"open"``: `Text`, moves such as ``2L AU 3R`` (``2L``: row 2 left; ``AU``: column A up; also
    ``row 2 left, column A up``). ``"mcq"``: `Discrete(k)` over move lists.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the numbered tiles with column letters and row numbers.

    ## Rewards
    1.0 for a shortest sorting list, else 0.0.

    ## Starting State
    A board at a fewest-moves count drawn from the difficulty's range (0: 2-3, 1: 4-5, 2: 4-5 on
    4x4), uniformly among the boards at that distance in a breadth-first table built once per process.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = ("a shortest list of moves such as `2L AU 3R` (a row number with L or R shifts that row "
                   "left or right; a column letter with U or D shifts that column up or down)")

    def _configure(self) -> None:
        self.n, (self.lo, self.hi) = LEVELS[self.difficulty]
        self.moves = shift_moves(self.n)
        self.perms = tuple(p for _, p in self.moves)
        self.names = {name: k for k, (name, _) in enumerate(self.moves)}

    def _table(self):
        return depth_table(self.perms, self.n * self.n, self.hi)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        table, layers = self._table()
        self.board = pick(rng, layers, self.lo, self.hi, self.n * self.n)
        self.best = table[sum((v - 1) << (4 * i) for i, v in enumerate(self.board))]

    # -- draw
    def _draw(self) -> np.ndarray:
        return draw_tiles(self.obs_size, self.board, self.n, self.n, True)

    def _task_text(self) -> str:
        n, last = self.n, LETTERS[self.n - 1]
        return (f"The image shows a {n}x{n} grid of numbered tiles; rows are numbered 1-{n} from the top and "
                f"columns lettered A-{last} from the left. A move shifts one whole row one cell left or right, "
                "or one whole column one cell up or down, cyclically (the tile pushed off one end reappears at "
                f"the other end). The goal is the sorted grid: 1 to {n * n} in reading order (left to right, "
                "top to bottom). Give a shortest list of moves that sorts the grid. Write a row move as the row "
                "number and L or R (`2L` shifts row 2 left), a column move as the column letter and U or D "
                "(`AU` shifts column A up).")

    def _state_text(self) -> str:
        return "\n".join(" ".join(str(v) for v in self.board[r * self.n:(r + 1) * self.n]) for r in range(self.n))

    # -- verify
    def _parse_answer(self, text: str) -> tuple[int, ...] | None:
        t = text.strip().lower()
        if not t or len(t) > 400:
            return None
        out = []
        for m in _TOKEN.finditer(t):
            name = f"{m.group(1)}{DIRS[m.group(2)]}" if m.group(1) else f"{m.group(3).upper()}{DIRS[m.group(4)]}"
            if name not in self.names:
                return None
            out.append(self.names[name])
        if not out or _SEPS.sub("", _TOKEN.sub(" ", t)):
            return None
        return tuple(out)

    def _check(self, answer) -> bool:
        if len(answer) != self.best:
            return False
        board = self.board
        for k in answer:
            board = apply(board, self.perms[k])
        return board == tuple(range(1, self.n * self.n + 1))

    def _format(self, answer) -> str:
        return " ".join(self.moves[k][0] for k in answer)

    # -- oracle
    def _solve(self) -> tuple[int, ...]:
        return tuple(shortest_solution(self._table()[0], self.perms, self.board))

    def _near_misses(self, rng: np.random.Generator) -> list:
        sol, m = list(self._solution), len(self.moves)
        out = []
        for i in rng.permutation(len(sol)).tolist():
            k = sol[i]
            out.append(tuple(sol[:i] + [k ^ 1] + sol[i + 1:]))  # one move the other way
            if i + 1 < len(sol):
                out.append(tuple(sol[:i] + [sol[i + 1], k] + sol[i + 2:]))  # two moves swapped
            out.append(tuple(sol[:i] + [int(rng.integers(m))] + sol[i + 1:]))  # one move replaced
        out.append(tuple(sol[:-1]))  # one move short
        out += [tuple(rng.integers(m, size=len(sol)).tolist()) for _ in range(8)]
        return out


SPECS = (
    TaskSpec(name="NinePuzzleShift", entry_point=NinePuzzleShift, max_episode_steps=1,
             tags=("planning", "search")),
)
