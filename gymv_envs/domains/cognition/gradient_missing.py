"""Gradient missing: which numbered shade belongs in the blanked cell of a gradient board?"""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.cognition._gradient import ShadeQuestion

BLANKS = {0: 0, 1: 2, 2: 4}  # cells blanked besides the asked one


class GradientMissingShade(ShadeQuestion):
    """Say which shade (a number of the legend) belongs in the '?' cell of a colour gradient board.

    ## Description
    A square board of cells shades from a light colour to a dark one, one legend step per cell
    along a direction (axes at difficulty 0, diagonals too from 1). A legend below numbers every
    shade from 1 (lightest) to m (darkest). One cell is blanked with a '?' (and at harder levels a
    few more cells are blanked too, so the neighbours must be read with care): which shade number
    completes the gradient there? The board's rule (one step per cell) fixes the answer.

    ## Action Space
    ``answer_format="open"``: `Text`, a number (``5``, ``shade 5``). ``"mcq"``: `Discrete(k)`
    over shade numbers (neighbouring shades).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with blanked cells and the numbered legend.

    ## Rewards
    1.0 for the missing shade number, else 0.0.

    ## Starting State
    Direction, colour ramp and blanked cells come from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 x 5 along an axis, one blank; 1: 6 x 6, diagonals, 3 blanks; 2: 7 x 7,
    5 blanks), ``answer_format``, ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the shade number that belongs in the '?' cell (for example `5`)"

    def _generate(self, rng: np.random.Generator) -> None:
        self._board(rng)
        n = self.shades.shape[0]
        cells = [(int(i) // n, int(i) % n) for i in rng.permutation(n * n)[:BLANKS[self.difficulty] + 1]]
        self.cell, self.blanks = cells[0], cells[1:]
        self.answer = int(self.shades[self.cell]) + 1
        self._image = None

    def _draw(self) -> np.ndarray:
        if self._image is None:
            marks = {c: "blank" for c in self.blanks}
            marks[self.cell] = "?"
            self._image = self._paint(marks)
        return self._image.copy()

    def _task_text(self) -> str:
        return ("The image shows a board of coloured cells whose shade changes by exactly one legend step from "
                "each cell to the next along one direction; below it a legend numbers every shade from 1 "
                "(lightest) to the darkest. Some cells are blanked grey; which shade number belongs in the "
                "cell marked '?'?")

    def _state_text(self) -> str:
        return f"shades {self._board_text()}; asked cell (row, col) {self.cell}; blanked {self.blanks}"


SPECS = (
    TaskSpec(name="GradientMissingShade", entry_point=GradientMissingShade, max_episode_steps=1,
             tags=("perception", "colour", "gradient", "pattern-completion")),
)
