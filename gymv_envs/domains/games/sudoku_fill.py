"""Sudoku, filled cell by cell: complete the grid so every row, column and box holds each digit once."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import INK, draw_text, fit_text_size
from gymv_envs.core.cells import cell_names
from gymv_envs.rules.sudoku import peers, solve_search, solved_grid

# difficulty -> (box height, box width, blank cells)
LEVELS = {0: (2, 2, 6), 1: (2, 2, 10), 2: (3, 3, 36)}
COLS = "ABCDEFGHI"
LIGHT, SHADE, GIVEN_INK, ENTRY_INK, BAD_C = (250, 250, 246), (226, 230, 238), INK, (38, 90, 200), (250, 200, 200)


class SudokuFill(MultiTurnEnv):
    """Fill the blank cells of a Sudoku one entry at a time.

    ## Description
    An ``n x n`` Sudoku (4x4 with 2x2 boxes, or 9x9 with 3x3 boxes) with some digits given.
    Each step writes one digit into one non-given cell (overwriting what was there). Wrong
    entries are allowed: an entry that repeats a digit in its row, column or box is shown on
    a red cell and reported in the feedback. The puzzle is solved when every cell is filled
    and no row, column or box repeats a digit.

    ## Action Space
    `Discrete(n*n*n)`: ``<cell>=<digit>``, e.g. ``B3=4`` (column letter from the left, row
    number from the top). Writing into a given cell, or the digit a cell already holds, is
    invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid; boxes alternate white and light blue-gray,
    given digits are black, entries blue, conflicting entries on red.

    ## Rewards
    1.0 when the grid is solved, else 0.0 (``max_return`` 1.0).

    ## Starting State
    A random complete grid (a base pattern with shuffled digits, rows within bands, bands,
    columns within stacks and stacks) with random cells blanked.

    ## Episode End
    Terminates with success when the grid is solved; the step budget truncates.

    ## Arguments
    ``difficulty`` (0: 4x4, 6 blanks; 1: 4x4, 10 blanks; 2: 9x9, 36 blanks), ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    reply_tail = 2000  # hundreds of action names

    def _configure(self) -> None:
        self.bh, self.bw, self.blanks = LEVELS[self.difficulty]
        n = self.n = self.bh * self.bw
        self.action_names = tuple(f"{name}={v}" for name in cell_names(n, n) for v in range(1, n + 1))
        self.peers = peers(n, self.bh, self.bw)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        full = solved_grid(rng, n, self.bh, self.bw)
        self.given = [True] * (n * n)
        for i in rng.choice(n * n, size=self.blanks, replace=False):
            self.given[int(i)] = False
        self.grid = [v if g else 0 for v, g in zip(full, self.given)]
        self._solution = None
        self._refresh()

    # -- rules
    def _conflict(self, i: int) -> bool:
        v = self.grid[i]
        return bool(v) and any(self.grid[j] == v for j in self.peers[i])

    def _refresh(self) -> None:
        """Recompute what the grid decides (conflicts, tile keys, progress, state text) after it changed."""
        n, grid, given = self.n, self.grid, self.given
        self._bad = bad = [self._conflict(i) for i in range(n * n)]
        self._keys = [[(grid[i], given[i], bad[i] and not given[i], (r // self.bh + c // self.bw) % 2)
                       for c, i in enumerate(range(r * n, (r + 1) * n))] for r in range(n)]
        open_ = [i for i, g in enumerate(given) if not g]
        self._right_share = sum(1 for i in open_ if grid[i] and not bad[i]) / len(open_)
        self._text = "\n".join("".join(str(v) if v else "." for v in grid[r * n:(r + 1) * n]) for r in range(n))

    def _apply(self, action: int) -> Outcome:
        cell, v = divmod(action, self.n)
        v += 1
        name = self.action_names[action]
        if self.given[cell]:
            return Outcome(invalid=True, feedback=f"{name[:name.index('=')]} is a given cell")
        if self.grid[cell] == v:
            return Outcome(invalid=True, feedback=f"{name[:name.index('=')]} already holds {v}")
        self.grid[cell] = v
        self._refresh()
        done = all(self.grid) and not any(self._bad)
        if done:
            return Outcome(reward=1.0, terminated=True, success=True, feedback="the grid is solved")
        return Outcome(feedback=f"wrote {name}" + (" (it repeats a digit in its row, column or box)" if self._bad[cell] else ""))

    def _progress(self) -> float:
        return 1.0 if self._success else self._right_share

    # -- draw
    def _draw(self) -> np.ndarray:
        return self.grid_painter(self.n, self.n, self._tile).paint(self._keys)

    def _tile(self, key: tuple, h: int, w: int) -> np.ndarray:
        v, given, bad, shade = key
        t = np.empty((h, w, 3), dtype=np.uint8)
        t[...] = BAD_C if bad else SHADE if shade else LIGHT
        if v:
            draw_text(t, str(v), (w / 2, h / 2), fit_text_size("8", int(w * 0.7), int(h * 0.6), bold=given),
                      GIVEN_INK if given else ENTRY_INK, bold=given)
        return t

    def _task_text(self) -> str:
        n = self.n
        return (f"This is a {n}x{n} Sudoku with {self.bh}x{self.bw} boxes (boxes alternate white and light gray). "
                f"Fill every empty cell with a digit 1-{n} so that each row, each column and each box holds every "
                "digit exactly once. Black digits are given and cannot change; your entries are blue and can be "
                "overwritten; an entry that repeats a digit in its row, column or box is shown on red. Cells are "
                f"named by column letter A-{COLS[n - 1]} from the left and row number 1-{n} from the top.")

    def _state_text(self) -> str:
        return self._text

    @property
    def action_prompt(self) -> str:
        return (f"Each turn, write one digit into one cell as <cell>=<digit>, with the cell as column letter "
                f"A-{COLS[self.n - 1]} and row number 1-{self.n}.\nEnd your reply with a line like `Action: B3=2`.")

    # -- oracle
    def oracle_action(self) -> int:
        if self._solution is None:
            self._solution = solve_search([v if g else 0 for v, g in zip(self.grid, self.given)], self.n, self.bh, self.bw)
        for i, v in enumerate(self._solution):
            if self.grid[i] != v:
                return i * self.n + v - 1
        return 0


SPECS = (
    TaskSpec(name="SudokuFill", entry_point=SudokuFill, version=1, max_episode_steps=150,
             tags=("puzzle", "logic", "grid")),
)
