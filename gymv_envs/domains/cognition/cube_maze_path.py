"""Cube maze path: how many steps from the ball to the flag on a terrain of blocks and ladders?"""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.cognition._terrain import _INT, CubeMazeEnv


class CubeMazePathLength(CubeMazeEnv):
    """Give the length of the walker's shortest route to the flag on an isometric block terrain.

    ## Description
    Blocks of heights 1-4 stand on an n x n grid, drawn in isometric view with the top colour
    telling the height; the terrain never rises towards the viewer, so every top is in view.
    The walker (a red ball) steps between side-sharing blocks of equal height and climbs one
    level only by a ladder drawn on the taller block's side; each step or ladder counts one
    move. The answer is the breadth-first-search distance to the flag (any shortest route has it).

    ## Action Space
    ``answer_format="open"``: `Text`, a whole number (``7``, ``7 steps``). ``"mcq"``:
    `Discrete(k)` over lengths (one or two off, the grid distance ignoring heights).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the terrain with ladders, the ball and the flag.

    ## Rewards
    1.0 for the exact shortest number of moves, else 0.0.

    ## Starting State
    Heights, ladders, the ball and the flag (reachable, at least two moves away, among the
    farther half) come from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4 x 4; 1: 5 x 5; 2: 6 x 6, fewer ladders), ``answer_format``,
    ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the number of moves of the shortest route as a whole number (for example `7`)"

    def _generate(self, rng: np.random.Generator) -> None:
        for _ in range(300):
            self._terrain(rng)
            far = max(self.dist.values())
            cells = [c for c, v in self.dist.items() if v >= max(2, (far + 1) // 2)]
            if cells:
                break
        else:
            raise RuntimeError("CubeMazePathLength: no terrain with a far enough top")
        self.flag = cells[int(rng.integers(len(cells)))]
        self.length = self.dist[self.flag]

    def _markers(self):
        return sorted([(self.flag, "F"), (self.start, None)], key=lambda t: t[0][0] + t[0][1])

    def _task_text(self) -> str:
        return (f"{self._rules_text()} How many moves does the shortest route from the ball to the flag take? "
                "Each step to a neighbouring block and each ladder counts as one move.")

    def _parse_answer(self, text: str) -> int | None:
        m = _INT.match(text) if len(text) < 60 else None
        return int(m.group(1)) if m else None

    def _check(self, answer) -> bool:
        return int(answer) == self.length

    def _format(self, answer) -> str:
        return str(int(answer))

    def _solve(self) -> int:
        return self.length

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        d = self.length
        grid = abs(self.flag[0] - self.start[0]) + abs(self.flag[1] - self.start[1])
        return [v for v in (d + 1, d - 1, grid, d + 2, d - 2, d + 3, d + 4) if v > 0]


SPECS = (
    TaskSpec(name="CubeMazePathLength", entry_point=CubeMazePathLength, max_episode_steps=1,
             tags=("spatial-reasoning", "3d", "maze", "path")),
)
