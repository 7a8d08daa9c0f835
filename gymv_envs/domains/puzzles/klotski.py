"""Klotski: the fewest one-cell block slides that bring the big block to the exit."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import CountAnswer
from gymv_envs.core.canvas import BACKGROUND, INK, draw_text, fill_rect, new_frame

COLS, ROWS, FREE = 4, 4, 2  # the board, and the empty cells it keeps
LEVELS = {0: (3, 8), 1: (10, 19), 2: (20, 36)}  # difficulty -> fewest moves lo..hi
POOL_BOARDS = 6  # boards (whole state spaces) searched per level, at least
SHAPES = ((2, 2), (2, 1), (1, 2), (1, 1))  # (height, width): big block, vertical, horizontal, small
COLOURS = ((215, 50, 45), (60, 110, 200), (50, 160, 80), (235, 190, 40))
CAP = 3000  # states searched per board when the pool is built (each search about 30 ms)
POOL_SEED = 16
WALL, FLOOR = (70, 72, 80), (222, 214, 196)

State = tuple[tuple[int, ...], ...]  # per shape, the sorted top-left cells (r * cols + c) of its blocks


@functools.cache
def _geometry(cols: int, rows: int):
    """Per shape and top-left cell: its cells as a bit mask (None when off the board), and its one-cell moves."""
    masks = []
    for h, w in SHAPES:
        row = []
        for p in range(rows * cols):
            r, c = divmod(p, cols)
            row.append(None if r + h > rows or c + w > cols else
                       sum(1 << ((r + y) * cols + c + x) for y in range(h) for x in range(w)))
        masks.append(tuple(row))
    steps = tuple(tuple(tuple(q for q, ok in ((p - cols, p >= cols), (p + cols, True), (p - 1, p % cols > 0),
                                              (p + 1, p % cols < cols - 1)) if ok and q < rows * cols and m[q] is not None)
                        if m[p] is not None else () for p in range(rows * cols)) for m in masks)
    return tuple(masks), steps


def occupancy(s: State, masks) -> int:
    return sum(masks[k][p] for k, ps in enumerate(s) for p in ps)


def successors(s: State, cols: int, rows: int):
    """Every state one move away: one block slid one cell up, down, left or right into free cells."""
    masks, steps = _geometry(cols, rows)
    occ = occupancy(s, masks)
    for k, ps in enumerate(s):
        for i, p in enumerate(ps):
            rest = occ & ~masks[k][p]
            for q in steps[k][p]:
                if not masks[k][q] & rest:
                    yield s[:k] + (tuple(sorted(ps[:i] + (q,) + ps[i + 1:])),) + s[k + 1:]


def goal_cell(cols: int, rows: int) -> int:
    """The big block's top-left cell when it stands at the exit (bottom edge, centred)."""
    return (rows - 2) * cols + (cols - 2) // 2


def fewest_moves(s: State, cols: int, rows: int, cap: int = 10**6) -> int | None:
    """Breadth-first search from ``s`` to any state with the big block at the exit (None past ``cap`` states)."""
    goal, seen, frontier, d = goal_cell(cols, rows), {s}, [s], 0
    while frontier:
        if any(t[0][0] == goal for t in frontier):
            return d
        nxt = []
        for t in frontier:
            for u in successors(t, cols, rows):
                if u not in seen:
                    seen.add(u)
                    nxt.append(u)
        if len(seen) > cap:
            return None
        frontier, d = nxt, d + 1
    return None


def _component_distances(s: State, cols: int, rows: int) -> dict[State, int] | None:
    """Every state reachable from ``s`` (None past CAP) with its fewest moves to the goal (-1: unreachable)."""
    seen, frontier = {s}, [s]
    while frontier:
        frontier = [u for t in frontier for u in successors(t, cols, rows) if u not in seen and not seen.add(u)]
        if len(seen) > CAP:
            return None
    goal = goal_cell(cols, rows)
    dist = {t: 0 for t in seen if t[0][0] == goal}
    frontier = list(dist)
    while frontier:
        frontier = [u for t in frontier for u in successors(t, cols, rows) if u not in dist and not dist.setdefault(u, dist[t] + 1) < 0]
    return {t: dist.get(t, -1) for t in seen}


def random_board(rng: np.random.Generator, cols: int, rows: int, free: int) -> State:
    """The big block at the exit, then random blocks in random free places until ``free`` cells are
    left: a solved state, whose state space is then searched for the states far from solved."""
    masks, _ = _geometry(cols, rows)
    goal, cells = goal_cell(cols, rows), rows * cols
    while True:
        occ, placed = masks[0][goal], [[goal], [], [], []]
        for _ in range(200):
            if cells - occ.bit_count() <= free:
                break
            k, p = int(rng.choice(4, p=(0.0, 0.35, 0.25, 0.4))), int(rng.integers(cells))
            m = masks[k][p]
            if m is not None and not m & occ and cells - occ.bit_count() - m.bit_count() >= free:
                occ |= m
                placed[k].append(p)
        if cells - occ.bit_count() == free:
            return tuple(tuple(sorted(ps)) for ps in placed)


@functools.cache
def _pool(difficulty: int) -> dict[int, tuple[State, ...]]:
    """Per fewest-moves count of the level's range, the states at that distance in the state spaces of
    at least POOL_BOARDS random boards (built once per process from a fixed seed, about a CPU-second)."""
    lo, hi = LEVELS[difficulty]
    rng = np.random.default_rng(POOL_SEED)
    by_moves: dict[int, set[State]] = {d: set() for d in range(lo, hi + 1)}
    boards = tries = 0
    while (boards < POOL_BOARDS or not all(by_moves.values())) and tries < 500:
        tries += 1
        dist = _component_distances(random_board(rng, COLS, ROWS, FREE), COLS, ROWS) or {}
        hits = [(d, t) for t, d in dist.items() if lo <= d <= hi]
        boards += bool(hits)
        for d, t in hits:
            by_moves[d].add(t)
    return {d: tuple(sorted(v)) for d, v in by_moves.items() if v}


class Klotski(CountAnswer, SingleTurnEnv):
    """Give the fewest moves that bring the big block of a drawn Klotski puzzle to the exit.

    ## Description
    A 4x4 tray holds one big 2x2 block (red), vertical 1x2 blocks (blue), horizontal 2x1 blocks
    (green) and small 1x1 blocks (yellow), with two empty cells. One move slides one block one
    cell up, down, left or right into empty cells (a block sliding two cells takes two moves).
    The puzzle is solved when the big block stands at the exit, the gap in the middle of the
    bottom wall (bottom two rows, middle two columns). The answer is the fewest moves, known
    exactly from a breadth-first search over the tray's states (blocks of one shape are alike).

    ## Action Space
    ``"open"``: `Text`, a whole number such as ``12``. ``"mcq"``: `Discrete(k)` over nearby counts.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the tray in a dark wall with the exit gap; blocks coloured by shape.

    ## Rewards
    1.0 for the exact fewest number of moves, else 0.0.

    ## Starting State
    A count drawn from the difficulty's range (0: 3-8, 1: 10-19, 2: 20-36), then a state at exactly
    that distance from the level's pool: solved trays filled with random blocks, whose state spaces
    (at most 3,000 states each, each search about 30 ms) are searched breadth-first once per process.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the fewest number of moves as a whole number (for example `12`)"
    count_floor = 1

    def _generate(self, rng: np.random.Generator) -> None:
        pool = _pool(self.difficulty)
        counts = sorted(pool)
        self.best = counts[int(rng.integers(len(counts)))]
        self.state = pool[self.best][int(rng.integers(len(pool[self.best])))]

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        base, (x0, y0, cell, wall) = _tray(H, W)
        img = base.copy()
        gap = max(1, int(cell * 0.05))
        for k, ps in enumerate(self.state):
            h, w = SHAPES[k]
            for p in ps:
                r, c = divmod(p, COLS)
                bx, by = x0 + c * cell + gap, y0 + r * cell + gap
                fill_rect(img, bx, by, bx + w * cell - 2 * gap, by + h * cell - 2 * gap, tuple(v * 3 // 5 for v in COLOURS[k]))
                rim = max(1, int(cell * 0.06))
                fill_rect(img, bx + rim, by + rim, bx + w * cell - 2 * gap - rim, by + h * cell - 2 * gap - rim, COLOURS[k])
        return img

    def _task_text(self) -> str:
        return ("The image shows a Klotski sliding-block puzzle in a 4x4 tray: one big red 2x2 block, blue 1x2 "
                "(vertical) blocks, green 2x1 (horizontal) blocks and yellow 1x1 blocks, with two empty cells. One "
                "move slides one block by one cell up, down, left or right into empty cells (sliding a block two "
                "cells counts as two moves); blocks never overlap or leave the tray. The puzzle is solved when the "
                "big red block stands at the exit, the gap in the middle of the bottom wall (it then covers the "
                "middle two cells of the bottom two rows). What is the fewest number of moves that solves it?")

    def _state_text(self) -> str:
        grid = [["."] * COLS for _ in range(ROWS)]
        for k, ps in enumerate(self.state):
            h, w = SHAPES[k]
            for p in ps:
                r, c = divmod(p, COLS)
                for y in range(h):
                    for x in range(w):
                        grid[r + y][c + x] = "BVHS"[k]
        return "\n".join("".join(row) for row in grid) + "\n(B big block, V vertical, H horizontal, S small, . empty)"

    def _solve(self) -> int:
        """The breadth-first distance of this state, found when the pool was built."""
        return self.best


@functools.lru_cache(maxsize=16)
def _tray(H: int, W: int):
    """The empty tray (read-only) and its geometry: top-left corner, cell side and wall thickness."""
    cell = min(W / (COLS + 0.8), H / (ROWS + 1.2))
    wall = max(2, int(cell / 8))
    x0, y0 = (W - COLS * cell) / 2, (H - ROWS * cell) / 2 - cell * 0.2
    img = new_frame(H, W, BACKGROUND)
    fill_rect(img, x0 - wall, y0 - wall, x0 + COLS * cell + wall, y0 + ROWS * cell + wall, WALL)
    fill_rect(img, x0, y0, x0 + COLS * cell, y0 + ROWS * cell, FLOOR)
    ex = x0 + (COLS - 2) // 2 * cell
    fill_rect(img, ex, y0 + ROWS * cell, ex + 2 * cell, y0 + ROWS * cell + wall, FLOOR)
    draw_text(img, "EXIT", (ex + cell, y0 + ROWS * cell + wall + cell * 0.25), max(5, int(cell * 0.22)), INK, bold=True)
    img.setflags(write=False)
    return img, (x0, y0, cell, wall)


SPECS = (
    TaskSpec(name="Klotski", entry_point=Klotski, max_episode_steps=1, tags=("planning", "search")),
)
