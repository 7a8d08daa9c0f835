"""ARC connect: lines are drawn between aligned markers of the same colour."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.arc._base import ArcEnv, arc_doc
from gymv_envs.domains.arc._scenes import colours, pick
from gymv_envs.domains.arc._search import Core, Rule
from gymv_envs.domains.arc._transforms import Scene, connect

# difficulty -> (demonstrations, grid side range, marker pairs, lone markers, colours)
LEVELS = {0: (3, (7, 8), (2, 3), (0, 1), 2), 1: (3, (8, 10), (3, 4), (1, 2), 3), 2: (3, (10, 12), (3, 5), (1, 3), 3)}
AXES = {"rows": (1,), "columns": (0,), "both": (1, 0)}
EXTRAS = {0: [("marker",)], 1: [("fixed",), ("marker", "g"), ("marker", "cmap")],
          2: [("fixed", "g"), ("fixed", "cmap"), ("marker", "g", "cmap")]}


class ArcConnect(ArcEnv):
    __doc__ = arc_doc(
        "Infer which markers are joined by lines, in which colour, and apply it to the test input.",
        """Demonstration pairs show grids with single coloured cells (markers) and their outputs;
    the test input's output is asked for. The rule's core draws a line over the background
    between every two markers of the same colour that face each other along a row, along a
    column, or both (no other cell between them), in the markers' colour or in one fixed colour.
    Difficulty 1 adds a fixed line colour, a symmetry of the output or a colour map; difficulty 2
    composes three steps.""",
        """``difficulty`` (0: one step, 3 demonstrations, 7-8 cells a side, 2-3 pairs; 1: two steps,
    8-10 cells, lone markers; 2: three steps, 10-12 cells),""")

    def _cores(self) -> list[Core]:
        cores: list[Core] = [("identity", 0, lambda s: s.grid)]
        for name, axes in AXES.items():
            for c in (None, *range(1, 10)):
                label = f"{name} {'marker' if c is None else c}"
                cores.append((label, 1, lambda s, a=axes, c=c: connect(s.grid, a, c, s.cache.setdefault("segs", {}))))
        return cores

    def _search_cores(self, demos) -> list[Core]:
        return self._cores_showing(demos[0][1])

    def _scene(self, rng: np.random.Generator, n: int, pairs: int, lone: int, palette: list[int]) -> Scene:
        """Marker pairs whose gaps never cross or touch another pair's, then lone markers."""
        grid = np.zeros((n, n), dtype=np.int8)
        used = [0] * n  # pair cells and gaps, grown by one cell: each row's cells as the bits of one int
        placed = 0
        with ScalarDraws(rng) as d:  # the same draws as rng.integers (and pick), one by one at Python speed
            for i in range(pairs * 6):
                if placed == pairs:
                    break
                axis, line = (placed + i) % 2, d.integers(n)  # rows and columns both get pairs
                a = d.integers(n - 2)
                b = d.integers(a + 2, n)
                r0, r1, c0, c1 = (line, line, a, b) if axis else (a, b, line, line)
                lo = c0 - 1 if c0 else 0
                box = ((1 << (c1 + 2 - lo)) - 1) << lo
                rows = range(r0 - 1 if r0 else 0, min(r1 + 2, n))
                if any(used[r] & box for r in rows):
                    continue
                colour = palette[d.integers(len(palette))]
                grid[r0, c0] = grid[r1, c1] = colour
                for r in rows:
                    used[r] |= box
                placed += 1
        if lone:
            free = [r * n + c for r in range(n) for c in range(n) if not used[r] >> c & 1]
            for j in rng.permutation(len(free))[:lone].tolist():
                grid.flat[free[j]] = pick(rng, palette)
        else:
            rng.permutation(n * n - sum(bin(u & ((1 << n) - 1)).count("1") for u in used))
        return Scene(grid)

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list]:
        k, (lo, hi), (p_lo, p_hi), (l_lo, l_hi), n_col = LEVELS[self.difficulty]
        extras = pick(rng, EXTRAS[self.difficulty])
        palette = colours(rng, n_col + 1)
        fixed = palette.pop()
        core = f"{pick(rng, tuple(AXES))} {fixed if 'fixed' in extras else 'marker'}"
        scenes = []
        for _ in range(k + 1):
            n = int(rng.integers(lo, hi + 1))
            scenes.append(self._scene(rng, n, int(rng.integers(p_lo, p_hi + 1)), int(rng.integers(l_lo, l_hi + 1)), palette))
        return self._rule(rng, core, extras, palette), scenes


SPECS = (
    TaskSpec(name="ArcConnect", entry_point=ArcConnect, max_episode_steps=1,
             tags=("arc", "abstraction", "induction", "grid")),
)
