"""Pyramid chess: pieces on the glass levels of a stepped pyramid board; which are seen from above?"""

from __future__ import annotations

import functools
import re
from collections import Counter

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import count_near_misses, parse_count
from gymv_envs.core.canvas import (
    BACKGROUND,
    GRID_LINE,
    INK,
    PALETTE,
    WHITE,
    draw_text,
    fill_rect,
    new_frame,
    shape_tile,
)
from gymv_envs.core.cells import LETTERS, find_cells

QUESTIONS = ("visible", "top")
LEVELS = {0: (4, (4, 6)), 1: (5, (7, 10)), 2: (7, (11, 16))}  # base side, pieces
SHAPES = ("circle", "square", "triangle", "star")
COLOURS = ("red", "blue", "green")
SHAPE_WORDS = tuple(re.compile(rf"\b{w}s?\b") for w in SHAPES)  # as the answer names them
COLOUR_WORDS = tuple(re.compile(rf"\b{w}\b") for w in COLOURS)

Piece = tuple[int, int]  # (shape, colour)


def seen_from_above(pieces: dict[tuple[int, int, int], Piece]) -> dict[tuple[int, int], Piece]:
    """Per base cell (row, column), the piece on the highest level over it (a key is (level, row, column)
    in the coordinates of the bottom level)."""
    top: dict[tuple[int, int], tuple[int, Piece]] = {}
    for (k, r, c), p in pieces.items():
        if (r, c) not in top or top[r, c][0] < k:
            top[r, c] = (k, p)
    return {cell: p for cell, (_, p) in top.items()}


def piece_name(p: Piece) -> str:
    return f"{COLOURS[p[1]]} {SHAPES[p[0]]}"


class PyramidChess(SingleTurnEnv):
    """A stepped pyramid of glass boards: count the pieces seen from above, or name the one seen at a cell.

    ## Description
    A pyramid board: the bottom level is an ``n x n`` board, each level above is two cells
    narrower and centred, so level k covers the base cells from column letter k+1 and row k+1 on
    (every level is labelled with the bottom level's letters and numbers: the same cell name is the
    same spot seen from above). The levels are drawn side by side, bottom first. The boards are
    glass: a piece hides every piece below it in the same cell name.

    - ``question="visible"``: how many pieces are seen from directly above (cells with a piece on
      some level count once)?
    - ``question="top"``: which piece (colour and shape) is seen from above at the named cell?

    ## Action Space
    ``"open"``: `Text`, a whole number (visible) or a piece such as ``red star`` (top).
    ``"mcq"``: `Discrete(k)`; counts off by one or two and the number of all pieces, or the pieces
    below the top one, a neighbour's piece and pieces of the same shape or colour.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the levels with their labels and pieces.

    ## Rewards
    1.0 for the right count or piece, else 0.0.

    ## Starting State
    Bases of 4 (2 levels), 5 (3) and 7 (4) cells, with 4-6, 7-10 and 11-16 pieces (difficulty 0-2),
    some stacked over others; the cell asked about holds two or more pieces from difficulty 1.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"visible"``, ``"top"``), ``difficulty``, ``answer_format``, ``num_options``,
    ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    questions = QUESTIONS

    @property
    def answer_hint(self) -> str:  # type: ignore[override]
        return ("the number of pieces seen from above (a whole number)" if self.question == "visible"
                else "a piece as `<colour> <shape>` (colours: red, blue, green; shapes: circle, square, triangle, star)")

    def _configure(self) -> None:
        self.n, self.count_range = LEVELS[self.difficulty]
        self.levels = (self.n + 1) // 2

    def _generate(self, rng: np.random.Generator) -> None:
        spots, cells = _spots(self.n, self.levels)
        while True:
            m = int(rng.integers(self.count_range[0], self.count_range[1] + 1))
            picks = rng.permutation(len(spots))[:m].tolist()
            kinds = rng.integers(0, len(SHAPES) * len(COLOURS), size=m).tolist()
            seen = len({cells[i] for i in picks})  # cells seen from above; fewer than m: some piece is stacked
            if seen == m or (self.difficulty and seen > m - 2):
                continue
            self.pieces = {spots[i]: (v % len(SHAPES), v // len(SHAPES)) for i, v in zip(picks, kinds)}
            self.top = seen_from_above(self.pieces)
            if self.question == "visible":
                return
            pool = list(self.top)
            if self.difficulty:
                below = Counter((r, c) for _, r, c in self.pieces)
                pool = [cell for cell in pool if below[cell] > 1]
            self.target = pool[int(rng.integers(len(pool)))]
            return

    # ----------------------------------------------------------------- draw
    def _draw(self) -> np.ndarray:
        base, placed = _board(self.obs_size, self.n, self.levels)
        img = base.copy()
        for spot_piece in self.pieces.items():
            rows, cols, tile = placed[spot_piece]
            img[rows, cols] = tile
        return img

    # ----------------------------------------------------------------- text
    def _cell(self, cell: tuple[int, int]) -> str:
        return f"{LETTERS[cell[1]]}{cell[0] + 1}"

    def _task_text(self) -> str:
        rules = (f"The image shows the {self.levels} levels of a stepped pyramid board, side by side from the bottom "
                 "level (left, Level 1) to the top (right). Each level is two cells narrower than the one below and "
                 "centred on it; every level is drawn level with the rows it covers and labelled with the bottom "
                 "level's column letters and row numbers, so the same cell name is the same spot seen from above. "
                 "The levels are glass: a piece hides every piece below it in the same cell.")
        if self.question == "visible":
            return rules + " How many pieces are seen from directly above?"
        return rules + f" Which piece (colour and shape) is seen from directly above at {self._cell(self.target)}?"

    def _caption(self) -> list:
        return ["Pieces seen from above?"] if self.question == "visible" else [f"Seen from above at {self._cell(self.target)}?"]

    # ----------------------------------------------------------------- verify
    def _parse_answer(self, text: str):
        if self.question == "visible":
            return parse_count(text)
        t = text.strip().lower()
        colours = {i for i, word in enumerate(COLOUR_WORDS) if word.search(t)}
        shapes = {i for i, word in enumerate(SHAPE_WORDS) if word.search(t)}
        if len(colours) != 1 or len(shapes) != 1 or len(t) > 60 or find_cells(t.upper(), 26, 26):
            return None
        return shapes.pop(), colours.pop()

    def _check(self, answer) -> bool:
        return answer == (len(self.top) if self.question == "visible" else self.top[self.target])

    def _format(self, answer) -> str:
        return str(answer) if self.question == "visible" else piece_name(answer)

    def _solve(self):
        return len(self.top) if self.question == "visible" else self.top[self.target]

    def _near_misses(self, rng: np.random.Generator) -> list:
        if self.question == "visible":
            return [len(self.pieces)] + count_near_misses(rng, len(self.top), 1)
        r, c = self.target
        below = [p for (k, rr, cc), p in self.pieces.items() if (rr, cc) == self.target]
        near = [p for (rr, cc), p in self.top.items() if abs(rr - r) + abs(cc - c) == 1]
        ans = self.top[self.target]
        similar = [(s, ans[1]) for s in range(len(SHAPES))] + [(ans[0], k) for k in range(len(COLOURS))]
        every = [(s, k) for s in range(len(SHAPES)) for k in range(len(COLOURS))]
        groups = [below, near, similar]
        first = [g[int(i)] for g in groups for i in rng.permutation(len(g))]
        return first + [every[int(i)] for i in rng.permutation(len(every))]

    def _state_text(self) -> str:
        lines = [[] for _ in range(self.levels)]
        for (k, r, c), p in sorted(self.pieces.items()):
            lines[k].append(f"{self._cell((r, c))} {piece_name(p)}")
        return "\n".join(f"level {k + 1}: " + ", ".join(line) for k, line in enumerate(lines))


@functools.lru_cache(maxsize=8)
def _spots(n: int, levels: int) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, int], ...]]:
    """Every (level, row, column) a piece can stand on, and the base cell (row, column) of each."""
    spots = tuple((k, r, c) for k in range(levels) for r in range(k, n - k) for c in range(k, n - k))
    return spots, tuple((r, c) for _, r, c in spots)


def _slot(side: int) -> float:
    """Cells of room a level of ``side`` cells takes in the row of levels (its row labels, a gap, its title)."""
    return max(side + 0.8, 3.0)


@functools.lru_cache(maxsize=16)
def _board(obs_size: tuple[int, int], n: int, levels: int) -> tuple[np.ndarray, dict[tuple[tuple[int, int, int], Piece], tuple]]:
    """The empty levels and, per (spot, piece), the rows, columns and pixels of that piece drawn there (read-only)."""
    H, W = obs_size
    cells = sum(_slot(n - 2 * k) for k in range(levels)) + 0.2
    cs = min(W / cells, H / (n + 2.2))
    x0, y0 = (W - cs * cells) / 2, (H - cs * (n + 1.4)) / 2 + cs * 1.4
    size, placed = max(2, int(cs * 0.7)), {}
    for k, r, c in _spots(n, levels)[0]:
        origin = x0 + cs * (0.8 + sum(_slot(n - 2 * j) for j in range(k))) - k * cs  # base column 0 on level k
        for shape in range(len(SHAPES)):
            for colour in range(len(COLOURS)):
                tile = shape_tile(SHAPES[shape], size, PALETTE[COLOURS[colour]], WHITE)
                x = int(origin + (c + 0.5) * cs - tile.shape[1] / 2)
                y = int(y0 + (r + 0.5) * cs - tile.shape[0] / 2)
                placed[(k, r, c), (shape, colour)] = (slice(y, y + tile.shape[0]), slice(x, x + tile.shape[1]), tile)
    return _levels_base(obs_size, n, levels, x0, y0, cs), placed


def _levels_base(obs_size: tuple[int, int], n: int, levels: int, x0: float, y0: float, cs: float) -> np.ndarray:
    """The empty levels with their titles and labels (read-only)."""
    H, W = obs_size
    img = new_frame(H, W, BACKGROUND)
    line = max(1, int(cs / 20))
    fs = max(4, int(cs * 0.42))
    top = y0
    x = x0 + cs * 0.8
    for k in range(levels):
        side, y0 = n - 2 * k, top + k * cs
        fill_rect(img, x - line, y0 - line, x + side * cs + line, y0 + side * cs + line, INK)
        for r in range(side):
            for c in range(side):
                fill_rect(img, x + c * cs + line, y0 + r * cs + line, x + (c + 1) * cs - line + 1, y0 + (r + 1) * cs - line + 1, WHITE)
        for j in range(side):
            draw_text(img, LETTERS[k + j], (x + (j + 0.5) * cs, y0 - cs * 0.35), fs, GRID_LINE, bold=True)
            draw_text(img, str(k + j + 1), (x - cs * 0.4, y0 + (j + 0.5) * cs), fs, GRID_LINE, bold=True)
        draw_text(img, f"Level {k + 1}", (x + side * cs / 2, y0 - cs * 0.95), fs, INK, bold=True)
        x += _slot(side) * cs
    img.setflags(write=False)
    return img


SPECS = (
    TaskSpec(name="PyramidChess", entry_point=PyramidChess, max_episode_steps=1, kwargs={"question": "visible"},
             tags=("spatial-reasoning", "3d-board", "counting")),
    TaskSpec(name="PyramidChessTop", entry_point=PyramidChess, max_episode_steps=1, kwargs={"question": "top"},
             tags=("spatial-reasoning", "3d-board")),
)
