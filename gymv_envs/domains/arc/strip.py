"""ARC strips: one-dimensional rules (shifts, mirrors, fills between markers, gravity) on a row."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.arc._base import ArcEnv, arc_doc
from gymv_envs.domains.arc._scenes import colours, pick
from gymv_envs.domains.arc._search import Core, Rule
from gymv_envs.domains.arc._transforms import Scene, connect, gravity, translate

# difficulty -> (demonstrations, strip length range, colours)
LEVELS = {0: (3, (12, 14), 2), 1: (3, (14, 16), 3), 2: (3, (16, 18), 3)}
SHIFTS = (-3, -2, -1, 1, 2, 3)
# difficulty -> the rule's steps: a core (shift, fill, gravity, fill+shift) and extras (mirror g, colour map)
EXTRAS = {0: [("shift",), ("fill",), ("gravity",), ("g",)],
          1: [("shift", "g"), ("fill", "g"), ("gravity", "cmap"), ("shift", "cmap"), ("fill", "cmap"), ("fill+shift",)],
          2: [("shift", "g", "cmap"), ("fill", "g", "cmap"), ("gravity", "g", "cmap"), ("fill+shift", "cmap"),
              ("fill+shift", "g")]}


def _fill(s: Scene) -> np.ndarray:
    out = s.cache.get("fill")
    if out is None:
        out = s.cache["fill"] = connect(s.grid, (1,), None)
    return out


class ArcStrip(ArcEnv):
    __doc__ = arc_doc(
        "Infer a one-dimensional rule from strips of coloured cells and apply it to the test strip.",
        """Every grid is a single row of cells. Demonstration pairs show input strips and their
    outputs; the test strip's output is asked for. The rule composes one to three steps: a shift
    by one to three cells, filling the gap between two markers of the same colour, gravity (all
    coloured cells slide to the left or right end), a mirror of the strip, and a colour map.""",
        """``difficulty`` (0: one step, 3 demonstrations, 12-14 cells; 1: two steps, 14-16 cells;
    2: three steps, 16-18 cells),""")

    modifiers = (0, 4)

    def _cores(self) -> list[Core]:
        cores: list[Core] = [("identity", 0, lambda s: s.grid), ("fill", 1, _fill)]
        cores += [(f"shift {k}", 1, lambda s, k=k: translate(s.grid, 0, k)) for k in SHIFTS]
        cores += [(f"gravity {d}", 1, lambda s, d=d: gravity(s.grid, d)) for d in ("left", "right")]
        cores += [(f"fill, shift {k}", 2, lambda s, k=k: translate(_fill(s), 0, k)) for k in SHIFTS]
        return cores

    def _strip(self, rng: np.random.Generator, n: int, palette: list[int]) -> Scene:
        """Marker pairs (two cells of a colour, 1-4 apart) and short blocks, three cells clear of each end."""
        room = n - 6
        items: list[list[int]] = []
        for j in range(4):
            it = ([pick(rng, palette)] + [0] * int(rng.integers(1, 4)) + [-1] if j < 2 and rng.random() < 0.8
                  else [pick(rng, palette)] * int(rng.integers(1, 3)))
            if sum(len(x) + 1 for x in items) + len(it) <= room:
                items.append(it)
        items = [items[int(i)] for i in rng.permutation(len(items))]
        spare = room - sum(len(it) for it in items) - (len(items) - 1)
        cuts = np.sort(rng.integers(0, spare + 1, size=len(items)))
        row, pos = [0] * n, 3
        for it, extra in zip(items, np.diff(np.concatenate([[0], cuts])).tolist()):
            pos += extra
            for j, v in enumerate(it):
                row[pos + j] = it[0] if v == -1 else v
            pos += len(it) + 1
        return Scene(np.array([row], dtype=np.int8))

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list]:
        k, (lo, hi), n_col = LEVELS[self.difficulty]
        extras = pick(rng, EXTRAS[self.difficulty])
        palette = colours(rng, n_col)
        shift = pick(rng, SHIFTS)
        core = ("identity" if "g" in extras and len(extras) == 1 else
                f"shift {shift}" if "shift" in extras else "fill" if "fill" in extras else
                f"fill, shift {shift}" if "fill+shift" in extras else f"gravity {pick(rng, ('left', 'right'))}")
        n = int(rng.integers(lo, hi + 1))
        return self._rule(rng, core, extras, palette), [self._strip(rng, n, palette) for _ in range(k + 1)]


SPECS = (
    TaskSpec(name="ArcStrip", entry_point=ArcStrip, max_episode_steps=1,
             tags=("arc", "abstraction", "induction", "1d")),
)
