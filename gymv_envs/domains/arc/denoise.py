"""ARC denoise: scattered noise cells are removed, and rectangles they fell on are repaired."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.arc._base import ArcEnv, arc_doc
from gymv_envs.domains.arc._scenes import box_mask, colours, draw_int, pick, place
from gymv_envs.domains.arc._search import Core, Rule
from gymv_envs.domains.arc._transforms import BG, Obj, Scene, keep_objects

# difficulty -> (demonstrations, grid side range, rectangles, noise cells, noise on rectangles, colours)
LEVELS = {0: (3, (7, 8), (2, 2), (3, 5), False, 2), 1: (3, (9, 10), (2, 3), (4, 7), True, 2),
          2: (3, (10, 12), (2, 3), (5, 9), True, 3)}
EXTRAS = {0: [("remove",)], 1: [("repair",), ("remove", "g"), ("remove", "cmap")],
          2: [("repair", "g"), ("repair", "cmap"), ("remove", "g", "cmap")]}


@functools.lru_cache(maxsize=16)
def _eraser(colour: int) -> np.ndarray:
    """The int8 look-up table over 0-9 that sends ``colour`` to the background (read-only, cached)."""
    lut = np.arange(10, dtype=np.int8)
    lut[colour] = BG
    lut.setflags(write=False)
    return lut


def _erase(g: np.ndarray, colour: int) -> np.ndarray:
    """The grid with the cells of ``colour`` made background (a new int8 array)."""
    return _eraser(colour).take(g)


def _repair(s: Scene, noise: int) -> np.ndarray | None:
    """Cells of colour ``noise`` inside the box of an object of another colour take its colour;
    the others become background (None when no cell has the colour)."""
    g = s.grid
    hit = g == noise
    if not hit.any():
        return None
    out = _erase(g, noise)
    for o in s.objects:
        if o.colour != noise and o.size > 1:
            r0, c0, r1, c1 = o.bbox
            out[r0:r1, c0:c1][hit[r0:r1, c0:c1]] = o.colour
    return out


@functools.lru_cache(maxsize=64)
def _one(v: int) -> np.ndarray:
    """``np.array([v])``, read-only (cached): a noise cell's row or column."""
    a = np.array([v])
    a.setflags(write=False)
    return a


@functools.lru_cache(maxsize=64)
def _around(stride: int) -> tuple[int, ...]:
    """The flat offsets of a cell's 3 x 3 neighbourhood in rows of ``stride`` cells."""
    return tuple(dr * stride + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1))


class ArcDenoise(ArcEnv):
    __doc__ = arc_doc(
        "Infer what counts as noise and clean the test input.",
        """Demonstration pairs show solid rectangles sprinkled with single noise cells and their
    outputs; the test input's output is asked for. The rule's core is one of the library's
    cleaners: erase every object of at most one (or two) cells, erase one colour, or repair
    (cells of the noise colour inside a rectangle's box take the rectangle's colour, the others
    are erased). From difficulty 1 noise also falls on the rectangles; extra steps are a symmetry
    of the output and a colour map.""",
        """``difficulty`` (0: one step, 3 demonstrations, 7-8 cells a side, noise beside the
    rectangles; 1: two steps or repair, 9-10 cells; 2: three steps, 10-12
    cells),""")

    def _cores(self) -> list[Core]:
        cores: list[Core] = [("identity", 0, lambda s: s.grid)]
        for t in (1, 2):
            cores.append((f"erase size <= {t}", 1, lambda s, t=t: keep_objects(s, [o.size > t for o in s.objects])))
        for c in range(1, 10):
            cores.append((f"erase colour {c}", 1, lambda s, c=c: _erase(s.grid, c)))
            cores.append((f"repair {c}", 1, lambda s, c=c: _repair(s, c)))
        return cores

    def _search_cores(self, demos) -> list[Core]:
        return self._cores_showing(demos[0][0].grid)

    @staticmethod
    def _objects(scene: Scene, dots: list[tuple[int, int]], noise: int) -> list[Obj]:
        """The objects after the noise fell, known by construction: each rectangle less the cells
        noise covered and one object per noise cell. Noise cells are never neighbours, so a
        rectangle of 3 x 3 or more stays in one piece with the same box, and its first cell is
        the next one along when noise covers its corner."""
        # (first cell, object): boxes and first cells from the cell lists, not the arrays
        objs = [((r, c), Obj(noise, _one(r), _one(c), (r, c, r + 1, c + 1))) for r, c in dots]
        for o in scene.objects:
            r0, c0, r1, c1 = o.bbox  # a full rectangle, its cells in reading order
            hit = [(r - r0) * (c1 - c0) + c - c0 for r, c in dots if r0 <= r < r1 and c0 <= c < c1]
            if not hit:
                objs.append(((r0, c0), o))
                continue
            keep = np.ones(o.size, dtype=bool)
            keep[hit] = False
            first = (r0, c0 + 1) if 0 in hit else (r0, c0)
            objs.append((first, Obj(o.colour, o.rows[keep], o.cols[keep], o.bbox)))
        return [o for _, o in sorted(objs, key=lambda t: t[0])]

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list]:
        k, (lo, hi), (r_lo, r_hi), (n_lo, n_hi), on_top, n_col = LEVELS[self.difficulty]
        extras = pick(rng, EXTRAS[self.difficulty])
        palette = colours(rng, n_col + 1)
        noise = palette.pop()
        core = f"repair {noise}" if "repair" in extras else pick(rng, (f"erase colour {noise}", "erase size <= 1"))
        scenes: list[Scene] = []
        while len(scenes) < k + 1:
            n = int(rng.integers(lo, hi + 1))
            rects = [box_mask(int(rng.integers(3, 5)), int(rng.integers(3, 5))) for _ in range(draw_int(rng, r_lo, r_hi + 1))]
            scene = place(rng, n, n, rects, [pick(rng, palette) for _ in rects])
            if scene is None:
                continue
            grid = scene.grid.copy()
            spots = list(range(n * n)) if on_top or "repair" in extras else np.flatnonzero(grid.ravel() == BG).tolist()
            count = int(rng.integers(n_lo, n_hi + 1))
            dots: list[tuple[int, int]] = []
            # the cells next to a noise cell (or on one), as r * (n + 2) + c (a row of slack: no wrap);
            # the rectangles never hold its colour
            near: set[int] = set()
            around = _around(n + 2)
            for j in rng.permutation(len(spots)).tolist():
                if not count:
                    break
                r, c = divmod(spots[j], n)
                at = r * (n + 2) + c
                if at not in near:
                    grid[r, c] = noise
                    dots.append((r, c))
                    near.update([at + d for d in around])
                    count -= 1
            scenes.append(Scene(grid, self._objects(scene, dots, noise)))
        return self._rule(rng, core, extras, palette), scenes


SPECS = (
    TaskSpec(name="ArcDenoise", entry_point=ArcDenoise, max_episode_steps=1,
             tags=("arc", "abstraction", "induction", "objects")),
)
