"""Mental rotation: which candidate is the reference block figure turned, not its mirror image?"""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import PIXEL
from gymv_envs.domains.cognition import _iso
from gymv_envs.domains.cognition._choice import PanelChoiceEnv
from gymv_envs.domains.cognition._polycubes import (
    Cells,
    canonical,
    chain,
    chiral_keys,
    drawable_pair,
    drawable_turns,
    normal,
)

# difficulty -> (cubes, arms: straight runs of 2-3 cubes turning by 90 degrees, whether wrong shapes join the mirrors)
LEVELS = {0: (5, 3, False), 1: (7, 4, False), 2: (8, 5, True)}
CUBE = (235, 150, 70)


def _spans(cells: Cells) -> tuple[float, float]:
    """The figure's width and height on screen in cube edges, with a margin of one edge (`layout`)."""
    xs = [x - y for x, y, _ in cells]
    ys = [(x + y) / 2 - z for x, y, z in cells]
    return (max(xs) - min(xs) + 2) * _iso.C30, max(ys) - min(ys) + 2


def _fit(spans: tuple[float, float], width: int, height: int) -> int:
    """The largest cube edge (at least 3) at which a figure of ``spans`` fits a box of ``width`` x ``height`` px."""
    return max(3, int(min(width / spans[0], height / spans[1]) * 0.9))


def layout(cells: Cells, box: tuple[int, int, int, int], edge: int | None = None) -> tuple[int, float, float]:
    """Cube edge (``edge``, or the largest that fits) and origin that centre the figure in ``box``."""
    xs = [x - y for x, y, _ in cells]
    ys = [(x + y) / 2 - z for x, y, z in cells]
    x0, y0, x1, y1 = box
    xlo, xhi, ylo, yhi = min(xs), max(xs), min(ys), max(ys)
    s = edge or _fit(((xhi - xlo + 2) * _iso.C30, yhi - ylo + 2), x1 - x0, y1 - y0)
    ox = (x0 + x1) / 2 - (xhi + xlo) / 2 * s * _iso.C30
    oy = (y0 + y1) / 2 - ((yhi + ylo) / 2 + 0.5) * s
    return s, ox, oy


@functools.lru_cache(maxsize=1024)
def _figure_patch(cells: Cells, box: tuple[int, int, int, int], edge: int | None) -> tuple[int, int, np.ndarray, np.ndarray]:
    """A figure drawn in ``box`` (`layout`) as one patch: its top-left pixel, its pixels (3-byte items) and
    where it covers (read-only). The cube sprites are stamped far to near on an empty patch, as
    `_iso.place_all` stamps them on the frame (opaque: a later one covers an earlier one), so pasting
    the covered pixels gives the frame the same pixels."""
    s, ox, oy = layout(cells, box, edge)
    rgb, mask = _iso.column(1, s, CUBE)
    gx, gy = _iso.origin(1, s)
    corners = []
    for i in _iso.painter(cells):
        px, py = _iso.project(*cells[i], s)
        corners.append((int(round(ox + px)) + gx, int(round(oy + py)) + gy))
    h, w = mask.shape
    x0, y0 = min(x for x, _ in corners), min(y for _, y in corners)
    width, height = max(x for x, _ in corners) + w - x0, max(y for _, y in corners) + h - y0
    pixels = np.zeros((height, width), dtype=PIXEL)
    cover = np.zeros((height, width), dtype=bool)
    src = np.ascontiguousarray(rgb).view(PIXEL).reshape(h, w)
    for x, y in corners:
        np.copyto(pixels[y - y0:y - y0 + h, x - x0:x - x0 + w], src, where=mask)
        cover[y - y0:y - y0 + h, x - x0:x - x0 + w] |= mask
    pixels.setflags(write=False)
    cover.setflags(write=False)
    return x0, y0, pixels, cover


class MentalRotation3D(PanelChoiceEnv):
    """Pick the candidate that is the reference block figure turned in space (the others are mirrors).

    ## Description
    The top shows a reference figure of cubes joined face to face (runs of cubes along the three
    axes, each run turning 90 degrees from the last), drawn in isometric view. Of the
    ``num_options`` lettered candidates (default 4), exactly one is the same object turned in
    space; the others are turned copies of its mirror image (difficulty 2: or a figure with one
    run changed, once). The reference is chiral (checked over the cube's 24 rotations), so no mirror
    image can be turned into it, and every drawing is checked to show each cube (at least 18% of
    its outline in view).

    ## Action Space
    ``answer_format="open"``: `Text`, a panel letter (``C``, ``panel C``). ``"mcq"``:
    `Discrete(num_options)`, option i is panel i.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the reference on top, the candidates below.

    ## Rewards
    1.0 for the turned copy, else 0.0.

    ## Starting State
    The figure, the turns and the right panel's place (uniform) come from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 cubes in 3 runs; 1: 7 cubes in 4 runs; 2: 8 cubes in 5 runs, other
    shapes among the wrong ones), ``num_options``, ``answer_format``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    stem_fraction = 0.42
    stem_cards = 1
    stem_question = False

    @staticmethod
    def _views(rng: np.random.Generator, turns: tuple[np.ndarray, np.ndarray], count: int) -> list[Cells]:
        """``count`` different turns of a figure whose drawings show every cube (fewer if there are not),
        from its `drawable_turns`."""
        turned, good = turns
        out: list[Cells] = []
        for i in rng.permutation(good.size).tolist():
            view = normal(turned[int(good[i])])
            if view not in out:
                out.append(view)
            if len(out) == count:
                break
        return out

    def _make(self, rng: np.random.Generator, k: int) -> None:
        n, arms, others = LEVELS[self.difficulty]
        n_alt = 1 if others else 0
        for self.tries in range(300):
            shape = chain(rng, n, arms)
            if shape is None:
                continue  # the runs cross
            keys = chiral_keys(shape)  # canonical(shape), canonical(mirrored(shape))
            if keys[0] == keys[1]:
                continue  # a figure that equals its own mirror image
            turns, mirror_turns = drawable_pair(shape)
            extents = sorted(map(max, zip(*shape)))  # (the figures are `normal`: least coordinates 0)
            views = self._views(rng, turns, 2)
            wrong = self._views(rng, mirror_turns, k - 1 - n_alt)
            for _ in range(n_alt * 4):
                if len(wrong) >= k - 1:  # the figure is not needed: only its draws are made
                    rng.integers(0, 1 << 30, size=n + 2 * arms)
                    continue
                alt = chain(rng, n, arms)
                # a turned copy of the figure or of its mirror image has their sorted extents: test those first
                if alt is not None and (sorted(map(max, zip(*alt))) != extents or canonical(alt) not in keys):
                    wrong += self._views(rng, drawable_turns(alt), 1)
            if len(views) == 2 and len(wrong) == k - 1 and len({views[1], *wrong}) == k:
                break
        else:
            raise RuntimeError("MentalRotation3D: no drawable figure in 300 draws")
        self._edges: dict[tuple[int, int], int] = {}
        self._spans: list[tuple[float, float]] | None = None  # each candidate's `_spans`, once drawn
        self.reference, self.correct = views[0], int(rng.integers(k))
        self.candidates = [wrong[int(i)] for i in rng.permutation(k - 1)]
        self.candidates.insert(self.correct, views[1])

    def _figure(self, img: np.ndarray, cells: Cells, box, edge: int | None = None) -> None:
        H, W = img.shape[:2]
        # a cached patch where the figures recur (difficulty 0 has 42) and the sprites are small; else each cube
        if self.difficulty > 0 or H * W > 160 * 160:
            s, ox, oy = layout(cells, box, edge)
            points = []
            for i in _iso.painter(cells):
                px, py = _iso.project(*cells[i], s)
                points.append((ox + px, oy + py))
            _iso.place_all(img, _iso.column(1, s, CUBE), 1, s, points)
            return
        x, y, pixels, cover = _figure_patch(cells, tuple(box), edge)
        h, w = cover.shape
        a, b, c, d = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
        if a < c and b < d:
            np.copyto(img.view(PIXEL).reshape(H, W)[b:d, a:c], pixels[b - y:d - y, a - x:c - x],
                      where=cover[b - y:d - y, a - x:c - x])

    def _draw_stem(self, img: np.ndarray, boxes) -> None:
        a, b, c, d = boxes[0]
        self._figure(img, self.reference, (a + 4, b + 4, c - 4, d - 4))

    def _draw_candidate(self, img: np.ndarray, i: int, box) -> None:
        # one cube size for every candidate (the largest that fits them all): fair to compare, one sprite
        size = (box[2] - box[0], box[3] - box[1])  # the edge depends on the box's size only
        if size not in self._edges:
            if self._spans is None:
                self._spans = [_spans(c) for c in self.candidates]
            self._edges[size] = min(_fit(sp, *size) for sp in self._spans)
        edge = self._edges[size]
        self._figure(img, self.candidates[i], box, edge)

    def _task_text(self) -> str:
        return ("The top of the image shows a reference figure made of cubes joined face to face. Exactly one of "
                f"the {self.num_options} lettered candidates below is the same object turned in space; the others "
                "are turned copies of its mirror image or of a different figure. Which candidate is the reference "
                "turned?")

    def _state_text(self) -> str:
        cands = "; ".join(f"{chr(65 + i)}: {list(c)}" for i, c in enumerate(self.candidates))
        return f"reference cubes (x, y, z) {list(self.reference)}; candidates {cands}"


SPECS = (
    TaskSpec(name="MentalRotation3D", entry_point=MentalRotation3D, max_episode_steps=1,
             tags=("spatial-reasoning", "3d", "mental-rotation")),
)
