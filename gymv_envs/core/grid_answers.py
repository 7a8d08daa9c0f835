"""Reading and writing answers shaped like grids: whole grids, lists of cells, lists of integers.

Every reader takes any string and returns ``None`` when it cannot read it (never raises). Readers
are strict: a text with anything besides the answer's own tokens (and separators) is unreadable,
so prose is left to the answer extraction of `gymv_envs.core.parsing`; a grid written after prose
(``... so the board is:\\n0110\\n1001``) is still found by reading cells back from the end.

Conventions shared by the tasks that use this module:

- a cell is named as in `gymv_envs.core.cells` (column letter, row number from the top: ``B3``);
- a grid is written row by row, rows separated by `` / `` (newlines, ``;``, JSON lists work too).

>>> read_grid("1 2 / 3 4", 2, 2, "int")
((1, 2), (3, 4))
>>> read_grid("[[1,0],[0,1]]", 2, 2, "mask")
((1, 0), (0, 1))
>>> read_cells("B3, c1 and A2", 3, 3)
[(2, 1), (0, 2), (1, 0)]
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from gymv_envs.core.cells import cell_tokens

MAX_TEXT = 20_000
KINDS = ("int", "mask", "char")
MASK_ON = "#1xX*■█●"
MASK_OFF = ".0_-·□○"
ARROW_GLYPHS = {"↑": "U", "↓": "D", "←": "L", "→": "R", "^": "U", "v": "D", "<": "L", ">": "R"}
_SEP = re.compile(r"[\s,;/|\[\](){}\"'`]+")
_ROW_LABEL = re.compile(r"(?i)\b(?:row|line|r)\s*\d+\s*[:=.)\]-]")
_INT = re.compile(r"[-+]?\d{1,9}")
_CELL_SEP = re.compile(r"[\s,;/|\[\](){}\"'`.&]+|\bAND\b")
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


_CHAR_VALUES: dict[tuple[str, str], dict[str, int]] = {}  # (kind, alphabet) -> character -> value, -1 for none


def _char_value(ch: str, kind: str, alphabet: str) -> int:
    """The value of one character in a ``"mask"`` or ``"char"`` grid, -1 when it is no cell."""
    if kind == "mask":
        return 1 if ch in MASK_ON else 0 if ch in MASK_OFF else -1
    ch = ARROW_GLYPHS.get(ch, ch).upper()
    return alphabet.index(ch) if ch in alphabet else -1


def _cells_of(token: str, kind: str, alphabet: str, symbols: Mapping[str, int]) -> list[int] | None:
    """The cell values one token holds, or ``None`` when it is not part of a grid."""
    if token in symbols:
        return [symbols[token]]
    if kind == "int":
        return [int(token)] if _INT.fullmatch(token) else None
    table = _CHAR_VALUES.get((kind, alphabet))
    if table is None:  # (each character's value is worked out once: a grid is read many times)
        if len(_CHAR_VALUES) >= 64:
            _CHAR_VALUES.clear()
        table = _CHAR_VALUES[(kind, alphabet)] = {}
    out = []
    for ch in token:
        v = table.get(ch)
        if v is None:
            v = _char_value(ch, kind, alphabet)
            if len(table) < 512:
                table[ch] = v
        if v < 0:
            return None
        out.append(v)
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
        # A full stop after the last token ends the sentence, not the grid, where the token does not read
        # with it or reads one cell past a whole number of rows ("... is 0110 / 1001.").
        last = toks[-1] if toks else ""
        if last.endswith(".") and last not in symbols:
            cells = _cells_of(last, kind, alphabet, symbols)
            if cells is None or (kind != "int" and len(cells) % cols == 1):
                toks[-1] = last[:-1]
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


def read_cells(text: str, rows: int, cols: int) -> list[tuple[int, int]] | None:
    """The cells of a list such as ``B3, C1 and A2`` as (row, column) indices, in order.

    ``None`` when the text holds anything but cell names (`core.cells`) and separators, names
    none, or names a cell off the board. ``none``/``empty`` reads as the empty list.
    """
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        return None
    t = text.strip()
    if t.lower().rstrip(".") in ("none", "empty", "no cells", "nothing"):
        return []
    cells = cell_tokens(re.sub(r"\b([A-Z]) (?=\d)", r"\1", t.upper()), _CELL_SEP, rows, cols)
    return cells or None
