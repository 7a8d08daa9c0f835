"""Gradient shade: which numbered shade of the legend is the outlined cell of a gradient board?"""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.cognition._gradient import ShadeQuestion


class GradientCellShade(ShadeQuestion):
    """Name the shade (a number of the legend) of the outlined cell of a colour gradient board.

    ## Description
    A square board of cells shades from a light colour to a dark one, one legend step per cell
    along a direction (axes at difficulty 0, diagonals too from 1). A legend below numbers every
    shade from 1 (lightest) to m (darkest). One cell is outlined (black and white frame): which
    shade number is it? Harder levels have bigger boards and so more, closer shades.

    ## Action Space
    ``answer_format="open"``: `Text`, a number (``5``, ``shade 5``). ``"mcq"``: `Discrete(k)`
    over shade numbers (neighbouring shades).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board and the numbered legend below it.

    ## Rewards
    1.0 for the cell's shade number, else 0.0.

    ## Starting State
    Direction, colour ramp and the outlined cell come from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 x 5, 5 shades along an axis; 1: 6 x 6, up to 11 shades; 2: 7 x 7, up to
    13), ``answer_format``, ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the shade number of the outlined cell (for example `5`)"

    def _generate(self, rng: np.random.Generator) -> None:
        self._board(rng)
        n = self.shades.shape[0]
        self.cell = (int(rng.integers(n)), int(rng.integers(n)))
        self.answer = int(self.shades[self.cell]) + 1
        self._image = None

    def _draw(self) -> np.ndarray:
        if self._image is None:
            self._image = self._paint({self.cell: "ring"})
        return self._image.copy()

    def _task_text(self) -> str:
        return ("The image shows a board of coloured cells whose shade changes step by step across the board, and "
                "below it a legend numbering every shade from 1 (lightest) to the darkest. One cell is outlined "
                "with a black and white frame. Which shade number does the outlined cell have?")

    def _state_text(self) -> str:
        return f"shades {self._board_text()}; outlined cell (row, col) {self.cell}"


SPECS = (
    TaskSpec(name="GradientCellShade", entry_point=GradientCellShade, max_episode_steps=1,
             tags=("perception", "colour", "gradient")),
)
