"""ARC geometry: the output is the input moved, mirrored or rotated (and recoloured at level 2)."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.arc._base import ArcEnv, arc_doc
from gymv_envs.domains.arc._scenes import blob, colours, pad, pick, place
from gymv_envs.domains.arc._search import Core, Rule
from gymv_envs.domains.arc._transforms import translate

# difficulty -> (demonstrations, grid side range, objects, colours)
LEVELS = {0: (3, (6, 8), (2, 3), 2), 1: (3, (7, 9), (2, 4), 3), 2: (3, (9, 11), (3, 4), 3)}
# difficulty -> the steps of the rule: a symmetry g, a shift, a colour map
EXTRAS = {0: [("g",), ("shift",)], 1: [("g", "shift"), ("g", "cmap"), ("shift", "cmap")], 2: [("g", "shift", "cmap")]}
SHIFTS = [(dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if (dr, dc) != (0, 0)]


class ArcGeometry(ArcEnv):
    __doc__ = arc_doc(
        "Infer how the grid is moved, mirrored or rotated, and apply it to the test input.",
        """Demonstration pairs show input grids with a few coloured objects and their outputs; the
    test input's output is asked for. The rule composes one to three steps: a shift of the whole
    content by up to two cells each way (cells pushed out would be lost; the inputs keep them
    in), one of the eight symmetries of the square (quarter turns, mirrors, transposes; a
    non-square grid changes shape) and a colour map.""",
        """``difficulty`` (0: one step, 3 demonstrations, 6-8 cells a side; 1: two steps, 7-9 cells;
    2: three steps, 9-11 cells),""")

    def _cores(self) -> list[Core]:
        cores: list[Core] = [("identity", 0, lambda s: s.grid)]
        cores += [(f"shift {dr},{dc}", 1, lambda s, dr=dr, dc=dc: translate(s.grid, dr, dc)) for dr, dc in SHIFTS]
        return cores

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list]:
        k, (lo, hi), (n_lo, n_hi), n_col = LEVELS[self.difficulty]
        extras = pick(rng, EXTRAS[self.difficulty])
        palette = colours(rng, n_col)
        dr, dc = pick(rng, SHIFTS) if "shift" in extras else (0, 0)
        rule = self._rule(rng, f"shift {dr},{dc}" if "shift" in extras else "identity", extras, palette)
        scenes = []
        while len(scenes) < k + 1:
            h, w = int(rng.integers(lo, hi + 1)), int(rng.integers(lo, hi + 1))
            shapes = [blob(rng, int(rng.integers(2, 5))) for _ in range(int(rng.integers(n_lo, n_hi + 1)))]
            # placed where the shift keeps every cell on the grid
            scene = place(rng, h - abs(dr), w - abs(dc), shapes, [pick(rng, palette) for _ in shapes])
            if scene is not None:
                scenes.append(pad(scene, max(-dr, 0), max(dr, 0), max(-dc, 0), max(dc, 0)))
        return rule, scenes


SPECS = (
    TaskSpec(name="ArcGeometry", entry_point=ArcGeometry, max_episode_steps=1,
             tags=("arc", "abstraction", "induction", "grid")),
)
