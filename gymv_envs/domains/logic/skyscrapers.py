"""Skyscrapers: a Latin square of building heights with visibility counts around the edge."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import blank_board, cell_text
from gymv_envs.core.canvas import BACKGROUND
from gymv_envs.domains.logic._grid import LatinSquareEnv, is_latin, keeps, latin_square
from gymv_envs.domains.logic._latin import fewest_clues, latin_search, perms

SIDES = {0: 4, 1: 5, 2: 6}
EDGES = ("top", "bottom", "left", "right")
FIRST = {0: 0.25, 1: 0.28, 2: 0.42}  # where the fewest-clues search looks first, as a share of the clue order
# (about a quarter of the levels need fewer clues: `_latin.fewest_clues`)


def visible(line) -> int:
    """How many buildings are seen looking along ``line`` from its start (taller hide shorter)."""
    seen, top = 0, 0
    for h in line:
        if h > top:
            seen, top = seen + 1, h
    return seen


def lines(sq, n: int) -> dict[tuple[str, int], tuple[int, ...]]:
    """Each edge clue's line of sight, from the edge inwards."""
    out = {}
    for i in range(n):
        col = tuple(sq[r][i] for r in range(n))
        out[("top", i)], out[("bottom", i)] = col, col[::-1]
        out[("left", i)], out[("right", i)] = tuple(sq[i]), tuple(sq[i][::-1])
    return out


def solve(n: int, clues: dict, givens: dict, limit: int = 2, budget: int = 20_000, other_than: tuple | None = None,
          base: tuple | None = None, keep: list | None = None) -> list:
    """Latin squares with the givens whose lines of sight match the clues (each row and column reads a
    permutation its two clues allow; see `latin_search`; ``other_than`` is not reported)."""
    P = perms(n)
    lines = [P.full] * (2 * n)
    for (edge, i), v in clues.items():
        lines[i + (n if edge in ("top", "bottom") else 0)] &= P.seen[edge in ("bottom", "right")][v]
    return latin_search(n, lines, (), givens, limit, budget, other_than, base, keep)


class Skyscrapers(LatinSquareEnv):
    """Place skyscrapers: a Latin square of heights that matches the visibility clues.

    ## Description
    Each cell of an ``n x n`` grid holds a building of height 1..n, every height once per
    row and column. A number outside the grid says how many buildings are visible looking
    along that row or column from that side: a taller building hides every shorter one
    behind it. Some cells may hold given heights. The solution is unique (checked by the
    solver at generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the full grid of heights, row by row (digits, any
    separators, ``/`` or newlines between rows). ``"mcq"``: `Discrete(k)` over complete grids.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid with the clues around it.

    ## Rewards
    1.0 if the grid is a Latin square that keeps the givens and matches every clue, else 0.0.

    ## Starting State
    A random Latin square; edge clues, then given heights, are revealed in a random order
    until the solution is unique (binary search over the order).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4x4, 1: 5x5, 2: 6x6), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    def _configure(self) -> None:
        self._set_side(SIDES[self.difficulty], "the completed grid of heights")

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        sq = latin_square(rng, n)
        sight = lines(sq, n)
        keys = list(sight)
        count = {x: visible(line) for x, line in sight.items()}
        cells = [(r, c) for r in range(n) for c in range(n)]
        order = [("clue", keys[int(i)]) for i in rng.permutation(len(keys))]
        order += [("cell", cells[int(i)]) for i in rng.permutation(len(cells))]

        def clues(k: int) -> tuple[dict, dict]:
            return ({x: count[x] for kind, x in order[:k] if kind == "clue"},
                    {x: sq[x[0]][x[1]] for kind, x in order[:k] if kind == "cell"})

        planted = tuple(map(tuple, sq))

        def first_broken(grid) -> int | None:
            seen = lines(grid, n)
            for i, (kind, x) in enumerate(order):
                if visible(seen[x]) != count[x] if kind == "clue" else grid[x[0]][x[1]] != sq[x[0]][x[1]]:
                    return i
            return None

        def others(k: int, base, keep: list) -> list:
            return solve(n, *clues(k), 1, 20_000, planted, base, keep)

        self.clues, self.givens = clues(fewest_clues(0, len(order), others, first_broken, int(len(order) * FIRST[self.difficulty])))
        self._grid = planted  # the unique solution
        self.free = [x for x in cells if x not in self.givens]

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        img, g = blank_board(self.obs_size, n, n, pad=(0.9, 0.9, 0.9, 0.9))
        for (r, c), v in self.givens.items():
            cell_text(img, g, r, c, str(v))
        at = {"top": lambda i: (-0.75, i), "bottom": lambda i: (n - 0.25, i),
              "left": lambda i: (i, -0.75), "right": lambda i: (i, n - 0.25)}
        for (edge, i), v in self.clues.items():
            cell_text(img, g, *at[edge](i), str(v), scale=0.5, color=(38, 110, 220), bg=BACKGROUND)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Skyscrapers puzzle. Each cell holds a building of height 1 to {n}; every "
                "row and every column contains each height exactly once. A blue number outside the grid tells how "
                "many buildings can be seen looking into that row or column from that side: a taller building "
                "hides all shorter buildings behind it. Black digits inside the grid are given heights. Fill in "
                "every height.")

    def _state_text(self) -> str:
        n, cl = self.n, self.clues
        def clue(e, i):
            return str(cl.get((e, i), " "))
        rows = ["  " + " ".join(clue("top", c) for c in range(n))]
        for r in range(n):
            inner = " ".join(str(self.givens.get((r, c), ".")) for c in range(n))
            rows.append(f"{clue('left', r)} {inner} {clue('right', r)}")
        rows.append("  " + " ".join(clue("bottom", c) for c in range(n)))
        return "\n".join(rows)

    # -- verify
    def _check(self, answer) -> bool:
        if not (is_latin(answer, self.n) and keeps(answer, self.givens)):
            return False
        sight = lines(answer, self.n)
        return all(visible(sight[k]) == v for k, v in self.clues.items())

    # -- oracle
    def _solve(self):
        return self._grid


SPECS = (
    TaskSpec(name="Skyscrapers", entry_point=Skyscrapers, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "latin-square")),
)
