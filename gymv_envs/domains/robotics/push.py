"""Push: shove a wide puck across the table onto a round target."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import choice, sample
from gymv_envs.domains.robotics._base import RobotEnv, Target
from gymv_envs.domains.robotics._scene import OBJECT_COLOURS, Scene

PUCK_R, PUCK_H = 0.05, 0.015     # wider than the open fingers: it cannot be grasped
TOLERANCE = (0.04, 0.035, 0.03)  # the puck's centre within this of the target's
DISTRACTORS = (0, 0, 3)
CRADLE = 0.0316                  # the puck's centre ahead of the tcp when it sits between the open fingertips
PUSH_Z, HOVER = 0.01, 0.07
SETTLE = 0.015                   # the oracle pushes each axis until it is this close
SLIDE = 0.008                    # how far the puck slides on after the fingers stop


class RobotPush(RobotEnv):
    """Push the puck onto the target of the named colour.

    ## Description
    A heavy, wide puck (10 cm across, wider than the open gripper) lies on the table, and a
    round target is drawn on the table. The puck cannot be picked up: push it with the
    gripper until its centre rests within the tolerance of the target's centre for 3 steps.
    The puck slides with friction and keeps going a little after a push. At difficulty 2 blocks
    stand around as obstacles.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (the puck's distance to the target) each step, plus 1.0 on
    success (``max_return`` 2.0).

    ## Starting State
    Puck and target on lattice spots 10-16 cm apart along one axis (difficulty 0) or both,
    from the seed; the gripper open, 21 cm above the table.

    ## Episode End
    Terminates when the puck has rested on the target for 3 steps, or (failure) when something
    falls off the table.

    ## Arguments
    ``difficulty`` (0: one axis, 4 cm tolerance; 1: both axes, 3.5 cm; 2: both axes, 3 cm,
    three obstacle blocks), ``action_mode`` (``discrete``, ``parametric``), ``obs_size``,
    ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        d = self.difficulty
        colours = sample(rng, OBJECT_COLOURS, 2 + DISTRACTORS[d])
        while True:
            start = np.array([float(rng.integers(-10, 11)) * 0.02, -0.12 + float(rng.integers(0, 15)) * 0.02])
            offset = np.array([choice(rng, (-1, 1)) * float(rng.integers(5, 9)) * 0.02, 0.0])
            if d > 0:
                offset[1] = choice(rng, (-1, 1)) * float(rng.integers(5, 8)) * 0.02
            if rng.random() < 0.5:
                offset = offset[::-1].copy()
            goal = start + offset
            if abs(goal[0]) <= 0.2 and -0.14 <= goal[1] <= 0.16:
                break
        self.puck = scene.cylinder("puck", colours[0], tuple(np.round(start, 4)), radius=PUCK_R, half_h=PUCK_H,
                                   kind="puck", density=800)
        self.target = scene.pad("target", colours[1], tuple(np.round(goal, 4)), half=(TOLERANCE[d], TOLERANCE[d]), round_=True)
        for t in np.linspace(0.0, 1.0, 6):  # keep the obstacles off the puck's way
            self.reserve(start + t * np.array([offset[0], 0.0]), 0.1)
            self.reserve(start + np.array([offset[0], t * offset[1]]), 0.1)
        self.scatter(rng, scene, [(c, "block") for c in colours[2:]], gap=0.04, prefix="obstacle")

    def _after_build(self) -> None:
        self._d0 = max(0.05, self.dist_xy(self.puck, self.target.xy))

    # -- rules
    def _goal_text(self) -> str:
        return f"Push the {self.puck.colour} puck onto the {self.target.colour} target."

    def _goal_met(self) -> bool:
        return self.dist_xy(self.puck, self.target.xy) <= TOLERANCE[self.difficulty] and self.speed(self.puck) < 0.02

    def _failed(self) -> str | None:
        return self.fell_off()

    def _progress_now(self) -> float:
        return self.toward(self.puck, self.target.xy, self._d0)

    # -- oracle
    def _plan(self) -> Target:
        p = self.pos(self.puck)[:2]
        err = np.array(self.target.xy) - p
        todo = [a for a in (0, 1) if abs(err[a]) > SETTLE]
        sp, tcp = self._sp, self.tcp
        pushing = sp[2] < PUSH_Z + 0.01 and np.linalg.norm(sp[:2] - tcp[:2]) > 0.004
        if self.speed(self.puck) > 0.02 and not pushing:
            return self.hold_here()  # let it come to rest before judging where it is
        if not todo:
            return self.retreat()
        axis = todo[0]
        other, s = 1 - axis, float(np.sign(err[axis]))
        yaw = 0.0 if axis == 0 else 90.0  # the fingers across the push: the puck sits between their tips
        ahead = s * (p[axis] - tcp[axis])
        placed = sp[2] < PUSH_Z + 0.01 and abs(sp[other] - p[other]) < 0.015 and 0.015 < ahead < 0.075 and abs(sp[3] - yaw) < 1e-3
        ready = placed and tcp[2] < PUSH_Z + 0.008 and abs(self.tcp_yaw - yaw) < 3.0
        if placed and not ready:
            return self.hold_here()  # at the start of the push: let the fingers get down and square first
        if not ready:
            start = np.array(p)
            start[axis] -= s * (CRADLE + 0.03)
            return self.travel((start[0], start[1], PUSH_Z), yaw, closed=False, height=HOVER)
        lead = s * (sp[axis] - tcp[axis]) + SLIDE  # where the puck will end up once the fingers stop
        remaining = s * err[axis] - lead
        goal = np.array(sp[:2])
        goal[axis] = sp[axis] + s * min(0.02, max(0.0, remaining))
        if remaining < 0.005:
            return self.hold_here()
        return self.direct((goal[0], goal[1], PUSH_Z), yaw, closed=False)

SPECS = (
    TaskSpec(name="RobotPush", entry_point=RobotPush, max_episode_steps=150, max_return=2.0,
             tags=("robotics", "manipulation", "3d", "physics", "pushing", "non-prehensile")),
)
