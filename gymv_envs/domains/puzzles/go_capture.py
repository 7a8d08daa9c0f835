"""Go capture (tsumego): the move that captures a marked group, or the move that saves one, judged by
an exact search of the Go rules over a few moves."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.board import Board
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    WHITE,
    draw_shape,
    draw_text,
    fill_rect,
    new_frame,
)
from gymv_envs.core.cells import GO_LETTERS, cell_name, parse_cell
from gymv_envs.core.env import check_choice
from gymv_envs.domains.puzzles._tsumego import (
    answers,
    captures_within,
    point_under,
    random_position,
    transform,
)
from gymv_envs.rules.go import BLACK, dilate, each_group, geometry, group_libs, moves, play

LEVELS = {0: (5, 1), 1: (6, 2), 2: (7, 3)}  # difficulty -> (board side, moves of the capturing side)
GOALS = ("capture", "save")
POOL_SIZE, POOL_SEED = 24, 16
WOOD, MARK = (222, 184, 120), (230, 40, 40)


@functools.cache
def _pool(difficulty: int, goal: str) -> tuple:
    """Levels (black, white, marked stone bit, working points), built once per process from a fixed seed:
    random positions with Black to move and a marked group (white to capture, black to save) that the
    search finds capturable in exactly ``k`` moves (capture) or lost if Black passes (save), with at
    least three legal moves that do not work."""
    n, k = LEVELS[difficulty]
    g = geometry(n)
    rng = np.random.default_rng(POOL_SEED + difficulty + 10 * GOALS.index(goal))
    out = []
    while len(out) < POOL_SIZE:
        black, white = random_position(rng, g)
        s = (black, white, BLACK, 0, 0, 0)
        target = white if goal == "capture" else black
        for low, grp in each_group(target, target, g):
            libs = group_libs(s, low, g)[1].bit_count()
            if not (grp.bit_count() >= 2 and (libs == k if goal == "capture" else libs <= k)):
                continue
            if goal == "capture":
                if k > 1 and captures_within(s, low, k - 1, g):
                    continue
            elif not captures_within(play(s, n * n, g), low, k, g):  # not in danger
                continue
            good = answers(s, low, k, goal, g)
            if good and len(moves(s, g)) - len(good) >= 3:
                out.append((black, white, low, good))
                break
    return tuple(out)


class GoCapture(SingleTurnEnv):
    """Find the move that captures a marked Go group, or the move that saves one (tsumego).

    ## Description
    A small Go position (5x5 at difficulty 0, 6x6 at 1, 7x7 at 2; area rules of `rules.go`,
    simple ko, no suicide) with Black to move. With ``goal="capture"`` one white group is marked:
    give a Black move after which Black captures it within ``k`` Black moves (this one
    included) whatever White replies; with ``goal="save"`` a black group is marked that White
    would capture within ``k`` White moves if Black passed: give a move after which White can
    no longer capture it within ``k`` moves against Black's best replies. ``k`` is 1, 2, 3 at
    difficulty 0, 1, 2 (capture) and the same for save. Every move that works is accepted: an
    exhaustive search over every legal reply and pass decides.

    ## Action Space
    ``"open"``: `Text`, one point such as ``C4`` (column letter, row number from the bottom).
    ``"mcq"``: `Discrete(k)` over points.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board (lines, black and white stones, a red dot on each
    stone of the marked group), columns lettered below and rows numbered from the bottom.

    ## Rewards
    1.0 for a move that works, else 0.0.

    ## Starting State
    One of 24 random positions per level and goal (built once per process from a fixed seed and
    kept when the search finds a working move, at least three legal moves that fail, and for
    capture no faster capture), turned by one of the board's eight symmetries.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``goal`` ("capture" or "save"), ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "one point such as `C4` (column letter, row number from the bottom)"

    def __init__(self, goal: str = "capture", **kwargs) -> None:
        self.goal = check_choice("goal", goal, GOALS)
        super().__init__(**kwargs)

    def _configure(self) -> None:
        self.n, self.k = LEVELS[self.difficulty]
        self.geo = geometry(self.n)

    def _generate(self, rng: np.random.Generator) -> None:
        black, white, low, good = _pool(self.difficulty, self.goal)[int(rng.integers(POOL_SIZE))]
        sym, g = int(rng.integers(8)), self.geo
        self.black, self.white = transform(black, g, sym), transform(white, g, sym)
        self.state = (self.black, self.white, BLACK, 0, 0, 0)
        self.marked = group_libs(self.state, transform(low, g, sym), g)[0]
        self.good = frozenset(point_under(a, self.n, sym) for a in good)

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        img = _goban(H, W, self.n)[0].copy()
        for i, bit in enumerate(self.geo.bits):
            if (self.black | self.white) & bit:
                kind = (2 if self.white & bit else 1) + (2 if self.marked & bit else 0)
                ys, xs, tile = _stone(H, W, self.n, i, kind)
                img[ys, xs] = tile
        return img

    def _task_text(self) -> str:
        n, k = self.n, self.k
        rules = (f"The image shows a {n}x{n} Go board (columns lettered from the left, rows numbered from the "
                 "bottom) with black and white stones; Black is to move. Stones of one colour joined along the "
                 "lines form a group; a group with no empty neighbouring point is captured and removed. Suicide "
                 "is not allowed and a single stone may not be retaken at once (simple ko). The stones with a "
                 "red dot form the marked group. ")
        if self.goal == "capture":
            ask = ("Give the move that captures the marked white group at once." if k == 1 else
                   f"Give a Black move after which Black captures the marked white group within {k} Black moves "
                   "(this one included), whatever White replies (White may also pass).")
        else:
            ask = ("White threatens to capture the marked black group. Give a Black move after which White "
                   f"cannot capture it within {'its next move' if k == 1 else f'its next {k} moves'}, "
                   "with Black answering each White move as well as it can.")
        return rules + ask

    def _state_text(self) -> str:
        rows = []
        for r in range(self.n):
            bits = self.geo.bits[r * self.n:(r + 1) * self.n]
            rows.append("".join(("x" if b & self.marked else "X") if b & self.black else
                                ("o" if b & self.marked else "O") if b & self.white else "." for b in bits))
        return "\n".join(rows) + "\n(X black, O white, lower case: the marked group)"

    def _parse_answer(self, text: str) -> int | None:
        cell = parse_cell(text.strip().strip(".`'\"*"), self.n, self.n, bottom_up=True, letters=GO_LETTERS)
        return None if cell is None else cell[0] * self.n + cell[1]

    def _check(self, answer: int) -> bool:
        return answer in self.good

    def _format(self, answer: int) -> str:
        return cell_name(answer // self.n, answer % self.n, self.n, bottom_up=True, letters=GO_LETTERS)

    def _solve(self) -> int:
        return min(self.good)

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        g = self.geo
        libs = group_libs(self.state, self.marked & -self.marked, g)[1]
        near = g.mask & ~(self.black | self.white) & (libs | dilate(libs, g))
        legal = [a for a in moves(self.state, g) if a not in self.good]
        close = [a for a in legal if g.bits[a] & near]  # liberties and points next to them first
        rest = [a for a in legal if a not in close]
        return [close[int(i)] for i in rng.permutation(len(close))] + [rest[int(i)] for i in rng.permutation(len(rest))]


@functools.lru_cache(maxsize=16)
def _goban(H: int, W: int, n: int):
    """The empty board (wood, lines through the cell centres, labels), read-only, and its `Board` geometry."""
    b = Board(H, W, n, n)
    img = new_frame(H, W, BACKGROUND)
    fill_rect(img, b.x0, b.y0, b.x0 + n * b.cell, b.y0 + n * b.cell, WOOD)
    line = max(1, int(b.cell / 24))
    for k in range(n):
        cx, cy = b.center(k, k)
        fill_rect(img, b.x0 + b.cell / 2, cy - line / 2, b.x0 + (n - 0.5) * b.cell + line / 2, cy + line / 2 + 1, INK)
        fill_rect(img, cx - line / 2, b.y0 + b.cell / 2, cx + line / 2 + 1, b.y0 + (n - 0.5) * b.cell + line / 2, INK)
    if b.cell >= 7:
        size = max(5, int(b.cell * 0.4))
        for k in range(n):
            draw_text(img, GO_LETTERS[k], (b.x0 + (k + 0.5) * b.cell, b.y0 + n * b.cell + b.cell * 0.35), size, INK)
            draw_text(img, str(n - k), (b.x0 - b.cell * 0.35, b.y0 + (k + 0.5) * b.cell), size, INK)
    img.setflags(write=False)
    return img, b


@functools.lru_cache(maxsize=2048)
def _stone(H: int, W: int, n: int, i: int, kind: int) -> tuple[slice, slice, np.ndarray]:
    """Point ``i``'s square of the empty board with a stone on it (kind 1 black, 2 white, +2 marked), read-only."""
    base, b = _goban(H, W, n)
    x0, y0, x1, y1 = b.box(i // n, i % n)
    x0, y0, x1, y1 = max(0, int(x0)), max(0, int(y0)), min(W, int(x1) + 1), min(H, int(y1) + 1)
    tile = base[y0:y1, x0:x1].copy()
    cx, cy = b.center(i // n, i % n)
    cx, cy = cx - x0, cy - y0
    size = max(3, int(b.cell * 0.9))
    draw_shape(tile, "circle", cx, cy, size, INK)
    if kind in (2, 4):
        draw_shape(tile, "circle", cx, cy, max(2, size - max(2, size // 10)), WHITE)
    if kind > 2:
        draw_shape(tile, "circle", cx, cy, max(2, int(b.cell * 0.3)), MARK)
    tile.setflags(write=False)
    return slice(y0, y1), slice(x0, x1), tile


SPECS = (
    TaskSpec(name="GoCapture", entry_point=GoCapture, max_episode_steps=1, tags=("game", "go", "search"),
             kwargs={"goal": "capture"}),
    TaskSpec(name="GoSave", entry_point=GoCapture, max_episode_steps=1, tags=("game", "go", "search"),
             kwargs={"goal": "save"}),
)
