"""Pick and place: put the named object into the bin of the named colour."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import sample
from gymv_envs.domains.robotics._base import RobotEnv, Target
from gymv_envs.domains.robotics._scene import OBJECT_COLOURS, Part, Scene

OBJECTS = (1, 2, 4)      # objects on the table per difficulty (the first is the target)
BINS = (1, 2, 3)


class RobotPickPlace(RobotEnv):
    """Pick up the named object and drop it into the bin of the named colour.

    ## Description
    A table with coloured blocks and cylinders and open bins, all placed from the seed. The
    instruction names one object (colour and shape) and one bin (colour): grasp the object,
    lift it over the bin's walls and release it inside. MuJoCo physics throughout: the object
    is held by finger friction, falls when released and must come to rest inside the bin.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (reaching the object, holding it, the object's distance to
    the bin) each step, plus 1.0 on success (``max_return`` 2.0).

    ## Starting State
    Objects and bins on lattice spots from the seed; the gripper open, 21 cm above the table.

    ## Episode End
    Terminates when the object has rested inside the bin for 3 steps, or (failure) when an
    object falls off the table.

    ## Arguments
    ``difficulty`` (0: one object and one bin; 1: two objects, two bins; 2: four objects,
    three bins), ``action_mode`` (``discrete``, ``parametric``), ``obs_size``, ``render_mode``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        d = self.difficulty
        bin_colours = sample(rng, OBJECT_COLOURS, BINS[d])
        for k, (c, xy) in enumerate(zip(bin_colours, self.spots(rng, BINS[d], 0.04, y=(-0.12, 0.16), radius=0.08))):
            part = scene.bin(f"bin{k}", c, xy)
            if k == 0:
                self.bin = part
        colours = sample(rng, OBJECT_COLOURS, OBJECTS[d])
        self.objects: list[Part] = []
        for k, xy in enumerate(self.spots(rng, OBJECTS[d], 0.06)):
            if k > 0 and rng.random() < 0.5:
                self.objects.append(scene.cylinder(f"obj{k}", colours[k], xy))
            else:
                yaw = float(rng.integers(-3, 3)) * 15.0
                self.objects.append(scene.block(f"obj{k}", colours[k], xy, yaw=yaw))
        self.target = self.objects[0]

    def _after_build(self) -> None:
        self._d0 = max(0.05, self._dist())
        self._r0 = max(0.05, float(np.linalg.norm(self.tcp - self.pos(self.target))))

    def _dist(self) -> float:
        return float(np.hypot(*(self.pos(self.target)[:2] - np.array(self.bin.xy))))

    # -- rules
    def _goal_text(self) -> str:
        return f"Put the {self.target.label} in the {self.bin.label}."

    def _goal_met(self) -> bool:
        return self.in_bin(self.target, self.bin) and self.speed(self.target) < 0.05 and not self.holding(self.target)

    def _failed(self) -> str | None:
        return self.fell_off()

    def _progress_now(self) -> float:
        reach = 1.0 - np.linalg.norm(self.tcp - self.pos(self.target)) / self._r0
        transport = 1.0 - self._dist() / self._d0
        return 0.2 * max(0.0, reach) + 0.1 * self.holding(self.target) + 0.6 * max(0.0, transport)

    # -- oracle
    def _plan(self) -> Target:
        if self.in_bin(self.target, self.bin, margin=0.01):
            return self.retreat()
        if self.holding(self.target):
            return self.place(self.target, self.bin.xy, self.bin.extra["z"] + 0.004)
        return self.pick(self.target)


SPECS = (
    TaskSpec(name="RobotPickPlace", entry_point=RobotPickPlace, max_episode_steps=200, max_return=2.0,
             tags=("robotics", "manipulation", "3d", "physics", "pick-and-place")),
)
