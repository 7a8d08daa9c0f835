"""KenKen: a Latin square cut into cages, each with a target and an arithmetic operation."""

from __future__ import annotations

import bisect

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import blank_board, text_tile
from gymv_envs.core.canvas import INK, WHITE, draw_text
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.logic._grid import Budget, LatinSquareEnv, is_latin, latin_square
from gymv_envs.domains.logic._kenken_draw import border, edges, label_at
from gymv_envs.domains.logic._kenken_solver import cage_value, solve

# difficulty -> (side, cage sizes to draw from, their weights)
LEVELS = {0: (4, (1, 2, 3), (0.15, 0.6, 0.25)), 1: (5, (1, 2, 3), (0.1, 0.55, 0.35)), 2: (6, (1, 2, 3, 4), (0.05, 0.45, 0.35, 0.15))}
ALL = 16  # a search for this many solutions that finds fewer has found them all
OPS = {"+": "+", "-": "−", "*": "×", "/": "÷", "=": ""}


class KenKen(LatinSquareEnv):
    """Fill a KenKen grid: a Latin square whose cages meet their arithmetic targets.

    ## Description
    An ``n x n`` grid is divided by thick lines into cages. Each cage shows a target and an
    operation (``+``, ``−``, ``×``, ``÷``) in its top-left cell; the digits in the cage,
    combined with that operation, must give the target (for ``−`` and ``÷`` the larger
    digit comes first; a one-cell cage shows its digit's value). Every row and column holds
    each digit 1..n once. The solution is unique (checked by the solver at generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the full grid, row by row (digits, any separators, ``/``
    or newlines between rows). ``"mcq"``: `Discrete(k)` over complete grids.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid, thick cage outlines and cage labels.

    ## Rewards
    1.0 if the grid is a Latin square and every cage meets its target, else 0.0.

    ## Starting State
    A random Latin square is cut into random connected cages; operations are drawn per cage.
    While the puzzle has more than one solution, a cell on which another solution differs is
    split off a multi-cell cage into a one-cell cage (the rest keeps its operation).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, cages of 1-3; 1: 5x5, 1-3; 2: 6x6, 1-4), ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    - v2: a split keeps every other cage's operation (v1 drew them all again), so the
      solutions found for the cages before it, once a search has found them all, only need
      filtering: about one search a level instead of 2.3 at 6x6 (same cage sizes and counts:
      17.4 cages, 5.4 one-cell cages a level at 6x6; different levels).
    """

    def _configure(self) -> None:
        n, self.sizes, weights = LEVELS[self.difficulty]
        cdf = np.cumsum(weights)
        self.cdf = (cdf / cdf[-1]).tolist()  # `rng.choice(sizes, p=weights)` is sizes[bisect_right(cdf, rng.random())]
        self._set_side(n)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        sq = latin_square(rng, n)
        planted = tuple(map(tuple, sq))
        with ScalarDraws(rng) as draw:
            groups = self._groups(draw)
            cages = [self._cage(draw, cells, sq) for cells in groups]
            known = None  # every solution of the cages (a complete list), once a search has found them all
            while True:
                if known is None:
                    try:
                        sols = solve(n, cages, limit=ALL, budget=50_000)
                    except Budget:
                        sols = []
                    if 0 < len(sols) < ALL:
                        known = sols
                others = [s for s in (sols if known is None else known) if s != planted]
                if known is not None and not others:
                    break
                # split off a cell on which another solution differs (any multi-cell cage after a budget stop)
                differ = {(r, c) for r in range(n) for c in range(n) if others and others[0][r][c] != sq[r][c]}
                multi = [i for i, g in enumerate(groups) if len(g) > 1 and (not differ or differ & set(g))]
                k = multi[draw.integers(len(multi))]
                g = groups[k]
                # a cell whose loss leaves the cage connected; one the solutions differ on when there is one
                ok = [j for j in draw.permutation(len(g)) if self._connected(g[:j] + g[j + 1:])]
                j = next((j for j in ok if not differ or g[j] in differ or len(g) == 2), ok[0])
                groups.append([g[j]])
                g[:] = g[:j] + g[j + 1:]
                # the rest keeps its operation (two cells that lose one keep none): every solution of the
                # new cages solves the old ones, so a complete list of those only needs filtering
                op = cages[k][1] if len(g) > 1 else "="
                cages[k] = (tuple(g), op, cage_value(op, [sq[r][c] for r, c in g]))
                cages.append(self._cage(draw, groups[-1], sq))
                if known is not None:
                    new = (cages[k], cages[-1])
                    known = [s for s in known if all(cage_value(o, [s[r][c] for r, c in cells]) == t for cells, o, t in new)]
        self.cages = cages
        self._grid = planted  # the unique solution
        self.free = [(r, c) for r in range(n) for c in range(n)]

    def _groups(self, draw: ScalarDraws) -> list[list[tuple[int, int]]]:
        """Random connected cages: from each cell still free, in random order, a cage of a drawn size
        grows into free neighbours drawn one at a time (smaller when it runs out of them)."""
        n, sizes, cdf = self.n, self.sizes, self.cdf
        owner = [[-1] * n for _ in range(n)]
        groups: list[list[tuple[int, int]]] = []
        for i in draw.permutation(n * n):
            r, c = divmod(i, n)
            if owner[r][c] >= 0:
                continue
            want, cells = sizes[bisect.bisect_right(cdf, draw.random())], [(r, c)]
            owner[r][c] = len(groups)
            while len(cells) < want:
                nb = [(a + dr, b + dc) for a, b in cells for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                      if 0 <= a + dr < n and 0 <= b + dc < n and owner[a + dr][b + dc] < 0]
                if not nb:
                    break
                a, b = nb[draw.integers(len(nb))]
                owner[a][b] = len(groups)
                cells.append((a, b))
            groups.append(sorted(cells))
        return groups

    @staticmethod
    def _connected(cells: list) -> bool:
        seen, todo = {cells[0]}, [cells[0]]
        while todo:
            r, c = todo.pop()
            for x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if x in cells and x not in seen:
                    seen.add(x)
                    todo.append(x)
        return len(seen) == len(cells)

    @staticmethod
    def _cage(draw: ScalarDraws, cells: list, sq) -> tuple:
        vals = [sq[r][c] for r, c in cells]
        if len(cells) == 1:
            return (tuple(cells), "=", vals[0])
        ops = ["+", "*"] + (["-", "-"] if len(cells) == 2 else []) + (["/", "/"] if len(cells) == 2 and cage_value("/", vals) else [])
        op = ops[draw.integers(len(ops))]
        return (tuple(cells), op, cage_value(op, vals))

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        img, g = blank_board(self.obs_size, n, n)
        obs = tuple(self.obs_size)
        w, ink = edges(obs, n)[2:]
        owner = [0] * (n * n)
        for i, (cells, _, _) in enumerate(self.cages):
            for r, c in cells:
                owner[r * n + c] = i
        for line in range(2 * n - 2):  # the cage borders down each column border, then along each row border
            on, step = 0, (1 if line < n - 1 else n)
            for k, i in enumerate(range(line, n * n, n) if line < n - 1 else range((line - n + 1) * n, (line - n + 2) * n)):
                if owner[i + step] != owner[i]:
                    on |= 1 << k
            for a, c, b, d in border(obs, n, line, on):
                img[c:d, a:b] = ink[c:d, a:b]
        for cells, op, t in self.cages:
            x, y, x1, y1, size = label_at(obs, n, *cells[0])
            text = f"{t}{OPS[op]}"
            tile = text_tile(text, size, INK, True, WHITE)
            h, tw = tile.shape[:2]
            if x + tw <= x1 and y + h <= y1:  # on the white cell
                img[y:y + h, x:x + tw] = tile
            else:
                draw_text(img, text, (x, y), size, INK, anchor="lt", bold=True)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} KenKen puzzle. Fill every cell with a digit from 1 to {n} so that each "
                "row and each column contains every digit exactly once. Thick lines outline cages; the label in a "
                "cage's top-left corner is a target number and an operation (+, −, ×, ÷): the cage's digits combined "
                "with that operation must give the target (for − and ÷ take the larger digit first). A cage with "
                "just a number and one cell holds that number.")

    def _state_text(self) -> str:
        return "\n".join(f"{t}{OPS[op]} on cells " + " ".join(f"r{r + 1}c{c + 1}" for r, c in cells)
                         for cells, op, t in self.cages)

    # -- verify
    def _check(self, answer) -> bool:
        return (is_latin(answer, self.n)
                and all(cage_value(op, [answer[r][c] for r, c in cells]) == t for cells, op, t in self.cages))

    # -- oracle
    def _solve(self):
        return self._grid


SPECS = (
    TaskSpec(name="KenKen", entry_point=KenKen, version=2, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "latin-square", "arithmetic")),
)
