"""Stack: build a tower of two or three named blocks in the stated order."""

from __future__ import annotations

from typing import Any

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.robotics._base import RobotEnv, Target
from gymv_envs.domains.robotics._scene import Part, Scene

COUNTS = (2, 3)
DISTRACTORS = (0, 1, 3)      # extra blocks per difficulty
TOLERANCE = (0.6, 0.5, 0.4)  # how far off centre (fraction of the lower block's half width) still counts


class RobotStack(RobotEnv):
    """Stack named blocks into a tower, bottom to top in the stated order.

    ## Description
    Coloured blocks lie on a table. ``count=2``: put the named block on top of the other
    named block. ``count=3``: build a three-block tower with the named bottom, middle and top
    blocks. Each block must rest on the one below, centred within a tolerance, and the tower
    must stand for 3 steps with the gripper let go. Physics decides: a block dropped off centre
    or released too high topples.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (each upper block's distance to its place, holding it,
    blocks stacked) each step, plus 1.0 on success (``max_return`` 2.0).

    ## Starting State
    Blocks on lattice spots with yaws in 15-degree steps, from the seed; the gripper open, 21 cm
    above the table.

    ## Episode End
    Terminates when the tower has stood for 3 steps, or (failure) when a block falls off the table.

    ## Arguments
    ``count`` (2 or 3 blocks in the tower), ``difficulty`` (0-2: 0, 1 or 3 distractor blocks;
    centring tolerance 60%, 50%, 40% of the lower block's half width), ``action_mode``
    (``discrete``, ``parametric``), ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    def __init__(self, count: int = 2, **kwargs: Any) -> None:
        if count not in COUNTS or isinstance(count, bool):
            raise ValueError(f"invalid count={count!r}; valid values: 2, 3")
        self.count = int(count)
        super().__init__(**kwargs)

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        looks = self.looks(rng, self.count + DISTRACTORS[self.difficulty], kinds=("block",))
        self.blocks: list[Part] = self.scatter(rng, scene, looks, gap=0.07)
        self.tower = self.blocks[: self.count]  # bottom first

    def _after_build(self) -> None:
        self._d0 = [max(0.05, self.dist_xy(b, self.tower[0].xy)) for b in self.tower[1:]]

    # -- rules
    def _goal_text(self) -> str:
        names = [b.colour for b in self.tower]
        if self.count == 2:
            return f"Stack the {names[1]} block on top of the {names[0]} block."
        return f"Stack three blocks: {names[0]} at the bottom, {names[1]} in the middle, {names[2]} on top."

    def _stacked(self, k: int) -> bool:
        """Block ``k`` of the tower rests on block ``k - 1``."""
        return self.on_top(self.tower[k], self.tower[k - 1], TOLERANCE[self.difficulty])

    def _goal_met(self) -> bool:
        return all(self._stacked(k) for k in range(1, self.count)) and not any(
            self.touching(b) for b in self.tower) and all(self.speed(b) < 0.03 for b in self.tower)

    def _failed(self) -> str | None:
        return self.fell_off()

    def _progress_now(self) -> float:
        total = 0.0
        for k, block in enumerate(self.tower[1:], start=1):
            if self._stacked(k):
                total += 1.0
                continue
            total += 0.6 * self.toward(block, self.pos(self.tower[k - 1])[:2], self._d0[k - 1]) + 0.2 * self.holding(block)
        return total / (self.count - 1)

    # -- oracle
    def _plan(self) -> Target:
        for k in range(1, self.count):
            if not self._stacked(k) or self.holding(self.tower[k]):
                below = self.tower[k - 1]
                return self.carry(self.tower[k], self.pos(below)[:2], self.extent(below)[1])
        return self.retreat()


_TAGS = ("robotics", "manipulation", "3d", "physics", "stacking")
SPECS = (
    TaskSpec(name="RobotStack", entry_point=RobotStack, max_episode_steps=200, max_return=2.0, tags=_TAGS,
             kwargs={"count": 2}),
    TaskSpec(name="RobotStackThree", entry_point=RobotStack, max_episode_steps=360, max_return=2.0, tags=_TAGS,
             kwargs={"count": 3}),
)
