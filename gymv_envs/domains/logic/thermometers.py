"""Thermometers: fill thermometers from their bulbs so every row and column has its count."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import blank_board, cell_text
from gymv_envs.core.canvas import BACKGROUND, draw_shape, fill_rect
from gymv_envs.domains.logic._grid import Budget, GridAnswerEnv

# difficulty -> (side, longest thermometer)
LEVELS = {0: (4, 3), 1: (5, 4), 2: (6, 5)}
TUBE = (150, 155, 170)


def solve(n: int, thermos: list, row_counts: list, col_counts: list, limit: int = 2, budget: int = 50_000) -> list:
    """Fill levels (one per thermometer) that give every row and column its count.

    The thermometers are decided in reading order of their first cells (rows close early, which
    prunes the search; the levels are returned in the given order)."""
    order = sorted(range(len(thermos)), key=lambda k: min(thermos[k]))
    if order != list(range(len(thermos))):
        place = {k: i for i, k in enumerate(order)}
        found = solve(n, [thermos[k] for k in order], row_counts, col_counts, limit, budget)
        return [tuple(s[place[k]] for k in range(len(thermos))) for s in found]
    row_left, col_left = [0] * n, [0] * n  # cells of thermometers not yet decided
    for t in thermos:
        for r, c in t:
            row_left[r] += 1
            col_left[c] += 1
    rows, cols = [0] * n, [0] * n
    levels, out, nodes = [], [], [0]

    def fits() -> bool:
        return all(rows[i] <= row_counts[i] <= rows[i] + row_left[i] and cols[i] <= col_counts[i] <= cols[i] + col_left[i]
                   for i in range(n))

    # only the lines a thermometer crosses change while it is decided; the others fit already (checked
    # once at the root), so each node tests those lines: the same nodes as testing every line
    lines = [(sorted({r for r, _ in t}), sorted({c for _, c in t})) for t in thermos]

    def fits_lines(k: int) -> bool:
        ls_r, ls_c = lines[k]
        return (all(rows[i] <= row_counts[i] <= rows[i] + row_left[i] for i in ls_r)
                and all(cols[i] <= col_counts[i] <= cols[i] + col_left[i] for i in ls_c))

    def rec(k: int) -> None:
        if k == len(thermos):
            out.append(tuple(levels))
            return
        t = thermos[k]
        for r, c in t:
            row_left[r] -= 1
            col_left[c] -= 1
        for level in range(len(t) + 1):
            nodes[0] += 1
            if nodes[0] > budget:
                raise Budget
            if level:
                r, c = t[level - 1]
                rows[r] += 1
                cols[c] += 1
            if fits_lines(k):
                levels.append(level)
                rec(k + 1)
                levels.pop()
                if len(out) >= limit:
                    break
        for r, c in t[:level]:
            rows[r] -= 1
            cols[c] -= 1
        for r, c in t:
            row_left[r] += 1
            col_left[c] += 1

    if thermos and not fits():
        # a line no thermometer crosses... or any line that cannot fit: no node passes, as when every
        # line was tested at every node (the nodes are still counted against the budget)
        return _count_only(thermos, budget)
    rec(0)
    return out


def _count_only(thermos: list, budget: int) -> list:
    """No filling fits: the search tests len(thermos[0]) + 1 nodes and rejects each."""
    if len(thermos[0]) + 1 > budget:
        raise Budget
    return []


class Thermometers(GridAnswerEnv):
    """Fill the thermometers so that every row and column holds its number of filled cells.

    ## Description
    An ``n x n`` grid is covered by straight thermometers, each with a round bulb at one end.
    A thermometer is filled from its bulb without gaps: any number of its cells, from none
    to all, starting at the bulb. The number right of each row and below each column is how
    many filled cells that line holds. Find the filled cells. The solution is unique
    (checked by the solver at generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the grid row by row with ``#`` (or ``1``) for a filled
    cell and ``.`` (or ``0``) for an empty one, ``/`` or newlines between rows.
    ``"mcq"``: `Discrete(k)` over fillings.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid, the thermometers and the counts.

    ## Rewards
    1.0 if every thermometer is filled from its bulb without gaps and every count holds,
    else 0.0.

    ## Starting State
    The grid is cut into random straight thermometers (1 to the difficulty's longest cells)
    with random bulb ends and random fill levels, redrawn until the solution is unique.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, up to 3 long; 1: 5x5, up to 4; 2: 6x6, up to 5), ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    cell_kind = "mask"

    def _configure(self) -> None:
        self.n, self.longest = LEVELS[self.difficulty]
        self.rows = self.cols = self.n
        self.answer_hint = self._mask_hint("the filled cells", "filled", "empty")

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        self._unique: tuple | None = None
        for _ in range(2000):
            thermos = self._cut(rng)
            grid = [[0] * n for _ in range(n)]
            for t in thermos:
                for r, c in t[:int(rng.integers(len(t) + 1))]:
                    grid[r][c] = 1
            rc, cc = [sum(row) for row in grid], [sum(col) for col in zip(*grid, strict=True)]
            try:
                if len(solve(n, thermos, rc, cc)) == 1:
                    self._unique = tuple(tuple(row) for row in grid)  # the drawn filling is the solution
                    break
            except Budget:
                continue
        self.thermos, self.row_counts, self.col_counts = thermos, rc, cc
        self.free = [(r, c) for r in range(n) for c in range(n)]

    def _cut(self, rng: np.random.Generator) -> list:
        n = self.n
        owner = [[False] * n for _ in range(n)]
        thermos = []
        for i in rng.permutation(n * n):
            r, c = divmod(int(i), n)
            if owner[r][c]:
                continue
            want = int(rng.integers(2, self.longest + 1))
            runs = []
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                cells = [(r, c)]
                while len(cells) < want:
                    a, b = cells[-1][0] + dr, cells[-1][1] + dc
                    if not (0 <= a < n and 0 <= b < n) or owner[a][b]:
                        break
                    cells.append((a, b))
                runs.append(cells)
            best = max(len(x) for x in runs)
            runs = [x for x in runs if len(x) == best]
            cells = runs[int(rng.integers(len(runs)))]
            for a, b in cells:
                owner[a][b] = True
            thermos.append(cells[::-1] if rng.integers(2) else cells)
        return thermos

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        img, g = blank_board(self.obs_size, n, n, pad=(0, 0.8, 0.8, 0))
        w = g.cell * 0.32
        for t in self.thermos:
            (r0, c0), (r1, c1) = t[0], t[-1]
            (x0, y0), (x1, y1) = g.center(r0, c0), g.center(r1, c1)
            fill_rect(img, min(x0, x1) - w / 2, min(y0, y1) - w / 2, max(x0, x1) + w / 2, max(y0, y1) + w / 2, TUBE)
            draw_shape(img, "circle", x0, y0, int(g.cell * 0.66), TUBE)
        for i in range(n):
            cell_text(img, g, i, n - 0.1, str(self.row_counts[i]), scale=0.5, bg=BACKGROUND)
            cell_text(img, g, n - 0.1, i, str(self.col_counts[i]), scale=0.5, bg=BACKGROUND)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Thermometers puzzle. Grey thermometers cover the grid, each with a round "
                "bulb at one end. Fill some cells: each thermometer is filled starting from its bulb, without gaps "
                "(it may be empty, partly filled or full). The number right of each row and below each column is "
                "how many filled cells that row or column has. Which cells are filled?")

    def _state_text(self) -> str:
        ts = "; ".join(" ".join(f"r{r + 1}c{c + 1}" for r, c in t) for t in self.thermos)
        return (f"thermometers (bulb first): {ts}\nrow counts: {' '.join(map(str, self.row_counts))}\n"
                f"column counts: {' '.join(map(str, self.col_counts))}")

    # -- verify
    def _check(self, answer) -> bool:
        for t in self.thermos:
            vals = [answer[r][c] for r, c in t]
            if vals != sorted(vals, reverse=True):
                return False
        return ([sum(row) for row in answer] == self.row_counts
                and [sum(col) for col in zip(*answer, strict=True)] == self.col_counts)

    # -- oracle
    def _solve(self):
        if self._unique is not None:
            return self._unique
        levels = solve(self.n, self.thermos, self.row_counts, self.col_counts, limit=1, budget=10**8)[0]
        grid = [[0] * self.n for _ in range(self.n)]
        for t, level in zip(self.thermos, levels, strict=True):
            for r, c in t[:level]:
                grid[r][c] = 1
        return tuple(tuple(row) for row in grid)


SPECS = (
    TaskSpec(name="Thermometers", entry_point=Thermometers, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction")),
)
