"""Pipes: rotate tiles until every pipe end meets another one."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.cells import cell_names
from gymv_envs.rules.pipes import DOWN, LEFT, RIGHT, UP, open_ends, rotate, solve_pipes

# difficulty -> board side
LEVELS = {0: 4, 1: 5, 2: 6}
COLS = "ABCDEF"
SIDES = ((UP, -1, 0, DOWN), (RIGHT, 0, 1, LEFT), (DOWN, 1, 0, UP), (LEFT, 0, -1, RIGHT))
BG, PIPE_C, HUB_C = (238, 236, 228), (60, 110, 170), (30, 60, 110)


class Pipes(MultiTurnEnv):
    """Rotate the pipe tiles so that all pipes join into one network with no open ends.

    ## Description
    An ``n x n`` grid of pipe tiles (ends, straights, bends, T-pieces). Each step turns one tile
    a quarter turn clockwise. The puzzle is solved when every pipe opening meets an opening of
    the neighbouring tile and no opening points off the board. The level is a random spanning
    tree of the grid with every tile turned at random, so a solution always exists.

    ## Action Space
    `Discrete(n*n)`: ``rotate <cell>``, e.g. ``rotate B3`` (column letter from the left, row
    number from the top). Turning a tile that looks the same turned (a cross) is invalid.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the tiles; blue bars from each tile's centre show its
    openings.

    ## Rewards
    1.0 when no opening is left unmatched, else 0.0 (``max_return`` 1.0).

    ## Starting State
    A random spanning tree (randomised depth-first search), each tile turned 0-3 quarter
    turns at random (redrawn if already solved).

    ## Episode End
    Terminates with success when no opening is unmatched; the step budget truncates.

    ## Arguments
    ``difficulty`` (0: 4x4; 1: 5x5; 2: 6x6), ``obs_size``.

    ## Version History
    - v0: initial version. The oracle solves the drawn tiles by backtracking search (the
      solver of `PipesConnect`) and turns each tile to that solution.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    reply_tail = 2000  # hundreds of action names

    def _configure(self) -> None:
        self.n = LEVELS[self.difficulty]
        self.action_names = tuple(f"rotate {name}" for name in cell_names(self.n, self.n))
        n = self.n
        # per tile, its four sides: (bit, neighbour's index or -1 off the board, the neighbour's facing bit)
        self._sides = tuple(tuple((bit, (r + dr) * n + c + dc if 0 <= r + dr < n and 0 <= c + dc < n else -1, back)
                                  for bit, dr, dc, back in SIDES) for r in range(n) for c in range(n))
        self._text = "\n".join([" ".join(["{:x}"] * n)] * n)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        while True:
            sol = [0] * (n * n)
            start = int(rng.integers(n * n))
            seen, stack = {start}, [start]
            while stack:
                i = stack[-1]
                r, c = divmod(i, n)
                opts = [(bit, (r + dr) * n + c + dc, back) for bit, dr, dc, back in SIDES
                        if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in seen]
                if not opts:
                    stack.pop()
                    continue
                bit, j, back = opts[int(rng.integers(len(opts)))]
                sol[i] |= bit
                sol[j] |= back
                seen.add(j)
                stack.append(j)
            tiles = list(sol)
            for i in range(n * n):
                for _ in range(int(rng.integers(4))):
                    tiles[i] = rotate(tiles[i], 1)
            self.tiles, self._target = tiles, None
            self._open = open_ends(self._rows())  # kept up to date by `_apply`
            self._ends = sum(bin(m).count("1") for m in tiles)  # turning keeps the number of openings
            if self._open:
                return

    def _rows(self) -> list[list[int]]:
        n = self.n
        return [self.tiles[r * n:(r + 1) * n] for r in range(n)]

    # -- rules
    def _apply(self, action: int) -> Outcome:
        m = self.tiles[action]
        if rotate(m, 1) == m:
            return Outcome(invalid=True, feedback=f"turning {self.action_names[action][7:]} changes nothing")
        self.tiles[action] = turned = rotate(m, 1)
        self._open += self._side_open(action, turned) - self._side_open(action, m)
        done = self._open == 0
        return Outcome(reward=float(done), terminated=done, success=done,
                       feedback="every pipe end is connected" if done else f"turned {self.action_names[action][7:]}")

    def _side_open(self, i: int, m: int) -> int:
        """Unmatched openings across tile ``i``'s four sides if it showed ``m``: on each side, an opening
        of one tile without one facing it (off the board, nothing faces it)."""
        tiles = self.tiles
        return sum((m & bit != 0) != (j >= 0 and tiles[j] & back != 0) for bit, j, back in self._sides[i])

    def _progress(self) -> float:
        return 1.0 if self._success else 1.0 - self._open / max(1, self._ends)

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        return self.grid_painter(n, n, self._tile).paint(self._rows())

    def _tile(self, m: int, h: int, w: int) -> np.ndarray:
        t = np.empty((h, w, 3), dtype=np.uint8)
        t[...] = BG
        a, b = int(h * 0.38), h - int(h * 0.38)
        if m & UP:
            t[:b, a:b] = PIPE_C
        if m & DOWN:
            t[a:, a:b] = PIPE_C
        if m & LEFT:
            t[a:b, :b] = PIPE_C
        if m & RIGHT:
            t[a:b, a:] = PIPE_C
        if bin(m).count("1") == 1:
            q = max(1, h // 5)
            t[h // 2 - q:h // 2 + q, w // 2 - q:w // 2 + q] = HUB_C
        return t

    def _task_text(self) -> str:
        n = self.n
        return (f"This is a pipe puzzle on a {n}x{n} grid. Each tile shows blue pipes from its centre to some of its "
                "four sides. Each move turns one tile a quarter turn clockwise. Turn the tiles so that every pipe "
                "end meets a pipe end of the neighbouring tile and no pipe points off the board. Tiles are named by "
                f"column letter A-{COLS[n - 1]} from the left and row number 1-{n} from the top.")

    def _state_text(self) -> str:
        return self._text.format(*self.tiles)

    @property
    def action_prompt(self) -> str:
        return (f"Each turn, reply with `rotate <cell>`, the cell as column letter A-{COLS[self.n - 1]} and row "
                f"number 1-{self.n}.\nEnd your reply with a line like `Action: rotate B3`.")

    # -- oracle
    def oracle_action(self) -> int:
        """Turn the first tile that differs from a solution the solver finds (it knows only the
        tiles, not how the level was made), one quarter turn at a time."""
        if self._target is None:
            n, rows = self.n, self._rows()
            (turns,) = solve_pipes(rows, limit=1)
            self._target = [rotate(rows[r][c], turns[r][c]) for r in range(n) for c in range(n)]
        for i, (m, t) in enumerate(zip(self.tiles, self._target)):
            if m != t:
                return i
        return 0


SPECS = (
    TaskSpec(name="Pipes", entry_point=Pipes, version=1, max_episode_steps=150,
             tags=("puzzle", "grid")),
)
