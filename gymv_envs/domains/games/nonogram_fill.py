"""Nonogram, filled cell by cell: blacken the cells so every row and column matches its clue."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import INK, draw_text, fit_text_size
from gymv_envs.core.cells import cell_names
from gymv_envs.rules.nonogram import line_solve, runs

# difficulty -> (board side, share of filled cells)
LEVELS = {0: (4, 0.6), 1: (6, 0.6), 2: (8, 0.6)}
COLS = "ABCDEFGHIJ"
EMPTY_C, FILL_C, CLUE_C = (250, 250, 246), (34, 36, 44), (226, 232, 240)


class NonogramFill(MultiTurnEnv):
    """Blacken the cells of a nonogram one at a time until every clue is met.

    ## Description
    An ``n x n`` grid with a clue left of each row and above each column: the lengths of the
    runs of black cells in that line, in order. Each step fills or clears one cell. Wrong
    entries are allowed and are not flagged (only the clues tell); the puzzle is solved when
    every row and column matches its clue.

    ## Action Space
    `Discrete(2*n*n)`: ``fill <cell>`` and ``clear <cell>``, e.g. ``fill B3`` (column letter
    from the left, row number from the top). Filling a black cell or clearing a white one is
    invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the clue numbers on gray cells above and left of the
    grid; black cells filled, white cells empty.

    ## Rewards
    1.0 when every clue is met, else 0.0 (``max_return`` 1.0).

    ## Starting State
    An empty grid; the clues come from a random picture that line-by-line deduction solves
    completely (redrawn otherwise), so the solution is unique.

    ## Episode End
    Terminates with success when every clue is met; the step budget truncates.

    ## Arguments
    ``difficulty`` (0: 4x4; 1: 6x6; 2: 8x8; about 60% black), ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    reply_tail = 2000  # hundreds of action names

    def _configure(self) -> None:
        self.n, self.share = LEVELS[self.difficulty]
        n = self.n
        self.depth = (n + 1) // 2
        self.action_names = tuple(f"{verb} {name}" for verb in ("fill", "clear") for name in cell_names(n, n))

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        while True:
            pic = (rng.random((n, n)) < self.share).astype(int)
            self.row_clues = tuple(runs(pic[r]) for r in range(n))
            self.col_clues = tuple(runs(pic[:, c]) for c in range(n))
            solved = line_solve(self.row_clues, self.col_clues, n)
            if solved is not None:
                self._solution = [v for row in solved for v in row]
                break
        self.grid = [0] * (n * n)
        # which rows and columns match their clue, and the board's keys (`_apply` updates the changed ones)
        self._row_ok = [runs(self.grid[r * n:(r + 1) * n]) == self.row_clues[r] for r in range(n)]
        self._col_ok = [runs(self.grid[c::n]) == self.col_clues[c] for c in range(n)]
        self._keys = self._board_keys()
        rows = [" ".join(map(str, self.row_clues[r])).rjust(2 * self.depth) + " | " + "{}" * n for r in range(n)]
        self._text = ("columns: " + ", ".join(" ".join(map(str, c)) or "0" for c in self.col_clues) + "\n"
                      + "\n".join(rows))

    # -- rules
    def _apply(self, action: int) -> Outcome:
        fill, i = action < self.n * self.n, action % (self.n * self.n)
        name = self.action_names[action]
        if self.grid[i] == int(fill):
            return Outcome(invalid=True, feedback=f"{name.split()[1]} is already {'black' if fill else 'white'}")
        self.grid[i] = int(fill)
        n = self.n
        r, c = divmod(i, n)
        self._row_ok[r] = runs(self.grid[r * n:(r + 1) * n]) == self.row_clues[r]
        self._col_ok[c] = runs(self.grid[c::n]) == self.col_clues[c]
        self._keys[self.depth + r][self.depth + c] = ("#" if fill else ".", False)
        done = all(self._row_ok) and all(self._col_ok)
        return Outcome(reward=float(done), terminated=done, success=done,
                       feedback="every clue is met" if done else f"{'filled' if fill else 'cleared'} {name.split()[1]}")

    def _progress(self) -> float:
        if self._success:
            return 1.0
        return (sum(self._row_ok) + sum(self._col_ok)) / (2 * self.n + 1)

    # -- draw
    def _draw(self) -> np.ndarray:
        n, d = self.n, self.depth
        return self.grid_painter(n + d, n + d, self._tile).paint(self._keys)

    def _board_keys(self) -> list[list[tuple[str, bool]]]:
        """Per board cell, its tile key: clue numbers in the top and left bands, then the grid."""
        n, d = self.n, self.depth
        keys = [[("", True)] * (n + d) for _ in range(n + d)]
        for c, clue in enumerate(self.col_clues):
            for j, v in enumerate(clue):
                keys[d - len(clue) + j][d + c] = (str(v), True)
        for r, clue in enumerate(self.row_clues):
            for j, v in enumerate(clue):
                keys[d + r][d - len(clue) + j] = (str(v), True)
            for c in range(n):
                keys[d + r][d + c] = ("#" if self.grid[r * n + c] else ".", False)
        return keys

    def _tile(self, key: tuple, h: int, w: int) -> np.ndarray:
        text, clue = key
        t = np.empty((h, w, 3), dtype=np.uint8)
        t[...] = CLUE_C if clue else FILL_C if text == "#" else EMPTY_C
        if clue and text:
            draw_text(t, text, (w / 2, h / 2), fit_text_size("8", int(w * 0.8), int(h * 0.7)), INK)
        return t

    def _task_text(self) -> str:
        n = self.n
        return (f"This is a {n}x{n} nonogram. The numbers left of each row and above each column give the lengths of "
                "the runs of black cells in that line, in order, with at least one white cell between runs. Fill "
                "cells black (or clear them back to white) until every row and column matches its numbers. Cells "
                f"are named by column letter A-{COLS[n - 1]} from the left and row number 1-{n} from the top.")

    def _state_text(self) -> str:
        return self._text.format(*map(".#".__getitem__, self.grid))

    @property
    def action_prompt(self) -> str:
        return (f"Each turn, reply with `fill <cell>` or `clear <cell>`, the cell as column letter A-{COLS[self.n - 1]} "
                f"and row number 1-{self.n}.\nEnd your reply with a line like `Action: fill B3`.")

    # -- oracle
    def oracle_action(self) -> int:
        """Move the grid towards the line solver's picture (found at generation from the clues alone)."""
        for i, v in enumerate(self._solution):
            if self.grid[i] != v:
                return i if v else self.n * self.n + i
        return 0


SPECS = (
    TaskSpec(name="NonogramFill", entry_point=NonogramFill, version=1, max_episode_steps=150,
             tags=("puzzle", "logic", "grid")),
)
