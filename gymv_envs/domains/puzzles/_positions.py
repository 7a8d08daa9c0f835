"""Shared helpers of the game-position puzzles: cell names and a labelled board painter."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core.canvas import BACKGROUND, GRID_LINE, INK, WHITE, draw_text, fill_rect, new_frame

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CELL = re.compile(r"([A-Z])\s*(\d{1,2})")


def cell_name(r: int, c: int, rows: int, bottom_up: bool = False) -> str:
    """Column letter + row number; rows count from the top (or from the bottom)."""
    return f"{LETTERS[c]}{rows - r if bottom_up else r + 1}"


def parse_cells(text: str, rows: int, cols: int, bottom_up: bool = False) -> list[tuple[int, int]] | None:
    """Every cell name in ``text`` as (r, c); None when one is off the board or none is given."""
    out = []
    for col, num in _CELL.findall(text.upper()):
        c, n = LETTERS.index(col), int(num)
        if not (0 <= c < cols and 1 <= n <= rows):
            return None
        out.append((rows - n if bottom_up else n - 1, c))
    return out or None


class Board:
    """Geometry of a labelled ``rows x cols`` board fitted into an (H, W) frame."""

    def __init__(self, H: int, W: int, rows: int, cols: int, top_extra: float = 0.0, labels: bool = True):
        self.rows, self.cols = rows, cols
        gut = 0.7 if labels else 0.1
        self.cell = min(W / (cols + gut + 0.2), H / (rows + top_extra + gut + 0.2))
        self.x0 = (W - self.cell * (cols + gut)) / 2 + self.cell * gut
        self.y0 = (H - self.cell * (rows + top_extra + gut)) / 2 + self.cell * top_extra
        self.H, self.W, self.labels = H, W, labels

    def box(self, r: float, c: float) -> tuple[float, float, float, float]:
        x, y = self.x0 + c * self.cell, self.y0 + r * self.cell
        return x, y, x + self.cell, y + self.cell

    def center(self, r: float, c: float) -> tuple[float, float]:
        return self.x0 + (c + 0.5) * self.cell, self.y0 + (r + 0.5) * self.cell

    def paint(self, colors: dict | None = None, bottom_up: bool = False, empty=WHITE) -> np.ndarray:
        """A frame with the grid, filled cells (``colors[(r, c)]``) and coordinate labels."""
        img = new_frame(self.H, self.W, BACKGROUND)
        s = self.cell
        fill_rect(img, self.x0, self.y0, self.x0 + self.cols * s, self.y0 + self.rows * s, empty)
        pad = max(1, int(s * 0.06))
        for (r, c), col in (colors or {}).items():
            x0, y0, x1, y1 = self.box(r, c)
            fill_rect(img, x0 + pad, y0 + pad, x1 - pad, y1 - pad, col)
        line = max(1, int(s / 20))
        for k in range(self.rows + 1):
            fill_rect(img, self.x0, self.y0 + k * s, self.x0 + self.cols * s + line, self.y0 + k * s + line, GRID_LINE)
        for k in range(self.cols + 1):
            fill_rect(img, self.x0 + k * s, self.y0, self.x0 + k * s + line, self.y0 + self.rows * s + line, GRID_LINE)
        if self.labels and s >= 7:
            size = max(5, int(s * 0.45))
            for c in range(self.cols):
                draw_text(img, LETTERS[c], (self.x0 + (c + 0.5) * s, self.y0 + self.rows * s + s * 0.35), size, INK)
            for r in range(self.rows):
                draw_text(img, str(self.rows - r if bottom_up else r + 1), (self.x0 - s * 0.35, self.y0 + (r + 0.5) * s), size, INK)
        return img


# -- Tetris: tetrominoes, a random stack, a straight drop
TETROMINOES = {"I": ((0, 0), (0, 1), (0, 2), (0, 3)), "O": ((0, 0), (0, 1), (1, 0), (1, 1)),
               "T": ((0, 0), (0, 1), (0, 2), (1, 1)), "S": ((0, 1), (0, 2), (1, 0), (1, 1)),
               "Z": ((0, 0), (0, 1), (1, 1), (1, 2)), "J": ((0, 0), (1, 0), (1, 1), (1, 2)),
               "L": ((0, 2), (1, 0), (1, 1), (1, 2))}
PIECE_COLORS = {"I": "cyan", "O": "yellow", "T": "purple", "S": "green", "Z": "red", "J": "blue", "L": "orange"}
TETRIS_SIZES = {0: (8, 6), 1: (12, 8), 2: (16, 10)}  # rows, cols


def rotate(cells, k: int) -> tuple[tuple[int, int], ...]:
    for _ in range(k % 4):
        cells = [(c, -r) for r, c in cells]
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def random_stack(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    """A bottom stack of ragged columns with a few holes; no row is full."""
    filled = np.zeros((rows, cols), dtype=bool)
    h = int(rng.integers(1, rows // 2))
    for c in range(cols):
        h = int(np.clip(h + rng.integers(-2, 3), 0, rows // 2 + 1))
        filled[rows - h:, c] = True
        holes = rng.random(h) < 0.15
        filled[rows - h + 1:, c] &= ~holes[1:] if h > 1 else True
    for r in range(rows):
        if filled[r].all():
            filled[r, int(rng.integers(cols))] = False
    return filled


def drop(filled: np.ndarray, cells, col: int) -> list[tuple[int, int]] | None:
    """Cells of a piece dropped from above the board in column offset ``col``; None if it sticks out."""
    rows, cols = filled.shape
    ph = max(r for r, _ in cells) + 1
    top = -ph

    def fits(t: int) -> bool:
        return all(r + t < rows and (r + t < 0 or not filled[r + t, c + col]) for r, c in cells)

    while fits(top + 1):
        top += 1
    out = [(r + top, c + col) for r, c in cells]
    return out if top >= 0 else None


def draw_tetris(H: int, W: int, filled: np.ndarray, piece: str, cells, col: int, landed=None) -> np.ndarray:
    from gymv_envs.core.canvas import PALETTE
    rows, cols = filled.shape
    g = Board(H, W, rows, cols, top_extra=2.4)
    colors = {(r, c): (110, 110, 120) for r in range(rows) for c in range(cols) if filled[r, c]}
    img = g.paint(colors, bottom_up=True)
    pad = max(1, int(g.cell * 0.06))
    for r, c in cells:  # the falling piece, hovering above the board
        x0, y0, x1, y1 = g.box(r - 2.2, c + col)
        fill_rect(img, x0 + pad, y0 + pad, x1 - pad, y1 - pad, PALETTE[PIECE_COLORS[piece]])
    return img
