"""Cube maze reach: which flag can the ball reach on a terrain of blocks and ladders?"""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.parsing import LETTERS
from gymv_envs.domains.cognition._terrain import _FLAG, CubeMazeEnv

FLAGS = {0: 3, 1: 4, 2: 5}


class CubeMazeReach(CubeMazeEnv):
    """Say which lettered flag the walker can reach on an isometric terrain of blocks and ladders.

    ## Description
    Blocks of heights 1-4 stand on an n x n grid, drawn in isometric view with the top colour
    telling the height; the terrain never rises towards the viewer, so every top is in view.
    The walker (a red ball) steps between side-sharing blocks of equal height and climbs one
    level only by a ladder drawn on the taller block's side. Exactly one of the lettered flags is
    reachable (breadth-first search over that move graph); the others are verified unreachable.

    ## Action Space
    ``answer_format="open"``: `Text`, a flag letter (``B``, ``flag B``). ``"mcq"``:
    `Discrete(k)` over flag letters.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the terrain with ladders, the ball and the flags.

    ## Rewards
    1.0 for the reachable flag, else 0.0.

    ## Starting State
    Heights, ladders, the ball and the flags come from the seed (at least ``num_options`` flags).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4 x 4, 3 flags; 1: 5 x 5, 4 flags; 2: 6 x 6, 5 flags, fewer ladders),
    ``answer_format``, ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the letter of the one reachable flag (for example `B`)"

    def _generate(self, rng: np.random.Generator) -> None:
        k = max(FLAGS[self.difficulty], self.num_options)
        for _ in range(300):
            self._terrain(rng)
            n = self.heights.shape[0]
            if len(self.dist) > 1 and n * n - len(self.dist) >= k - 1:  # a reachable top besides the start, k - 1 others
                break
        else:
            raise RuntimeError("CubeMazeReach: no terrain with enough unreachable tops")
        cells = [(x, y) for x in range(n) for y in range(n) if (x, y) != self.start]
        near = [c for c in cells if c in self.dist]
        far = [c for c in cells if c not in self.dist]
        spots = [near[int(rng.integers(len(near)))]] + [far[int(i)] for i in rng.permutation(len(far))[:k - 1]]
        order = [int(i) for i in rng.permutation(k)]
        self.flags = {spots[j]: LETTERS[i] for i, j in enumerate(order)}
        self.answer = self.flags[spots[0]]

    def _markers(self):
        items = [(c, f) for c, f in self.flags.items()] + [(self.start, None)]
        return sorted(items, key=lambda t: t[0][0] + t[0][1])

    def _task_text(self) -> str:
        return f"{self._rules_text()} Exactly one flag can be reached by the walker. Which one?"

    def _parse_answer(self, text: str) -> str | None:
        m = _FLAG.match(text) if len(text) < 60 else None
        return m.group(1).upper() if m and m.group(1).upper() in self.flags.values() else None

    def _check(self, answer) -> bool:
        return answer == self.answer

    def _solve(self) -> str:
        return self.answer

    def _near_misses(self, rng: np.random.Generator) -> list[str]:
        return sorted(f for f in self.flags.values() if f != self.answer)


SPECS = (
    TaskSpec(name="CubeMazeReach", entry_point=CubeMazeReach, max_episode_steps=1,
             tags=("spatial-reasoning", "3d", "maze", "reachability")),
)
