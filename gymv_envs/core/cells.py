"""Cell names on boards: a column letter, then a row number (``B3``).

The numbering rule, for every task: columns are lettered ``A, B, C, ...`` from the left, and rows
are numbered from 1, **from the top** by default (``A1`` is the top-left cell, as in a
spreadsheet). Boards drawn like a chess or Go board count rows **from the bottom** instead
(``A1`` is the bottom-left cell): pass ``bottom_up=True`` and the board's height ``rows``.
Cells are ``(r, c)`` with row ``r`` counted from the top and column ``c`` from the left, whatever
the labels say. ``letters`` names other column alphabets (`GO_LETTERS` skips ``I``).

>>> cell_name(0, 1), cell_name(0, 1, rows=8, bottom_up=True)
('B1', 'B8')
>>> parse_cell("b8", 8, 8, bottom_up=True), find_cells("A1 to c2", 3, 3)
((0, 1), [(0, 0), (1, 2)])
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

Cell = tuple[int, int]
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
GO_LETTERS = "ABCDEFGHJKLMNOPQRST"  # Go boards letter their columns without I
_TOKEN = re.compile(r"([A-Z])\s?(\d{1,2})")  # one cell, the whole token
_MENTION = re.compile(r"([A-Z])\s*(\d{1,2})")  # a cell anywhere in a text


def cell_name(r: int, c: int, rows: int = 0, bottom_up: bool = False, letters: str = LETTERS) -> str:
    """The name of cell ``(r, c)``: column letter, then the row number (from the top, or from the
    bottom of a board ``rows`` high when ``bottom_up``)."""
    return f"{letters[c]}{rows - r if bottom_up else r + 1}"


def cell_names(rows: int, cols: int, bottom_up: bool = False, letters: str = LETTERS) -> tuple[str, ...]:
    """The names of a ``rows x cols`` board's cells in reading order (row by row from the top)."""
    return tuple(cell_name(r, c, rows, bottom_up, letters) for r in range(rows) for c in range(cols))


def format_cells(cells: Iterable[Cell]) -> str:
    """Cells as ``A1 B3 ...`` (rows from the top) in reading order (row, then column)."""
    return " ".join(cell_name(r, c) for r, c in sorted(cells))


def _cell(col: str, num: str, rows: int, cols: int, bottom_up: bool, letters: str) -> Cell | None:
    c, n = letters.find(col), int(num)
    if not (0 <= c < cols and 1 <= n <= rows):
        return None
    return (rows - n if bottom_up else n - 1), c


def parse_cell(token: str, rows: int, cols: int, bottom_up: bool = False, letters: str = LETTERS) -> Cell | None:
    """The cell a whole token names (``b3``, ``B 3``, any case), or ``None`` (off the board or not a cell)."""
    m = _TOKEN.fullmatch(token.strip().upper())
    return None if m is None else _cell(m.group(1), m.group(2), rows, cols, bottom_up, letters)


def cell_tokens(text: str, seps: re.Pattern[str], rows: int, cols: int) -> list[Cell] | None:
    """The cells named by the tokens of upper-case ``text`` between ``seps``, in order (repeats kept),
    or ``None`` when a token is not a cell of the ``rows x cols`` board (rows from the top)."""
    cells, named = [], _named(rows, cols)
    for tok in seps.split(text):
        if not tok:
            continue
        cell = named.get(tok)  # a cell's own name, as most answers write it
        if cell is None:
            cell = parse_cell(tok, rows, cols)
            if cell is None:
                return None
        cells.append(cell)
    return cells


@functools.lru_cache(maxsize=64)
def _named(rows: int, cols: int) -> dict[str, Cell]:
    """Each cell of a ``rows x cols`` board (rows from the top) under its name, which `parse_cell`
    reads as that cell (64 board sizes kept, a few KB each; read-only by convention)."""
    return {cell_name(r, c): (r, c) for r in range(rows) for c in range(min(cols, len(LETTERS)))}


def find_cells(text: str, rows: int, cols: int, bottom_up: bool = False) -> list[Cell] | None:
    """Every cell name mentioned in ``text`` (``A1 to B3``), in order; ``None`` when one is off the
    board or none is given."""
    out = []
    for col, num in _MENTION.findall(text.upper()):
        cell = _cell(col, num, rows, cols, bottom_up, LETTERS)
        if cell is None:
            return None
        out.append(cell)
    return out or None
