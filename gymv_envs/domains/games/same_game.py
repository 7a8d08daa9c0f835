"""SameGame: clear the board by removing groups of same-coloured blocks."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import PALETTE, fill
from gymv_envs.core.cells import cell_names

MAX_SIDE = 6
# difficulty -> (rows, cols, colours, blocks)
LEVELS = {0: (4, 4, 4, 12), 1: (5, 5, 4, 16), 2: (6, 6, 4, 24)}
COLS = "ABCDEF"
COLOR_NAMES = ("red", "blue", "yellow", "green", "purple")
COLORS = tuple(PALETTE[name] for name in COLOR_NAMES)
EMPTY_C = (236, 236, 230)
SOLVER_NODES = 20_000
TRIPLE_CHANCE = 0.5  # share of inserted groups that are three blocks long
INSERT_CHOICES = 4   # candidate insertions per step; the one that splits most groups wins
BOARD_CHOICES = 4    # candidate boards per level; the one random play clears least wins
PLAYOUTS = 16        # random games played on each candidate board
CLEAR_BONUS = 0.8    # reward for clearing the board; removals share the other 0.2


class SameGame(MultiTurnEnv):
    """Remove groups of two or more touching same-coloured blocks until the board is empty.

    ## Description
    Clicking a block removes its whole group (blocks of its colour connected up, down, left
    or right), if the group has at least two blocks. Blocks above fall down into the gaps and
    empty columns close up to the left. Boards are built backwards by inserting groups, so each
    can be cleared completely, but the order matters: removing a group too early can strand a
    single block that a later removal would have joined to others.

    ## Action Space
    `Discrete(36)`: a cell name, column letter and row number counted from the top, e.g.
    ``"C4"``. Empty cells, single blocks and cells off the board are invalid.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board, blocks as coloured squares, empty cells pale.

    ## Rewards
    Each removal earns ``0.2 * removed / blocks``; clearing the board earns a further 0.8, so
    the best return is 1.0 and a board left with stranded blocks scores below 0.2.

    ## Starting State
    An empty board filled by inserting same-coloured groups of two or three blocks (vertical,
    horizontal or as a new column), each kept only if it forms exactly one group so that its
    removal undoes the insertion, up to the difficulty's number of blocks. Insertions that split
    earlier groups are preferred, and of four such boards the one that random play clears least
    often is used.

    ## Episode End
    Terminates with success when the board is empty, in failure when blocks remain but no
    group of two is left; the budget truncates.

    ## Arguments
    ``difficulty`` (0: 4x4, 4 colours, 12 blocks; 1: 5x5, 4 colours, 16; 2: 6x6, 4 colours,
    24), ``obs_size``.

    ## Version History
    - v0: initial version. Revised before release: most of the reward for clearing, groups of
      three and order traps in the boards, four colours.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    action_names = cell_names(MAX_SIDE, MAX_SIDE)

    def _configure(self) -> None:
        self.rows, self.cols, self.colors, self.blocks = LEVELS[self.difficulty]

    # -- generate: columns are tuples of colours listed bottom-up
    def _generate(self, rng: np.random.Generator) -> None:
        boards = [self._build(rng) for _ in range(BOARD_CHOICES)]
        self.board = min(boards, key=lambda b: self._random_clears(b, rng))
        self._plan: dict = {}
        self._shown: tuple = (None, None)

    def _build(self, rng: np.random.Generator) -> tuple:
        """Insert same-coloured groups of 2 or 3 blocks until the board holds ``blocks`` blocks.

        An insertion is kept only if its blocks form exactly one group, so removing that group
        undoes it and removing the groups in reverse order clears the board. Of a few candidate
        insertions the one that leaves most earlier groups split wins: a split group (a triple
        cut into a pair and a single) strands its single if its pair is removed too early.
        """
        board, tries, tag = (), 0, 0
        while (left := self.blocks - sum(map(len, board))) > 0:
            size = 3 if left == 3 else 2 if left in (2, 4) else 2 + int(rng.random() < TRIPLE_CHANCE)
            cands = []
            for _ in range(6 * INSERT_CHOICES):
                tries += 1
                nxt = self._insert(board, size, (int(rng.integers(self.colors)), tag), rng)
                if nxt is not None:
                    cands.append((self._splits(nxt), nxt))
                    if len(cands) == INSERT_CHOICES:
                        break
            if cands:
                board, tag = max(cands, key=lambda sc: sc[0])[1], tag + 1
            if tries > 2000:  # boxed in: start again
                board, tries = (), 0
        return tuple(tuple(colour for colour, _ in col) for col in board)

    def _insert(self, board, size: int, block: tuple, rng: np.random.Generator) -> tuple | None:
        """``board`` (columns of (colour, tag) blocks) with ``size`` copies of ``block`` inserted
        as a new column, into one column or across neighbouring columns, if they form one group."""
        R, C, kind = self.rows, self.cols, int(rng.integers(3))
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
        return nxt if sorted(self._group(self._colours(nxt), *cells[0])) == sorted(cells) else None

    @staticmethod
    def _colours(board) -> tuple:
        return tuple(tuple(colour for colour, _ in col) for col in board)

    def _splits(self, board) -> int:
        """How many inserted groups of a (colour, tag) board no longer form one group."""
        plain, cells = self._colours(board), {}
        for x, col in enumerate(board):
            for y, (_, tag) in enumerate(col):
                cells.setdefault(tag, []).append((x, y))
        return sum(not set(group).issubset(self._group(plain, *group[0])) for group in cells.values())

    def _random_clears(self, board, rng: np.random.Generator) -> int:
        """How many of ``PLAYOUTS`` games that click a random removable block each move clear ``board``."""
        clears = 0
        for _ in range(PLAYOUTS):
            b = board
            while b and (groups := self._components(b)):
                i = int(rng.integers(sum(map(len, groups))))  # a random block in some group
                for g in groups:
                    if i < len(g):
                        break
                    i -= len(g)
                b = self._remove(b, g)
            clears += not b
        return clears

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

    @staticmethod
    def _components(board) -> list[list[tuple[int, int]]]:
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

    def _groups(self, board) -> list[tuple[int, list]]:
        """(action, cells) for each removable group, named by its top-left-most cell."""
        return [(self._action(*min(g, key=lambda p: (-p[1], p[0]))), g) for g in self._components(board)]

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
        reward = (1 - CLEAR_BONUS) * len(g) / self.blocks
        if not self.board:
            return Outcome(reward=reward + CLEAR_BONUS, terminated=True, success=True, feedback="the board is clear")
        if not self._components(self.board):
            return Outcome(reward=reward, terminated=True, feedback=f"removed {len(g)} blocks; no group of two is left")
        return Outcome(reward=reward, feedback=f"removed {len(g)} blocks")

    def _progress(self) -> float:
        return 1.0 - sum(map(len, self.board)) / self.blocks

    # -- draw
    def _keys(self) -> list[list[int]]:
        """The colour shown on each cell, top row first (-1 empty); kept until the board changes."""
        if self._shown[0] is not self.board:
            keys = [[-1] * self.cols for _ in range(self.rows)]
            for x, col in enumerate(self.board):
                for y, v in enumerate(col):
                    keys[self.rows - 1 - y][x] = v
            self._shown = (self.board, keys)
        return self._shown[1]

    def _draw(self) -> np.ndarray:
        return self.grid_painter(self.rows, self.cols, self._tile).paint(self._keys())

    def _tile(self, key: int, h: int, w: int) -> np.ndarray:
        t = np.empty((h, w, 3), dtype=np.uint8)
        fill(t, EMPTY_C)
        if key >= 0:
            m = max(1, h // 10)
            fill(t[m:h - m, m:w - m], COLORS[key])
        return t

    def _task_text(self) -> str:
        *most, last = COLOR_NAMES[: self.colors]
        colours = f"{', '.join(most)} and {last}"
        return (f"This is SameGame on a board of {self.rows} rows and {self.cols} columns with {colours} blocks. "
                f"Columns are named A to {COLS[self.cols - 1]} from left to right and rows 1 to {self.rows} from top "
                "to bottom. Choosing a block removes its whole group: all blocks of the same colour connected to it "
                "up, down, left or right, if there are at least two. Blocks above then fall down, and an emptied "
                "column disappears with the columns on its right sliding left. Clear the whole board; if single "
                "blocks remain that cannot be removed, you lose.")

    def _state_text(self) -> str:
        return "\n".join("".join(".RBYGP"[k + 1] for k in row) for row in self._keys())

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
    TaskSpec(name="SameGame", entry_point=SameGame, version=1, max_episode_steps=40,
             tags=("puzzle", "planning", "grid")),
)
