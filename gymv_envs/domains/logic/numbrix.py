"""Numbrix: fill a grid with 1..n² so that consecutive numbers are orthogonal neighbours."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import blank_board, cell_text
from gymv_envs.domains.logic._grid import Budget, GridAnswerEnv
from gymv_envs.domains.logic._numbrix_solver import (
    ENUMERATED,
    all_paths,
    fewest_small,
    random_path,
    solve,
)

# difficulty -> (side, fewest givens tried: keeps the uniqueness search in its fast regime)
LEVELS = {0: (4, 1), 1: (5, 8), 2: (6, 12)}


class Numbrix(GridAnswerEnv):
    """Complete a Numbrix grid: 1..n² along a path of orthogonal steps.

    ## Description
    An ``n x n`` grid shows some of the numbers 1..n². Fill every empty cell so that each
    number from 1 to n² appears once and every number (except n²) has the next number in a
    cell directly above, below, left or right of it: the numbers trace a path through every
    cell. The solution is unique (checked by the solver at generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the full grid row by row (numbers separated by spaces
    or commas, ``/`` or newlines between rows, JSON lists accepted). ``"mcq"``: `Discrete(k)`
    over complete grids.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid with the given numbers.

    ## Rewards
    1.0 if the grid keeps the givens, uses 1..n² once each and consecutive numbers are
    orthogonal neighbours, else 0.0.

    ## Starting State
    A random Hamiltonian path (4x4: uniform over all 552; larger: a snake scrambled by
    backbite moves); numbers are revealed in
    a random order until the solution is unique (the fewest such givens; at least
    8 givens at 5x5 and 12 at 6x6, which keeps the uniqueness search fast).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, 1: 5x5, 2: 6x6), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    cell_kind = "number"
    _path: list | None = None

    def _configure(self) -> None:
        self.n, self.min_givens = LEVELS[self.difficulty]
        self.rows = self.cols = self.n
        self.answer_hint = (f"the completed grid as {self.n} rows of {self.n} numbers separated by spaces, rows "
                            f"separated by `/` (for example `{' '.join(str(i + 1) for i in range(self.n))} / ...`)")

    def _values(self) -> range:
        return range(1, self.n * self.n + 1)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        path = random_path(rng, n)
        order = [int(i) + 1 for i in rng.permutation(n * n)]
        if n <= ENUMERATED:
            k = max(self.min_givens, fewest_small(n, path, order))
        else:
            # the fewest givens order[:k] with one solution: a second solution found with k givens
            # also fits every prefix up to the first given where it leaves the path, so k jumps past it
            k, flat = self.min_givens, [r * n + c for r, c in path]
            while k < n * n:
                try:
                    sols = solve(n, {v: path[v - 1] for v in order[:k]}, 1, other_than=flat)
                except Budget:
                    k += 1
                    continue
                if not sols:
                    break
                other = sols[0]
                k = next(j for j in range(k, n * n) if other[order[j]] != path[order[j] - 1]) + 1
        self.givens = {v: path[v - 1] for v in order[:k]}
        self._path = path  # the givens' one solution
        cells = {cell: v for v, cell in self.givens.items()}
        self.given_at = cells
        self.free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in cells]

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        img, g = blank_board(self.obs_size, n, n)
        for (r, c), v in self.given_at.items():
            cell_text(img, g, r, c, str(v), scale=0.5)
        return img

    def _task_text(self) -> str:
        n, N = self.n, self.n * self.n
        return (f"The image shows a {n}x{n} Numbrix puzzle. Fill every empty cell with a number so that each number "
                f"from 1 to {N} appears exactly once and, for every number below {N}, the next number is in a cell "
                "directly above, below, left or right of it (so 1, 2, 3, ... form a path of orthogonal steps through "
                "every cell). Keep the given numbers.")

    def _state_text(self) -> str:
        return self._state_rows(lambda r, c: str(self.given_at.get((r, c), ".")))

    # -- verify
    def _check(self, answer) -> bool:
        n = self.n
        where = {v: (r, c) for r, row in enumerate(answer) for c, v in enumerate(row)}
        if sorted(where) != list(range(1, n * n + 1)) or any(where[v] != cell for v, cell in self.givens.items()):
            return False
        return all(abs(where[v][0] - where[v + 1][0]) + abs(where[v][1] - where[v + 1][1]) == 1 for v in range(1, n * n))

    # -- oracle
    def _solve(self):
        if self._path is not None:
            grid = [[0] * self.n for _ in range(self.n)]
            for v, (r, c) in enumerate(self._path, 1):
                grid[r][c] = v
            return tuple(tuple(row) for row in grid)
        if self.n <= ENUMERATED:
            paths = all_paths(self.n)
            ok = np.ones(len(paths), dtype=bool)
            for v, (r, c) in self.givens.items():
                ok &= paths[:, v - 1] == r * self.n + c
            at = {v + 1: divmod(int(i), self.n) for v, i in enumerate(paths[int(np.argmax(ok))])}
        else:
            at = solve(self.n, self.givens, limit=1, budget=10**8)[0]
        grid = [[0] * self.n for _ in range(self.n)]
        for v, (r, c) in at.items():
            grid[r][c] = v
        return tuple(tuple(row) for row in grid)


SPECS = (
    TaskSpec(name="Numbrix", entry_point=Numbrix, version=1, max_episode_steps=1,
             tags=("puzzle", "path", "constraint-satisfaction")),
)
