"""Life questions: the live count after N steps, the cells that change next step, the steps to settle."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import choice
from gymv_envs.domains.algorithmic import _life
from gymv_envs.domains.algorithmic._board import DARK, blank, fill_cells
from gymv_envs.domains.algorithmic._common import (
    AlgoEnv,
    Cells,
    Number,
    board_text,
)

QUESTIONS = ("count", "changes", "settle")
# question -> difficulty -> (side, step counts N | (fewest, most) changed cells | most steps to settle)
LEVELS = {
    "count": {0: (8, (2, 3)), 1: (10, (4, 5, 6)), 2: (12, (7, 8, 9, 10))},
    "changes": {0: (6, (2, 8)), 1: (8, (3, 12)), 2: (10, (4, 16))},
    "settle": {0: (6, 8), 1: (8, 16), 2: (10, 30)},
}
HINTS = {
    "count": "the number of live cells, one whole number",
    "changes": "the cells that change, as cell names (column letter and row number) separated by spaces",
    "settle": "the number of steps, one whole number",
}


class LifeQuestions(AlgoEnv):
    """Answer a question about a Game of Life board: a live count, the next changes, the time to settle.

    ## Description
    A ``side x side`` Game of Life board (B3/S23, cells beyond the edge dead) is drawn with
    column letters and row numbers; dark cells are alive. ``question`` picks what is asked:

    - ``"count"``: how many cells are alive after N steps (N in the instruction and caption);
    - ``"changes"``: which cells change state (are born or die) in the next step;
    - ``"settle"``: after how many steps the pattern is stable or periodic: the smallest t such
      that the board after t steps appears again later (a still life, the empty board included,
      or an oscillator from then on).

    ## Action Space
    ``answer_format="open"``: `Text`; ``count``/``settle``: one whole number; ``changes``: cell
    names such as ``B3 C4`` in any order. ``"mcq"``: `Discrete(k)`; wrong options use N-1 or N+1
    steps or a wrap-around board (count), births only, deaths only, the next live cells, one cell
    more or less (changes), the first repeat instead of the start of the cycle, the period, one off
    (settle).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled board.

    ## Rewards
    1.0 for the right number or exactly the set of changing cells, else 0.0.

    ## Starting State
    A random soup; redrawn while the count is below three, the number of changes is outside the
    difficulty's range, or the pattern settles at step 0 or after the difficulty's bound (stated
    in the instruction).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"count"``, ``"changes"``, ``"settle"``); ``difficulty`` (count: 8x8 N 2-3,
    10x10 N 4-6, 12x12 N 7-10; changes: 6x6, 8x8, 10x10; settle: 6x6 within 8 steps, 8x8 within
    16, 10x10 within 30), ``answer_format``, ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    questions = QUESTIONS

    def _configure(self) -> None:
        self.side, self.param = LEVELS[self.question][self.difficulty]
        self.kind = Cells(self.side, self.side, HINTS["changes"]) if self.question == "changes" else Number(HINTS[self.question])
        self.steps = 1

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n, q = self.side, self.question
        while True:
            if q == "changes":
                self.start = _life.random_soup(rng, n, (0.08, 0.22))
            else:
                self.start = _life.random_soup(rng, n, (0.2, 0.4))
            bits = self.bits = _life.to_bits(self.start)
            if q == "count":
                self.steps = int(choice(rng, self.param))
                if _life.run(bits, n, n, self.steps).bit_count() >= 3:
                    return
            elif q == "changes":
                k = (bits ^ _life.step(bits, n, n)).bit_count()
                if self.param[0] <= k <= self.param[1]:
                    return
            else:
                found = _life.settle(bits, n, n, self.param)
                if found is not None and 1 <= found[0] <= self.param:
                    self.tail, self.period = found
                    return

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.side, self.side)
        fill_cells(img, g, self.start, DARK)
        return img

    def _task_text(self) -> str:
        s = "step" if self.steps == 1 else "steps"
        ask = {
            "count": f"How many cells are alive after {self.steps} {s}?",
            "changes": "Which cells change state in the next step (are born or die)?",
            "settle": ("After how many steps is the pattern stable or periodic? That is the smallest number t of "
                       "steps such that the board after t steps appears again later (a still life, the empty "
                       f"board included, or an oscillator from then on); here t is between 1 and {self.param}."),
        }[self.question]
        return f"The image shows Conway's Game of Life on a {self.side}x{self.side} board; dark cells are alive. {_life.RULES} {ask}"

    def _caption(self) -> list:
        if self.question == "count":
            return [f"Live cells after {self.steps} step{'s' if self.steps > 1 else ''}?"]
        if self.question == "changes":
            return ["Cells that change next step?"]
        return [f"Steps until stable or periodic (1-{self.param})?"]

    def _level_text(self) -> str:
        return board_text(self.start)

    # -- verify
    def _cells(self, bits: int) -> frozenset:
        return frozenset((int(r), int(c)) for r, c in zip(*np.nonzero(_life.to_array(bits, self.side, self.side))))

    def _similar(self, rng: np.random.Generator) -> list:
        n = self.side
        if self.question == "changes":
            nxt = _life.step(self.bits, n, n)
            torus = _life.to_bits(_life.step_array(self.start, wrap=True))
            out = [self._cells(nxt & ~self.bits), self._cells(self.bits & ~nxt), self._cells(nxt),
                   self._cells(self.bits ^ torus)]
            return [x for x in out if x]
        if self.question == "count":
            torus = self.start
            for _ in range(self.steps):
                torus = _life.step_array(torus, wrap=True)
            return [_life.run(self.bits, n, n, self.steps + d).bit_count() for d in (-1, 1)] + [int(torus.sum())]
        return [self.tail + self.period, self.period if self.period > 1 else self.tail + 2]

    # -- oracle
    def _solve(self):
        n = self.side
        if self.question == "changes":
            return self._cells(self.bits ^ _life.step(self.bits, n, n))
        if self.question == "count":
            return _life.run(self.bits, n, n, self.steps).bit_count()
        return self.tail


SPECS = tuple(
    TaskSpec(name=name, entry_point=LifeQuestions, max_episode_steps=1, kwargs={"question": q},
             tags=("cellular-automaton", "simulation", tag))
    for name, q, tag in (("LifeLiveCount", "count", "counting"), ("LifeChanges", "changes", "cell-set"),
                         ("LifeSettle", "settle", "cycle-detection"))
)
