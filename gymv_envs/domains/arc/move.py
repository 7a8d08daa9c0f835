"""ARC move: objects slide in a direction (or towards the gray wall) until they touch something."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.arc._base import ArcEnv, arc_doc
from gymv_envs.domains.arc._scenes import blob, colours, pick, place
from gymv_envs.domains.arc._search import Core, Rule
from gymv_envs.domains.arc._transforms import (
    DIRECTIONS,
    Obj,
    Scene,
    move_until_contact,
    object_cells,
)

WALL = 5  # gray: the wall never moves
# difficulty -> (demonstrations, grid side range, movers, colours)
LEVELS = {0: (3, (7, 8), (2, 3), 2), 1: (3, (8, 10), (2, 4), 2), 2: (3, (10, 12), (3, 5), 3)}
EXTRAS = {0: [("all",), ("toward",), ("colour",)], 1: [("all", "g"), ("toward", "g"), ("all", "cmap"), ("colour", "g")],
          2: [("all", "g", "cmap"), ("toward", "g", "cmap"), ("colour", "g", "cmap")]}


def _toward(s: Scene) -> np.ndarray | None:
    """Each object moves towards the wall (a full row or column of gray) until contact."""
    g = s.grid
    rows, cols = np.nonzero((g == WALL).all(axis=1))[0], np.nonzero((g == WALL).all(axis=0))[0]
    if rows.size + cols.size != 1:
        return None
    objs = s.objects
    movers = [i for i, o in enumerate(objs) if o.colour != WALL]
    # the objects before the wall (last row or column of the box before it) move down or right
    at, end = (int(rows[0]), 2) if rows.size else (int(cols[0]), 3)
    out = g
    for side in ("down", "up") if rows.size else ("right", "left"):
        before = side in ("down", "right")
        group = [i for i in movers if (objs[i].bbox[end] - 1 < at) == before]
        if group:
            out = move_until_contact(Scene(out, s.objects, {"cells": object_cells(s)}), side, group)
    return out


class ArcMove(ArcEnv):
    __doc__ = arc_doc(
        "Infer how the objects move until they touch something and apply it to the test input.",
        """Demonstration pairs show grids with a gray wall across the grid (a full row or column,
    which never moves) and coloured objects, and their outputs; the test input's output is asked
    for. The rule's core slides objects one cell at a time until the next step would leave the
    grid or touch a filled cell, the object nearest its destination first: every object in one
    direction, only the objects of one colour in one direction, or every object towards the
    wall. Difficulty 1 adds a symmetry of the output or a colour map, difficulty 2 both.""",
        """``difficulty`` (0: one step, 3 demonstrations, 7-8 cells a side, 2-3 objects; 1: two
    steps, 8-10 cells; 2: three steps, 10-12 cells, 3-5 objects),""")

    def _cores(self) -> list[Core]:
        def movers(s: Scene, colour: int | None) -> list[int]:
            return [i for i, o in enumerate(s.objects) if o.colour != WALL and colour in (None, o.colour)]

        cores: list[Core] = [("identity", 0, lambda s: s.grid), ("toward the wall", 1, _toward)]
        for side in DIRECTIONS:
            cores.append((f"all {side}", 1, lambda s, d=side: move_until_contact(s, d, movers(s, None))))
            for c in range(1, 10):
                if c != WALL:
                    cores.append((f"{side} {c}", 1, lambda s, d=side, c=c: move_until_contact(s, d, movers(s, c))))
        return cores

    def _search_cores(self, demos) -> list[Core]:
        return self._cores_showing(demos[0][0].grid)

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list]:
        k, (lo, hi), (m_lo, m_hi), n_col = LEVELS[self.difficulty]
        extras = pick(rng, EXTRAS[self.difficulty])
        palette = colours(rng, n_col, avoid=(WALL,))
        side = pick(rng, tuple(DIRECTIONS))
        core = ("toward the wall" if "toward" in extras else f"all {side}" if "all" in extras
                else f"{side} {palette[0]}")
        scenes: list[Scene] = []
        while len(scenes) < k + 1:
            n = int(rng.integers(lo, hi + 1))
            base = np.zeros((n, n), dtype=np.int8)
            at = int(rng.integers(2, n - 2))
            vertical = side in ("left", "right") if "toward" not in extras else bool(rng.integers(2))
            line = np.arange(n)
            if vertical:
                wall = Obj(WALL, line, np.full(n, at), (0, at, n, at + 1))
                base[:, at] = WALL
            else:
                wall = Obj(WALL, np.full(n, at), line, (at, 0, at + 1, n))
                base[at] = WALL
            m = int(rng.integers(m_lo, m_hi + 1))
            shapes = [blob(rng, int(rng.integers(1, 4)), 2) for _ in range(m)]
            scene = place(rng, n, n, shapes, [palette[0]] + [pick(rng, palette) for _ in range(m - 1)],
                          base=base, base_objects=[wall])
            if scene is not None:
                scenes.append(scene)
        return self._rule(rng, core, extras, palette), scenes


SPECS = (
    TaskSpec(name="ArcMove", entry_point=ArcMove, max_episode_steps=1,
             tags=("arc", "abstraction", "induction", "objects")),
)
