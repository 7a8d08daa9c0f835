"""Match-3 swap: name the adjacent swap that clears the most gems."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.board import Board
from gymv_envs.core.canvas import PALETTE, draw_shape
from gymv_envs.core.cells import cell_name, find_cells

SIZES = {0: 5, 1: 6, 2: 8}
KINDS = {0: 4, 1: 5, 2: 6}
GEMS = (("red", "circle"), ("blue", "square"), ("green", "triangle"), ("yellow", "diamond"),
        ("purple", "star"), ("orange", "hexagon"))


def cleared(g: np.ndarray) -> int:
    """Cells in horizontal or vertical runs of three or more equal gems."""
    hit = np.zeros(g.shape, dtype=bool)
    row = (g[:, :-2] == g[:, 1:-1]) & (g[:, 1:-1] == g[:, 2:])
    col = (g[:-2] == g[1:-1]) & (g[1:-1] == g[2:])
    for k in range(3):
        hit[:, k:g.shape[1] - 2 + k] |= row
        hit[k:g.shape[0] - 2 + k] |= col
    return int(hit.sum())


class Match3Swap(SingleTurnEnv):
    """Find the swap of two neighbouring gems that clears the most gems.

    ## Description
    An ``n x n`` board of coloured gems (each colour has its own shape) has no line of three
    yet. Swapping two horizontally or vertically adjacent gems clears every gem that is then
    in a row or column run of three or more equal gems (no cascades are counted). Any swap
    clearing the most gems is accepted.

    ## Action Space
    ``"open"``: `Text`, two adjacent cells such as ``B3 C3`` (column letter, row number from
    the top; either order). ``"mcq"``: `Discrete(k)` over swaps.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with column letters and row numbers.

    ## Rewards
    1.0 for a best swap, else 0.0.

    ## Starting State
    Random 5x5/4 kinds (difficulty 0), 6x6/5 (1) or 8x8/6 (2) boards without a line of three
    and with at least one clearing swap.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "two adjacent cells to swap, such as `B3 C3` (column letter, row number from the top)"

    def _configure(self) -> None:
        self.n, self.kinds = SIZES[self.difficulty], KINDS[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        while True:
            g = rng.integers(self.kinds, size=(n, n))
            for _ in range(50):
                if not cleared(g):
                    break
                g[int(rng.integers(n)), int(rng.integers(n))] = int(rng.integers(self.kinds))
            if cleared(g):
                continue
            self.grid = g
            self.scores = {s: self._score(s) for s in self._swaps()}
            self.best = max(self.scores.values())
            if self.best > 0:
                return

    def _swaps(self) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        n = self.n
        return [((r, c), (r + dr, c + dc)) for r in range(n) for c in range(n)
                for dr, dc in ((0, 1), (1, 0)) if r + dr < n and c + dc < n]

    def _score(self, swap) -> int:
        (a, b) = swap
        g = self.grid.copy()
        g[a], g[b] = g[b], g[a]
        return cleared(g)

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        b = Board(H, W, self.n, self.n)
        img = b.paint()
        for r in range(self.n):
            for c in range(self.n):
                colour, shape = GEMS[int(self.grid[r, c])]
                draw_shape(img, shape, *b.center(r, c), max(3, int(b.cell * 0.72)), PALETTE[colour])
        return img

    def _task_text(self) -> str:
        return (f"The image shows a {self.n}x{self.n} match-3 board. Swapping two horizontally or vertically "
                "adjacent gems clears every gem that is then part of a row or column line of three or more "
                "equal gems (no chain reactions). Which swap clears the most gems?")

    def _parse_answer(self, text: str):
        cells = find_cells(text, self.n, self.n)
        if not cells or len(cells) != 2:
            return None
        a, b = sorted(cells)
        return (a, b) if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 else None

    def _check(self, answer) -> bool:
        return self.scores.get(tuple(sorted(answer)), -1) == self.best

    def _format(self, answer) -> str:
        return " ".join(cell_name(r, c) for r, c in answer)

    def _solve(self):
        return next(s for s in self._swaps() if self.scores[s] == self.best)

    def _near_misses(self, rng: np.random.Generator) -> list:
        worse = [s for s in self._swaps() if self.scores[s] < self.best]
        worse.sort(key=lambda s: (-self.scores[s], rng.random()))  # clearing-but-smaller swaps first
        return worse

    def _state_text(self) -> str:
        return "\n".join(" ".join(GEMS[int(v)][0][0].upper() for v in row) for row in self.grid)


SPECS = (
    TaskSpec(name="Match3Swap", entry_point=Match3Swap, version=1, max_episode_steps=1,
             tags=("game", "spatial-reasoning", "search")),
)
