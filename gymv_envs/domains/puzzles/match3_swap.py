"""Match-3 swap: name the adjacent swap that clears the most gems."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.board import Board
from gymv_envs.core.canvas import PALETTE, WHITE, draw_shape, is_uniform, shape_tile
from gymv_envs.core.cells import cell_name, find_cells
from gymv_envs.core.rng import ScalarDraws

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


@functools.lru_cache(maxsize=8)
def _windows(n: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each cell of an n x n board (flat index), the row and column windows of three cells holding it."""
    wins = [(r * n + c, r * n + c + 1, r * n + c + 2) for r in range(n) for c in range(n - 2)]
    wins += [(r * n + c, (r + 1) * n + c, (r + 2) * n + c) for r in range(n - 2) for c in range(n)]
    return tuple(tuple(w for w in wins if i in w) for i in range(n * n))


def _triples(g: list[int], n: int) -> int:
    """How many windows of three equal gems in a row or column the flat board holds (0: no line)."""
    return sum(g[a] == g[b] == g[c] for a, b, c in _all_windows(n))


@functools.lru_cache(maxsize=8)
def _all_windows(n: int) -> tuple[tuple[int, int, int], ...]:
    """Every row and column window of three cells of an n x n board."""
    return tuple(set().union(*_windows(n)))


def swap_scores(g: list[list[int]], swaps) -> dict:
    """`cleared` after each swap of a board with no line yet: every run then holds a swapped cell, so
    the cleared cells are those of the windows of three equal gems through a swapped cell."""
    n, scores = len(g), {}
    f, wins = [v for row in g for v in row], _windows(n)
    for a, b in swaps:
        i, j = a[0] * n + a[1], b[0] * n + b[1]
        va, vb = f[i], f[j]
        if va == vb:
            scores[(a, b)] = 0
            continue
        f[i], f[j] = vb, va
        hit: set = set()
        for w in wins[i] + wins[j]:
            if f[w[0]] == f[w[1]] == f[w[2]]:
                hit.update(w)
        f[i], f[j] = va, vb
        scores[(a, b)] = len(hit)
    return scores


@functools.lru_cache(maxsize=8)
def _swaps(n: int) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """Every swap of two neighbouring cells, in reading order (right before down)."""
    return tuple(((r, c), (r + dr, c + dc)) for r in range(n) for c in range(n)
                 for dr, dc in ((0, 1), (1, 0)) if r + dr < n and c + dc < n)


@functools.lru_cache(maxsize=16)
def _board(H: int, W: int, n: int) -> tuple[np.ndarray, list, int]:
    """The empty board, each cell's gem box (x, y) and whether it lies on white, and the gem size."""
    b = Board(H, W, n, n)
    base, size = b.base(), max(3, int(b.cell * 0.72))
    boxes = []
    for r in range(n):
        for c in range(n):
            cx, cy = b.center(r, c)
            x, y = int(round(cx - size / 2)), int(round(cy - size / 2))
            boxes.append((x, y, is_uniform(base, x, y, x + size, y + size, WHITE), cx, cy))
    return base, boxes, size


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
        n, kinds = self.n, self.kinds
        wins = _windows(n)
        with ScalarDraws(rng) as d:  # the draws of `rng.integers` one by one, at Python speed
            draw = d.integers
            while True:
                f = [draw(kinds) for _ in range(n * n)]  # `d.integers_list(kinds, n * n)`: the same values
                lines = _triples(f, n)
                for _ in range(50):
                    if not lines:
                        break
                    v, r, c = draw(kinds), draw(n), draw(n)  # value first: numpy drew the right side first
                    i = r * n + c
                    if f[i] == v:  # the same gem again: no window changes
                        continue
                    for a, b, e in wins[i]:
                        lines -= f[a] == f[b] == f[e]
                    f[i] = v
                    for a, b, e in wins[i]:
                        lines += f[a] == f[b] == f[e]
                if lines:
                    continue
                g = [f[r * n:(r + 1) * n] for r in range(n)]
                scores = swap_scores(g, self._swaps())
                best = max(scores.values())
                if best > 0:
                    break
        self.grid, self.scores, self.best = np.array(g, dtype=np.int64), scores, best

    def _swaps(self) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
        return _swaps(self.n)

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        base, boxes, size = _board(H, W, self.n)
        img = base.copy()
        tiles = [shape_tile(shape, size, PALETTE[colour], WHITE) for colour, shape in GEMS[:self.kinds]]
        for (x, y, on_white, cx, cy), v in zip(boxes, self.grid.ravel().tolist()):
            colour, shape = GEMS[v]
            if on_white:  # the same pixels as blending the gem onto its white cell
                img[y:y + size, x:x + size] = tiles[v]
            else:
                draw_shape(img, shape, cx, cy, size, PALETTE[colour])
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
        initials = [colour[0].upper() for colour, _ in GEMS]
        return "\n".join(" ".join([initials[v] for v in row]) for row in self.grid.tolist())


SPECS = (
    TaskSpec(name="Match3Swap", entry_point=Match3Swap, version=1, max_episode_steps=1,
             tags=("game", "spatial-reasoning", "search")),
)
