"""Magic square: complete a square of 1..n² whose rows, columns and diagonals share one sum."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import blank_board
from gymv_envs.domains.logic._grid import HiddenCellsEnv, counting_row, hide_cells
from gymv_envs.domains.logic._line_sums import fill_lines, most_open

# difficulty -> (side, fewest open cells wanted, most open cells)
LEVELS = {0: (3, 4, 7), 1: (4, 7, 12), 2: (5, 11, 15)}
LO_SHU = ((2, 7, 6), (9, 5, 1), (4, 3, 8))
DURER = ((16, 3, 2, 13), (5, 10, 11, 8), (9, 6, 7, 12), (4, 15, 14, 1))
PANDIAGONAL_4 = ((1, 8, 13, 12), (14, 11, 2, 7), (4, 5, 16, 9), (15, 10, 3, 6))


@functools.lru_cache(maxsize=8)
def magic_lines(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """(every row, column and both diagonals as flat indices; the lines through each cell)."""
    lines = [tuple(r * n + c for c in range(n)) for r in range(n)]
    lines += [tuple(r * n + c for r in range(n)) for c in range(n)]
    lines += [tuple(i * n + i for i in range(n)), tuple(i * n + n - 1 - i for i in range(n))]
    return tuple(lines), tuple(tuple(ln for ln in lines if i in ln) for i in range(n * n))


def complete(n: int, cells: list[int], limit: int = 2, budget: int = 20_000) -> list[tuple[int, ...]]:
    """Magic squares over 1..n² that agree with ``cells`` (0 = open); see `fill_lines`."""
    lines = magic_lines(n)[0]
    return fill_lines(cells, lines, [n * (n * n + 1) // 2] * len(lines), range(1, n * n + 1), limit, budget)


@functools.lru_cache(maxsize=1)
def lo_shu_squares() -> tuple[tuple[int, ...], ...]:
    """The eight 3x3 magic squares (flat): Lo Shu's rotations and reflections."""
    out, sq = set(), np.array(LO_SHU)
    for k in range(4):
        out |= {tuple(np.rot90(sq, k).flatten().tolist()), tuple(np.rot90(sq, k).T.flatten().tolist())}
    return tuple(sorted(out))


def most_open_3(full: list[int], order: list[int], hi: int) -> int:
    """`most_open` for a 3x3 square, without a search: opening ``order[:k]`` leaves one completion while
    every other magic square differs from ``full`` on a cell ``order[k:]`` keeps, so the most is, up to
    ``hi``, the least over the other squares of the last place in ``order`` where they differ."""
    place = [0] * 9
    for j, i in enumerate(order):
        place[i] = j
    return min([hi] + [max(place[i] for i in range(9) if s[i] != full[i]) for s in lo_shu_squares()
                       if list(s) != full])


def random_square(rng: np.random.Generator, n: int) -> list[int]:
    """A random magic square of side n (see `MagicSquare` Starting State)."""
    if n in (3, 4):
        # a base square, shifted cyclically when pandiagonal, with rows and columns permuted alike by a
        # permutation that commutes with i -> n-1-i (diagonals stay diagonals), rotated, mirrored and
        # complemented (v -> n²+1-v): each step keeps every line sum
        if n == 3:
            sq = np.array(LO_SHU)
        else:
            sq = np.array(DURER if rng.integers(2) else PANDIAGONAL_4)
            if sq[0, 0] == 1:
                sq = np.roll(sq, (int(rng.integers(4)), int(rng.integers(4))), axis=(0, 1))
            pairs = [(0, 3), (1, 2)] if rng.integers(2) else [(1, 2), (0, 3)]
            (a, b), (c, d) = (p[::-1] if rng.integers(2) else p for p in pairs)
            idx = [a, c, d, b]
            sq = sq[idx][:, idx]
        sq = np.rot90(sq, int(rng.integers(4)))
        sq = sq.T if rng.integers(2) else sq
        sq = n * n + 1 - sq if rng.integers(2) else sq
        return [int(v) for v in sq.flatten()]
    if n == 5:
        # M = 5A + B + 1 with A(r,c) = (a r + b c + e) % 5, B(r,c) = (d r + f c + h) % 5: rows, columns and both
        # diagonals of A and B are permutations when a, b, a±b (and d, f, d±f) are units mod 5, and A, B are
        # orthogonal when a f - b d is a unit too
        while True:
            a, b, d, f = (int(x) for x in rng.integers(1, 5, size=4))
            if all(x % 5 for x in (a + b, a - b, d + f, d - f, a * f - b * d)):
                break
        e, h = (int(x) for x in rng.integers(5, size=2))
        return [5 * ((a * r + b * c + e) % 5) + (d * r + f * c + h) % 5 + 1 for r in range(5) for c in range(5)]
    raise ValueError(f"no magic square construction for side {n}; valid sides: 3, 4, 5")


class MagicSquare(HiddenCellsEnv):
    """Complete a magic square: 1..n² once each, every row, column and diagonal with the same sum.

    ## Description
    An ``n x n`` grid shows some of the numbers 1..n². Fill the empty cells so that every
    number 1..n² appears exactly once and every row, every column and both main diagonals
    add up to the magic sum n(n²+1)/2 (15 for 3x3, 34 for 4x4, 65 for 5x5). The completion
    is unique (checked by the solver at generation).

    ## Action Space
    ``answer_format="open"``: `Text`, the full square, row by row (numbers separated by
    spaces or commas, ``/`` or newlines between rows, JSON lists accepted).
    ``"mcq"``: `Discrete(k)` over complete squares.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid with the given numbers.

    ## Rewards
    1.0 if the square keeps the givens, uses 1..n² once each and every line has the magic
    sum, else 0.0.

    ## Starting State
    A random magic square (3x3: one of the eight Lo Shu symmetries; 4x4: Dürer's or a pandiagonal square under
    line-sum-preserving permutations, symmetries and complement;
    5x5: a random pandiagonal square from two orthogonal linear Latin squares). Cells are
    hidden in a random order while the completion stays unique (as many as stay unique, up to the
    difficulty's most: 3x3: 4-7 open, 4x4: 7-12, 5x5: 11-15, fewer only where the order allows no more).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3x3, 1: 4x4, 2: 5x5), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    - v2: the completion search prunes by line sums and branches on the cell with the fewest values
      left; it no longer gives up after 3,000 branches, so the 5x5 levels where the old search gave up
      (about 6%) now hide the cells the order allows (3x3 and 4x4 levels unchanged).
    """

    cell_kind = "number"

    def _configure(self) -> None:
        self.n, self.min_open, self.max_open = LEVELS[self.difficulty]
        self.rows = self.cols = self.n
        self.total = self.n * (self.n ** 2 + 1) // 2
        self.answer_hint = self._grid_hint("the completed square", "numbers separated by spaces", counting_row(self.n))

    def _values(self) -> range:
        return range(1, self.n * self.n + 1)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        full = random_square(rng, n)
        order = [int(i) for i in rng.permutation(n * n)]
        k = (most_open_3(full, order, self.max_open) if n == 3
             else most_open(full, order, self.max_open, lambda cells: complete(n, cells)))
        self._set_givens(hide_cells(full, order, k))
        self._full = full  # the givens have no second completion: this is theirs

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank_board(self.obs_size, self.n, self.n)
        self._paint_givens(img, g, scale=0.5)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} magic square with some numbers missing. Fill every empty cell so that "
                f"each number from 1 to {n * n} appears exactly once and every row, every column and both main "
                f"diagonals add up to {self.total}. Keep the given numbers.")

    # -- verify
    def _check(self, answer) -> bool:
        n = self.n
        flat = [v for row in answer for v in row]
        if sorted(flat) != list(range(1, n * n + 1)) or not self._keeps_givens(flat):
            return False
        return all(sum(flat[j] for j in ln) == self.total for ln in magic_lines(n)[0])

    # -- oracle
    def _solve(self):
        return self._unflatten(self._full)


SPECS = (
    TaskSpec(name="MagicSquare", entry_point=MagicSquare, version=2, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "arithmetic")),
)
