"""ARC symmetry: a symmetric pattern with a blanked patch is completed (or only the patch given)."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.arc._base import ArcEnv, arc_doc
from gymv_envs.domains.arc._scenes import colours, pick
from gymv_envs.domains.arc._search import Core, Rule
from gymv_envs.domains.arc._transforms import (
    BG,
    SYMMETRIES,
    Scene,
    complete_symmetry,
    crop,
    d4,
    mask_box,
)

# difficulty -> (demonstrations, side range, patch side range, symmetries the rule may use, colours)
LEVELS = {0: (3, (6, 8), (2, 3), ("left-right", "top-bottom", "both mirrors"), 3),
          1: (3, (8, 9), (2, 3), tuple(SYMMETRIES), 4), 2: (3, (9, 11), (2, 4), tuple(SYMMETRIES), 4)}
EXTRAS = {0: [("full",)], 1: [("patch",), ("full", "cmap")], 2: [("patch", "cmap"), ("patch", "g")]}


@functools.cache
def _orbit_rep(n: int, kind: str) -> np.ndarray:
    """For each cell of an n x n grid, the smallest flat index of its orbit under the symmetry."""
    idx = np.arange(n * n).reshape(n, n)
    rep = np.min(np.stack([d4(idx, k) for k in SYMMETRIES[kind]]), axis=0)
    rep.setflags(write=False)
    return rep


def _complete(s: Scene, kind: str) -> np.ndarray | None:
    key = ("complete", kind)
    if key not in s.cache:
        s.cache[key] = complete_symmetry(s.grid, kind)
    return s.cache[key]


def _patch(s: Scene, kind: str) -> np.ndarray | None:
    if "box" not in s.cache:  # the blanked patch's box, shared by the symmetries
        s.cache["box"] = mask_box(s.grid)
    full, box = _complete(s, kind), s.cache["box"]
    return None if full is None or box is None else crop(full, box)


class ArcSymmetry(ArcEnv):
    __doc__ = arc_doc(
        "Infer the pattern's symmetry and restore the blanked patch of the test input.",
        """Demonstration pairs show square patterns with one symmetry (a mirror, both mirrors, a
    half or quarter turn, the diagonal) in which a rectangular patch was blanked to black, and
    their outputs; the test input's output is asked for. The rule's core fills each blank cell
    from its images under the symmetry, giving the whole pattern or (two steps) only the
    restored patch. Extra steps are a colour map and a symmetry of the output.""",
        """``difficulty`` (0: the whole pattern, mirrors only, 6-8 cells a side; 1: two steps, any
    symmetry, 8-9 cells; 2: three steps, 9-11 cells, patches up to 4 cells a side),""")

    def _cores(self) -> list[Core]:
        cores: list[Core] = [("identity", 0, lambda s: s.grid)]
        cores += [(f"complete {k}", 1, lambda s, k=k: _complete(s, k)) for k in SYMMETRIES]
        cores += [(f"patch {k}", 2, lambda s, k=k: _patch(s, k)) for k in SYMMETRIES]
        return cores

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list]:
        k, (lo, hi), (p_lo, p_hi), kinds, n_col = LEVELS[self.difficulty]
        extras = pick(rng, EXTRAS[self.difficulty])
        palette = np.array(colours(rng, n_col), dtype=np.int8)
        kind = pick(rng, kinds)
        scenes = []
        while len(scenes) < k + 1:
            n = int(rng.integers(lo, hi + 1))
            grid = palette[rng.integers(n_col, size=n * n)][_orbit_rep(n, kind)]
            ph, pw = int(rng.integers(p_lo, p_hi + 1)), int(rng.integers(p_lo, p_hi + 1))
            r, c = int(rng.integers(n - ph + 1)), int(rng.integers(n - pw + 1))
            grid[r:r + ph, c:c + pw] = BG
            scene = Scene(grid)
            if _complete(scene, kind) is not None:
                scenes.append(scene)
        core = f"{'patch' if 'patch' in extras else 'complete'} {kind}"
        return self._rule(rng, core, extras, palette.tolist()), scenes


SPECS = (
    TaskSpec(name="ArcSymmetry", entry_point=ArcSymmetry, max_episode_steps=1,
             tags=("arc", "abstraction", "induction", "symmetry")),
)
