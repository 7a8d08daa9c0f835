"""Rush Hour moves: the fewest slides that bring the red car to the exit of a drawn 6x6 lot."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import CountAnswer
from gymv_envs.core.canvas import BACKGROUND, INK, PALETTE, ROAD, draw_text, fill_rect, new_frame
from gymv_envs.rules.rush_hour import (
    ROW,
    N,
    Vehicle,
    add_vehicles,
    component_distances,
    decode,
    random_board,
)

# difficulty -> ((fewest slides, lo..hi), other vehicles placed, state cap of a board's
# component, boards kept in the level's pool)
LEVELS = {0: ((2, 5), 8, 1500, 8), 1: ((6, 10), 11, 2000, 8), 2: ((11, 18), 13, 3000, 8)}
POOL_SEED = 2  # a fixed seed whose pools cover every count of each range quickly
RED = (220, 40, 40)
OTHERS = tuple(PALETTE[c] for c in ("blue", "green", "yellow", "purple", "cyan", "brown", "gray", "orange", "pink")) + (
    (35, 45, 125), (150, 205, 60), (0, 128, 128), (125, 125, 20))
WALL = (70, 72, 80)


@functools.cache
def _pool(difficulty: int) -> tuple[tuple[tuple[Vehicle, ...], ...], dict[int, tuple[tuple[int, int], ...]]]:
    """The level's boards and, per fewest-moves count in its range, (board index, state code) pairs.

    Built once per process from a fixed seed (about a CPU-second for level 2): random boards,
    then hill climbing on the hardest one found, each board's whole state space searched and
    every state in the range kept with its exact distance, until the pool holds ``size``
    boards and every count of the range.
    """
    (lo, hi), others, cap, size = LEVELS[difficulty]
    rng = np.random.default_rng(POOL_SEED + difficulty)
    boards: list[tuple[Vehicle, ...]] = []
    by_moves: dict[int, list[tuple[int, int]]] = {d: [] for d in range(lo, hi + 1)}
    base, best, misses, tried = None, -1, 0, 0
    while len(boards) < size or (not all(by_moves.values()) and tried < 10_000):
        tried += 1
        if base is None:
            vehicles, positions = random_board(rng, others)
        else:  # hill climbing: the hardest board so far with one vehicle replaced at random
            k = 1 + int(rng.integers(len(base[0]) - 1))
            vehicles, positions = add_vehicles(rng, base[0][:k] + base[0][k + 1:], base[1][:k] + base[1][k + 1:], others)
        dist = component_distances(vehicles, positions, cap) or {}
        hits = [(d, code) for code, d in dist.items() if lo <= d <= hi]
        if hits and sorted(vehicles) not in (sorted(b) for b in boards):
            for d, code in hits:
                by_moves[d].append((len(boards), code))
            boards.append(vehicles)
        top = max(((d, code) for code, d in dist.items()), default=(-1, 0))
        if dist and top[0] >= best:
            base, best, misses = (vehicles, decode(top[1], len(vehicles))), top[0], 0
        else:
            misses += 1
            if misses > 8:
                base, best, misses = None, -1, 0
    return tuple(boards), {d: tuple(v) for d, v in by_moves.items() if v}


class RushHourMoves(CountAnswer, SingleTurnEnv):
    """Give the fewest moves that bring the red car of a drawn Rush Hour lot to the exit.

    ## Description
    A 6x6 parking lot seen from above holds the red car (2 cells, horizontal, third row) and
    other cars (2 cells) and trucks (3 cells). Vehicles move only along their length and never
    through each other or out of the lot. One move slides one vehicle any number of free cells
    in one direction. The puzzle is solved when the red car reaches the right edge of its row,
    where the exit is; that last slide counts. The answer is the fewest moves, found by
    breadth-first search.

    ## Action Space
    ``answer_format="open"``: `Text`, a whole number such as ``9``. ``"mcq"``: `Discrete(k)`
    over nearby counts.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the lot in a dark wall with a gap (the exit) on the right
    of the third row; vehicles are coloured blocks, the red car red.

    ## Rewards
    1.0 for the exact fewest number of moves, else 0.0.

    ## Starting State
    A count in the difficulty's range is drawn, then a board at exactly that distance from the
    level's pool, built once per process from a fixed seed: 8 random (then hill-climbed)
    vehicle layouts whose whole state spaces are searched breadth-first, every state in the
    range kept with its distance (hundreds to thousands of boards per level). Vehicle colours
    are shuffled per seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 2-5 moves, 8 other vehicles; 1: 6-10 moves, 11; 2: 11-18 moves, 13),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the fewest number of moves as a whole number (for example `9`)"
    count_floor = 1

    def _configure(self) -> None:
        self.lo, self.hi = LEVELS[self.difficulty][0]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        boards, by_moves = _pool(self.difficulty)
        counts = sorted(by_moves)
        self.best = counts[int(rng.integers(len(counts)))]
        k, code = by_moves[self.best][int(rng.integers(len(by_moves[self.best])))]
        self.vehicles = boards[k]
        self.positions = decode(code, len(self.vehicles))
        self.colours = (RED, *(OTHERS[int(i)] for i in rng.permutation(len(OTHERS))[: len(self.vehicles) - 1]))

    # -- draw
    def _draw(self) -> np.ndarray:
        cell, x0, y0 = _layout(*self.obs_size)
        img = _lot_base(*self.obs_size).copy()
        line = max(1, int(cell / 40))
        gap = max(1, cell * 0.08)
        for v, ((horiz, length, lane), p) in enumerate(zip(self.vehicles, self.positions)):
            r, c = (lane, p) if horiz else (p, lane)
            h, w = (1, length) if horiz else (length, 1)
            bx0, by0 = x0 + c * cell + gap, y0 + r * cell + gap
            bx1, by1 = x0 + (c + w) * cell - gap, y0 + (r + h) * cell - gap
            a, c, b, d = int(bx0), int(by0), int(bx1), int(by1)  # (all positive: the lot lies inside the frame)
            img[c:d, a:b] = _block(d - c, b - a, 2 * line + 1, self.colours[v])
        return img

    def _task_text(self) -> str:
        return ("The image shows a Rush Hour puzzle: a 6x6 parking lot seen from above. Each coloured block is a "
                "vehicle: cars cover 2 cells and trucks 3. A vehicle moves only along its own length (horizontal "
                "vehicles left or right, vertical ones up or down), never through another vehicle or out of the lot. "
                "One move slides one vehicle any number of free cells in one direction. The red car must reach the "
                "exit, the gap in the right-hand wall of the third row: the puzzle is solved when the red car covers "
                "the two rightmost cells of that row, and the slide that brings it there counts as a move. What is "
                "the fewest number of moves that solves the puzzle?")

    def _state_text(self) -> str:
        keys = [["."] * N for _ in range(N)]
        for v, ((horiz, length, lane), p) in enumerate(zip(self.vehicles, self.positions)):
            for k in range(length):
                r, c = (lane, p + k) if horiz else (p + k, lane)
                keys[r][c] = chr(65 + v)
        rows = "\n".join("".join(row) for row in keys)
        return f"{rows}\n(A is the red car, . an empty cell; the exit is at the right end of row 3)"

    # -- oracle
    def _solve(self) -> int:
        """The breadth-first distance of this state, computed when the pool was built."""
        return self.best


@functools.lru_cache(maxsize=256)
def _block(h: int, w: int, rim: int, colour: tuple[int, int, int]) -> np.ndarray:
    """A vehicle ``h x w`` pixels: ``colour`` inside a rim ``rim`` pixels wide of its darker shade (read-only)."""
    tile = new_frame(h, w, tuple(int(x * 0.6) for x in colour))
    fill_rect(tile, rim, rim, w - rim, h - rim, colour)
    tile.setflags(write=False)
    return tile


def _layout(H: int, W: int) -> tuple[float, float, float]:
    """The size of a cell and the pixel corner of the lot."""
    cell = min(W / (N + 1.5), H / (N + 0.8))
    return cell, (W - N * cell) / 2 - cell * 0.35, (H - N * cell) / 2


@functools.lru_cache(maxsize=16)
def _lot_base(H: int, W: int) -> np.ndarray:
    """The empty lot: wall, road, cell lines and the exit with its label (read-only)."""
    cell, x0, y0 = _layout(H, W)
    wall = max(2, int(cell / 9))
    img = new_frame(H, W, BACKGROUND)
    fill_rect(img, x0 - wall, y0 - wall, x0 + N * cell + wall, y0 + N * cell + wall, WALL)
    fill_rect(img, x0, y0, x0 + N * cell, y0 + N * cell, ROAD)
    line = max(1, int(cell / 40))
    for k in range(1, N):
        fill_rect(img, x0 + k * cell - line / 2, y0, x0 + k * cell + line / 2 + 1, y0 + N * cell, (175, 175, 170))
        fill_rect(img, x0, y0 + k * cell - line / 2, x0 + N * cell, y0 + k * cell + line / 2 + 1, (175, 175, 170))
    ey = y0 + ROW * cell
    fill_rect(img, x0 + N * cell, ey, x0 + N * cell + wall, ey + cell, ROAD)
    draw_text(img, "EXIT", (x0 + N * cell + wall + cell * 0.5, ey + cell * 0.5), max(5, int(cell * 0.22)), INK, bold=True)
    img.setflags(write=False)
    return img


SPECS = (
    TaskSpec(name="RushHourMoves", entry_point=RushHourMoves, version=1, max_episode_steps=1,
             tags=("planning", "search")),
)
