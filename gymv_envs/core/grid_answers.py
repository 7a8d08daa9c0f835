"""Reading and writing answers shaped like grids: whole grids, cell names, lists of integers.

Every reader takes any string and returns ``None`` when it cannot read it (never raises). Readers
are strict: a text with anything besides the answer's own tokens (and separators) is unreadable,
so prose is left to the answer extraction of `gymv_envs.core.parsing`; a grid written after prose
(``... so the board is:\\n0110\\n1001``) is still found by reading cells back from the end.

Conventions shared by the tasks that use this module:

- a cell is named by its column letter and its row number counted from the top (``B3`` is row 3,
  column 2), as on boards drawn with letters across the top and numbers down the side;
- a grid is written row by row, rows separated by `` / `` (newlines, ``;``, JSON lists work too).

>>> read_grid("1 2 / 3 4", 2, 2, "int")
((1, 2), (3, 4))
>>> read_grid("[[1,0],[0,1]]", 2, 2, "mask")
((1, 0), (0, 1))
>>> cell_name(2, 1), read_cells("B3, c1", 3, 3)
('B3', [(2, 1), (0, 2)])
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

MAX_TEXT = 20_000
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
KINDS = ("int", "mask", "char")
MASK_ON = "#1xX*■█●"
MASK_OFF = ".0_-·□○"
ARROW_GLYPHS = {"↑": "U", "↓": "D", "←": "L", "→": "R", "^": "U", "v": "D", "<": "L", ">": "R"}
_SEP = re.compile(r"[\s,;/|\[\](){}\"'`]+")
_ROW_LABEL = re.compile(r"(?i)\b(?:row|line|r)\s*\d+\s*[:=.)\]-]")
_INT = re.compile(r"[-+]?\d{1,9}")
_CELL = re.compile(r"([A-Za-z])(\d{1,2})")
_LETTER_SPACE = re.compile(r"\b([A-Za-z])\s+(?=\d)")
_AND = re.compile(r"(?i)\band\b|&")
Grid = tuple[tuple[int, ...], ...]


def _tokens(text: str) -> list[str]:
    return [t for t in _SEP.split(_ROW_LABEL.sub(" ", text)) if t]


def read_int(text: str) -> int | None:
    """The integer ``text`` is (``7``, ``-1``, ``+3``, ``12.``), else ``None``."""
    if not isinstance(text, str) or len(text) > 64:
        return None
    t = text.strip().rstrip(".")
    return int(t) if _INT.fullmatch(t) else None


def read_ints(text: str, count: int | None = None) -> list[int] | None:
    """The integers of a list such as ``3 1 2``, ``[3, 1, 2]`` or ``3, 1, 2``; ``count`` of them when given."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        return None
    toks = _tokens(text.strip().rstrip("."))
    if not toks or not all(_INT.fullmatch(t) for t in toks):
        return None
    if count is not None and len(toks) != count:
        return None
    return [int(t) for t in toks]


def _cells_of(token: str, kind: str, alphabet: str, symbols: Mapping[str, int]) -> list[int] | None:
    """The cell values one token holds, or ``None`` when it is not part of a grid."""
    if token in symbols:
        return [symbols[token]]
    if kind == "int":
        return [int(token)] if _INT.fullmatch(token) else None
    out = []
    for ch in token:
        if kind == "mask":
            if ch in MASK_ON:
                out.append(1)
            elif ch in MASK_OFF:
                out.append(0)
            else:
                return None
        else:
            ch = ARROW_GLYPHS.get(ch, ch).upper()
            if ch not in alphabet:
                return None
            out.append(alphabet.index(ch))
    return out


def read_grid(text: str, rows: int, cols: int, kind: str = "int", alphabet: str = "",
              symbols: Mapping[str, int] | None = None) -> Grid | None:
    """A ``rows x cols`` grid written in ``text``, or ``None``.

    ``kind``: ``"int"`` (separated integers), ``"mask"`` (one character per cell, ``#``/``1`` for a
    filled cell, ``.``/``0`` for an empty one) or ``"char"`` (one character per cell from
    ``alphabet``, read case-insensitively; values are indices into it). ``symbols`` maps extra
    whole tokens to values (``{"#": -1}`` for walls in a grid of numbers).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown grid kind {kind!r}; valid kinds: {', '.join(KINDS)}")
    if not isinstance(text, str):
        return None
    symbols = symbols or {}
    need = rows * cols
    toks = _tokens(text[-MAX_TEXT:])
    values: list[int] = []
    for tok in toks:
        cells = _cells_of(tok, kind, alphabet, symbols)
        if cells is None:
            values = []
            break
        values += cells
    if not values:  # prose first: read whole tokens back from the end until the grid is complete
        for tok in reversed(toks):
            cells = _cells_of(tok, kind, alphabet, symbols)
            if cells is None or len(values) + len(cells) > need:
                break
            values[:0] = cells
    short = need - len(values)
    if kind == "mask" and 0 < short < cols and text.count("/") == rows - 1:
        values += [0] * short  # answer extraction strips a trailing `.`: `... / ##..` arrives as `... / ##`
    if len(values) != need:
        return None
    return tuple(tuple(values[r * cols:(r + 1) * cols]) for r in range(rows))


def format_grid(grid: Sequence[Sequence[int]], kind: str = "int", alphabet: str = "",
                symbols: Mapping[int, str] | None = None) -> str:
    """The grid as this module reads it back: rows joined by `` / ``."""
    symbols = symbols or {}
    if kind == "int":
        return " / ".join(" ".join(symbols.get(v, str(v)) for v in row) for row in grid)
    if kind == "mask":
        return " / ".join("".join("1" if v else "0" for v in row) for row in grid)
    return " / ".join(" ".join(alphabet[v] for v in row) for row in grid)


def cell_name(r: int, c: int) -> str:
    """``B3`` for row index 2, column index 1: the column letter, then the row number from the top."""
    return f"{LETTERS[c]}{r + 1}"


def read_cells(text: str, rows: int, cols: int) -> list[tuple[int, int]] | None:
    """The cells named in a list such as ``B3, C1 and A2`` as (row, column) indices, in order.

    ``None`` when the text holds anything but cell names and separators, names none, or names a
    cell off the board. ``none``/``empty`` reads as the empty list.
    """
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        return None
    t = text.strip()
    if t.lower().rstrip(".") in ("none", "empty", "no cells", "nothing"):
        return []
    toks = [tok for tok in _SEP.split(_LETTER_SPACE.sub(r"\1", _AND.sub(" ", t))) if tok.strip(".")]
    out = []
    for tok in toks:
        m = _CELL.fullmatch(tok.strip("."))
        if m is None:
            return None
        c, r = LETTERS.index(m.group(1).upper()), int(m.group(2)) - 1
        if not (0 <= c < cols and 0 <= r < rows):
            return None
        out.append((r, c))
    return out or None


def format_cells(cells: Sequence[tuple[int, int]]) -> str:
    """Cell names in row-major order, space separated; ``none`` for no cell."""
    return " ".join(cell_name(r, c) for r, c in sorted(cells)) or "none"
