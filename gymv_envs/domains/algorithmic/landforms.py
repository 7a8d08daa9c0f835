"""Landforms: count the islands or the peaks of a drawn height map."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.algorithmic._board import blank, cell_blocks
from gymv_envs.domains.algorithmic._common import (
    NEIGHBOURS_4,
    NEIGHBOURS_8,
    AlgoEnv,
    Number,
    board_text,
    components,
)

QUESTIONS = ("islands", "peaks")
LEVELS = {0: 6, 1: 8, 2: 10}
WATER = (120, 170, 230)
LAND = [(196, 226, 160), (176, 214, 140), (160, 200, 120), (200, 200, 130), (214, 190, 120), (204, 168, 110),
        (190, 150, 100), (176, 136, 96), (160, 124, 92)]
STYLES = ((WATER, ""),) + tuple((color, str(v)) for v, color in enumerate(LAND, 1))  # per height: colour, text


def height_map(rng: np.random.Generator, n: int, sea: tuple[float, float] = (0.25, 0.45), passes: int = 2) -> np.ndarray:
    """Noise smoothed ``passes`` times by a 3x3 box (each pass trims the border), scaled to heights 0-9
    with a fraction ``sea`` of the cells sea (0)."""
    g = rng.random((n + 2 * passes, n + 2 * passes))
    for _ in range(passes):
        g = g[:-2] + g[1:-1] + g[2:]
        g = g[:, :-2] + g[:, 1:-1] + g[:, 2:]
    flat = np.sort(g.reshape(-1))
    lo, hi = flat[int(rng.uniform(*sea) * (flat.size - 1))], flat[-1]
    return np.clip(np.ceil((g - lo) / max(hi - lo, 1e-9) * 9), 0, 9).astype(np.int64)


def islands(h: np.ndarray, moves=NEIGHBOURS_4) -> int:
    """The number of islands: groups of land cells (above 0) joined by ``moves``."""
    return components(h > 0, moves, keep=h > 0)[1]


def peaks(h: np.ndarray) -> int:
    """Plateaus (4-connected cells of one height above 0) whose every side neighbour is strictly lower."""
    rows, cols = h.shape
    w = cols + 2  # the heights row by row inside a border of -1, as one list: no bounds checks
    v = [-1] * w + [x for row in h.tolist() for x in [-1, *row, -1]] + [-1] * w
    seen, count = [False] * len(v), 0
    for i0 in range(w, len(v) - w):
        x = v[i0]
        if x <= 0 or seen[i0] or v[i0 - w] > x or v[i0 + 1] > x or v[i0 + w] > x or v[i0 - 1] > x:
            continue  # a cell with a higher side neighbour spoils its plateau: no flood needs to start there
        seen[i0], stack, top = True, [i0], True
        while stack:  # flood the plateau; a strictly higher side neighbour spoils it
            i = stack.pop()
            for j in (i - w, i + 1, i + w, i - 1):
                y = v[j]
                if y > x:
                    top = False
                elif y == x and not seen[j]:
                    seen[j] = True
                    stack.append(j)
        count += top
    return count


def cell_tops(h: np.ndarray, strict: bool) -> int:
    """Land cells higher than (``strict``) or at least as high as each side neighbour."""
    p = np.pad(h, 1, constant_values=-1)
    ok = h > 0
    rows, cols = h.shape
    for dr, dc in NEIGHBOURS_4:
        other = p[1 + dr:1 + dr + rows, 1 + dc:1 + dc + cols]
        ok &= (h > other) if strict else (h >= other)
    return int(ok.sum())


class Landforms(AlgoEnv):
    """Count the islands or the peaks of a drawn height map.

    ## Description
    A ``side x side`` height map is drawn: blue cells are sea (height 0), land cells show their
    height 1-9 and are tinted from green (low) to brown (high). ``question`` picks what is
    counted: ``"islands"``, groups of land cells joined side by side (up, down, left, right);
    ``"peaks"``, plateaus, groups of land cells of one height joined side by side (a single cell
    included), all of whose side neighbours outside the group are strictly lower.

    ## Action Space
    ``answer_format="open"``: `Text`, one whole number. ``"mcq"``: `Discrete(k)`; wrong options
    join cells diagonally too (islands), count single cells higher than (or at least as high as)
    their neighbours instead of plateaus (peaks), or are one off.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the height map with its numbers.

    ## Rewards
    1.0 for the exact count, else 0.0.

    ## Starting State
    Random noise smoothed by a 3x3 box and scaled to heights 0-9: once with 45-60% of the map sea
    (islands), twice with 25-45% sea (peaks); levels with fewer than two islands (or peaks) are
    redrawn.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"islands"``, ``"peaks"``); ``difficulty`` (0: 6x6, 1: 8x8, 2: 10x10),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    questions = QUESTIONS

    def _configure(self) -> None:
        self.side = LEVELS[self.difficulty]
        self.kind = Number(f"the number of {self.question}, one whole number")

    def _generate(self, rng: np.random.Generator) -> None:
        while True:
            self.heights = (height_map(rng, self.side, (0.45, 0.6), 1) if self.question == "islands"
                            else height_map(rng, self.side))
            self.count = islands(self.heights) if self.question == "islands" else peaks(self.heights)
            if self.count >= 2:
                return

    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.side, self.side, labels=False)
        cell_blocks(img, g, self.heights, STYLES)
        return img

    def _task_text(self) -> str:
        what = ("How many islands are there? An island is a group of land cells joined side by side (up, down, left "
                "or right; touching corners do not join)." if self.question == "islands" else
                "How many peaks are there? A peak is a plateau: a group of land cells of the same height joined side "
                "by side (up, down, left or right; a single cell counts), all of whose side neighbours outside the "
                "group are strictly lower.")
        return (f"The image shows a {self.side}x{self.side} height map: blue cells are sea (height 0) and land cells "
                f"show their height from 1 to 9. {what}")

    def _level_text(self) -> str:
        return board_text(self.heights.tolist())

    def _similar(self, rng: np.random.Generator) -> list[int]:
        h = self.heights
        if self.question == "islands":
            return [islands(h, NEIGHBOURS_8), peaks(h)]
        return [cell_tops(h, strict=True), cell_tops(h, strict=False), islands(h)]

    def _solve(self) -> int:
        return self.count


SPECS = tuple(
    TaskSpec(name=name, entry_point=Landforms, max_episode_steps=1, kwargs={"question": q},
             tags=("counting", "connected-components", "height-map"))
    for name, q in (("IslandCount", "islands"), ("PeakCount", "peaks"))
)
