"""ARC crop: the output is the one object picked out by a rule (largest, smallest, odd colour...)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.arc._base import ArcEnv, arc_doc
from gymv_envs.domains.arc._scenes import blob, colours, pick, place
from gymv_envs.domains.arc._search import Core, Rule
from gymv_envs.domains.arc._transforms import Obj, Scene, crop

# difficulty -> (demonstrations, grid side range, objects, cells per object, colours)
LEVELS = {0: (3, (7, 8), (3, 3), (2, 6), 3), 1: (3, (8, 10), (3, 4), (2, 7), 3), 2: (3, (10, 12), (4, 5), (2, 8), 3)}
EXTRAS = {0: [("crop",)], 1: [("crop", "g"), ("crop", "cmap")], 2: [("crop", "g", "cmap")]}


def _unique(objs: list[Obj], score) -> Obj | None:
    """The object with the strictly highest score, or None on a tie."""
    scores = [score(o) for o in objs]
    best = max(scores)
    return objs[scores.index(best)] if scores.count(best) == 1 else None


def _odd_colour(objs: list[Obj]) -> Obj | None:
    count = Counter(o.colour for o in objs)
    odd = [o for o in objs if count[o.colour] == 1]
    return odd[0] if len(odd) == 1 and len(count) > 1 else None


SELECTORS = {
    "largest": lambda objs: _unique(objs, lambda o: o.size),
    "smallest": lambda objs: _unique(objs, lambda o: -o.size),
    "odd colour": _odd_colour,
    "topmost": lambda objs: _unique(objs, lambda o: -o.bbox[0]),
    "bottommost": lambda objs: _unique(objs, lambda o: o.bbox[2]),
    "leftmost": lambda objs: _unique(objs, lambda o: -o.bbox[1]),
    "rightmost": lambda objs: _unique(objs, lambda o: o.bbox[3]),
}


def _crop(s: Scene, selector: str) -> np.ndarray | None:
    """The grid cropped to the selected object's box (None on a tie), cached in the scene: the
    sampler's check and the rule's output share it."""
    key = ("crop", selector)
    if key not in s.cache:
        o = SELECTORS[selector](s.objects)
        s.cache[key] = None if o is None else crop(s.grid, o.bbox)
    return s.cache[key]


class ArcCrop(ArcEnv):
    __doc__ = arc_doc(
        "Infer which object the output shows and crop it out of the test input.",
        """Demonstration pairs show grids with a few objects (one-colour groups of cells) and their
    outputs; the test input's output is asked for. The rule's core crops the grid to the bounding
    box of one object, chosen by a selector of the library: the largest, the smallest, the only one
    of its colour, or the topmost, bottommost, leftmost or rightmost. Difficulty 1 adds a symmetry
    of the cut-out or a colour map, difficulty 2 both.""",
        """``difficulty`` (0: one step, 3 demonstrations, 7-8 cells a side, 3 objects; 1: two steps,
    8-10 cells, 3-4 objects; 2: three steps, 10-12 cells, 4-5 objects),""")

    def _cores(self) -> list[Core]:
        cores: list[Core] = [("identity", 0, lambda s: s.grid)]
        return cores + [(name, 1, lambda s, name=name: _crop(s, name)) for name in SELECTORS]

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list]:
        k, (lo, hi), (o_lo, o_hi), (c_lo, c_hi), n_col = LEVELS[self.difficulty]
        extras = pick(rng, EXTRAS[self.difficulty])
        palette = colours(rng, n_col)
        selector = pick(rng, tuple(SELECTORS))
        scenes: list[Scene] = []
        while len(scenes) < k + 1:
            n, m = int(rng.integers(lo, hi + 1)), int(rng.integers(o_lo, o_hi + 1))
            shapes = [blob(rng, int(rng.integers(c_lo, c_hi + 1))) for _ in range(m)]
            cols = [pick(rng, palette) for _ in range(m)]
            if selector == "odd colour":  # one colour once, the others at least twice
                cols = [palette[0]] + [palette[1]] * (m - 1)
            scene = place(rng, n, n, shapes, cols)
            if scene is not None and _crop(scene, selector) is not None:
                scenes.append(scene)
        return self._rule(rng, selector, extras, palette), scenes


SPECS = (
    TaskSpec(name="ArcCrop", entry_point=ArcCrop, max_episode_steps=1,
             tags=("arc", "abstraction", "induction", "objects")),
)
