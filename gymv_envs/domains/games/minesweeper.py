"""Minesweeper: open every safe cell without opening a mine; no guessing is ever needed."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import PALETTE, draw_text, fit_text_size, shape_mask
from gymv_envs.core.cells import cell_names

# difficulty -> (board side, mines)
LEVELS = {0: (6, 5), 1: (8, 10), 2: (9, 14)}
COLS = "ABCDEFGHI"
SYMBOLS = {"mine": "*", "flag": "F", "closed": "#"}  # the state text of a cell that shows no count
HIDDEN_C, HIDDEN_EDGE, OPEN_C, MINE_C = (150, 160, 176), (110, 118, 132), (232, 232, 226), (200, 40, 40)
NUM_C = {1: (38, 90, 200), 2: (40, 140, 60), 3: (200, 40, 40), 4: (40, 30, 140), 5: (130, 40, 30),
         6: (30, 130, 140), 7: (30, 30, 30), 8: (110, 110, 110)}


class Minesweeper(MultiTurnEnv):
    """Open every cell that holds no mine; numbers count the mines around a cell.

    ## Description
    An ``n x n`` board hides ``m`` mines. Opening a cell shows how many of its (up to eight)
    neighbours hold mines; a 0 opens its neighbours automatically. Opening a mine loses.
    Flags mark cells you believe are mines (they only block opening). Boards are generated so
    that logical deduction from the first opened area finds every safe cell: no guess is needed.

    ## Action Space
    `Discrete(2*n*n)`: ``open <cell>`` and ``flag <cell>`` (flag toggles), e.g. ``open C4``
    (column letter from the left, row number from the top). Opening an open or flagged cell,
    or flagging an open cell, is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: gray raised cells are closed, light cells open with their
    number (blank for 0), red triangles flags, a red disc an opened mine.

    ## Rewards
    The share of the safe cells that were still closed at the start, for each cell opened;
    the sum is 1.0 when every safe cell is open (``max_return`` 1.0). Opening a mine forfeits
    what the game earned (its reward is minus the sum so far), so a lost game returns 0.

    ## Starting State
    Random mines, none next to a random first cell, which is already opened (a 0, so an area
    opens). Boards that deduction cannot finish from there are redrawn.

    ## Episode End
    Terminates with success when every safe cell is open, in failure when a mine is opened;
    the step budget truncates.

    ## Arguments
    ``difficulty`` (0: 6x6, 5 mines; 1: 8x8, 10 mines; 2: 9x9, 14 mines), ``obs_size``.

    ## Version History
    - v0: initial version. The oracle is the deduction solver, reading only the open numbers.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws). A mine
      forfeits the reward earned (random play, which always loses, scored 22-27 from the cells it
      opened before its mine).
    """

    reply_tail = 2000  # hundreds of action names

    def _configure(self) -> None:
        self.n, self.m = LEVELS[self.difficulty]
        n = self.n
        self.action_names = tuple(f"{v} {name}" for v in ("open", "flag") for name in cell_names(n, n))
        self.nbrs = tuple(tuple((r + dr) * n + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                                if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n) for r in range(n) for c in range(n))

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        while True:
            first = int(rng.integers(n * n))
            free = [i for i in range(n * n) if i != first and i not in self.nbrs[first]]
            self.mines = frozenset(int(i) for i in rng.choice(free, size=self.m, replace=False))
            self.counts = tuple(sum(j in self.mines for j in self.nbrs[i]) for i in range(n * n))
            self.opened, self.flags = set(), set()
            self._open(first)
            start = set(self.opened)
            while (safe := self._deduce()) :
                for i in safe:
                    self._open(i)
            if len(self.opened) == n * n - self.m:
                self.opened, self._closed_start = start, n * n - self.m - len(start)
                self._earned = 0.0  # the reward of this game's openings so far
                self._shown_for = None  # what `_shown` last worked out, and for which cells
                if self._closed_start > 0:
                    return

    def _open(self, i: int) -> None:
        stack = [i]
        while stack:
            j = stack.pop()
            if j in self.opened:
                continue
            self.opened.add(j)
            if self.counts[j] == 0:
                stack.extend(k for k in self.nbrs[j] if k not in self.opened)

    def _deduce(self) -> set[int]:
        """Closed cells proven safe from the open numbers (single-cell and subset rules)."""
        cons, mines = [], set()
        for _ in range(3):
            cons = []
            for i in self.opened:
                if self.counts[i]:
                    unknown = frozenset(j for j in self.nbrs[i] if j not in self.opened and j not in mines)
                    if unknown:
                        cons.append((unknown, self.counts[i] - sum(j in mines for j in self.nbrs[i])))
            grew = False
            for u, k in cons:
                if k == len(u) and not u <= mines:
                    mines |= u
                    grew = True
            if not grew:
                break
        safe = set()
        for u, k in cons:
            if k == 0:
                safe |= u
        if not safe:
            for a, ka in cons:
                for b, kb in cons:
                    if a < b and ka == kb:
                        safe |= b - a
        return safe - mines

    # -- rules
    def _apply(self, action: int) -> Outcome:
        flag, i = action >= self.n * self.n, action % (self.n * self.n)
        cell = self.action_names[action].split()[1]
        if i in self.opened:
            return Outcome(invalid=True, feedback=f"{cell} is already open")
        if flag:
            self.flags ^= {i}
            return Outcome(feedback=f"{'flagged' if i in self.flags else 'unflagged'} {cell}")
        if i in self.flags:
            return Outcome(invalid=True, feedback=f"{cell} is flagged; unflag it first")
        if i in self.mines:  # a lost game forfeits what its openings earned
            self.opened.add(i)
            return Outcome(reward=-self._earned, terminated=True, feedback=f"{cell} was a mine; the game is lost")
        before = len(self.opened)
        self._open(i)
        self.flags -= self.opened
        done = len(self.opened) == self.n * self.n - self.m
        reward = (len(self.opened) - before) / self._closed_start
        self._earned += reward
        return Outcome(reward=reward, terminated=done, success=done,
                       feedback="every safe cell is open" if done else f"opened {cell}")

    def _progress(self) -> float:
        safe_open = len(self.opened - self.mines)
        return 1.0 - (self.n * self.n - self.m - safe_open) / self._closed_start

    # -- draw
    def _shown(self) -> tuple[list[list[object]], str]:
        """What each cell shows (its count, ``"mine"``, ``"flag"`` or ``"closed"``), row by row, and the
        state text. Worked out again only when a cell opens or a flag changes: open cells only grow
        within a game, so their number and the flags say what the board shows."""
        key = (len(self.opened), frozenset(self.flags))
        if self._shown_for is None or self._shown_for[0] != key:
            n = self.n
            keys = [[("mine" if i in self.mines else self.counts[i]) if i in self.opened else "flag" if i in self.flags
                     else "closed" for i in range(r * n, (r + 1) * n)] for r in range(n)]
            text = "\n".join("".join(SYMBOLS.get(k) or str(k) for k in row) for row in keys)
            self._shown_for = (key, keys, text)
        return self._shown_for[1], self._shown_for[2]

    def _draw(self) -> np.ndarray:
        n = self.n
        return self.grid_painter(n, n, self._tile).paint(self._shown()[0])

    def _tile(self, key, h: int, w: int) -> np.ndarray:
        t = np.empty((h, w, 3), dtype=np.float32)
        t[...] = OPEN_C if isinstance(key, int) or key == "mine" else HIDDEN_EDGE
        if key in ("closed", "flag"):
            e = max(1, h // 10)
            t[e:h - e, e:w - e] = HIDDEN_C
        if key in ("flag", "mine"):
            d = max(1, int(h * 0.6))
            o = (h - d) // 2
            mk = shape_mask("triangle" if key == "flag" else "circle", d)[..., None] / 255.0
            region = t[o:o + d, o:o + d]
            region[...] = region * (1 - mk) + np.asarray(PALETTE["red"] if key == "flag" else MINE_C, np.float32) * mk
        t = t.astype(np.uint8)
        if isinstance(key, int) and key > 0:
            draw_text(t, str(key), (w / 2, h / 2), fit_text_size("8", int(w * 0.7), int(h * 0.65), bold=True),
                      NUM_C[key], bold=True)
        return t

    def _task_text(self) -> str:
        n = self.n
        return (f"This is Minesweeper on a {n}x{n} board with {self.m} mines. Gray raised cells are closed; open "
                "cells show how many of their eight neighbours hold a mine (blank means none). Open every cell that "
                "has no mine; opening a mine loses. Red triangles are your flags. Every safe cell can be found by "
                f"logic alone. Cells are named by column letter A-{COLS[n - 1]} from the left and row number 1-{n} "
                "from the top.")

    def _state_text(self) -> str:
        return self._shown()[1]

    @property
    def action_prompt(self) -> str:
        return (f"Each turn, reply with `open <cell>` or `flag <cell>`, the cell as column letter A-{COLS[self.n - 1]} "
                f"and row number 1-{self.n}.\nEnd your reply with a line like `Action: open C4`.")

    # -- oracle
    def oracle_action(self) -> int:
        safe = sorted(i for i in self._deduce() if i not in self.flags)
        if safe:
            return safe[0]
        flagged = sorted(self.flags - self.mines)
        return self.n * self.n + flagged[0] if flagged else 0


SPECS = (
    TaskSpec(name="Minesweeper", entry_point=Minesweeper, version=1, max_episode_steps=150,
             tags=("puzzle", "logic", "grid")),
)
