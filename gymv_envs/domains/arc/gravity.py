"""ARC gravity: coloured cells fall towards one side; harder levels also turn the grid and recolour."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.arc._base import ArcEnv, arc_doc
from gymv_envs.domains.arc._scenes import colours, pick, scatter
from gymv_envs.domains.arc._search import Core, Rule
from gymv_envs.domains.arc._transforms import gravity

# difficulty -> (demonstrations, grid side range, colours used)
LEVELS = {0: (3, (5, 6), 2), 1: (3, (6, 8), 3), 2: (3, (8, 10), 3)}
SIDES = ("down", "up", "left", "right")
# difficulty -> the steps added to the gravity: a symmetry g, a colour map, a second gravity
EXTRAS = {0: [()], 1: [("g",), ("cmap",), ("then",)], 2: [("g", "cmap"), ("then", "g"), ("then", "cmap")]}
PERPENDICULAR = {"down": ("left", "right"), "up": ("left", "right"), "left": ("down", "up"), "right": ("down", "up")}


class ArcGravity(ArcEnv):
    __doc__ = arc_doc(
        "Infer in which direction the coloured cells fall (and what else happens) and apply it.",
        """Demonstration pairs show input grids of scattered coloured cells and their outputs; the test
    input's output is asked for. The rule's core is gravity: every coloured cell slides as far as
    it can towards one side, each row or column keeping its order (two perpendicular gravities pile
    the cells into a corner). Difficulty 1 adds one more step (a rotation or mirror of the result,
    a colour map, or a second gravity), difficulty 2 two more.""",
        """``difficulty`` (0: one gravity, 3 demonstrations, 5-6 cells a side; 1: two steps, 6-8
    cells; 2: three steps, 8-10 cells),""")

    def _cores(self) -> list[Core]:
        def fall(s, side: str) -> np.ndarray:
            out = s.cache.get(side)
            if out is None:
                out = s.cache[side] = gravity(s.grid, side)
            return out

        cores: list[Core] = [("identity", 0, lambda s: s.grid)]
        cores += [(side, 1, lambda s, side=side: fall(s, side)) for side in SIDES]
        cores += [(f"{a} then {b}", 2, lambda s, a=a, b=b: gravity(fall(s, a), b)) for a in SIDES for b in PERPENDICULAR[a]]
        return cores

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list]:
        k, (lo, hi), n_col = LEVELS[self.difficulty]
        palette = colours(rng, n_col)
        side = pick(rng, SIDES)
        extras = pick(rng, EXTRAS[self.difficulty])
        core = f"{side} then {pick(rng, PERPENDICULAR[side])}" if "then" in extras else side
        rule = self._rule(rng, core, extras, palette)
        scenes = []
        for _ in range(k + 1):
            h, w = int(rng.integers(lo, hi + 1)), int(rng.integers(lo, hi + 1))
            scenes.append(scatter(rng, h, w, float(rng.uniform(0.25, 0.4)), palette))
        return rule, scenes

SPECS = (
    TaskSpec(name="ArcGravity", entry_point=ArcGravity, max_episode_steps=1,
             tags=("arc", "abstraction", "induction", "grid")),
)
