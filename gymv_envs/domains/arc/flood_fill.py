"""ARC flood fill: the background enclosed by closed outlines (or the open background) is filled."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.arc._base import ArcEnv, arc_doc
from gymv_envs.domains.arc._scenes import colours, pick, place
from gymv_envs.domains.arc._search import Core, Rule
from gymv_envs.domains.arc._transforms import BG, Scene, label, outside

# difficulty -> (demonstrations, grid side range, closed outlines, open outlines, colours, largest outline side)
LEVELS = {0: (3, (7, 8), (1, 2), (0, 1), 2, 4), 1: (3, (9, 10), (2, 2), (1, 1), 2, 4), 2: (4, (11, 12), (2, 3), (1, 1), 3, 5)}
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
        pad = np.pad(g, 1)
        for region in label(enclosed.astype(np.int8)):
            r, c = region.rows + 1, region.cols + 1
            around = np.concatenate([pad[r - 1, c], pad[r + 1, c], pad[r, c - 1], pad[r, c + 1]])
            around = np.unique(around[around != BG])
            if around.size != 1:
                same = None
                break
            same[region.rows, region.cols] = around[0]
        hit = s.cache["regions"] = (enclosed, same, out)
    return hit


def _outline(h: int, w: int, gap: bool, rng: np.random.Generator) -> np.ndarray:
    m = np.ones((h, w), dtype=bool)
    m[1:-1, 1:-1] = False
    if gap:  # an opening in one side, away from the corners
        side = int(rng.integers(4))
        i = int(rng.integers(1, (w if side < 2 else h) - 1))
        m[(0, h - 1)[side] if side < 2 else i, i if side < 2 else (0, w - 1)[side - 2]] = False
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
    1: two steps, 9-10 cells, an open outline; 2: three steps, 4 demonstrations, 11-12 cells),""")

    def _cores(self) -> list[Core]:
        cores: list[Core] = [("identity", 0, lambda s: s.grid)]
        cores.append(("enclosed same", 1, lambda s: None if _regions(s)[1] is None else
                      np.where(_regions(s)[0], _regions(s)[1], s.grid).astype(np.int8)))
        for c in range(1, 10):
            cores.append((f"enclosed {c}", 1, lambda s, c=c: np.where(_regions(s)[0], c, s.grid).astype(np.int8)))
            cores.append((f"outside {c}", 1, lambda s, c=c: np.where(_regions(s)[2], c, s.grid).astype(np.int8)))
        return cores

    def _search_cores(self, demos) -> list[Core]:
        shown = set(np.unique(demos[0][1]).tolist())
        return [c for c in self.cores if not c[0][-1].isdigit() or int(c[0][-1]) in shown]

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list]:
        k, (lo, hi), (c_lo, c_hi), (o_lo, o_hi), n_col, big = LEVELS[self.difficulty]
        extras = pick(rng, EXTRAS[self.difficulty])
        palette = colours(rng, n_col + 1)
        fill = palette.pop()
        rule = self._rule(rng, f"enclosed {fill}" if "fixed" in extras else "enclosed same", extras, palette)
        scenes: list[Scene] = []
        while len(scenes) < k + 1:
            n = int(rng.integers(lo, hi + 1))
            closed, opened = int(rng.integers(c_lo, c_hi + 1)), int(rng.integers(o_lo, o_hi + 1))
            shapes = [_outline(int(rng.integers(3, big + 1)), int(rng.integers(3, big + 1)), i >= closed, rng)
                      for i in range(closed + opened)]
            scene = place(rng, n, n, shapes, [pick(rng, palette) for _ in shapes])
            if scene is not None:
                scenes.append(Scene(scene.grid))
        return rule, scenes


SPECS = (
    TaskSpec(name="ArcFloodFill", entry_point=ArcFloodFill, max_episode_steps=1,
             tags=("arc", "abstraction", "induction", "grid")),
)
