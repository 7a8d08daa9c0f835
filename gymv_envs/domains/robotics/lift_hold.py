"""Lift and hold: raise the named object to a height and keep it there."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.robotics._base import LIFT_Z, RobotEnv, Target
from gymv_envs.domains.robotics._scene import Part, Scene

OBJECTS = (2, 3, 5)
HEIGHT = (0.08, 0.10, 0.12)   # metres between the table and the object's bottom
HOLD = (4, 6, 8)              # steps the object must stay up


class RobotLiftHold(RobotEnv):
    """Lift the named object off the table and hold it still in the air.

    ## Description
    Blocks and cylinders of several colours stand on a table. Grasp the named one and raise it
    until its bottom is the stated height above the table, then keep it there for the stated
    number of steps. Lifting any other object fails the task.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (reaching, holding and raising the object) each step, plus
    1.0 on success (``max_return`` 2.0).

    ## Starting State
    Objects on lattice spots from the seed; the gripper open, 21 cm above the table.

    ## Episode End
    Terminates when the object has been held high enough for the stated steps, or (failure)
    when another object is lifted or an object falls off the table.

    ## Arguments
    ``difficulty`` (0: two objects, 8 cm for 4 steps; 1: three objects sharing the target's
    colour or shape, 10 cm for 6 steps; 2: five such objects, 12 cm for 8 steps),
    ``action_mode`` (``discrete``, ``parametric``), ``obs_size``, ``render_mode``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        d = self.difficulty
        self.hold_steps = HOLD[d]
        self.height = HEIGHT[d]
        self.objects: list[Part] = self.scatter(rng, scene, self.looks(rng, OBJECTS[d], near_misses=d > 0), gap=0.07)
        self.target = self.objects[0]

    def _after_build(self) -> None:
        self._r0 = max(0.05, float(np.linalg.norm(self.tcp - self.pos(self.target))))

    # -- rules
    def _goal_text(self) -> str:
        return (f"Lift the {self.target.label} at least {self.height * 100:g} cm above the table "
                f"and hold it there for {self.hold_steps} steps.")

    def _lifted(self, part: Part, height: float) -> bool:
        return self.extent(part)[0] >= height and self.holding(part)

    def _goal_met(self) -> bool:
        return self._lifted(self.target, self.height) and self.speed(self.target) < 0.08

    def _failed(self) -> str | None:
        wrong = next((p for p in self.objects[1:] if self._lifted(p, 0.03)), None)
        return f"lifted the {wrong.label}" if wrong is not None else self.fell_off()

    def _progress_now(self) -> float:
        reach = max(0.0, 1.0 - float(np.linalg.norm(self.tcp - self.pos(self.target))) / self._r0)
        if not self.holding(self.target):
            return 0.3 * reach
        return 0.4 + 0.6 * min(1.0, max(0.0, self.extent(self.target)[0]) / self.height)

    # -- oracle
    def _plan(self) -> Target:
        if not self.holding(self.target):
            return self.pick(self.target)
        return self.direct((self._sp[0], self._sp[1], LIFT_Z))


SPECS = (
    TaskSpec(name="RobotLiftHold", entry_point=RobotLiftHold, max_episode_steps=120, max_return=2.0,
             tags=("robotics", "manipulation", "3d", "physics", "grasping")),
)
