"""ARC tiling: the output repeats the small input pattern, plain, mirrored or turned tile by tile."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.arc._base import ArcEnv, arc_doc
from gymv_envs.domains.arc._scenes import colours, pick, scatter
from gymv_envs.domains.arc._search import Core, Rule
from gymv_envs.domains.arc._transforms import tile

# difficulty -> (demonstrations, pattern side range, layouts the rule may use, colours)
LEVELS = {0: (3, (2, 3), ((1, 2), (2, 1), (2, 2)), 3),
          1: (3, (2, 3), ((1, 2), (2, 1), (2, 2), (1, 3), (3, 1), (3, 3)), 3),
          2: (3, (3, 4), ((2, 2), (1, 3), (3, 1), (2, 3), (3, 2), (3, 3)), 4)}
LAYOUTS = ((1, 2), (2, 1), (2, 2), (1, 3), (3, 1), (2, 3), (3, 2), (3, 3))
SCHEMES = ("repeat", "mirror", "rotate")
EXTRAS = {0: [("tile",)], 1: [("tile", "g"), ("tile", "cmap")], 2: [("tile", "g", "cmap")]}


class ArcTiling(ArcEnv):
    __doc__ = arc_doc(
        "Infer how a small pattern is copied into a bigger grid and apply it to the test pattern.",
        """Demonstration pairs show small input patterns and their outputs; the test pattern's output
    is asked for. The rule's core copies the pattern into a layout of 1-3 x 1-3 tiles, either
    plainly, mirrored (odd columns of tiles mirrored left-right, odd rows top-bottom) or turned
    (tile (i, j) turned i + j quarter turns clockwise; square patterns). Difficulty 1 adds a
    symmetry of the whole output or a colour map, difficulty 2 both.""",
        """``difficulty`` (0: tiling only, 2-3 cell patterns, up to 2 x 2 tiles; 1: two steps, up to
    3 x 3 tiles; 2: three steps, 3-4 cell patterns),""")

    def _cores(self) -> list[Core]:
        cores: list[Core] = [("identity", 0, lambda s: s.grid)]
        for reps in LAYOUTS:
            for scheme in SCHEMES:
                cores.append((f"{scheme} {reps[0]}x{reps[1]}", 1, lambda s, r=reps, k=scheme: tile(s.grid, r, k)))
        return cores

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list]:
        k, (lo, hi), layouts, n_col = LEVELS[self.difficulty]
        extras = pick(rng, EXTRAS[self.difficulty])
        palette = colours(rng, n_col)
        reps, scheme = pick(rng, layouts), pick(rng, SCHEMES)
        rule = self._rule(rng, f"{scheme} {reps[0]}x{reps[1]}", extras, palette)
        scenes = []
        for _ in range(k + 1):
            h = int(rng.integers(lo, hi + 1))
            w = h if scheme == "rotate" else int(rng.integers(lo, hi + 1))
            scenes.append(scatter(rng, h, w, float(rng.uniform(0.5, 0.8)), palette))
        return rule, scenes


SPECS = (
    TaskSpec(name="ArcTiling", entry_point=ArcTiling, max_episode_steps=1,
             tags=("arc", "abstraction", "induction", "grid")),
)
