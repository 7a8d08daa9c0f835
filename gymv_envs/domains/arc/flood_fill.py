"""ARC flood fill: the background enclosed by closed outlines (or the open background) is filled."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.arc._base import ArcEnv, arc_doc
from gymv_envs.domains.arc._scenes import colours, draw_int, pick, place
from gymv_envs.domains.arc._search import Core, Rule
from gymv_envs.domains.arc._transforms import BG, Scene, label, outside

# difficulty -> (demonstrations, grid side range, closed outlines, open outlines, colours, largest outline side)
LEVELS = {0: (3, (7, 8), (1, 2), (0, 1), 2, 4), 1: (3, (9, 10), (2, 2), (1, 1), 2, 4), 2: (3, (11, 12), (2, 3), (1, 1), 3, 5)}
EXTRAS = {0: [("fixed",), ("same",)], 1: [("fixed", "g"), ("same", "g"), ("fixed", "cmap"), ("same", "cmap")],
          2: [("fixed", "g", "cmap"), ("same", "g", "cmap")]}


def _regions(s: Scene) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """(enclosed background mask, each enclosed cell's enclosing colour or None when a region
    touches two colours, the open background), cached per scene."""
    hit = s.cache.get("regions")
    if hit is None:
        g = s.grid
        out = outside(g)
        enclosed = (g == BG) & ~out
        same = np.zeros_like(g)
        regions = label(enclosed.astype(np.int8))
        if regions:
            rid = np.full(g.shape, -1, dtype=np.int32)
            for k, region in enumerate(regions):
                rid[region.rows, region.cols] = k
            pad_g, pad_r = np.pad(g, 1), np.pad(rid, 1, constant_values=-1)
            codes = []
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):  # each enclosed cell's coloured neighbours
                nb = pad_g[1 + dr:1 + dr + g.shape[0], 1 + dc:1 + dc + g.shape[1]]
                sel = enclosed & (nb != BG)
                codes.append(rid[sel] * 16 + nb[sel])
            pairs = np.unique(np.concatenate(codes))
            owner, colour = pairs // 16, pairs % 16
            if np.unique(owner).size == owner.size == len(regions):  # every region touches one colour
                same[enclosed] = colour[rid[enclosed]]
            else:
                same = None
            del pad_r
        hit = s.cache["regions"] = (enclosed, same, out)
    return hit


@functools.cache
def _outline(h: int, w: int, side: int = -1, i: int = 0) -> np.ndarray:
    """A rectangle outline, with an opening at position ``i`` of side ``side`` (0 top, 1 bottom,
    2 left, 3 right) when side >= 0 (read-only, cached)."""
    m = np.ones((h, w), dtype=bool)
    m[1:-1, 1:-1] = False
    if side >= 0:
        m[(0, h - 1)[side] if side < 2 else i, i if side < 2 else (0, w - 1)[side - 2]] = False
    m.setflags(write=False)
    return m


class ArcFloodFill(ArcEnv):
    __doc__ = arc_doc(
        "Infer which background cells are filled with which colour and apply it to the test input.",
        """Demonstration pairs show grids with closed rectangular outlines (and outlines with an
    opening, whose inside is not enclosed) and their outputs; the test input's output is asked
    for. The rule's core fills every background cell that cannot reach the border through
    background (4-neighbours), either with one fixed colour or with the colour of the outline
    around it; the library also holds filling the open background instead. Difficulty 1 adds a
    symmetry of the output or a colour map, difficulty 2 both.""",
        """``difficulty`` (0: one step, 3 demonstrations, 7-8 cells a side, 1-2 closed outlines;
    1: two steps, 9-10 cells, an open outline; 2: three steps, 11-12 cells),""")

    def _cores(self) -> list[Core]:
        cores: list[Core] = [("identity", 0, lambda s: s.grid)]
        cores.append(("enclosed same", 1, lambda s: None if _regions(s)[1] is None else
                      np.where(_regions(s)[0], _regions(s)[1], s.grid).astype(np.int8)))
        for c in range(1, 10):
            cores.append((f"enclosed {c}", 1, lambda s, c=c: np.where(_regions(s)[0], c, s.grid).astype(np.int8)))
            cores.append((f"outside {c}", 1, lambda s, c=c: np.where(_regions(s)[2], c, s.grid).astype(np.int8)))
        return cores

    def _search_cores(self, demos) -> list[Core]:
        return self._cores_showing(demos[0][1])

    @staticmethod
    def _known_regions(scene: Scene) -> Scene:
        """The regions `_regions` finds, filled in from the outlines placed (boxes kept apart, so a
        closed outline's inside is exactly its box less the border): saves the flood fill."""
        g = scene.grid
        enclosed = np.zeros(g.shape, dtype=bool)
        same = np.zeros_like(g)
        for o in scene.objects:
            r0, c0, r1, c1 = o.bbox
            if o.size == 2 * (r1 - r0 + c1 - c0) - 4:  # a closed outline
                enclosed[r0 + 1:r1 - 1, c0 + 1:c1 - 1] = True
                same[r0 + 1:r1 - 1, c0 + 1:c1 - 1] = o.colour
        scene.cache["regions"] = (enclosed, same, (g == BG) & ~enclosed)
        return scene

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list]:
        k, (lo, hi), (c_lo, c_hi), (o_lo, o_hi), n_col, big = LEVELS[self.difficulty]
        extras = pick(rng, EXTRAS[self.difficulty])
        palette = colours(rng, n_col + 1)
        fill = palette.pop()
        rule = self._rule(rng, f"enclosed {fill}" if "fixed" in extras else "enclosed same", extras, palette)
        scenes: list[Scene] = []
        while len(scenes) < k + 1:
            n = int(rng.integers(lo, hi + 1))
            closed, opened = draw_int(rng, c_lo, c_hi + 1), draw_int(rng, o_lo, o_hi + 1)
            shapes = []
            for i in range(closed + opened):
                h, w = int(rng.integers(3, big + 1)), int(rng.integers(3, big + 1))
                side = int(rng.integers(4)) if i >= closed else -1  # an opening away from the corners
                shapes.append(_outline(h, w, side, draw_int(rng, 1, (w if side < 2 else h) - 1)))
            scene = place(rng, n, n, shapes, [pick(rng, palette) for _ in shapes])
            if scene is not None:
                scenes.append(self._known_regions(scene))
        return rule, scenes


SPECS = (
    TaskSpec(name="ArcFloodFill", entry_point=ArcFloodFill, max_episode_steps=1,
             tags=("arc", "abstraction", "induction", "grid")),
)
