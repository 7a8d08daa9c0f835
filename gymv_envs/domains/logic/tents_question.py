"""Tents questions: which cells of a marked row, or which of some marked cells, hold a tent."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import LABEL_PAD, Geom, blank_board, draw_labels, layout
from gymv_envs.domains.logic._solution_questions import SolutionQuestion
from gymv_envs.domains.logic.tents import Tents

PAD = (LABEL_PAD, 0.8, 0.8, LABEL_PAD)  # labels above and left, counts right and below


@functools.lru_cache(maxsize=32)
def _labelled_board(obs_size: tuple[int, int], n: int) -> tuple[np.ndarray, Geom]:
    """The empty board with its column letters and row numbers (read-only; drawn once per size)."""
    img, g = blank_board(obs_size, n, n, pad=PAD)
    draw_labels(img, g, n, n, max(5, int(g.cell * 0.36)))
    img.setflags(write=False)
    return img, g


class TentsQuestion(SolutionQuestion, Tents):
    """Answer a question about the unique solution of a drawn Tents puzzle.

    ## Description
    The Tents board of Tents-v1 (an ``n x n`` grid with trees, green triangles, and the number
    of tents of each row on its right and of each column below it; tents pair one to one with
    trees, each beside its own tree, and never touch, not even diagonally; exactly one
    solution), with part of it outlined in red. Cells are named by column letter A.. (left to
    right) and row number 1.. (top to bottom). ``question`` picks what is asked: ``"row"``, one
    row holding at least one tent is outlined and the answer is the cells of that row that hold
    a tent (the row's count says how many, not which); ``"forced"``, a few cells without trees
    (4, 5 or 6 by difficulty) are outlined and the answer is those of them that hold a tent
    in the solution, that is, the outlined cells the rules force to hold one; ``"count"``, a
    block of 2 to n-2 rows by 2 to n-2 columns is outlined and the answer is how many tents the
    solution places inside it (the counts shown are for whole rows and columns).

    ## Action Space
    ``answer_format="open"``: `Text`, cells such as ``B3 D3`` (any order and separators), or
    ``none``; count: a whole number. ``"mcq"``: `Discrete(k)` over sets of cells (count: over
    nearby numbers).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled board, trees, counts and the red outlines.

    ## Rewards
    1.0 if the cells named are exactly the outlined cells that hold a tent in the solution
    (found by the exact Tents solver), or, for count, if the number is how many of them the
    block holds; else 0.0.

    ## Starting State
    Tents-v1's generator (a unique-solution board); then the row (one with a tent) or the
    outlined cells (some holding a tent, some not) or the block are drawn.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"row"``, ``"forced"``, ``"count"``); ``difficulty`` (0: 5x5, 1: 6x6, 2: 8x8),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    piece = "tent"
    cell_kind = "mask"

    def _solution_cells(self):
        return frozenset(self._tent_cells())

    def _may_hold(self, r: int, c: int) -> bool:
        return (r, c) not in self.trees

    def _board_geom(self) -> Geom:
        return layout(self.obs_size, self.n, self.n, PAD)

    def _puzzle_picture(self) -> np.ndarray:
        """Tents-v1's picture with room for column letters above and row numbers left."""
        return self._paint(_labelled_board)

    def _rules_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Tents puzzle with columns A to {chr(64 + n)} (left to right) and rows 1 to "
                f"{n} (top to bottom); green triangles are trees. Its solution places tents on empty cells so that: "
                "trees and tents pair up one to one, each tent directly above, below, left or right of its own tree; "
                "no two tents touch each other, not even diagonally; and the number right of each row and below each "
                "column is how many tents that row or column has. There is exactly one such placement.")


SPECS = tuple(
    TaskSpec(name=name, entry_point=TentsQuestion, max_episode_steps=1, kwargs={"question": q},
             tags=("puzzle", "constraint-satisfaction"))
    for name, q in (("TentsRow", "row"), ("TentsForced", "forced"), ("TentsCount", "count"))
)
