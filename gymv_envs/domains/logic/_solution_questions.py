"""Questions about the unique solution of a drawn placement puzzle (Star Battle, Tents).

`SolutionQuestion` is a mixin over a puzzle env whose level has exactly one solution, a set of
cells holding a piece (a star, a tent). It keeps the puzzle's generator and picture, marks part
of the board in red and asks about it instead of asking for the whole solution:

- ``question="row"``: one row is outlined; which of its cells hold a piece?
- ``question="forced"``: a few cells are outlined; which of them hold a piece? The solution is
  unique, so these are the cells the rules force to hold one;
- ``question="count"``: a block of cells (neither whole rows nor whole columns) is outlined; how
  many pieces does it hold?

The answer is a set of cells (``B3 D3``, or ``none``), compared with the solution's cells there,
or (count) a whole number.
The puzzle env implements ``_solution_cells()`` (the solver) and ``_board_geom()`` (where its
cells are drawn), and words its rules in ``_rules_text()``.
"""

from __future__ import annotations

import functools
from typing import ClassVar

import numpy as np

from gymv_envs.core.answers import count_near_misses, interleave, parse_count
from gymv_envs.core.board import Geom
from gymv_envs.core.canvas import PALETTE, color_block, outline_rect
from gymv_envs.core.cells import Cell, format_cells
from gymv_envs.domains.logic._placement import parse_cell_list

QUESTIONS = ("row", "forced", "count")
MARK = PALETTE["red"]
# difficulty -> cells outlined by the "forced" question
FORCED_CELLS = {0: 4, 1: 5, 2: 6}


def _outline_box(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, w: int) -> None:
    """`outline_rect` in `MARK` (the same pixels): its four sides copied from cached blocks when the box
    lies inside the frame."""
    a, b, c, d = int(x0), int(y0), int(x1), int(y1)
    if not (0 <= a and 0 <= b and c <= img.shape[1] and d <= img.shape[0] and c - a > w and d - b > w):
        outline_rect(img, x0, y0, x1, y1, MARK, w)
        return
    side, end = color_block(w, c - a, MARK), color_block(d - b, w, MARK)
    img[b:b + w, a:c] = side
    img[d - w:d, a:c] = side
    img[b:d, a:a + w] = end
    img[b:d, c - w:c] = end


@functools.lru_cache(maxsize=1024)
def _outline_pixels(shape: tuple[int, ...], g: Geom, r: int, c: int, w: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The pixels (rows, columns) that `_draw` colours outlining cell (r, c) with `_outline_box`; None where
    that box is not wholly inside the frame (`outline_rect` draws it) or is large (its four block copies
    cost less than indexing that many pixels)."""
    x0, y0, x1, y1 = g.box(r, c)
    a, b, c1, d = int(x0 + w / 2), int(y0 + w / 2), int(x1 - w / 2 + 1), int(y1 - w / 2 + 1)
    if not (0 <= a and 0 <= b and c1 <= shape[1] and d <= shape[0] and c1 - a > w and d - b > w):
        return None
    if 2 * w * (c1 - a + d - b) > 600:
        return None
    on = np.zeros(shape[:2], bool)
    on[b:b + w, a:c1] = on[d - w:d, a:c1] = on[b:d, a:a + w] = on[b:d, c1 - w:c1] = True
    ys, xs = np.nonzero(on)
    ys.setflags(write=False)
    xs.setflags(write=False)
    return ys, xs


class SolutionQuestion:
    """Mixin: ask about part of a placement puzzle's unique solution (see the module docstring)."""

    piece: ClassVar[str] = "piece"
    n: int
    difficulty: int
    question: str

    questions = QUESTIONS

    # hooks of the puzzle env
    def _solution_cells(self) -> frozenset[Cell]:
        raise NotImplementedError

    def _board_geom(self) -> Geom:
        raise NotImplementedError

    def _rules_text(self) -> str:
        raise NotImplementedError

    def _configure(self) -> None:
        super()._configure()  # type: ignore[misc]
        self.answer_hint = (f"the number of {self.piece}s in the outlined block, a whole number (for example `2`)"
                            if self.question == "count" else
                            f"the cells that hold a {self.piece}, column letter then row number, separated by "
                            "spaces (for example `B3 D3`), or `none`")

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        super()._generate(rng)  # type: ignore[misc]
        n = self.n
        self.truth = self._solution_cells()
        self.block: tuple[int, int, int, int] | None = None  # first row, first column, last row, last column
        if self.question == "row":
            rows = [r for r in range(n) if any(rr == r for rr, _ in self.truth)]
            row = rows[int(rng.integers(len(rows)))]
            self.block = (row, 0, row, n - 1)
            self.asked = tuple((row, c) for c in range(n) if self._may_hold(row, c))
        elif self.question == "count":
            h, w = (int(v) for v in rng.integers(2, n - 1, size=2))
            r0, c0 = int(rng.integers(n - h + 1)), int(rng.integers(n - w + 1))
            self.block = (r0, c0, r0 + h - 1, c0 + w - 1)
            self.asked = tuple((r, c) for r in range(r0, r0 + h) for c in range(c0, c0 + w))
        else:
            k = FORCED_CELLS[self.difficulty]
            on = sorted(self.truth)
            off = [(r, c) for r in range(n) for c in range(n) if (r, c) not in self.truth and self._may_hold(r, c)]
            n_on = int(rng.integers(1, min(k - 1, len(on)) + 1))
            picks = [on[int(i)] for i in rng.permutation(len(on))[:n_on]]
            picks += [off[int(i)] for i in rng.permutation(len(off))[:k - n_on]]
            self.asked = tuple(sorted(picks))

    def _may_hold(self, r: int, c: int) -> bool:
        """Whether a piece could stand on (r, c) at all (a Tents tree cannot hold a tent)."""
        return True

    # -- draw
    def _puzzle_picture(self) -> np.ndarray:
        """The puzzle's own picture (a hook: a task may draw it with labels)."""
        return super()._draw()  # type: ignore[misc]

    def _draw(self) -> np.ndarray:
        img = self._puzzle_picture()
        g = self._board_geom()
        w = max(2, int(g.cell / 9))
        if self.block is not None:
            r0, c0, r1, c1 = self.block
            x0, y0, *_ = g.box(r0, c0)
            *_, x1, y1 = g.box(r1, c1)
            outline_rect(img, x0 - w / 2, y0 - w / 2, x1 + w / 2 + 1, y1 + w / 2 + 1, MARK, w)
        else:
            spots = [_outline_pixels(img.shape, g, r, c, w) for r, c in self.asked]
            if all(spot is not None for spot in spots):  # every side one colour: all the boxes in one copy
                img[np.concatenate([s[0] for s in spots]), np.concatenate([s[1] for s in spots])] = MARK
                return img
            for r, c in self.asked:
                x0, y0, x1, y1 = g.box(r, c)
                _outline_box(img, x0 + w / 2, y0 + w / 2, x1 - w / 2 + 1, y1 - w / 2 + 1, w)
        return img

    def _task_text(self) -> str:
        p = self.piece
        if self.question == "count":
            return (f"{self._rules_text()} How many {p}s does the solution place inside the block of cells outlined "
                    "in red? Answer with one whole number.")
        ask = (f"In the row outlined in red, which cells hold a {p} in the solution?" if self.question == "row" else
               f"Which of the cells outlined in red hold a {p} in the solution? The puzzle has exactly one solution, "
               f"so these are the outlined cells that the rules force to hold a {p}.")
        return f"{self._rules_text()} {ask} Name those cells, or answer `none` if there are none."

    def _state_text(self) -> str:
        asked = format_cells(self.asked) if self.block is None else "block " + format_cells(
            (self.block[:2], self.block[2:])).replace(" ", " to ")
        return f"{super()._state_text()}\nasked: {asked}"  # type: ignore[misc]

    # -- verify
    def _parse_answer(self, text: str) -> tuple[Cell, ...] | int | None:
        if self.question == "count":
            return parse_count(text, self.n * self.n)
        if text.strip().strip(".`'\"").lower() in ("none", "no cells", "nothing", "no cell"):
            return ()
        return parse_cell_list(text, self.n, self.n)

    def _check(self, answer: tuple[Cell, ...] | int) -> bool:
        if self.question == "count":
            return answer == self._solve()
        return tuple(sorted(answer)) == self._solve()

    def _format(self, answer: tuple[Cell, ...] | int) -> str:
        if self.question == "count":
            return str(answer)
        return format_cells(answer) if answer else "none"

    # -- oracle
    def _solve(self) -> tuple[Cell, ...] | int:
        inside = tuple(sorted(x for x in self.asked if x in self.truth))
        return len(inside) if self.question == "count" else inside

    def _near_misses(self, rng: np.random.Generator) -> list:
        if self.question == "count":
            return count_near_misses(rng, self._solve())
        sol = set(self._solve())
        toggled = [tuple(sorted(sol ^ {x})) for x in self.asked]
        moved = [tuple(sorted((sol - {a}) | {b})) for a in sol for b in self.asked if b not in sol]
        out = [tuple(sorted(set(self.asked) - sol)), tuple(self.asked)]
        return interleave(rng, moved, toggled, out)
