"""Rectangle count: how many rectangles can be traced along the lines of overlapping outlines?"""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.canvas import BACKGROUND, INK, WHITE, fill_rect, new_frame

# difficulty -> (lattice side in units, outlines drawn)
LEVELS = {0: (4, (2, 3)), 1: (6, (3, 4)), 2: (8, (4, 6))}
_INT = re.compile(r"^\s*(\d{1,4})\s*(?:rectangles?)?\s*\.?\s*$", re.IGNORECASE)
Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 lattice corners, x0 < x1, y0 < y1


def segments(rects: list[Rect], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit segments drawn: horiz[y, x] for (x, y)-(x+1, y), vert[x, y] for (x, y)-(x, y+1)."""
    horiz = np.zeros((n + 1, n), dtype=bool)
    vert = np.zeros((n + 1, n), dtype=bool)
    for x0, y0, x1, y1 in rects:
        horiz[y0, x0:x1] = horiz[y1, x0:x1] = True
        vert[x0, y0:y1] = vert[x1, y0:y1] = True
    return horiz, vert


def count_rectangles(horiz: np.ndarray, vert: np.ndarray) -> int:
    """Every axis-aligned rectangle whose four sides lie on drawn segments (corners on the lattice)."""
    return _count([sum(1 << x for x, on in enumerate(r) if on) for r in horiz.tolist()],
                  [sum(1 << y for y, on in enumerate(r) if on) for r in vert.tolist()])


def _masks(rects: list[Rect], n: int) -> tuple[list[int], list[int]]:
    """`segments` as bit masks: rows[y] has bit x for (x, y)-(x+1, y), cols[x] bit y for (x, y)-(x, y+1)."""
    rows, cols = [0] * (n + 1), [0] * (n + 1)
    for x0, y0, x1, y1 in rects:
        run, side = (1 << x1) - (1 << x0), (1 << y1) - (1 << y0)
        rows[y0] |= run
        rows[y1] |= run
        cols[x0] |= side
        cols[x1] |= side
    return rows, cols


def _count(rows: list[int], cols: list[int]) -> int:
    """`count_rectangles` of `_masks`: per pair of drawn rows, the columns drawn all the way between
    them, and per pair of those, whether both rows are drawn all the way between them."""
    ys = [y for y, b in enumerate(rows) if b]
    xs_drawn = [x for x, b in enumerate(cols) if b]
    total = 0
    for i, y0 in enumerate(ys):
        for y1 in ys[i + 1:]:
            side = (1 << y1) - (1 << y0)
            xs = [x for x in xs_drawn if cols[x] & side == side]
            both = rows[y0] & rows[y1]
            for j, x0 in enumerate(xs):
                for x1 in xs[j + 1:]:
                    run = (1 << x1) - (1 << x0)
                    total += both & run == run
    return total


class RectangleCount(SingleTurnEnv):
    """Count every rectangle that can be traced along the lines of a drawing of overlapping outlines.

    ## Description
    A few rectangle outlines with corners on a hidden square lattice are drawn in one ink, so they
    overlap and cross and their sides merge where they run together. How many rectangles (of any
    size) can be found, that is rectangles all four of whose sides run along drawn lines? The
    oracle checks every pair of lattice columns and rows against the drawn unit segments (prefix
    sums), so the count is exact; it is at least the number of outlines drawn.

    ## Action Space
    ``answer_format="open"``: `Text`, a whole number (``9``, ``9 rectangles``). ``"mcq"``:
    `Discrete(k)` over counts (the outlines drawn, one or two off).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the outlines on a white square.

    ## Rewards
    1.0 for the exact count, else 0.0.

    ## Starting State
    The outlines are drawn from the seed (at difficulty 1 and 2 they make more rectangles than
    there are outlines).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: a 4-unit lattice, 2-3 outlines; 1: 6 units, 3-4; 2: 8 units, 4-6),
    ``answer_format``, ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the number of rectangles as a whole number (for example `9`)"

    def _generate(self, rng: np.random.Generator) -> None:
        n, (lo, hi) = LEVELS[self.difficulty]
        for _ in range(100):
            rects = []
            for _ in range(int(rng.integers(lo, hi + 1))):
                x0, x1 = sorted(rng.choice(n + 1, size=2, replace=False).tolist())
                y0, y1 = sorted(rng.choice(n + 1, size=2, replace=False).tolist())
                rects.append((x0, y0, x1, y1))
            if len(set(rects)) < len(rects):
                continue
            self.rects = rects
            self.count = _count(*_masks(rects, n))
            if self.difficulty == 0 or self.count > len(rects):
                break
        self.n = n

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        img = new_frame(H, W, BACKGROUND)
        side = min(H, W) * 0.9
        x, y = (W - side) / 2, (H - side) / 2
        fill_rect(img, x, y, x + side, y + side, WHITE)
        u = side * 0.92 / self.n
        ox, oy = x + side * 0.04, y + side * 0.04
        t = max(1, int(u / 14))
        for x0, y0, x1, y1 in self.rects:
            ax, ay, bx, by = ox + x0 * u, oy + y0 * u, ox + x1 * u, oy + y1 * u
            fill_rect(img, ax - t, ay - t, bx + t + 1, ay + t + 1, INK)
            fill_rect(img, ax - t, by - t, bx + t + 1, by + t + 1, INK)
            fill_rect(img, ax - t, ay - t, ax + t + 1, by + t + 1, INK)
            fill_rect(img, bx - t, ay - t, bx + t + 1, by + t + 1, INK)
        return img

    def _task_text(self) -> str:
        return ("The image shows rectangle outlines drawn in one colour; they overlap and cross, and where two "
                "sides run together they merge into one line. Count every rectangle of any size that can be "
                "traced in the drawing, that is every rectangle whose four sides all run along drawn lines. "
                "How many rectangles are there?")

    def _state_text(self) -> str:
        return f"outlines (x0, y0, x1, y1) on a {self.n}-unit lattice: {self.rects}"

    def _parse_answer(self, text: str) -> int | None:
        m = _INT.match(text) if len(text) < 60 else None
        return int(m.group(1)) if m else None

    def _check(self, answer) -> bool:
        return int(answer) == self.count

    def _format(self, answer) -> str:
        return str(int(answer))

    def _solve(self) -> int:
        return self.count

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        c = self.count
        return [v for v in (len(self.rects), c - 1, c + 1, c - 2, c + 2, c + 3, c - 3, 2 * c) if v > 0]


SPECS = (
    TaskSpec(name="RectangleCount", entry_point=RectangleCount, max_episode_steps=1,
             tags=("perception", "counting", "geometry")),
)
