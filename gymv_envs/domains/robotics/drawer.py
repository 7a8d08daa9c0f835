"""Drawer: open it, close it, or put a block inside it."""

from __future__ import annotations

from typing import Any

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import sample
from gymv_envs.domains.robotics._base import RobotEnv, Target
from gymv_envs.domains.robotics._scene import OBJECT_COLOURS, Part, Scene

MODES = ("open", "close", "put_in")
TRAVEL = 0.10         # full drawer travel (m); the joint runs from -0.10 (open) to 0 (closed)
OPEN_ENOUGH = (0.08, 0.09, 0.095)
CLOSED = 0.006
DISTRACTORS = (0, 2, 3)
HOOK_Z, PUSH_Z = 0.01, 0.03   # tcp heights for pulling behind / pushing in front of the handle


class RobotDrawer(RobotEnv):
    """Operate a drawer in a small cabinet: open it, close it, or put a block in it.

    ## Description
    A cabinet stands at the back of the table, its drawer facing the camera, with a bar
    handle on the drawer's front. The drawer runs on a damped slide joint (10 cm of travel).
    ``mode="open"``: pull it open (the gripper fits behind the handle); ``"close"``: push the
    open drawer shut; ``"put_in"``: put the named block into the drawer (opening it first
    when it starts closed, and closing it afterwards at difficulty 2). Distractor blocks stand
    around. Success is read from the drawer's joint and the block's pose.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (how far the drawer has moved the right way, the block's
    distance to the drawer) each step, plus 1.0 on success (``max_return`` 2.0).

    ## Starting State
    Cabinet and blocks on lattice spots, the drawer closed (``open``, ``put_in`` at difficulty
    1-2) or open 6-10 cm, from the seed; the gripper open, 21 cm above the table.

    ## Episode End
    Terminates when the goal has held for 3 steps, or (failure) when a block falls off the table.

    ## Arguments
    ``mode`` (``open``, ``close``, ``put_in``), ``difficulty`` (0-2: 0, 2 or 3 distractor
    blocks; ``open`` needs 8, 9 or 9.5 cm; ``close`` starts 6, 8 or 10 cm open; ``put_in`` starts
    open, starts closed, or starts closed and must end closed), ``action_mode`` (``discrete``,
    ``parametric``), ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    def __init__(self, mode: str = "open", **kwargs: Any) -> None:
        if mode not in MODES:
            raise ValueError(f"invalid mode={mode!r}; valid values: {', '.join(MODES)}")
        self.mode = mode
        super().__init__(**kwargs)

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        d, mode = self.difficulty, self.mode
        opening = {"open": 0.0, "close": (0.06, 0.08, 0.10)[d], "put_in": (TRAVEL, 0.0, 0.0)[d]}[mode]
        colours = sample(rng, OBJECT_COLOURS, 1 + DISTRACTORS[d] + (mode == "put_in"))
        side = 1.0 if rng.random() < 0.5 else -1.0
        xy = (side * float(rng.integers(3, 8)) * 0.02, -0.12 + float(rng.integers(12, 14)) * 0.02)
        self.drawer = scene.drawer("drawer", colours[0], xy, opening)
        self.reserve(xy, 0.1)
        self.reserve((xy[0], xy[1] - 0.13), 0.09)
        self.block: Part | None = None
        looks = [(c, "block") for c in colours[1:]]
        blocks = self.scatter(rng, scene, looks, gap=0.05)
        if mode == "put_in":
            self.block = blocks[0]
        self.must_close = mode == "close" or (mode == "put_in" and d == 2)

    def _after_build(self) -> None:
        self._q0 = self.q
        self._d0 = max(0.05, self.dist_xy(self.block, self._drop_xy(open_=True))) if self.block else 1.0

    @property
    def q(self) -> float:
        """How far the drawer is open (m, 0 closed)."""
        return -self.joint(self.drawer.name)

    def _front(self) -> float:
        return self.drawer.extra["front"] - self.q

    def _drop_xy(self, open_: bool = False) -> tuple[float, float]:
        """Where a block goes in the drawer: 2 cm behind the drawer's middle when fully open."""
        q = TRAVEL if open_ else self.q
        return self.drawer.xy[0], self.drawer.xy[1] - q - 0.02

    # -- rules
    def _goal_text(self) -> str:
        if self.mode == "open":
            return f"Pull the {self.drawer.colour} drawer open."
        if self.mode == "close":
            return f"Push the {self.drawer.colour} drawer shut."
        tail = ", then close the drawer" if self.must_close else ""
        return f"Put the {self.block.label} into the {self.drawer.colour} drawer{tail}."

    def _inside(self) -> bool:
        p, (x, y) = self.pos(self.block), self.drawer.xy
        y_mid = y - self.q
        return bool(abs(p[0] - x) < 0.05 and y_mid - 0.065 < p[1] < y_mid + 0.065 and self.extent(self.block)[0] < 0.03)

    def _goal_met(self) -> bool:
        if self.mode == "open":
            return self.q >= OPEN_ENOUGH[self.difficulty]
        closed = self.q <= CLOSED
        if self.mode == "close":
            return closed
        return self._inside() and not self.holding(self.block) and self.speed(self.block) < 0.03 and (closed or not self.must_close)

    def _failed(self) -> str | None:
        return self.fell_off()

    def _progress_now(self) -> float:
        if self.mode == "open":
            return self.q / OPEN_ENOUGH[self.difficulty]
        if self.mode == "close":
            return 1.0 - self.q / max(self._q0, 1e-3)
        opened = min(1.0, self.q / 0.08) if self._q0 < 0.08 else 1.0
        if self._inside():
            stage = 0.9 if not self.must_close else 0.75 + 0.2 * (1.0 - self.q / TRAVEL)
            return stage
        reach = self.toward(self.block, self._drop_xy(open_=True), self._d0)
        return 0.3 * opened + 0.45 * reach if self._q0 < 0.08 else 0.75 * reach

    # -- oracle
    def _pull(self) -> Target:
        """Hook the closed fingers behind the handle and pull the drawer fully open."""
        x, front = self.drawer.xy[0], self._front()
        behind = self.snap(x, front - 0.02, HOOK_Z, 90.0)
        hooked = abs(self._sp[1] - (front - 0.02)) < 0.012 and abs(self._sp[0] - x) < 0.011 and self._sp[2] < 0.03
        if not hooked:
            return self.travel(behind[:3], 90.0, closed=True)
        return self.direct((x, self.drawer.extra["front"] - TRAVEL - 0.03, HOOK_Z), 90.0, closed=True)

    def _push(self) -> Target:
        """Push the drawer shut from in front of its handle."""
        x, front = self.drawer.xy[0], self._front()
        start = self.snap(x, front - 0.075, PUSH_Z, 90.0)
        ready = self._sp[1] < front - 0.064 and abs(self._sp[0] - x) < 0.011 and self._sp[2] < 0.05
        if not ready:
            return self.travel(start[:3], 90.0, closed=True)
        return self.direct((x, self.drawer.extra["front"] - 0.06, PUSH_Z), 90.0, closed=True)

    def _plan(self) -> Target:
        if self.mode == "open":
            return self._pull()
        if self.mode == "close":
            return self._push()
        block = self.block
        if self._inside() and not self.holding(block):
            return self._push() if self.must_close and self.q > CLOSED else self.retreat()
        if self.holding(block):
            yaw = 90.0 if self._sp[3] >= 0 else -90.0  # fingers along x: clear of the cabinet and the drawer's front
            return self.place(block, self._drop_xy(), 0.016, yaw=yaw)
        return self._pull() if self.q < 0.08 else self.pick(block)

_TAGS = ("robotics", "manipulation", "3d", "physics", "articulated")
SPECS = (
    TaskSpec(name="RobotDrawerOpen", entry_point=RobotDrawer, max_episode_steps=100, max_return=2.0,
             tags=_TAGS, kwargs={"mode": "open"}),
    TaskSpec(name="RobotDrawerClose", entry_point=RobotDrawer, max_episode_steps=100, max_return=2.0,
             tags=_TAGS, kwargs={"mode": "close"}),
    TaskSpec(name="RobotPutInDrawer", entry_point=RobotDrawer, max_episode_steps=300, max_return=2.0,
             tags=(*_TAGS, "multi-stage"), kwargs={"mode": "put_in"}),
)
