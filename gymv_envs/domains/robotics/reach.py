"""Reach: bring the fingertips just above the named object and keep them there."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.robotics._base import RobotEnv, Target
from gymv_envs.domains.robotics._scene import Scene

OBJECTS = (2, 4, 6)          # objects per difficulty (the first is the target)
TOLERANCE = (0.03, 0.025, 0.02)  # metres off the object's centre, sideways
ABOVE = 0.035                # the fingertips within this height above the object's top


class RobotReach(RobotEnv):
    """Move the gripper so its fingertips hover just above the named object.

    ## Description
    Blocks, cylinders and cups of several colours stand on a table. The instruction names one
    (colour and shape); bring the fingertips over it, no more than 3.5 cm above its top and
    within a few centimetres of its centre sideways, and keep them there for 3 steps. The
    objects are real MuJoCo bodies: bumping into them pushes them away.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (squared closeness of the fingertips to the goal point)
    each step, plus 1.0 on success (``max_return`` 2.0).

    ## Starting State
    Objects on lattice spots from the seed; the gripper open, 21 cm above the table.

    ## Episode End
    Terminates when the fingertips have stayed over the object for 3 steps, or (failure) when
    an object falls off the table.

    ## Arguments
    ``difficulty`` (0: two objects, 3 cm tolerance; 1: four objects that share the target's
    colour or shape, 2.5 cm; 2: six such objects, 2 cm), ``action_mode`` (``discrete``,
    ``parametric``), ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        d = self.difficulty
        looks = self.looks(rng, OBJECTS[d], kinds=("block", "cylinder", "cup"), near_misses=d > 0)
        self.objects = self.scatter(rng, scene, looks, gap=0.07)
        self.target = self.objects[0]

    def _after_build(self) -> None:
        self._d0 = max(0.05, float(np.linalg.norm(self.tcp - self._goal_point())))

    def _goal_point(self) -> np.ndarray:
        p = self.pos(self.target)
        return np.array([p[0], p[1], self.extent(self.target)[1] + ABOVE / 2])

    # -- rules
    def _goal_text(self) -> str:
        return f"Hold the fingertips just above the {self.target.label}."

    def _goal_met(self) -> bool:
        p, tip = self.pos(self.target), self.tcp
        top = self.extent(self.target)[1]
        return bool(np.hypot(tip[0] - p[0], tip[1] - p[1]) <= TOLERANCE[self.difficulty]
                    and top - 0.005 <= tip[2] <= top + ABOVE)

    def _failed(self) -> str | None:
        return self.fell_off()

    def _progress_now(self) -> float:
        return max(0.0, 1.0 - float(np.linalg.norm(self.tcp - self._goal_point())) / self._d0) ** 2

    # -- oracle
    def _plan(self) -> Target:
        p = self.pos(self.target)
        return self.travel((p[0], p[1], self.extent(self.target)[1] + 0.008), closed=True, up=True)


SPECS = (
    TaskSpec(name="RobotReach", entry_point=RobotReach, max_episode_steps=100, max_return=2.0,
             tags=("robotics", "manipulation", "3d", "physics", "reach")),
)
