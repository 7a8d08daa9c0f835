"""ARC count: the output is a strip with one cell per counted object (or cell)."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.arc._base import ArcEnv, arc_doc
from gymv_envs.domains.arc._scenes import blob, colours, pick, place
from gymv_envs.domains.arc._search import Core, Rule
from gymv_envs.domains.arc._transforms import Scene, count_strip

# difficulty -> (demonstrations, grid side range, objects, cells per object, colours)
LEVELS = {0: (3, (6, 8), (3, 5), (1, 3), 2), 1: (3, (8, 9), (3, 6), (1, 4), 3), 2: (3, (9, 11), (4, 7), (1, 4), 3)}
EXTRAS = {0: [("objects of",), ("cells of",)], 1: [("objects",), ("objects of", "g"), ("objects of", "cmap")],
          2: [("objects", "g"), ("objects", "cmap"), ("objects of", "g", "cmap"), ("cells of", "g", "cmap")]}
TURNS = (1, 3, 6, 7)  # the symmetries that stand the strip upright


def _counts(s: Scene) -> dict[str, int]:
    hit = s.cache.get("counts")
    if hit is None:
        hit = {"objects": len(s.objects)}
        objects = np.bincount([o.colour for o in s.objects], minlength=10).tolist()
        cells = np.bincount(s.grid.ravel(), minlength=10).tolist()
        for c in range(1, 10):
            hit[f"objects of {c}"] = objects[c]
            hit[f"cells of {c}"] = cells[c]
        s.cache["counts"] = hit
    return hit


class ArcCount(ArcEnv):
    __doc__ = arc_doc(
        "Infer what is counted and draw the count for the test input.",
        """Demonstration pairs show grids of objects (one-colour groups of cells) and their outputs;
    the test input's output is asked for. The rule's core counts something and draws the count
    the ARC way, as a 1 x n strip of one colour: the objects of one colour (strip in that
    colour), the cells of one colour, or all objects (strip in a fixed colour). Difficulty 1
    adds a step (a quarter turn stands the strip upright, a colour map), difficulty 2 two.""",
        """``difficulty`` (0: one step, 3 demonstrations, 6-8 cells a side, 3-5 objects; 1: two
    steps, 8-9 cells, up to 6 objects; 2: three steps, 9-11 cells, 4-7
    objects),""")

    def _cores(self) -> list[Core]:
        cores: list[Core] = [("identity", 0, lambda s: s.grid)]
        for c in range(1, 10):
            cores.append((f"objects of {c}", 1, lambda s, c=c: count_strip(_counts(s)[f"objects of {c}"], c)))
            cores.append((f"cells of {c}", 1, lambda s, c=c: count_strip(_counts(s)[f"cells of {c}"], c)))
            cores.append((f"objects in {c}", 1, lambda s, c=c: count_strip(_counts(s)["objects"], c)))
        return cores

    def _search_cores(self, demos) -> list[Core]:
        return self._cores_showing(demos[0][0].grid, demos[0][1])

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list]:
        k, (lo, hi), (o_lo, o_hi), (c_lo, c_hi), n_col = LEVELS[self.difficulty]
        extras = pick(rng, EXTRAS[self.difficulty])
        palette = colours(rng, n_col + 1)
        ink, target = palette.pop(), palette[0]
        core = f"objects in {ink}" if "objects" in extras else f"{extras[0]} {target}"
        scenes: list[Scene] = []
        while len(scenes) < k + 1:
            n, m = int(rng.integers(lo, hi + 1)), int(rng.integers(o_lo, o_hi + 1))
            shapes = [blob(rng, int(rng.integers(c_lo, c_hi + 1))) for _ in range(m)]
            scene = place(rng, n, n, shapes, [target] + [pick(rng, palette) for _ in range(m - 1)])
            if scene is not None:
                scenes.append(scene)
        rule = self._rule(rng, core, extras, palette[:1] if "objects" not in extras else [ink])
        if rule.g:
            rule = Rule(rule.core, rule.key, rule.table, pick(rng, TURNS))
        return rule, scenes


SPECS = (
    TaskSpec(name="ArcCount", entry_point=ArcCount, max_episode_steps=1,
             tags=("arc", "abstraction", "induction", "counting")),
)
