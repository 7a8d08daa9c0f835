"""Polyomino tiling: cover a drawn region exactly with a drawn set of lettered pieces."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec, parsing
from gymv_envs.core.canvas import PALETTE
from gymv_envs.core.rng import ScalarDraws, shuffled
from gymv_envs.domains.puzzles._polyomino import (
    PENTOMINOES,
    TETROMINOES,
    cells_of,
    grow_region,
    orientations,
)
from gymv_envs.domains.puzzles._polyomino_draw import draw_pieces, draw_region, extent
from gymv_envs.domains.puzzles._tiling_swaps import cell_swaps

# difficulty -> (tetrominoes, pentominoes, largest region box (rows, cols))
LEVELS = {0: (3, 0, (4, 4)), 1: (2, 3, (5, 6)), 2: (2, 5, (6, 7))}
COLOURS = tuple(PALETTE[c] for c in ("red", "blue", "green", "yellow", "purple", "orange", "cyan", "pink", "brown"))
_TOKEN = re.compile(r"[A-Za-z.]+")
_TETRA = {n: cells_of(rows) for n, rows in TETROMINOES.items()}
_PENTA = {n: cells_of(rows) for n, rows in PENTOMINOES.items()}
_TETRA_NAMES, _PENTA_NAMES = tuple(sorted(_TETRA)), tuple(sorted(_PENTA))


def _outlines(cells: frozenset) -> frozenset:
    """Every orientation of a shape as its cells in reading order, less the first one's position."""
    out = set()
    for o in orientations(cells):
        (r0, c0), *_ = ordered = sorted(o)
        out.add(tuple((r - r0, c - c0) for r, c in ordered))
    return frozenset(out)


# per orientation of every piece, the outlines of all its orientations (a constant table)
_OUTLINES = {o: _outlines(o) for s in (*_TETRA.values(), *_PENTA.values()) for o in orientations(s)}


@functools.lru_cache(maxsize=1024)
def _piece_text(letter: str, cells: frozenset) -> str:
    """A piece in the state text: its letter, then its box row by row (the letter on its cells, else ".")."""
    h, w = extent(cells)
    rows = [["."] * w for _ in range(h)]
    for r, c in cells:
        rows[r][c] = letter
    return f"{letter}:\n" + "\n".join("".join(row) for row in rows)


class PolyominoTiling(SingleTurnEnv):
    """Tile a drawn region exactly with a drawn set of lettered polyomino pieces.

    ## Description
    A grid shows a grey target region; below it are ``k`` polyomino pieces (tetrominoes and
    pentominoes of different shapes), each in its own colour with its letter in every cell.
    The pieces must cover the region exactly: each piece used once, rotated and/or reflected
    (mirrored) as needed, no overlaps, nothing outside the region. Any valid tiling is
    accepted; the verifier checks each piece's cells against its shape.

    ## Action Space
    ``answer_format="open"``: `Text`, the region's grid, one line per row and one character
    per cell: the letter of the piece covering it, ``.`` outside the region (spaces, case and
    code fences do not matter). ``"mcq"``: `Discrete(k)` over grids written row by row
    (rows separated by `` / ``): one valid tiling and near misses, each verified invalid. The
    near misses are one cell swap from a broken copy of the solution, as the valid option is,
    and swaps that keep every piece connected and the right size come first.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the region on its numbered grid (top) and the pieces (bottom).

    ## Rewards
    1.0 for a valid tiling (open) or the valid option (mcq), else 0.0.

    ## Starting State
    Distinct shapes are drawn from the seed and placed one by one, the larger first, each
    touching the others along as many edges as possible inside the level's box (a random one of
    its best places; when the pieces after it find no place, the next of them); their union is
    the region, so every level comes with a tiling. Pieces are drawn in random orientations,
    letters and colours shuffled.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3 tetrominoes, 12 cells in a 4x4 box; 1: 2 tetrominoes and 3
    pentominoes, 23 cells in 5x6; 2: 2 tetrominoes and 5 pentominoes, 33 cells in 6x7),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    - v2: the oracle's search reads the region along its shorter side and tries the larger pieces
      first (the same levels; where a level has several tilings the oracle may give another one, and
      the multiple-choice options follow it); the pieces are drawn on whole-pixel squares (each
      square a cached tile), so they may sit a pixel off where v1 drew them.
    - v3: the region is grown the larger pieces first, and a piece that leaves the later ones no
      place takes the next of its best places instead of the level being drawn again (other
      regions from the same seeds, same piece counts, sizes and box); the oracle answers with the
      tiling the region was built from instead of searching for one (any valid tiling is accepted,
      as before; the multiple-choice options follow it).
    """

    answer_hint = ("the tiling: one line per grid row, one character per cell (the letter of the piece "
                   "covering it, `.` outside the region)")

    def _configure(self) -> None:
        self.tetrominoes, self.pentominoes, self.box = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        while True:
            shapes = [_TETRA[n] for n in shuffled(rng, _TETRA_NAMES)[: self.tetrominoes]]
            shapes += [_PENTA[n] for n in shuffled(rng, _PENTA_NAMES)[: self.pentominoes]]
            shapes = shuffled(rng, shapes)
            with ScalarDraws(rng) as draws:  # the scalar draws of `rng.integers`, at Python speed
                placed = grow_region(draws, shapes, self.box)
                if placed is not None:
                    # each piece is shown in a random orientation
                    self.pieces = [ways[draws.integers(len(ways))] for ways in map(orientations, shapes)]
                    break
        self.tiling = placed  # piece i covers placed[i]: the level is tiled by construction
        self.region = frozenset().union(*placed)
        self.rows, self.cols = max(self.region)[0] + 1, max(c for _, c in self.region) + 1
        pattern = ["."] * (self.rows * self.cols)  # the region row by row, "#" a region cell
        for r, c in self.region:
            pattern[r * self.cols + c] = "#"
        self.pattern = "".join(pattern)
        self.letters = "ABCDEFGHIJ"[: len(shapes)]
        self.colours = shuffled(rng, COLOURS)[: len(shapes)]

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        img = draw_region(H, W, self.rows, self.cols, self.pattern)
        draw_pieces(img, H * 0.52 + max(1, H // 256), H, self.pieces, self.letters, self.colours)
        return img

    def _task_text(self) -> str:
        pieces = ", ".join(self.letters)
        text = (f"The image shows a target region (the grey cells of a grid with {self.rows} rows and {self.cols} "
                f"columns, at the top) and {len(self.pieces)} coloured polyomino pieces lettered {pieces} (at the "
                "bottom; every cell of a piece shows its letter). Tile the region with the pieces: use every piece "
                "exactly once; a piece may be rotated and also reflected (flipped over); pieces may not overlap; "
                "together they must cover every grey cell and nothing outside the region. ")
        if self.answer_format == "mcq":
            return text + ("Which option is a valid tiling? Each option writes the grid row by row from the top, "
                           "rows separated by ' / ', one character per cell: the letter of the piece covering the "
                           "cell, or '.' for a cell outside the region.")
        return text + (f"Write the tiled grid: {self.rows} lines of {self.cols} characters, one line per row from "
                       "the top, each character the letter of the piece covering that cell, or '.' for a cell "
                       "outside the region.")

    def _state_text(self) -> str:
        grid = "\n".join(self.pattern[r * self.cols:(r + 1) * self.cols] for r in range(self.rows))
        shapes = "\n".join(map(_piece_text, self.letters, self.pieces))
        return f"region ({self.rows}x{self.cols}, # to cover):\n{grid}\npieces:\n" + shapes

    # -- verify
    def _parse_answer(self, text: str) -> tuple[str, ...] | None:
        """The grid in a reply: the last run of letter/dot tokens that holds exactly rows x cols cells (the
        full stop of a sentence that ends with the grid left out where the grid reads only without it)."""
        body = parsing.strip_reasoning(text)[-parsing.MAX_SCAN:].rstrip()
        grid = self._grid_in(body)
        if grid is None and body.endswith("."):
            grid = self._grid_in(body[:-1])
        return grid

    def _grid_in(self, body: str) -> tuple[str, ...] | None:
        valid = set(self.letters) | {"."}
        tokens = [t.upper() for t in _TOKEN.findall(body)]
        ok = [set(t) <= valid for t in tokens]
        if all(ok) and sum(map(len, tokens)) == self.rows * self.cols:  # nothing but the grid: what the search finds
            cells = "".join(tokens)
            return tuple(cells[r * self.cols:(r + 1) * self.cols] for r in range(self.rows))
        prefix, run_start = [0], []  # characters before each token; first token of its run of grid tokens
        for i, t in enumerate(tokens):
            prefix.append(prefix[-1] + len(t))
            run_start.append(run_start[-1] if i and ok[i] and ok[i - 1] else i)
        index = {n: i for i, n in enumerate(prefix)}
        for end in range(len(tokens) - 1, -1, -1):
            start = index.get(prefix[end + 1] - self.rows * self.cols)
            if ok[end] and start is not None and start >= run_start[end]:
                cells = "".join(tokens[start:end + 1])
                return tuple(cells[r * self.cols:(r + 1) * self.cols] for r in range(self.rows))
        return None

    def _check(self, answer: tuple[str, ...]) -> bool:
        if len(answer) != self.rows or any(len(row) != self.cols for row in answer):
            return False
        cells = "".join(answer)
        if cells.translate(str.maketrans(self.letters, "#" * len(self.letters))) != self.pattern:
            return False  # a letter outside the region or a dot inside it
        for letter, piece in zip(self.letters, self.pieces):  # each letter's cells in reading order
            i, group = cells.find(letter), []
            if i < 0:
                return False  # a piece left out
            r0, c0 = divmod(i, self.cols)
            while i >= 0:
                r, c = divmod(i, self.cols)
                group.append((r - r0, c - c0))
                i = cells.find(letter, i + 1)
            if tuple(group) not in _OUTLINES[piece]:
                return False
        return True

    def _format(self, answer: tuple[str, ...]) -> str:
        return (" / " if self.answer_format == "mcq" else "\n").join(answer)

    # -- oracle
    def _solve(self) -> tuple[str, ...]:
        """The tiling the region was built from (any valid tiling is accepted)."""
        cols, grid = self.cols, ["."] * (self.rows * self.cols)  # row by row
        for letter, cells in zip(self.letters, self.tiling):
            for r, c in cells:
                grid[r * cols + c] = letter
        text = "".join(grid)
        return tuple([text[r * cols:r * cols + cols] for r in range(self.rows)])

    def _near_misses(self, rng: np.random.Generator) -> Iterator[tuple[str, ...]]:
        """Grids one cell swap from a broken copy of the solution, so that every option (the valid
        one too) is one swap from that copy; swaps that keep both pieces connected come first."""
        broken = next(g for g in cell_swaps(rng, self._solution) if not self._check(g))
        yield from cell_swaps(rng, broken)


SPECS = (
    TaskSpec(name="PolyominoTiling", entry_point=PolyominoTiling, version=3, max_episode_steps=1,
             tags=("spatial", "search", "tiling")),
)
