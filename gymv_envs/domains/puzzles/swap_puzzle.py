"""Swap puzzle (Tetris Attack style): the sideways swap that clears the most blocks, chains counted."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.board import Board
from gymv_envs.core.canvas import PALETTE, WHITE, shape_tile
from gymv_envs.core.cells import cell_name, find_cells

# difficulty -> (columns, rows, colours, lowest and highest column height)
LEVELS = {0: (5, 6, 4, (1, 4)), 1: (6, 8, 5, (2, 6)), 2: (6, 10, 5, (3, 9))}
BLOCKS = (("red", "heart"), ("blue", "diamond"), ("green", "circle"), ("yellow", "star"),
          ("purple", "triangle"))
POOL_SIZE, POOL_SEED = 400, 16

Grid = tuple[tuple[int, ...], ...]  # grid[y][x], y counted from the bottom row; 0 is empty, 1.. a colour


def settle(g: list[list[int]]) -> None:
    """Gravity: every block falls straight down onto the floor or the block below."""
    rows, cols = len(g), len(g[0])
    for x in range(cols):
        stack = [g[y][x] for y in range(rows) if g[y][x]]
        for y in range(rows):
            g[y][x] = stack[y] if y < len(stack) else 0


def matches(g: list[list[int]]) -> set[tuple[int, int]]:
    """The cells (y, x) in a row or column run of three or more blocks of one colour."""
    rows, cols, out = len(g), len(g[0]), set()
    for y in range(rows):
        row = g[y]
        for x in range(cols - 2):
            if row[x] and row[x] == row[x + 1] == row[x + 2]:
                out.update(((y, x), (y, x + 1), (y, x + 2)))
    for y in range(rows - 2):
        a, b, c = g[y], g[y + 1], g[y + 2]
        for x in range(cols):
            if a[x] and a[x] == b[x] == c[x]:
                out.update(((y, x), (y + 1, x), (y + 2, x)))
    return out


def swap_clears(grid: Grid, y: int, x: int) -> int:
    """Blocks cleared in all after swapping cells (y, x) and (y, x + 1): blocks fall, every run of
    three or more clears at once, the blocks above fall, and so on while new runs form (chains)."""
    g = [list(row) for row in grid]
    g[y][x], g[y][x + 1] = g[y][x + 1], g[y][x]
    total = 0
    while True:
        settle(g)
        hit = matches(g)
        if not hit:
            return total
        total += len(hit)
        for yy, xx in hit:
            g[yy][xx] = 0


def all_swaps(grid: Grid) -> dict[tuple[int, int], int]:
    """Blocks cleared by each swap that moves something (two different cells, at least one a block)."""
    return {(y, x): swap_clears(grid, y, x) for y in range(len(grid)) for x in range(len(grid[0]) - 1)
            if grid[y][x] != grid[y][x + 1]}


def random_grid(rng: np.random.Generator, cols: int, rows: int, colours: int, heights: tuple[int, int]) -> Grid:
    """Random columns of blocks resting on the floor, recoloured until no run of three is left."""
    g = [[0] * cols for _ in range(rows)]
    for x in range(cols):
        for y in range(int(rng.integers(heights[0], heights[1] + 1))):
            g[y][x] = 1 + int(rng.integers(colours))
    while hit := matches(g):
        y, x = sorted(hit)[int(rng.integers(len(hit)))]
        g[y][x] = 1 + int(rng.integers(colours))
    return tuple(tuple(row) for row in g)


@functools.cache
def _pool(difficulty: int) -> tuple[tuple[Grid, dict[tuple[int, int], int]], ...]:
    """Boards with a clearing swap and at least three swaps that clear fewer blocks than the best,
    with every swap's count (built once per process from a fixed seed)."""
    cols, rows, colours, heights = LEVELS[difficulty]
    rng = np.random.default_rng(POOL_SEED + difficulty)
    out = []
    while len(out) < POOL_SIZE:
        grid = random_grid(rng, cols, rows, colours, heights)
        scores = all_swaps(grid)
        best = max(scores.values(), default=0)
        if best and sum(v < best for v in scores.values()) >= 3:
            out.append((grid, scores))
    return tuple(out)


@functools.lru_cache(maxsize=256)
def _block(size: int, k: int) -> np.ndarray:
    """A block of colour ``k`` (1..) with its white symbol, ``size`` pixels square (read-only)."""
    colour, shape = BLOCKS[k - 1]
    tile = np.empty((size, size, 3), np.uint8)
    tile[...] = PALETTE[colour]
    inner = max(1, int(size * 0.6))
    sym = shape_tile(shape, inner, WHITE, PALETTE[colour])
    o = (size - inner) // 2
    tile[o:o + inner, o:o + inner] = sym
    tile.setflags(write=False)
    return tile


class SwapPuzzle(SingleTurnEnv):
    """Find the sideways swap that clears the most blocks of a Tetris Attack style stack.

    ## Description
    Columns of coloured blocks (each colour with its own white symbol) rest on the floor under
    gravity, with no run of three yet. A move swaps two horizontally adjacent cells of one row
    (two blocks, or a block and an empty cell: the block then moves sideways). Then blocks fall
    into any gap below them; every horizontal or vertical run of three or more blocks of one
    colour clears at once; the blocks above fall, and new runs clear again (chains) until none
    forms. The answer is a swap that clears the most blocks in all; every such swap is accepted.

    ## Action Space
    ``"open"``: `Text`, two horizontally adjacent cells such as ``B3 C3`` (column letter, row
    number from the bottom; either order). ``"mcq"``: `Discrete(k)` over swaps.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the stack with column letters below and row numbers left.

    ## Rewards
    1.0 for a swap that clears the most blocks, else 0.0.

    ## Starting State
    Random stacks (0: 5 columns x 6 rows, 4 colours; 1: 6 x 8, 5 colours; 2: 6 x 10, 5 colours)
    with no run of three, at least one clearing swap and three swaps that clear fewer blocks,
    drawn from a pool of 400 per level built once per process, mirrored and recoloured per seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "two horizontally adjacent cells to swap, such as `B3 C3` (column letter, row number from the bottom)"

    def _configure(self) -> None:
        self.cols, self.rows, self.colours, _ = LEVELS[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        grid, scores = _pool(self.difficulty)[int(rng.integers(POOL_SIZE))]
        perm = [0] + (1 + rng.permutation(self.colours)).tolist()
        mirror = bool(rng.integers(2))
        cols = self.cols
        self.grid = tuple(tuple(perm[v] for v in (row[::-1] if mirror else row)) for row in grid)
        self.scores = {(y, cols - 2 - x) if mirror else (y, x): v for (y, x), v in scores.items()}
        self.best = max(self.scores.values())

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        b = Board(H, W, self.rows, self.cols)
        img = b.base(bottom_up=True).copy()
        pad = max(1, int(b.cell * 0.06))
        size = int(b.cell) - 2 * pad
        if size < 1:
            return img
        for y, row in enumerate(self.grid):
            for x, v in enumerate(row):
                if v:
                    x0, y0, _, _ = b.box(self.rows - 1 - y, x)
                    px, py = int(x0) + pad, int(y0) + pad
                    tile = _block(size, v)[: H - py, : W - px]
                    img[py:py + tile.shape[0], px:px + tile.shape[1]] = tile
        return img

    def _task_text(self) -> str:
        return (f"The image shows a Tetris Attack style puzzle: {self.cols} columns of coloured blocks (each colour "
                "has its own symbol) on a floor, rows numbered from the bottom. A move swaps two horizontally "
                "adjacent cells of one row (two blocks, or a block and an empty cell, which moves the block "
                "sideways). Then blocks fall into any gap below them, every horizontal or vertical line of three or "
                "more blocks of one colour disappears at once, the blocks above fall, and new lines that form "
                "disappear too (chains), until no line is left. Which swap makes the most blocks disappear in all?")

    def _parse_answer(self, text: str):
        cells = find_cells(text, self.rows, self.cols, bottom_up=True)
        if not cells or len(cells) != 2:
            return None
        (ra, ca), (rb, cb) = sorted(cells, key=lambda rc: rc[1])
        return (self.rows - 1 - ra, ca) if ra == rb and cb == ca + 1 else None

    def _check(self, answer) -> bool:
        return self.scores.get(tuple(answer), -1) == self.best

    def _format(self, answer) -> str:
        y, x = answer
        r = self.rows - 1 - y
        return f"{cell_name(r, x, self.rows, bottom_up=True)} {cell_name(r, x + 1, self.rows, bottom_up=True)}"

    def _solve(self):
        return min(s for s, v in self.scores.items() if v == self.best)

    def _near_misses(self, rng: np.random.Generator) -> list:
        worse = [s for s in sorted(self.scores) if self.scores[s] < self.best]
        worse.sort(key=lambda s: (-self.scores[s], rng.random()))  # clearing-but-fewer swaps first
        empty = [(y, x) for y in range(self.rows) for x in range(self.cols - 1)
                 if (y, x) not in self.scores]  # swaps that move nothing
        return worse + empty

    def _state_text(self) -> str:
        return "\n".join("".join(".RBGYP"[v] for v in row) for row in reversed(self.grid))


SPECS = (
    TaskSpec(name="SwapPuzzle", entry_point=SwapPuzzle, max_episode_steps=1,
             tags=("game", "spatial-reasoning", "search")),
)
