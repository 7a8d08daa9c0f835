"""Hidden cubes: count every cube of a stepped stack, the hidden ones included."""

from __future__ import annotations

import bisect
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.canvas import BACKGROUND, INK
from gymv_envs.domains.cognition import _iso

# difficulty -> (floor side, tallest stack)
LEVELS = {0: (3, 3), 1: (4, 4), 2: (5, 5)}
CUBE = (95, 150, 225)
FLOOR = (205, 205, 212)
DROPS = (0.5, 0.32, 0.18)  # chances that a column is 0, 1 or 2 cubes lower than the ones behind it
# the cumulative chances as `Generator.choice` forms them, so one uniform draw picks the same drop
_DROP_CDF = (np.cumsum(DROPS) / np.cumsum(DROPS)[-1]).tolist()
_INT = re.compile(r"^\s*(?:about\s+)?(\d{1,4})\s*(?:cubes?|blocks?)?\s*\.?\s*$", re.IGNORECASE)


def stepped_heights(rng: np.random.Generator, n: int, top: int) -> np.ndarray:
    """A random height map that never rises towards the viewer: h[x, y] <= h[x-1, y] and <= h[x, y-1]."""
    h = [[0] * n for _ in range(n)]
    for x in range(n):
        for y in range(n):
            cap = min(h[x - 1][y] if x else top, h[x][y - 1] if y else top)
            drop = bisect.bisect_right(_DROP_CDF, rng.random())  # = rng.choice(3, p=DROPS): the same draw
            h[x][y] = max(0, cap - drop) if (x or y) else int(rng.integers(top - 1, top + 1))
    return np.array(h, dtype=np.int64)


def visible_cubes(h: np.ndarray) -> int:
    """Cubes with a face the viewer sees (top, right or left face exposed); on a stepped stack no
    exposed face is covered by another column."""
    n = h.shape[0]
    count = 0
    for x in range(n):
        for y in range(n):
            right = h[x + 1, y] if x + 1 < n else 0
            left = h[x, y + 1] if y + 1 < n else 0
            count += sum(1 for z in range(h[x, y]) if z == h[x, y] - 1 or z >= right or z >= left)
    return count


class HiddenCubeCount(SingleTurnEnv):
    """Count the cubes of a stepped stack drawn in isometric view, hidden cubes included.

    ## Description
    Equal cubes are stacked in columns on a square floor (grey) and drawn in isometric view. The
    stack follows two rules, stated in the instruction, that make the count determined by the
    picture: every cube stands on the floor or on another cube (no floating cubes, no gaps), and
    no column is taller than the columns behind it (further from the viewer), so every column's
    top is in view and the visible faces fix every height. The answer is the sum of the heights;
    the tests recover the heights from the rendered picture's visible top faces independently.

    ## Action Space
    ``answer_format="open"``: `Text`, a whole number (``14``, ``14 cubes``). ``"mcq"``:
    `Discrete(k)` over counts (one or two off, the visible cubes only, the columns' tops only).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the stack in isometric view, cube edges outlined.

    ## Rewards
    1.0 for the exact number of cubes, else 0.0.

    ## Starting State
    The height map is drawn from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: a 3 x 3 floor, stacks up to 3; 1: 4 x 4, up to 4; 2: 5 x 5, up to 5),
    ``answer_format``, ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the number of cubes as a whole number (for example `14`)"

    def _generate(self, rng: np.random.Generator) -> None:
        n, top = LEVELS[self.difficulty]
        self.heights = stepped_heights(rng, n, top)
        self.total = int(self.heights.sum())

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        n = self.heights.shape[0]
        top = LEVELS[self.difficulty][1]
        s, ox, oy = _iso.fit(n, n, top, (0, 0, W, H))
        img = _iso.blank(H, W, BACKGROUND, (n, n, s, ox, oy, FLOOR)).copy()
        faces = _iso.face_sprites(H, W, n, n, s, ox, oy, top, CUBE, INK)  # the polygons drawn once per size
        _iso.stamp_faces(img, [face for face, _ in _iso.column_faces(self.heights, s, ox, oy, CUBE, table=faces)])
        return img

    def _task_text(self) -> str:
        return ("The image shows equal cubes stacked in columns on a grey square floor, seen from above at an "
                "angle. No cube floats: every cube stands on the floor or on another cube, and no column is "
                "taller than the columns behind it (further from you), so the top of every column is in view. "
                "How many cubes are there in total, counting the hidden ones?")

    def _state_text(self) -> str:
        return "column heights, back row first: " + "/".join(" ".join(map(str, r)) for r in self.heights.tolist())

    def _parse_answer(self, text: str) -> int | None:
        m = _INT.match(text) if len(text) < 60 else None
        return int(m.group(1)) if m else None

    def _check(self, answer) -> bool:
        return int(answer) == self.total

    def _format(self, answer) -> str:
        return str(int(answer))

    def _solve(self) -> int:
        return self.total

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        t = self.total
        tops = int((self.heights > 0).sum())
        return [v for v in (t - 1, t + 1, visible_cubes(self.heights), t - 2, t + 2, tops, t + 3, t - 3) if v > 0]


SPECS = (
    TaskSpec(name="HiddenCubeCount", entry_point=HiddenCubeCount, max_episode_steps=1,
             tags=("spatial-reasoning", "3d", "counting")),
)
