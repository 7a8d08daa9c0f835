"""Insert a peg: pick up a square peg and put it down into the square hole of a fixed block."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import sample
from gymv_envs.domains.robotics._base import RobotEnv, Target
from gymv_envs.domains.robotics._scene import OBJECT_COLOURS, Scene

PEG = (0.015, 0.015, 0.05)
CLEARANCE = (0.010, 0.0065, 0.004)   # gap between peg and hole on each side (m)
HOLES = (1, 2, 2)
HOLE_TOP = 0.05
DEPTH = 0.03                          # the peg's bottom must go this far below the hole's top


def ang90(a: float) -> float:
    """An orientation of a square, in [-45, 45) degrees."""
    return (a + 45.0) % 90.0 - 45.0


class RobotInsertPeg(RobotEnv):
    """Put the square peg into the hole of the named colour.

    ## Description
    A tall square peg stands on the table next to fixed blocks with square holes through them
    (5 cm deep). Grasp the peg, turn it square to the hole where needed, bring it above the hole
    of the named colour and lower it in: the peg must go at least 3 cm below the hole's top and
    stand there for 3 steps. The clearance shrinks with difficulty, and at difficulty 2 a peg
    turned 45 degrees does not fit, so it must be aligned.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (holding the peg, its distance to the hole, its depth in
    it) each step, plus 1.0 on success (``max_return`` 2.0).

    ## Starting State
    Peg and holes on lattice spots, the peg standing at 0 degrees (difficulty 0) or a multiple
    of 15 degrees, from the seed; the gripper open, 21 cm above the table.

    ## Episode End
    Terminates when the peg has stood in the hole for 3 steps, or (failure) when it falls off
    the table or goes into the other hole.

    ## Arguments
    ``difficulty`` (0: one hole, 10 mm clearance; 1: two holes, 6.5 mm, a turned peg; 2: two
    holes, 4 mm), ``action_mode`` (``discrete``, ``parametric``), ``obs_size``,
    ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        d = self.difficulty
        colours = sample(rng, OBJECT_COLOURS, HOLES[d] + 1)
        half = PEG[0] + CLEARANCE[d]
        spots = self.spots(rng, HOLES[d], 0.05, radius=half + 0.045, y=(-0.14, 0.16))
        self.holes = [scene.hole(f"hole{k}", c, xy, half, HOLE_TOP) for k, (c, xy) in enumerate(zip(colours, spots))]
        self.hole = self.holes[0]
        yaw = 0.0 if d == 0 else float(rng.integers(-3, 3)) * 15.0
        self.peg = scene.block("peg", colours[-1], self.spots(rng, 1, 0.05, radius=0.03)[0], half=PEG, yaw=yaw, kind="peg")

    def _after_build(self) -> None:
        self._d0 = max(0.05, self.dist_xy(self.peg, self.hole.xy))

    # -- rules
    def _goal_text(self) -> str:
        return f"Insert the peg into the hole of the {self.hole.colour} block."

    def _depth_in(self, hole) -> float:
        """How far the peg's bottom is below the hole's top, when the peg is over the hole."""
        if self.dist_xy(self.peg, hole.xy) > hole.half[0]:
            return 0.0
        return max(0.0, HOLE_TOP - self.extent(self.peg)[0])

    def _goal_met(self) -> bool:
        return self._depth_in(self.hole) >= DEPTH and not self.holding(self.peg) and self.speed(self.peg) < 0.03

    def _failed(self) -> str | None:
        for hole in self.holes[1:]:
            if self._depth_in(hole) >= DEPTH:
                return f"the peg went into the {hole.colour} block's hole"
        return self.fell_off()

    def _progress_now(self) -> float:
        return (0.1 * self.holding(self.peg) + 0.5 * self.toward(self.peg, self.hole.xy, self._d0)
                + 0.4 * min(1.0, self._depth_in(self.hole) / DEPTH))

    # -- oracle
    def _plan(self) -> Target:
        if self._depth_in(self.hole) >= DEPTH - 0.005 and not self.holding(self.peg):
            return self.retreat()
        if not self.holding(self.peg):
            return self.pick(self.peg)
        off = 5.0 * round(ang90(self.yaw(self.peg) - self.tcp_yaw) / 5.0)  # how the peg sits in the fingers
        square = 90.0 * round(self._sp[3] / 90.0) - off                   # gripper yaw that squares it to the hole
        return self.place(self.peg, self.hole.xy, HOLE_TOP - DEPTH - 0.012, yaw=float(np.clip(square, -90, 90)))


SPECS = (
    TaskSpec(name="RobotInsertPeg", entry_point=RobotInsertPeg, max_episode_steps=150, max_return=2.0,
             tags=("robotics", "manipulation", "3d", "physics", "insertion", "precision")),
)
