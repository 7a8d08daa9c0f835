"""Board layout and board painting shared by the grid tasks: where a ``rows x cols`` board sits
in a frame, and its empty base images (cached, read-only).

`layout` is the fitting rule of the grid boards: square cells as large as fit inside a margin
of ``min(H, W) // 40``, with ``pad`` extra cells of room on each side (clues, labels);
`labelled_layout` pads `LABEL_PAD` cells above and left for coordinate labels. On it:

- `blank_board`: white cells, thin grid lines, a thick outline and optional thick box lines
  (Sudoku boxes), no labels; `cell_text` writes a clue in a cell.
- `blank_labelled_board`: cells separated by thin lines, column letters above and row numbers
  left (`draw_labels`, the names of `gymv_envs.core.cells`); `cell_rect` and `cell_centre`
  address a cell inside its lines; `paint_regions` tints and outlines regions
  (`region_board`: a labelled board with them, its tints a cached line per row of cells).
- `coordinate_frame`: only the labels, for tasks that paint their own cells.

`Board` is the other fitting rule kept here (no margin, letters below and numbers left, room
for a caption above) that the game-position puzzles are drawn with, and `draw_maze` draws a
maze of cells given by their open sides.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from gymv_envs.core.canvas import (
    BACKGROUND,
    GRID_LINE,
    INK,
    WHITE,
    Color,
    blend_mask,
    color_block,
    draw_text,
    fill,
    fill_rect,
    new_frame,
    rect_box,
    text_mask,
)
from gymv_envs.core.cells import LETTERS

LABEL_PAD = 0.6  # cells of room above and left of a labelled board
GIVEN = INK
# soft region colours, distinguishable next to each other
REGION_COLOURS: tuple[Color, ...] = (
    (255, 214, 214), (206, 232, 255), (214, 245, 204), (255, 240, 190), (232, 214, 255),
    (255, 222, 180), (200, 240, 238), (246, 212, 236), (228, 228, 200), (210, 220, 245),
)


class Geom(NamedTuple):
    """Where the board sits in the frame: top-left corner of cell (0, 0) and the cell side."""

    x0: float
    y0: float
    cell: float

    def box(self, r: float, c: float) -> tuple[float, float, float, float]:
        return self.x0 + c * self.cell, self.y0 + r * self.cell, self.x0 + (c + 1) * self.cell, self.y0 + (r + 1) * self.cell

    def center(self, r: float, c: float) -> tuple[float, float]:
        return self.x0 + (c + 0.5) * self.cell, self.y0 + (r + 0.5) * self.cell


def layout(obs_size: tuple[int, int], rows: int, cols: int, pad: tuple[float, float, float, float] = (0, 0, 0, 0)) -> Geom:
    """Square cells as large as fit, with ``pad`` = (top, right, bottom, left) extra cells of room."""
    h, w = obs_size
    return _layout(h, w, rows, cols, *pad)


@functools.lru_cache(maxsize=1024)
def _layout(h: int, w: int, rows: int, cols: int, t: float, r: float, b: float, left: float) -> Geom:
    margin = max(1, min(h, w) // 40)
    cell = min((w - 2 * margin) / (cols + left + r), (h - 2 * margin) / (rows + t + b))
    x0 = (w - cell * (cols + left + r)) / 2 + left * cell
    y0 = (h - cell * (rows + t + b)) / 2 + t * cell
    return Geom(x0, y0, cell)


def labelled_layout(obs_size: tuple[int, int], rows: int, cols: int, labels: bool = True) -> Geom:
    """`layout` with room for coordinate labels above and left (`LABEL_PAD` cells) when ``labels``."""
    pad = LABEL_PAD if labels else 0.0
    return layout(obs_size, rows, cols, (pad, 0, 0, pad))


def draw_labels(img: np.ndarray, g: Geom, rows: int, cols: int, size: int, gap: float | None = None,
                bold: bool = True) -> None:
    """Column letters above and row numbers (from the top) left of the board, ``gap`` pixels from its
    edge (default 0.3 cells), in a font of ``size`` pixels."""
    gap = 0.3 * g.cell if gap is None else gap
    for c in range(cols):
        draw_text(img, LETTERS[c], (g.x0 + (c + 0.5) * g.cell, g.y0 - gap), size, INK, bold=bold)
    for r in range(rows):
        draw_text(img, str(r + 1), (g.x0 - gap, g.y0 + (r + 0.5) * g.cell), size, INK, bold=bold)


# ----------------------------------------------------------------- white cells, grid lines, clues
@functools.lru_cache(maxsize=64)
def board_base(obs_size: tuple[int, int], rows: int, cols: int, pad: tuple[float, float, float, float] = (0, 0, 0, 0),
               box: tuple[int, int] | None = None, lines: bool = True) -> tuple[np.ndarray, Geom]:
    """The empty board (white cells, thin lines, thick outline and ``box`` blocks), read-only, and its geometry."""
    g = layout(obs_size, rows, cols, pad)
    img = new_frame(obs_size[0], obs_size[1], BACKGROUND)
    x1, y1 = g.x0 + cols * g.cell, g.y0 + rows * g.cell
    fill_rect(img, g.x0, g.y0, x1, y1, WHITE)
    if lines:
        grid_lines(img, g, rows, cols, box)
    img.setflags(write=False)
    return img, g


def blank_board(obs_size: tuple[int, int], rows: int, cols: int, **kwargs) -> tuple[np.ndarray, Geom]:
    """A writable copy of `board_base` and its geometry."""
    base, g = board_base(tuple(obs_size), rows, cols, **kwargs)
    return base.copy(), g


def grid_lines(img: np.ndarray, g: Geom, rows: int, cols: int, box: tuple[int, int] | None = None) -> None:
    thin, thick = max(1, int(g.cell / 30)), max(2, int(g.cell / 12))
    x1, y1 = g.x0 + cols * g.cell, g.y0 + rows * g.cell
    for r in range(rows + 1):
        w = thick if r in (0, rows) or (box and r % box[0] == 0) else thin
        y = g.y0 + r * g.cell
        fill_rect(img, g.x0 - w // 2, y - w // 2, x1 + (w + 1) // 2, y + (w + 1) // 2, INK if w == thick else GRID_LINE)
    for c in range(cols + 1):
        w = thick if c in (0, cols) or (box and c % box[1] == 0) else thin
        x = g.x0 + c * g.cell
        fill_rect(img, x - w // 2, g.y0 - w // 2, x + (w + 1) // 2, y1 + (w + 1) // 2, INK if w == thick else GRID_LINE)


@functools.lru_cache(maxsize=4096)
def text_tile(text: str, size: int, color: Color, bold: bool, bg: Color) -> np.ndarray:
    """``text`` blended once over a ``bg`` block (read-only, cached): drawing it again is a copy."""
    mask = text_mask(text, size, bold)
    tile = new_frame(mask.shape[0], mask.shape[1], bg)
    blend_mask(tile, mask, 0, 0, color)
    tile.setflags(write=False)
    return tile


@functools.lru_cache(maxsize=8192)
def cell_text_spot(g: Geom, shape: tuple[int, ...], r: float, c: float, text: str, scale: float = 0.62,
                   color: Color = GIVEN, bold: bool = True, bg: Color = WHITE,
                   ) -> tuple[slice, slice, np.ndarray] | tuple[tuple[float, float], int]:
    """Where `cell_text` (with the same style arguments and defaults) puts ``text`` on a frame of ``shape``:
    (rows, columns, tile) where the tile fits, else (centre, size) for `draw_text`. A pure function of the
    board's geometry, cached: a clue costs one copy."""
    size = max(4, int(g.cell * scale * (1.0 if len(text) <= 2 else 2.0 / len(text))))
    tile = text_tile(text, size, color, bold, bg)
    h, w = tile.shape[:2]
    cx, cy = g.center(r, c)
    x, y = int(round(cx - w / 2)), int(round(cy - h / 2))
    if x < 0 or y < 0 or x + w > shape[1] or y + h > shape[0]:
        return (cx, cy), size
    return slice(y, y + h), slice(x, x + w), tile


def cell_text(img: np.ndarray, g: Geom, r: float, c: float, text: str, scale: float = 0.62,
              color: Color = GIVEN, bold: bool = True, bg: Color = WHITE) -> None:
    """``text`` centred in cell (r, c) over a ``bg`` cell (fractional positions place outside clues); a tile
    the frame's border would cut is blended over what lies there instead."""
    spot = cell_text_spot(g, img.shape, r, c, text, scale, color, bold, bg)
    if len(spot) == 3:
        img[spot[0], spot[1]] = spot[2]
    else:
        draw_text(img, text, spot[0], spot[1], color, bold=bold)


# ----------------------------------------------------------------- labelled boards of lined cells
@functools.lru_cache(maxsize=64)
def labelled_base(h: int, w: int, rows: int, cols: int, labels: bool = True, cell_colour: Color = WHITE) -> np.ndarray:
    """The empty labelled board (cells inside thin lines, A.. / 1.. labels), read-only."""
    g = labelled_layout((h, w), rows, cols, labels)
    x0, y0, cell = g
    img = new_frame(h, w, BACKGROUND)
    line = max(1, int(cell / 30))
    fill_rect(img, x0 - line, y0 - line, x0 + cols * cell + line, y0 + rows * cell + line, GRID_LINE)
    for r in range(rows):
        for c in range(cols):
            x, y = x0 + c * cell, y0 + r * cell
            fill_rect(img, x + line, y + line, x + cell, y + cell, cell_colour)
    if labels:
        draw_labels(img, g, rows, cols, max(5, int(min(0.48 * cell, 0.6 * cell * 0.8))))
    img.setflags(write=False)
    return img


def blank_labelled_board(obs_size: tuple[int, int], rows: int, cols: int, labels: bool = True,
                         cell_colour: Color = WHITE) -> tuple[np.ndarray, Geom]:
    """A writable copy of `labelled_base` and its `labelled_layout`."""
    h, w = obs_size
    return labelled_base(h, w, rows, cols, labels, cell_colour).copy(), labelled_layout((h, w), rows, cols, labels)


def cell_rect(g: Geom, r: int, c: int, inset: float = 0.0) -> tuple[float, float, float, float]:
    """The box of cell (r, c) of a labelled board inside its lines, shrunk by ``inset`` cells."""
    x0, y0, cell = g
    line = max(1, int(cell / 30))
    k = inset * cell
    return x0 + c * cell + line + k, y0 + r * cell + line + k, x0 + (c + 1) * cell - k, y0 + (r + 1) * cell - k


def cell_centre(g: Geom, r: int, c: int) -> tuple[float, float]:
    """The centre of cell (r, c) of a labelled board, inside its lines."""
    x0, y0, cell = g
    line = max(1, int(cell / 30))
    return x0 + (c + 0.5) * cell + line / 2, y0 + (r + 0.5) * cell + line / 2


def paint_regions(img: np.ndarray, g: Geom, regions: np.ndarray, tint: bool = True) -> None:
    """Tint each region of a labelled board and draw thick borders between cells of different regions."""
    rows, cols = regions.shape
    cells, right, below, outline = _region_boxes(img.shape[:2], tuple(g), rows, cols)
    reg = regions.tolist()
    if tint:  # each cell's box filled with its region's colour (boxes inside the lines, apart)
        k = len(REGION_COLOURS)
        for r in range(rows):
            for c in range(cols):
                box = cells[r * cols + c]
                if box is not None:
                    x0, y0, x1, y1 = box
                    img[y0:y1, x0:x1] = color_block(y1 - y0, x1 - x0, REGION_COLOURS[int(reg[r][c]) % k])
    # the borders, all one ink: the borders right of the cells of one column down a run of rows, and those
    # below the cells of one row along a run of columns, overlap and make one box each
    for c in range(cols - 1):
        _ink_runs(img, [right[r * cols + c] if reg[r][c] != reg[r][c + 1] else None for r in range(rows)])
    for r in range(rows - 1):
        row, nxt = reg[r], reg[r + 1]
        _ink_runs(img, [below[r * cols + c] if row[c] != nxt[c] else None for c in range(cols)])
    for box in outline:
        _ink(img, box)


def region_board(obs_size: tuple[int, int], regions: np.ndarray) -> tuple[np.ndarray, Geom]:
    """A `blank_labelled_board` with ``regions`` (rows x cols region numbers) painted as `paint_regions` paints
    them. Where the rows of cells are bands apart whose pixels between the cells are one colour down each
    column, each row of cells is tinted as one cached pixel line broadcast down its band (the same pixels)."""
    (h, w), (rows, cols) = obs_size, regions.shape
    img, g = blank_labelled_board((h, w), rows, cols)
    bands = _tint_bands(h, w, rows, cols)
    if bands is None:
        paint_regions(img, g, regions)
        return img, g
    xa, xb, ys = bands[:3]
    for (y0, y1), row in zip(ys, regions.tolist()):
        img[y0:y1, xa:xb] = _tint_line(h, w, rows, cols, tuple(row))
    paint_regions(img, g, regions, tint=False)
    return img, g


@functools.lru_cache(maxsize=64)
def _tint_bands(h: int, w: int, rows: int, cols: int) -> tuple | None:
    """Where `paint_regions` tints the cells of an (h, w) labelled board: the cells' first and end pixel
    column, each row's pixel rows, each column's pixel columns from the first, and the empty board's pixels
    along a row there (read-only); None unless the rows of cells are bands apart whose pixels between the
    cells are, column by column, one colour."""
    g, base = labelled_layout((h, w), rows, cols), labelled_base(h, w, rows, cols)
    ys = [rect_box((h, w), *cell_rect(g, r, 0)) for r in range(rows)]
    xs = [rect_box((h, w), *cell_rect(g, 0, c)) for c in range(cols)]
    if None in ys or None in xs or any(a[3] > b[1] for a, b in zip(ys, ys[1:])) or any(
            a[2] > b[0] for a, b in zip(xs, xs[1:])):
        return None
    xa, xb, ys = xs[0][0], xs[-1][2], [(b[1], b[3]) for b in ys]
    line = base[ys[0][0], xa:xb]
    if any((base[y0:y1, xa:xb] != line).any() for y0, y1 in ys):
        return None
    return xa, xb, ys, [(b[0] - xa, b[2] - xa) for b in xs], line


@functools.lru_cache(maxsize=4096)
def _tint_line(h: int, w: int, rows: int, cols: int, regions: tuple[int, ...]) -> np.ndarray:
    """One pixel row of a row of cells of regions ``regions`` tinted as `paint_regions` tints them (read-only)."""
    line = _tint_bands(h, w, rows, cols)[4].copy()
    for (x0, x1), k in zip(_tint_bands(h, w, rows, cols)[3], regions):
        line[x0:x1] = REGION_COLOURS[k % len(REGION_COLOURS)]
    line.setflags(write=False)
    return line


def _ink_runs(img: np.ndarray, boxes: list[tuple[int, int, int, int] | None]) -> None:
    """Ink boxes in a line, each run of consecutive boxes (None: none there, or off the frame) as one box.

    The boxes of a run share their span across the line and overlap along it, also once clipped to the
    frame (two clipped boxes both in the frame still meet), so the run's box is the first one's start to
    the last one's end.
    """
    run = None
    for box in boxes:
        if box is None:
            if run is not None:
                fill(img[run[1]:run[3], run[0]:run[2]], INK)
                run = None
        elif run is None:
            run = box
        else:
            run = (run[0], run[1], box[2], box[3])
    if run is not None:
        fill(img[run[1]:run[3], run[0]:run[2]], INK)


def _ink(img: np.ndarray, box: tuple[int, int, int, int] | None) -> None:
    if box is not None:
        fill(img[box[1]:box[3], box[0]:box[2]], INK)


@functools.lru_cache(maxsize=64)
def _region_boxes(shape: tuple[int, int], g: tuple[float, float, float], rows: int, cols: int):
    """The pixel boxes `paint_regions` fills: each cell's tint, the border right of and below each cell,
    and the outline (None where a box is empty)."""
    x0, y0, cell = g
    cells = [rect_box(shape, *cell_rect(Geom(*g), r, c)) for r in range(rows) for c in range(cols)]
    t = max(2, int(cell / 10))
    right, below = [], []
    for r in range(rows):
        for c in range(cols):
            x, y = x0 + c * cell, y0 + r * cell
            right.append(rect_box(shape, x + cell - t / 2, y - t / 2, x + cell + t / 2 + 1, y + cell + t / 2 + 1))
            below.append(rect_box(shape, x - t / 2, y + cell - t / 2, x + cell + t / 2 + 1, y + cell + t / 2 + 1))
    w, h = cols * cell, rows * cell
    outline = [rect_box(shape, a, b, c_, d) for a, b, c_, d in (
        (x0 - t / 2, y0 - t / 2, x0 + w + t / 2 + 1, y0 + t / 2), (x0 - t / 2, y0 + h - t / 2, x0 + w + t / 2 + 1, y0 + h + t / 2 + 1),
        (x0 - t / 2, y0 - t / 2, x0 + t / 2, y0 + h + t / 2 + 1), (x0 + w - t / 2, y0 - t / 2, x0 + w + t / 2 + 1, y0 + h + t / 2 + 1))]
    return cells, right, below, outline


@functools.lru_cache(maxsize=64)
def coordinate_frame(obs_size: tuple[int, int], rows: int, cols: int, labels: bool = True) -> tuple[np.ndarray, Geom]:
    """An empty frame (read-only) with only the column letters and row numbers of a labelled board,
    and the board's geometry; the task paints the cells."""
    h, w = obs_size
    g = labelled_layout((h, w), rows, cols, labels)
    img = new_frame(h, w, BACKGROUND)
    if labels:
        draw_labels(img, g, rows, cols, max(5, int(g.cell * 0.36)))
    img.setflags(write=False)
    return img, g


# ----------------------------------------------------------------- the game-position board
class Board:
    """Geometry and painting of a labelled ``rows x cols`` board fitted into an (H, W) frame, with
    letters below and row numbers left, and ``top_extra`` cells of room above (a caption, a piece)."""

    def __init__(self, H: int, W: int, rows: int, cols: int, top_extra: float = 0.0, labels: bool = True):
        self.rows, self.cols = rows, cols
        gut = 0.7 if labels else 0.1
        self.cell = min(W / (cols + gut + 0.2), H / (rows + top_extra + gut + 0.2))
        self.x0 = (W - self.cell * (cols + gut)) / 2 + self.cell * gut
        self.y0 = (H - self.cell * (rows + top_extra + gut)) / 2 + self.cell * top_extra
        self.H, self.W, self.labels = H, W, labels
        self._top_extra = top_extra

    def box(self, r: float, c: float) -> tuple[float, float, float, float]:
        x, y = self.x0 + c * self.cell, self.y0 + r * self.cell
        return x, y, x + self.cell, y + self.cell

    def center(self, r: float, c: float) -> tuple[float, float]:
        return self.x0 + (c + 0.5) * self.cell, self.y0 + (r + 0.5) * self.cell

    def base(self, bottom_up: bool = False, empty: Color = WHITE) -> np.ndarray:
        """`paint` with no filled cells, read-only and cached (copy it to draw on it)."""
        return _board_base(self.H, self.W, self.rows, self.cols, self._top_extra, self.labels, bottom_up, empty)

    def paint(self, colors: dict | None = None, bottom_up: bool = False, empty: Color = WHITE) -> np.ndarray:
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


@functools.lru_cache(maxsize=64)
def _board_base(H: int, W: int, rows: int, cols: int, top_extra: float, labels: bool, bottom_up: bool,
                empty: Color) -> np.ndarray:
    img = Board(H, W, rows, cols, top_extra, labels).paint(None, bottom_up, empty)
    img.setflags(write=False)
    return img


# ----------------------------------------------------------------- mazes
def draw_maze(open_: np.ndarray, obs_size: tuple[int, int]) -> tuple[np.ndarray, Geom, int]:
    """A maze frame from ``open_[r, c, k]`` (k: 0 up, 1 down, 2 left, 3 right), the geometry of its
    cells and the wall thickness (a cell's free space starts half a wall past its corner).

    A closed top (left) side is an ink box from the cell's corner a cell and a wall across (down),
    one wall thick; the boxes of a run of closed sides along a row (column) meet, so each run is
    filled as one box, on a cached white square with the bottom and right border."""
    H, W = obs_size
    n = open_.shape[0]
    base, g, wall, (xs, xw, xe), (ys, yw, ye) = _maze_base(H, W, n)
    img = base.copy()
    sides = open_.tolist()
    for r in range(n):  # top walls, in runs along the row
        row, c = sides[r], 0
        while c < n:
            if row[c][0]:
                c += 1
                continue
            e = c
            while e + 1 < n and not row[e + 1][0]:
                e += 1
            fill(img[ys[r]:yw[r], xs[c]:xe[e]], INK)
            c = e + 1
    for c in range(n):  # left walls, in runs down the column
        r = 0
        while r < n:
            if sides[r][c][2]:
                r += 1
                continue
            e = r
            while e + 1 < n and not sides[e + 1][c][2]:
                e += 1
            fill(img[ys[r]:ye[e], xs[c]:xw[c]], INK)
            r = e + 1
    return img, g, wall


@functools.lru_cache(maxsize=32)
def _maze_base(H: int, W: int, n: int):
    """The white square with the bottom and right border walls (read-only), the geometry, the wall
    thickness, and per column (row) the pixels where a cell's walls start, end one wall on, and end
    a cell and a wall on: the boxes of ``fill_rect`` for the sides of cell ``(r, c)``, whose corner is
    ``(x0 + c * cell, y0 + r * cell)``, clipped to the frame."""
    cell = (min(H, W) * 0.94) / n
    wall = max(1, int(cell / 8))
    x0, y0 = (W - cell * n) / 2, (H - cell * n) / 2
    img = new_frame(H, W, BACKGROUND)
    fill_rect(img, x0, y0, x0 + cell * n + wall, y0 + cell * n + wall, WHITE)
    fill_rect(img, x0, y0 + n * cell, x0 + n * cell + wall, y0 + n * cell + wall, INK)
    fill_rect(img, x0 + n * cell, y0, x0 + n * cell + wall, y0 + n * cell + wall, INK)
    img.setflags(write=False)

    def edges(start: float, size: int) -> tuple[list[int], list[int], list[int]]:
        at = [start + k * cell for k in range(n)]
        return ([max(int(v), 0) for v in at], [min(max(int(v + wall), 0), size) for v in at],
                [min(max(int(v + cell + wall), 0), size) for v in at])

    return img, Geom(x0, y0, cell), wall, edges(x0, W), edges(y0, H)
