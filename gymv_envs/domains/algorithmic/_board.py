"""Drawing for the algorithmic tasks: labelled boards, cell fills, cached tiles, arrows, icons, tables.

A board is ``rows x cols`` square cells placed by `gymv_envs.core.board.labelled_layout` (here inside
any box of the frame, so that a board can share the frame with a rule table), with column letters
across the top and row numbers down the left side (the names of `gymv_envs.core.cells`). The empty
board is drawn once per (size, shape) and cached read-only; a level's picture is a copy of it with
each cell's inside set by one cached tile (`cell_block`, `cell_icons`), so a frame costs a copy and a
few hundred small slice assignments.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
from PIL import Image, ImageDraw

from gymv_envs.core import board as core_board
from gymv_envs.core.board import text_tile
from gymv_envs.core.canvas import (
    BACKGROUND,
    GRID_LINE,
    INK,
    WHITE,
    Color,
    blend_mask,
    fill_rect,
    new_frame,
    shape_mask,
)

DARK: Color = (45, 45, 55)
WALL: Color = (70, 70, 80)
MARK: Color = (220, 50, 47)
DIRS = {"U": (-1, 0), "R": (0, 1), "D": (1, 0), "L": (0, -1)}  # clockwise from up
HEADINGS = ("up", "right", "down", "left")


class CellGrid(NamedTuple):
    """A `core.board.CellGrid` that also knows its shape (so per-cell slices can be cached on it)."""

    x0: float
    y0: float
    cell: float
    rows: int
    cols: int

    def box(self, r: float, c: float) -> tuple[int, int, int, int]:
        s = self.cell
        return (int(self.x0 + c * s), int(self.y0 + r * s), int(self.x0 + (c + 1) * s), int(self.y0 + (r + 1) * s))

    def center(self, r: float, c: float) -> tuple[float, float]:
        return self.x0 + (c + 0.5) * self.cell, self.y0 + (r + 0.5) * self.cell


def layout(box: tuple[int, int, int, int], rows: int, cols: int, labels: bool = True) -> CellGrid:
    """`core.board.labelled_layout` inside ``box`` = (x0, y0, x1, y1) of the frame."""
    bx0, by0, bx1, by1 = box
    g = core_board.labelled_layout((by1 - by0, bx1 - bx0), rows, cols, labels)
    return CellGrid(bx0 + g.x0, by0 + g.y0, max(g.cell, 1.0), rows, cols)


def draw_grid(img: np.ndarray, g: CellGrid, labels: bool = True) -> None:
    """White cells, grid lines and (``labels``) the column letters and row numbers of a board."""
    s, rows, cols = g.cell, g.rows, g.cols
    x1, y1 = g.x0 + cols * s, g.y0 + rows * s
    fill_rect(img, g.x0, g.y0, x1, y1, WHITE)
    w = max(1, int(s / 28))
    for r in range(rows + 1):
        y = int(g.y0 + r * s)
        fill_rect(img, g.x0 - w // 2, y - w // 2, x1 + w, y + (w + 1) // 2, GRID_LINE)
    for c in range(cols + 1):
        x = int(g.x0 + c * s)
        fill_rect(img, x - w // 2, g.y0 - w // 2, x + (w + 1) // 2, y1 + w, GRID_LINE)
    if labels and s >= 6:
        core_board.draw_labels(img, g, rows, cols, max(4, int(s * 0.42)))


@functools.lru_cache(maxsize=128)
def board(size: tuple[int, int], rows: int, cols: int, labels: bool = True,
          box: tuple[int, int, int, int] | None = None) -> tuple[np.ndarray, CellGrid]:
    """The empty board in a frame of ``size`` (read-only, cached) and its geometry."""
    h, w = size
    g = layout(box or (0, 0, w, h), rows, cols, labels)
    img = new_frame(h, w, BACKGROUND)
    draw_grid(img, g, labels)
    img.setflags(write=False)
    return img, g


def blank(size: tuple[int, int], rows: int, cols: int, labels: bool = True,
          box: tuple[int, int, int, int] | None = None) -> tuple[np.ndarray, CellGrid]:
    """A writable copy of `board`, and its geometry."""
    img, g = board(tuple(size), rows, cols, labels, box)
    return img.copy(), g


def put_text(img: np.ndarray, text: str, cx: float, cy: float, size: int, color: Color = INK,
             bg: Color = WHITE, bold: bool = True) -> None:
    """``text`` centred on (cx, cy) over a plain ``bg`` background (a cached tile, clipped to the frame)."""
    tile = text_tile(text, max(4, int(size)), color, bold, bg)
    h, w = tile.shape[:2]
    x, y = int(round(cx - w / 2)), int(round(cy - h / 2))
    H, W = img.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
    if x0 < x1 and y0 < y1:
        img[y0:y1, x0:x1] = tile[y0 - y:y1 - y, x0 - x:x1 - x]


@functools.lru_cache(maxsize=1024)
def solid(h: int, w: int, color: Color) -> np.ndarray:
    """A plain ``h x w`` block of ``color`` (read-only, cached): filling a cell is one slice assignment."""
    tile = new_frame(max(h, 0), max(w, 0), color)
    tile.setflags(write=False)
    return tile


@functools.lru_cache(maxsize=4096)
def block(h: int, w: int, bg: Color, text: str = "", color: Color = INK, size: int = 0) -> np.ndarray:
    """An ``h x w`` block of ``bg`` with ``text`` centred on it (read-only, cached)."""
    tile = new_frame(max(h, 1), max(w, 1), bg)
    if text:
        put_text(tile, text, w / 2, h / 2, size, color, bg)
    tile.setflags(write=False)
    return tile


@functools.lru_cache(maxsize=64)
def interiors(g: CellGrid) -> tuple[tuple[tuple[slice, slice, int, int], ...], ...]:
    """Per cell, the (rows, cols) slices of its inside (within the grid lines) and its height and width."""
    d = max(1, int(g.cell / 28)) // 2 + 1
    out = []
    for r in range(g.rows):
        row = []
        for c in range(g.cols):
            x0, y0, x1, y1 = g.box(r, c)
            a, b, e, f = max(x0 + d, 0), max(y0 + d, 0), x1 - d + 1, y1 - d + 1
            row.append((slice(b, f), slice(a, e), max(f - b, 0), max(e - a, 0)))
        out.append(tuple(row))
    return tuple(out)


def cell_block(img: np.ndarray, g: CellGrid, r: int, c: int, bg: Color, text: str = "", color: Color = INK,
               scale: float = 0.55) -> None:
    """Fill cell (r, c) with ``bg`` and centre ``text`` on it, as one cached tile."""
    sy, sx, h, w = interiors(g)[r][c]
    if h > 0 and w > 0:
        img[sy, sx] = block(h, w, bg, text, color, _text_size(g, scale, text))


def _text_size(g: CellGrid, scale: float, text: str) -> int:
    """The font size of a cell's text (`cell_block`): ``scale`` of a cell, less for more than two characters."""
    return max(4, int(g.cell * scale * (1.0 if len(text) <= 2 else 2.2 / len(text))))


@functools.lru_cache(maxsize=64)
def _cell_tiles(g: CellGrid, styles: tuple, color: Color, scale: float, bg: Color | None) -> tuple:
    """Per drawn cell (row by row): its flat index, slices and its tile in each style: the tile
    `cell_block` puts there for a style (bg, text), or with ``bg``, `cell_icons` for a style of icons."""
    def tile(h: int, w: int, style: tuple) -> np.ndarray:
        if bg is not None:
            return icon_block(h, w, bg, style)
        return block(h, w, style[0], style[1], color, _text_size(g, scale, style[1]))

    return tuple((r * g.cols + c, sy, sx, [tile(h, w, style) for style in styles])
                 for r, row in enumerate(interiors(g)) for c, (sy, sx, h, w) in enumerate(row) if h > 0 and w > 0)


def cell_blocks(img: np.ndarray, g: CellGrid, grid: np.ndarray, styles: tuple[tuple[Color, str], ...],
                color: Color = INK, scale: float = 0.55) -> None:
    """`cell_block` on every cell, in style ``styles[grid[r, c]]`` = (bg, text): the same pixels, with
    the cells' tiles looked up once per board and style table."""
    flat = grid.reshape(-1).tolist()
    for i, sy, sx, tiles in _cell_tiles(g, styles, color, scale, None):
        img[sy, sx] = tiles[flat[i]]


def cell_icon_grid(img: np.ndarray, g: CellGrid, grid: np.ndarray,
                   styles: tuple[tuple[tuple[str, Color, float], ...], ...], bg: Color = WHITE) -> None:
    """`cell_icons` on every cell, with the icons ``styles[grid[r, c]]``: the same pixels, with the
    cells' tiles looked up once per board and style table."""
    flat = grid.reshape(-1).tolist()
    for i, sy, sx, tiles in _cell_tiles(g, styles, INK, 0.0, bg):
        img[sy, sx] = tiles[flat[i]]


def fill_cell(img: np.ndarray, g: CellGrid, r: int, c: int, color: Color, inset: float = 0.0) -> None:
    """Colour cell (r, c) inside its grid lines (``inset``: a fraction of the cell left around)."""
    if not inset:
        sy, sx, h, w = interiors(g)[r][c]
        if h > 0 and w > 0:
            img[sy, sx] = solid(h, w, color)
        return
    x0, y0, x1, y1 = g.box(r, c)
    d = max(1, int(g.cell / 28)) // 2 + 1 + int(inset * g.cell)
    fill_rect(img, x0 + d, y0 + d, x1 - d + 1, y1 - d + 1, color)


def fill_cells(img: np.ndarray, g: CellGrid, mask: np.ndarray, color: Color) -> None:
    """Colour every cell where ``mask`` is true (see `fill_cell`)."""
    cells = interiors(g)
    rows, cols = np.nonzero(mask)
    for r, c in zip(rows.tolist(), cols.tolist()):
        sy, sx, h, w = cells[r][c]
        if h > 0 and w > 0:
            img[sy, sx] = solid(h, w, color)


def outline_cell(img: np.ndarray, g: CellGrid, r: int, c: int, color: Color = MARK, width: float = 0.09) -> None:
    """A thick frame just inside cell (r, c): marks the cell a question is about."""
    x0, y0, x1, y1 = g.box(r, c)
    t = max(1, int(g.cell * width))
    fill_rect(img, x0, y0, x1 + 1, y0 + t, color)
    fill_rect(img, x0, y1 - t + 1, x1 + 1, y1 + 1, color)
    fill_rect(img, x0, y0, x0 + t, y1 + 1, color)
    fill_rect(img, x1 - t + 1, y0, x1 + 1, y1 + 1, color)


@functools.lru_cache(maxsize=512)
def arrow_mask(direction: str, size: int) -> np.ndarray:
    """An anti-aliased arrow pointing U/R/D/L in a ``size`` square (read-only, cached)."""
    k = 4
    s = max(2, int(size)) * k
    img = Image.new("L", (s, s), 0)
    shaft, head = 0.12 * s, 0.3 * s
    pts = [(0.12 * s, 0.5 * s - shaft), (0.55 * s, 0.5 * s - shaft), (0.55 * s, 0.5 * s - head),
           (0.9 * s, 0.5 * s), (0.55 * s, 0.5 * s + head), (0.55 * s, 0.5 * s + shaft), (0.12 * s, 0.5 * s + shaft)]
    ImageDraw.Draw(img).polygon(pts, fill=255)  # pointing right
    turns = {"R": 0, "U": 90, "L": 180, "D": 270}[direction]
    img = img.rotate(turns).resize((max(2, int(size)),) * 2, Image.Resampling.LANCZOS)
    mask = np.ascontiguousarray(np.asarray(img))
    mask.setflags(write=False)
    return mask


@functools.lru_cache(maxsize=4096)
def icon_block(h: int, w: int, bg: Color, icons: tuple[tuple[str, Color, float], ...]) -> np.ndarray:
    """An ``h x w`` block of ``bg`` with centred icons ``(kind, colour, scale)`` blended on it, in order
    (kind: a `canvas.SHAPES` name, or ``arrow-U``/``-R``/``-D``/``-L``); read-only, cached."""
    tile = new_frame(max(h, 1), max(w, 1), bg)
    for kind, color, scale in icons:
        size = max(2, int(min(h, w) * scale))
        mask = arrow_mask(kind[-1], size) if kind.startswith("arrow-") else shape_mask(kind, size)
        blend_mask(tile, mask, (w - size) // 2, (h - size) // 2, color)
    tile.setflags(write=False)
    return tile


def cell_icons(img: np.ndarray, g: CellGrid, r: int, c: int, icons: tuple[tuple[str, Color, float], ...],
               bg: Color = WHITE) -> None:
    """Fill cell (r, c) with ``bg`` and the icons of `icon_block`, as one cached tile."""
    sy, sx, h, w = interiors(g)[r][c]
    if h > 0 and w > 0:
        img[sy, sx] = icon_block(h, w, bg, tuple(icons))


def cell_arrow(img: np.ndarray, g: CellGrid, r: int, c: int, direction: str, color: Color = INK, scale: float = 0.8,
               bg: Color = WHITE) -> None:
    cell_icons(img, g, r, c, ((f"arrow-{direction}", color, scale),), bg)


def cell_shape(img: np.ndarray, g: CellGrid, r: int, c: int, kind: str, color: Color, scale: float = 0.7,
               bg: Color = WHITE) -> None:
    cell_icons(img, g, r, c, ((kind, color, scale),), bg)


@functools.lru_cache(maxsize=4096)
def table_row(cells: tuple[str, ...], col_w: tuple[int, ...], row_h: int, size: int, bg: Color) -> np.ndarray:
    """One row of a table: ``cells`` centred in columns ``col_w`` pixels wide (read-only, cached)."""
    tile = new_frame(row_h, sum(col_w), bg)
    x = 0
    for text, w in zip(cells, col_w):
        fit = min(size, int(w * 0.9 / max(1, 0.62 * len(text)))) if len(text) > 2 else size
        put_text(tile, text, x + w / 2, row_h / 2, max(4, fit), INK, bg)
        x += w
    tile.setflags(write=False)
    return tile


def draw_table(img: np.ndarray, box: tuple[int, int, int, int], header: tuple[str, ...],
               rows: list[tuple[str, ...]], widths: tuple[float, ...] | None = None) -> None:
    """A table of text in ``box``: a shaded header row, then ``rows``, in columns of relative ``widths``."""
    bx0, by0, bx1, by1 = box
    n = len(rows) + 1
    widths = widths or (1.0,) * len(header)
    total = sum(widths)
    row_h = int(min((by1 - by0) / n, (bx1 - bx0) / total * 0.9))
    if row_h < 2:
        return
    col_w = tuple(int((bx1 - bx0) * w / total) for w in widths)
    width = sum(col_w)
    x0 = bx0 + (bx1 - bx0 - width) // 2
    y0 = int(by0 + ((by1 - by0) - row_h * n) / 2)
    size = max(4, int(row_h * 0.55))
    head_bg = (215, 220, 232)
    for i, cells in enumerate([header, *rows]):
        y = y0 + i * row_h
        img[y:y + row_h, x0:x0 + width] = table_row(tuple(cells), col_w, row_h, int(size * 0.8) if i == 0 else size,
                                                    head_bg if i == 0 else WHITE)
    line = max(1, row_h // 24)
    for i in range(n + 1):
        fill_rect(img, x0, y0 + i * row_h, x0 + width + line, y0 + i * row_h + line, GRID_LINE)
    x = x0
    for w in (0, *col_w):
        x += w
        fill_rect(img, x, y0, x + line, y0 + n * row_h + line, GRID_LINE)
