"""Open a door: press its lever handle down (when latched), then swing the door open."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import choice
from gymv_envs.domains.robotics._base import RobotEnv, Target
from gymv_envs.domains.robotics._scene import OBJECT_COLOURS, Scene

GOAL = (60.0, 60.0, 80.0)        # degrees the door must stand open
LATCHED = (False, True, True)
UNLATCH = np.radians(-25.0)      # the lever pressed this far lifts the latch
RADIUS = 0.10                    # where the oracle pushes on the door (m from the hinge)
SKIN = 0.006 + 0.013             # half the door's thickness plus half the closed fingers'
PUSH_Z, HOVER = 0.03, 0.11


class RobotOpenDoor(RobotEnv):
    """Swing the door open (pressing its lever handle down first when it is latched).

    ## Description
    A small door stands between two posts on the table, hinged on its left post and opening
    away from the camera. Push it open until it stands at the stated angle and keep it there
    for 3 steps. At difficulty 1-2 the door is latched: press its lever handle down (about 25
    degrees) to lift the latch, then push the door. The hinge, the lever and the latch are
    MuJoCo joints; the latch is a joint constraint the lever releases.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (the latch lifted, the door's angle) each step, plus 1.0 on
    success (``max_return`` 2.0).

    ## Starting State
    The door closed at a lattice spot with a colour from the seed; the gripper open, 21 cm
    above the table.

    ## Episode End
    Terminates when the door has stood open far enough for 3 steps (it never fails otherwise).

    ## Arguments
    ``difficulty`` (0: not latched, 60 degrees; 1: latched, 60 degrees; 2: latched, 80
    degrees), ``action_mode`` (``discrete``, ``parametric``), ``obs_size``, ``render_mode``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        d = self.difficulty
        xy = (float(rng.integers(-10, 1)) * 0.02, -0.12 + float(rng.integers(6, 12)) * 0.02)
        self.door = scene.door("door", choice(rng, OBJECT_COLOURS), xy, latched=LATCHED[d])
        self.latched = LATCHED[d]
        self.goal = GOAL[d]

    def _after_build(self) -> None:
        self._latch = self.sim.mujoco.mj_name2id(self.sim.model, self.sim.mujoco.mjtObj.mjOBJ_EQUALITY, "door_latch")

    @property
    def angle(self) -> float:
        return float(np.degrees(self.joint("door")))

    def _locked(self) -> bool:
        return self.latched and bool(self.sim.data.eq_active[self._latch])

    def _after_physics(self) -> None:
        if self._locked() and self.joint("door_lever") < UNLATCH:
            self.sim.data.eq_active[self._latch] = 0

    # -- rules
    def _goal_text(self) -> str:
        lever = "Press the door's lever handle down, then push" if self.latched else "Push"
        return f"{lever} the {self.door.colour} door open to at least {self.goal:g} degrees."

    def _goal_met(self) -> bool:
        return self.angle >= self.goal

    def _progress_now(self) -> float:
        swing = float(np.clip(self.angle / self.goal, 0.0, 1.0))
        if not self.latched:
            return swing
        return 0.2 * (not self._locked()) + 0.8 * swing

    # -- oracle
    def _on_door(self, angle: float, off: float) -> np.ndarray:
        """The point ``off`` in front of the door's face at `RADIUS`, with the door at ``angle``."""
        a = np.radians(angle)
        hinge = np.array(self.door.xy)
        return hinge + RADIUS * np.array([np.cos(a), np.sin(a)]) + off * np.array([np.sin(a), -np.cos(a)])

    def _plan(self) -> Target:
        sp, tcp = self._sp, self.tcp
        if self._locked():
            lever = np.array(self.door.xy) + np.array([self.door.extra["width"] - 0.074, -0.022])
            over = np.hypot(*(sp[:2] - lever)) < 0.012 and sp[2] < 0.06
            return self.travel((lever[0], lever[1], 0.03), 90.0 if not over else None, closed=True, height=HOVER)
        if self.angle >= self.goal + 3.0:
            return self.retreat()
        rel = tcp[:2] - np.array(self.door.xy)
        a = np.radians(self.angle)
        along = rel @ np.array([np.cos(a), np.sin(a)])
        normal = rel @ np.array([np.sin(a), -np.cos(a)])
        engaged = sp[2] < PUSH_Z + 0.01 and tcp[2] < 0.05 and 0.05 < along < 0.15 and 0.0 < normal < 0.06
        if not engaged:
            start = self._on_door(self.angle, SKIN + 0.025)
            return self.travel((start[0], start[1], PUSH_Z), 0.0, closed=True, height=HOVER)
        ahead = 25.0 if self.action_mode == "discrete" else 12.0
        goal = self._on_door(min(self.angle + ahead, 100.0), SKIN - 0.004)
        return self.direct((goal[0], goal[1], PUSH_Z), 0.0, closed=True)


SPECS = (
    TaskSpec(name="RobotOpenDoor", entry_point=RobotOpenDoor, max_episode_steps=120, max_return=2.0,
             tags=("robotics", "manipulation", "3d", "physics", "articulated", "multi-stage")),
)
