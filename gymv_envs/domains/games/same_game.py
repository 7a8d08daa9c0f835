"""SameGame: clear the board by removing groups of same-coloured blocks."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import PALETTE

MAX_SIDE = 6
# difficulty -> (rows, cols, colours, blocks)
LEVELS = {0: (4, 4, 3, 8), 1: (5, 5, 3, 14), 2: (6, 6, 3, 22)}
COLS = "ABCDEF"
COLORS = (PALETTE["red"], PALETTE["blue"], PALETTE["yellow"])
COLOR_NAMES = ("red", "blue", "yellow")
EMPTY_C = (236, 236, 230)
SOLVER_NODES = 20_000


def _cell_name(r: int, c: int) -> str:
    return f"{COLS[c]}{r + 1}"


class SameGame(MultiTurnEnv):
    """Remove groups of two or more touching same-coloured blocks until the board is empty.

    ## Description
    Clicking a block removes its whole group (blocks of its colour connected up, down, left
    or right), if the group has at least two blocks. Blocks above fall down into the gaps and
    empty columns close up to the left. Boards are built backwards by inserting pairs, so each
    can be cleared completely.

    ## Action Space
    `Discrete(36)`: a cell name, column letter and row number counted from the top, e.g.
    ``"C4"``. Empty cells, single blocks and cells off the board are invalid.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board, blocks as coloured squares, empty cells pale.

    ## Rewards
    Each removal earns the removed share of the starting blocks; the best return is 1.0.

    ## Starting State
    An empty board filled by inserting same-coloured pairs (vertical, horizontal or as a new
    column) whose removal undoes the insertion, up to the difficulty's number of blocks.

    ## Episode End
    Terminates with success when the board is empty, in failure when blocks remain but no
    group of two is left; the budget truncates.

    ## Arguments
    ``difficulty`` (0: 4x4, 3 colours, 8 blocks; 1: 5x5, 3 colours, 14; 2: 6x6, 3 colours,
    22), ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    action_names = tuple(_cell_name(r, c) for r in range(MAX_SIDE) for c in range(MAX_SIDE))

    def _configure(self) -> None:
        self.rows, self.cols, self.colors, self.blocks = LEVELS[self.difficulty]

    # -- generate: columns are tuples of colours listed bottom-up
    def _generate(self, rng: np.random.Generator) -> None:
        R, C = self.rows, self.cols
        board, tries = (), 0
        while sum(map(len, board)) < self.blocks:
            tries += 1
            if tries > 300:  # boxed in: start again
                board, tries = (), 0
            kind, color = int(rng.integers(3)), int(rng.integers(self.colors))
            cols = [list(col) for col in board]
            if kind == 0 and len(cols) < C:  # a new column holding a vertical pair
                c = int(rng.integers(len(cols) + 1))
                cols.insert(c, [color, color])
                cells = [(c, 0), (c, 1)]
            elif kind == 1 and cols:  # a vertical pair pushed into a column
                c = int(rng.integers(len(cols)))
                if len(cols[c]) + 2 > R:
                    continue
                h = int(rng.integers(len(cols[c]) + 1))
                cols[c][h:h] = [color, color]
                cells = [(c, h), (c, h + 1)]
            elif kind == 2 and len(cols) >= 2:  # a horizontal pair pushed into two neighbour columns
                c = int(rng.integers(len(cols) - 1))
                h = int(rng.integers(min(len(cols[c]), len(cols[c + 1])) + 1))
                if max(len(cols[c]), len(cols[c + 1])) + 1 > R:
                    continue
                cols[c].insert(h, color)
                cols[c + 1].insert(h, color)
                cells = [(c, h), (c + 1, h)]
            else:
                continue
            nxt = tuple(tuple(col) for col in cols)
            if sorted(self._group(nxt, *cells[0])) == sorted(cells):
                board = nxt
        self.board = board
        self._plan: dict = {}

    @staticmethod
    def _group(board, c: int, h: int) -> list[tuple[int, int]]:
        color, seen, stack = board[c][h], {(c, h)}, [(c, h)]
        while stack:
            x, y = stack.pop()
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= nx < len(board) and 0 <= ny < len(board[nx]) and (nx, ny) not in seen and board[nx][ny] == color:
                    seen.add((nx, ny))
                    stack.append((nx, ny))
        return list(seen)

    @staticmethod
    def _remove(board, cells) -> tuple:
        gone = set(cells)
        cols = (tuple(v for y, v in enumerate(col) if (x, y) not in gone) for x, col in enumerate(board))
        return tuple(col for col in cols if col)

    def _groups(self, board) -> list[tuple[int, list]]:
        """(action, cells) for each removable group, named by its top-left-most cell."""
        seen, out = set(), []
        for x, col in enumerate(board):
            for y in range(len(col)):
                if (x, y) not in seen:
                    g = self._group(board, x, y)
                    seen.update(g)
                    if len(g) >= 2:
                        gx, gy = min(g, key=lambda p: (-p[1], p[0]))
                        out.append((self._action(gx, gy), g))
        return out

    def _action(self, x: int, y: int) -> int:
        return (self.rows - 1 - y) * MAX_SIDE + x

    # -- rules
    def _apply(self, action: int) -> Outcome:
        r, x = divmod(action, MAX_SIDE)
        y = self.rows - 1 - r
        if r >= self.rows or x >= self.cols:
            return Outcome(invalid=True, feedback=f"{self.action_names[action]} is not on the board")
        if x >= len(self.board) or y >= len(self.board[x]):
            return Outcome(invalid=True, feedback=f"{self.action_names[action]} is empty")
        g = self._group(self.board, x, y)
        if len(g) < 2:
            return Outcome(invalid=True, feedback=f"the block on {self.action_names[action]} has no same-coloured neighbour")
        self.board = self._remove(self.board, g)
        reward = len(g) / self.blocks
        if not self.board:
            return Outcome(reward=reward, terminated=True, success=True, feedback="the board is clear")
        if not self._groups(self.board):
            return Outcome(reward=reward, terminated=True, feedback=f"removed {len(g)} blocks; no group of two is left")
        return Outcome(reward=reward, feedback=f"removed {len(g)} blocks")

    def _progress(self) -> float:
        return 1.0 - sum(map(len, self.board)) / self.blocks

    # -- draw
    def _keys(self) -> list[list[int]]:
        keys = [[-1] * self.cols for _ in range(self.rows)]
        for x, col in enumerate(self.board):
            for y, v in enumerate(col):
                keys[self.rows - 1 - y][x] = v
        return keys

    def _draw(self) -> np.ndarray:
        return self.grid_painter(self.rows, self.cols, self._tile).paint(self._keys())

    def _tile(self, key: int, h: int, w: int) -> np.ndarray:
        t = np.empty((h, w, 3), dtype=np.uint8)
        t[...] = EMPTY_C
        if key >= 0:
            m = max(1, h // 10)
            t[m:h - m, m:w - m] = COLORS[key]
        return t

    def _task_text(self) -> str:
        colours = " and ".join(COLOR_NAMES[: self.colors])
        return (f"This is SameGame on a board of {self.rows} rows and {self.cols} columns with {colours} blocks. "
                f"Columns are named A to {COLS[self.cols - 1]} from left to right and rows 1 to {self.rows} from top "
                "to bottom. Choosing a block removes its whole group: all blocks of the same colour connected to it "
                "up, down, left or right, if there are at least two. Blocks above then fall down, and an emptied "
                "column disappears with the columns on its right sliding left. Clear the whole board; if single "
                "blocks remain that cannot be removed, you lose.")

    def _state_text(self) -> str:
        return "\n".join("".join("." if k < 0 else "RBY"[k] for k in row) for row in self._keys())

    # -- oracle
    def _solve(self, board, dead: set, budget: list) -> list[int] | None:
        if not board:
            return []
        if board in dead or budget[0] <= 0:
            return None
        budget[0] -= 1
        for a, g in sorted(self._groups(board), key=lambda ag: len(ag[1])):
            rest = self._solve(self._remove(board, g), dead, budget)
            if rest is not None:
                return [a] + rest
        dead.add(board)
        return None

    def oracle_action(self) -> int:
        if self.board not in self._plan:
            moves, board, self._plan = self._solve(self.board, set(), [SOLVER_NODES]), self.board, {}
            if not moves:  # stuck or beyond the search budget: the largest group
                return max(self._groups(self.board), key=lambda ag: len(ag[1]), default=(0, None))[0]
            for a in moves:
                self._plan[board] = a
                r, x = divmod(a, MAX_SIDE)
                board = self._remove(board, self._group(board, x, self.rows - 1 - r))
        return self._plan[self.board]


SPECS = (
    TaskSpec(name="SameGame", entry_point=SameGame, domain="games", max_episode_steps=40,
             tags=("puzzle", "planning", "grid")),
)
