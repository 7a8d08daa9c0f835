"""SameGame: clear the board by removing groups of same-coloured blocks."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import PALETTE, fill
from gymv_envs.core.cells import cell_names
from gymv_envs.domains.games._same_game_board import (
    build,
    group_at,
    random_clears,
    removable_groups,
    remove,
)

MAX_SIDE = 6
# difficulty -> (rows, cols, colours, blocks)
LEVELS = {0: (4, 4, 4, 12), 1: (5, 5, 4, 16), 2: (6, 6, 4, 24)}
COLS = "ABCDEF"
COLOR_NAMES = ("red", "blue", "yellow", "green", "purple")
COLORS = tuple(PALETTE[name] for name in COLOR_NAMES)
EMPTY_C = (236, 236, 230)
SOLVER_NODES = 20_000
BOARD_CHOICES = 4    # candidate boards per level; the one random play clears least wins
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
        boards = [build(rng, self.rows, self.cols, self.colors, self.blocks) for _ in range(BOARD_CHOICES)]
        self.board = min(boards, key=lambda b: random_clears(b, rng))
        self._plan: dict = {}
        self._shown: tuple = (None, None)

    def _groups(self, board) -> list[tuple[int, list]]:
        """(action, cells) for each removable group, named by its top-left-most cell."""
        return [(self._action(*min(g, key=lambda p: (-p[1], p[0]))), g) for g in removable_groups(board)]

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
        g = group_at(self.board, x, y)
        if len(g) < 2:
            return Outcome(invalid=True, feedback=f"the block on {self.action_names[action]} has no same-coloured neighbour")
        self.board = remove(self.board, g)
        reward = (1 - CLEAR_BONUS) * len(g) / self.blocks
        if not self.board:
            return Outcome(reward=reward + CLEAR_BONUS, terminated=True, success=True, feedback="the board is clear")
        if not removable_groups(self.board):
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
            rest = self._solve(remove(board, g), dead, budget)
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
                board = remove(board, group_at(board, x, self.rows - 1 - r))
        return self._plan[self.board]


SPECS = (
    TaskSpec(name="SameGame", entry_point=SameGame, version=1, max_episode_steps=40,
             tags=("puzzle", "planning", "grid")),
)
