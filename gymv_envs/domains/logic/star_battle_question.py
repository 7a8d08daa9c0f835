"""Star Battle questions: which cells of a marked row, or which of some marked cells, hold a star."""

from __future__ import annotations

from gymv_envs.core import TaskSpec
from gymv_envs.core.board import Geom, labelled_layout
from gymv_envs.domains.logic._solution_questions import SolutionQuestion
from gymv_envs.domains.logic.star_battle import StarBattle


class StarBattleQuestion(SolutionQuestion, StarBattle):
    """Answer a question about the unique solution of a drawn Star Battle puzzle.

    ## Description
    The Star Battle board of StarBattle-v1 (an ``n x n`` grid, columns A.. and rows 1.. from
    the top, cut into ``n`` tinted regions; one star in every row, column and region, no two
    stars touching, not even diagonally; exactly one solution), with part of it outlined in
    red. ``question`` picks what is asked: ``"row"``, one row is outlined and the answer is the
    cell of that row that holds a star; ``"forced"``, a few cells (4, 5 or 6 by difficulty) are
    outlined and the answer is those of them that hold a star in the solution, that is, the
    outlined cells the rules force to hold one (at least one does, at least one does not);
    ``"count"``, a block of 2 to n-2 rows by 2 to n-2 columns is outlined and the answer is how
    many stars the solution places inside it.

    ## Action Space
    ``answer_format="open"``: `Text`, cells such as ``B3 D5`` (any order and separators), or
    ``none``; count: a whole number. ``"mcq"``: `Discrete(k)` over sets of cells (count: over
    nearby numbers).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled board with its regions and the red outlines.

    ## Rewards
    1.0 if the cells named are exactly the outlined cells that hold a star in the solution
    (found by the exact Star Battle solver), or, for count, if the number is how many of them the
    block holds; else 0.0.

    ## Starting State
    StarBattle-v1's generator (a unique-solution board); then the row (any) or the outlined
    cells (some holding a star, some not) or the block are drawn.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"row"``, ``"forced"``, ``"count"``); ``difficulty`` (0: 5x5, 1: 6x6, 2: 8x8),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    piece = "star"

    def _solution_cells(self):
        return self.stars  # the generator's repair left it the only solution

    def _board_geom(self) -> Geom:
        return labelled_layout(self.obs_size, self.n, self.n)

    def _rules_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Star Battle grid with columns A to {chr(64 + n)} (left to right) and rows "
                f"1 to {n} (top to bottom), divided by thick lines into {n} tinted regions. Its solution places {n} "
                "stars so that every row, every column and every region contains exactly one star, and no two stars "
                "touch each other, not even diagonally; there is exactly one such placement.")


SPECS = tuple(
    TaskSpec(name=name, entry_point=StarBattleQuestion, max_episode_steps=1, kwargs={"question": q},
             tags=("puzzle", "constraint-satisfaction", "regions"))
    for name, q in (("StarBattleRow", "row"), ("StarBattleForced", "forced"), ("StarBattleCount", "count"))
)
