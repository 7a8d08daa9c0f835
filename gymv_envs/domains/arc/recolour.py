"""ARC recolour: objects take a colour keyed by their size or size rank (or are erased)."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.arc._base import ArcEnv, arc_doc
from gymv_envs.domains.arc._scenes import blob, colours, pick, place
from gymv_envs.domains.arc._search import Core, Rule
from gymv_envs.domains.arc._transforms import Scene, fill_boxes, hollow, object_index

# difficulty -> (demonstrations, grid side range, objects, object sizes, input colours)
LEVELS = {0: (3, (7, 8), (3, 5), (1, 3), 1), 1: (3, (8, 10), (3, 6), (1, 4), 1), 2: (3, (10, 12), (4, 7), (1, 4), 1)}
EXTRAS = {0: [("size",), ("rank",)], 1: [("size", "g"), ("rank", "g"), ("boxes", "size"), ("boxes", "rank")],
          2: [("boxes", "size", "g"), ("boxes", "rank", "g")]}


class ArcRecolour(ArcEnv):
    __doc__ = arc_doc(
        "Infer which colour each object takes (by its size or size rank) and apply it to the test.",
        """Demonstration pairs show grids of objects (one-colour groups of cells) and their outputs;
    the test input's output is asked for. The rule recolours each object by a table learned from
    the demonstrations and keyed by a property of the object: its number of cells, or its rank
    (the one largest, the one smallest, the others); a size's colour may be the background (the
    objects of that size are erased). The library's object-wise cores (each object fills its bounding box, each object
    is hollowed) and the symmetries of the square add steps at difficulties 1 and 2; a colour map
    keyed by the cell's own colour is in the library too.""",
        """``difficulty`` (0: the recolouring only, 3 demonstrations, 7-8 cells a side, objects of 1-3
    cells; 1: two steps, 8-10 cells, up to 4 cells; 2: three steps, 10-12
    cells),""")

    keys = ("colour", "size", "rank")

    def _cores(self) -> list[Core]:
        return [("identity", 0, lambda s: (s.grid, object_index(s))), ("fill boxes", 1, fill_boxes),
                ("hollow", 1, hollow)]

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list]:
        k, (lo, hi), (o_lo, o_hi), (s_lo, s_hi), n_col = LEVELS[self.difficulty]
        extras = pick(rng, EXTRAS[self.difficulty])
        palette = colours(rng, n_col + 4)
        inputs, outs = palette[:n_col], palette[n_col:]
        key = "size" if "size" in extras else "rank"
        sizes = list(range(s_lo, s_hi + 1))
        if key == "size":  # each size its colour (or erased); sizes never shown map anywhere
            values = [outs[i % len(outs)] for i in rng.permutation(len(sizes))]
            if len(sizes) > 2 and rng.random() < 0.3:
                values[int(rng.integers(len(values)))] = 0
            table = {s: v for s, v in zip(sizes, values)}
        else:  # the largest and the smallest get colours, the others keep theirs
            table = {0: outs[0], 1: outs[1], 2: inputs[0]}
        g = int(self.modifiers[int(rng.integers(1, 8))]) if "g" in extras else 0
        rule = Rule("fill boxes" if "boxes" in extras else "identity", key, tuple(sorted(table.items())), g)
        scenes: list[Scene] = []
        while len(scenes) < k + 1:
            n, m = int(rng.integers(lo, hi + 1)), int(rng.integers(o_lo, o_hi + 1))
            if key == "rank":  # one largest and one smallest object, the others in between
                cells = [s_lo, s_hi] + rng.integers(s_lo + 1, s_hi, size=m - 2).tolist()
            else:
                cells = rng.integers(s_lo, s_hi + 1, size=m).tolist()
            shapes = [blob(rng, c) for c in cells]
            scene = place(rng, n, n, shapes, [pick(rng, inputs) for _ in range(m)])
            if scene is not None:
                scenes.append(scene)
        return rule, scenes


SPECS = (
    TaskSpec(name="ArcRecolour", entry_point=ArcRecolour, max_episode_steps=1,
             tags=("arc", "abstraction", "induction", "objects")),
)
