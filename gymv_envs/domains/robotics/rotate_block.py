"""Rotate a block: lay a bar on its outline, turned to match the outline's orientation."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import sample
from gymv_envs.domains.robotics._base import RobotEnv, Target
from gymv_envs.domains.robotics._scene import OBJECT_COLOURS, Part, Scene

BAR = (0.045, 0.016, 0.02)
YAW_TOL = (10.0, 10.0, 7.0)
POS_TOL = (0.02, 0.02, 0.015)
DISTRACTORS = (0, 1, 2)


def ang180(a: float) -> float:
    """An orientation of a symmetric bar, in [-90, 90) degrees."""
    return (a + 90.0) % 180.0 - 90.0


class RobotRotateBlock(RobotEnv):
    """Turn the named bar to the orientation of its outline and lay it on the outline.

    ## Description
    A long bar lies on the table next to (or, at difficulty 0, under) a rectangular outline of
    the same colour drawn at another orientation. Grasp the bar, turn it and put it down so it
    lies on the outline: centred within a tolerance and turned to the outline's direction
    (a bar looks the same turned by 180 degrees). Other bars are distractors.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (holding the bar, its distance and angle to the outline)
    each step, plus 1.0 on success (``max_return`` 2.0).

    ## Starting State
    Bar and outline on lattice spots with orientations in 15-degree steps at least 45 degrees
    apart, from the seed; the gripper open, 21 cm above the table.

    ## Episode End
    Terminates when the bar has rested on the outline for 3 steps, or (failure) when a bar
    falls off the table.

    ## Arguments
    ``difficulty`` (0: the outline is under the bar, turn it in place; 1: the outline
    elsewhere, one distractor bar; 2: two distractors, tolerance 7 degrees and 1.5 cm instead
    of 10 degrees and 2 cm), ``action_mode`` (``discrete``, ``parametric``), ``obs_size``,
    ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        d = self.difficulty
        colours = sample(rng, OBJECT_COLOURS, 1 + DISTRACTORS[d])
        start = float(rng.integers(-6, 6)) * 15.0
        self.goal_yaw = ang180(start + float(rng.integers(3, 10)) * 15.0)
        if d == 0:
            spots = self.spots(rng, 1, 0.06, radius=0.06)
            spots = spots * 2
        else:
            spots = self.spots(rng, 2, 0.04, radius=0.06)
        self.outline = scene.outline("outline", colours[0], spots[1], (BAR[0] + 0.006, BAR[1] + 0.006), self.goal_yaw)
        self.bar = scene.block("bar", colours[0], spots[0], half=BAR, yaw=start, kind="bar")
        self.others: list[Part] = []
        for k, xy in enumerate(self.spots(rng, DISTRACTORS[d], 0.04, radius=0.06)):
            self.others.append(scene.block(f"bar{k + 1}", colours[1 + k], xy, half=BAR,
                                           yaw=float(rng.integers(-6, 6)) * 15.0, kind="bar"))

    def _after_build(self) -> None:
        self._d0 = max(0.05, self.dist_xy(self.bar, self.outline.xy))
        self._a0 = max(15.0, self._angle_error())

    def _angle_error(self) -> float:
        return abs(ang180(self.yaw(self.bar) - self.goal_yaw))

    # -- rules
    def _goal_text(self) -> str:
        return f"Lay the {self.bar.colour} bar on its outline, turned to match it."

    def _goal_met(self) -> bool:
        d = self.difficulty
        return (self.dist_xy(self.bar, self.outline.xy) <= POS_TOL[d] and self._angle_error() <= YAW_TOL[d]
                and self.extent(self.bar)[0] < 0.01 and not self.touching(self.bar) and self.speed(self.bar) < 0.03)

    def _failed(self) -> str | None:
        return self.fell_off()

    def _progress_now(self) -> float:
        turn = max(0.0, 1.0 - self._angle_error() / self._a0)
        if self._d0 <= 0.05:  # turn it in place
            return 0.2 * self.holding(self.bar) + 0.8 * turn
        near = self.toward(self.bar, self.outline.xy, self._d0)
        return 0.1 * self.holding(self.bar) + 0.4 * turn * near + 0.4 * near

    # -- oracle
    def _plan(self) -> Target:
        placed = self.dist_xy(self.bar, self.outline.xy) <= 0.01 and self._angle_error() <= 3.0
        if placed and not self.holding(self.bar):
            return self.retreat()
        if not self.holding(self.bar):
            return self.pick(self.bar)
        offset = 5.0 * round(ang180(self.yaw(self.bar) - self.tcp_yaw) / 5.0)  # steady against jitter
        return self.place(self.bar, self.outline.xy, 0.0, yaw=ang180(self.goal_yaw - offset))


SPECS = (
    TaskSpec(name="RobotRotateBlock", entry_point=RobotRotateBlock, max_episode_steps=150, max_return=2.0,
             tags=("robotics", "manipulation", "3d", "physics", "orientation")),
)
