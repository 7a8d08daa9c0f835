"""Slide off a ledge: push a wide slab off a raised platform so it falls into the named tray."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import sample
from gymv_envs.domains.robotics._base import RobotEnv, Target
from gymv_envs.domains.robotics._scene import OBJECT_COLOURS, Scene

LEDGE_HALF, LEDGE_TOP = 0.08, 0.04
SLAB = (0.055, 0.05, 0.015)          # wider than the open fingers: it cannot be grasped
TRAY_INNER, TRAY_WALL = 0.075, 0.025
SIDES = {"right": (1, 0), "left": (-1, 0), "back": (0, 1), "front": (0, -1)}
TRAYS = (1, 2, 3)
PUSH_Z = 0.05                        # tcp height while pushing (the slab spans 4 to 7 cm)
PADDLE = (0.012, 0.013)              # half extents of the closed fingers along x and y


class RobotSlideOffLedge(RobotEnv):
    """Push the slab off the ledge into the tray of the named colour.

    ## Description
    A wide flat slab lies on a raised platform (a ledge 4 cm high); trays stand on the table
    next to the ledge on one to three sides. The slab is wider than the open gripper, so it
    cannot be picked up: push it over the edge on the side of the tray of the named colour so
    that it drops into that tray, where it must come to rest for 3 steps.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (the slab's distance to the tray) each step, plus 1.0 on
    success (``max_return`` 2.0).

    ## Starting State
    The ledge near the middle of the table, the trays on sides drawn from the seed, the slab
    on the ledge (2 cm towards the target at difficulty 0); the gripper open, 21 cm above the
    table.

    ## Episode End
    Terminates when the slab has rested in the named tray for 3 steps, or (failure) when it
    falls anywhere else.

    ## Arguments
    ``difficulty`` (0: one tray; 1: two trays on opposite sides; 2: three trays),
    ``action_mode`` (``discrete``, ``parametric``), ``obs_size``, ``render_mode``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        d = self.difficulty
        lx, ly = float(rng.integers(-2, 3)) * 0.02, -0.12 + float(rng.integers(6, 9)) * 0.02
        scene.ledge("ledge", "gray", (lx, ly), (LEDGE_HALF, LEDGE_HALF), LEDGE_TOP)
        pair = ("left", "right") if rng.random() < 0.5 else ("front", "back")
        sides = list(pair) if d < 2 else ["left", "right", "front" if rng.random() < 0.5 else "back"]
        sides = [sides[int(i)] for i in rng.permutation(len(sides))][: TRAYS[d]]
        colours = sample(rng, OBJECT_COLOURS, len(sides))
        reach = LEDGE_HALF + 0.012 + TRAY_INNER + 0.01
        self.trays = [scene.bin(f"tray{k}", c, (lx + SIDES[s][0] * reach, ly + SIDES[s][1] * reach),
                                (TRAY_INNER, TRAY_INNER), TRAY_WALL) for k, (c, s) in enumerate(zip(colours, sides))]
        self.tray, self.side = self.trays[0], SIDES[sides[0]]
        shift = 0.02 if d == 0 else 0.0
        xy = (round(lx + self.side[0] * shift, 4), round(ly + self.side[1] * shift, 4))
        self.slab = scene.block("slab", "brown", xy, half=SLAB, z=LEDGE_TOP, kind="slab")
        self.ledge_xy = (lx, ly)

    def _after_build(self) -> None:
        self._d0 = self.dist_xy(self.slab, self.tray.xy)

    # -- rules
    def _goal_text(self) -> str:
        return f"Push the brown slab off the ledge into the {self.tray.colour} tray."

    def _goal_met(self) -> bool:
        return self.in_bin(self.slab, self.tray) and self.speed(self.slab) < 0.03 and not self.touching(self.slab)

    def _failed(self) -> str | None:
        if self.pos(self.slab)[2] < LEDGE_TOP - 0.005 and not any(self.in_bin(self.slab, t, -0.02) for t in self.trays[:1]):
            if self.speed(self.slab) < 0.05:
                return "the slab landed outside the named tray"
        wrong = next((t for t in self.trays[1:] if self.in_bin(self.slab, t)), None)
        return f"the slab fell into the {wrong.colour} tray" if wrong is not None else self.fell_off()

    def _progress_now(self) -> float:
        return self.toward(self.slab, self.tray.xy, self._d0)

    # -- oracle
    def _plan(self) -> Target:
        p = self.pos(self.slab)
        if self.in_bin(self.slab, self.tray) or p[2] < LEDGE_TOP - 0.012:  # it has dropped off the ledge
            return self.retreat()
        axis = 0 if self.side[0] else 1
        s = float(self.side[axis])
        other = 1 - axis
        gap = SLAB[axis] + PADDLE[axis] + 0.02
        start = np.array(p[:2])
        start[axis] -= s * gap
        sp = self._sp
        behind = (sp[2] < PUSH_Z + 0.01 and abs(sp[other] - p[other]) < 0.011
                  and s * (p[axis] - self.tcp[axis]) >= SLAB[axis] + PADDLE[axis] - 0.008)
        if not behind:
            return self.travel((start[0], start[1], PUSH_Z), 0.0, closed=True, height=0.11)
        goal = np.array(sp[:2])
        edge = self.ledge_xy[axis] + s * (LEDGE_HALF + SLAB[axis] + 0.03)  # until no part of it is left on the ledge
        goal[axis] = sp[axis] + s * min(0.02, max(0.0, s * (edge - sp[axis])))
        return self.direct((goal[0], goal[1], PUSH_Z), 0.0, closed=True)


SPECS = (
    TaskSpec(name="RobotSlideOffLedge", entry_point=RobotSlideOffLedge, max_episode_steps=100, max_return=2.0,
             tags=("robotics", "manipulation", "3d", "physics", "pushing", "non-prehensile")),
)
