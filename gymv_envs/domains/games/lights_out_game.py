"""Lights Out, played press by press: switch every light off."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.cells import cell_names
from gymv_envs.rules.lights_out import fewest_presses, press_masks

# difficulty -> (board side, random distinct presses that make the level)
LEVELS = {0: (3, 2), 1: (4, 4), 2: (5, 7)}
COLS = "ABCDE"
ON_C, ON_EDGE, OFF_C, OFF_EDGE = (250, 214, 60), (200, 150, 20), (60, 64, 76), (36, 38, 46)


class LightsOutGame(MultiTurnEnv):
    """Switch off every light by pressing cells one at a time.

    ## Description
    An ``n x n`` board of lights, some on. Pressing a cell toggles it and its up to four
    orthogonal neighbours. The goal is a board with every light off. Levels are made by
    pressing random cells of a dark board, so every level is solvable.

    ## Action Space
    `Discrete(n*n)`: the cell to press, named column letter + row number (``A1`` is the top
    left, ``B1`` right of it, ``A2`` below it). Every press is valid.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board; yellow squares are lights that are on, dark
    gray squares lights that are off.

    ## Rewards
    1.0 when every light is off, else 0.0 (``max_return`` 1.0).

    ## Starting State
    A dark board pressed at ``k`` distinct random cells (redrawn if it comes out dark).

    ## Episode End
    Terminates with success when every light is off; the step budget truncates.

    ## Arguments
    ``difficulty`` (0: 3x3, 2 presses; 1: 4x4, 4 presses; 2: 5x5, 7 presses), ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    def _configure(self) -> None:
        self.n, self.k = LEVELS[self.difficulty]
        n = self.n
        self.action_names = cell_names(n, n)
        self.masks = press_masks(n)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        self.lights = 0
        while self.lights == 0:
            for i in rng.choice(self.n * self.n, size=self.k, replace=False):
                self.lights ^= self.masks[int(i)]
        self._start_lit = bin(self.lights).count("1")

    # -- rules
    def _apply(self, action: int) -> Outcome:
        self.lights ^= self.masks[action]
        done = self.lights == 0
        return Outcome(reward=float(done), terminated=done, success=done,
                       feedback="every light is off" if done else f"pressed {self.action_names[action]}")

    def _progress(self) -> float:
        return 1.0 if self._success else max(0.0, 1.0 - bin(self.lights).count("1") / max(1, self._start_lit))

    # -- draw
    def _draw(self) -> np.ndarray:
        n, L = self.n, self.lights
        keys = [[bool(L >> (r * n + c) & 1) for c in range(n)] for r in range(n)]
        return self.grid_painter(n, n, self._tile).paint(keys)

    def _tile(self, on: bool, h: int, w: int) -> np.ndarray:
        t = np.empty((h, w, 3), dtype=np.uint8)
        t[...] = ON_EDGE if on else OFF_EDGE
        m = max(1, h // 8)
        t[m:h - m, m:w - m] = ON_C if on else OFF_C
        return t

    def _task_text(self) -> str:
        n = self.n
        return (f"This is Lights Out on a {n}x{n} board. Yellow squares are lights that are on; dark gray squares are "
                "off. Pressing a square toggles it and the squares directly above, below, left and right of it. "
                f"Switch every light off. Squares are named by column letter A-{COLS[n - 1]} from left to right and "
                f"row number 1-{n} from top to bottom, e.g. A1 is the top-left square.")

    def _state_text(self) -> str:
        n = self.n
        return "\n".join("".join("#" if self.lights >> (r * n + c) & 1 else "." for c in range(n)) for r in range(n))

    # -- oracle
    def oracle_action(self) -> int:
        """The first press (lowest index) of the fewest presses that switch everything off."""
        best = fewest_presses(self.n, self.lights, first_row_ties=True)
        return (best & -best).bit_length() - 1 if best else 0


SPECS = (
    TaskSpec(name="LightsOutGame", entry_point=LightsOutGame, version=1, max_episode_steps=100,
             tags=("puzzle", "logic", "grid")),
)
