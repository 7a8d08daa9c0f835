"""Pour: tip a cup on a pivot so the balls in it fall into the bowl of the named colour."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import sample
from gymv_envs.domains.robotics._base import RobotEnv, Target
from gymv_envs.domains.robotics._scene import OBJECT_COLOURS, Part, Scene

BOWLS = (1, 2, 2)
BALLS = (1, 1, 2)
BOWL_AT, BOWL_INNER, BOWL_WALL = 0.095, (0.06, 0.06), 0.02
CUP_R = 0.034                  # the cup's outer radius
PUSH_H = 0.04                  # tcp height above the pivot while pushing the cup's wall sideways
MAX_STEP = 0.02
TIP = 115.0                    # degrees of tipping that empty the cup
HOVER = 0.17


class RobotPour(RobotEnv):
    """Tip the cup over the bowl of the named colour so its balls pour into that bowl.

    ## Description
    A cup holding small white balls sits on a post, on a sprung pivot that lets it tip left or
    right (it swings back upright when let go). Bowls stand beside the post. Push the cup over
    towards the bowl of the named colour until the balls roll out and fall into it; the task
    is done when every ball rests in that bowl for 3 steps. A ball that lands anywhere else
    fails the task.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (how far the cup is tipped the right way, balls in the
    bowl) each step, plus 1.0 on success (``max_return`` 2.0).

    ## Starting State
    The post on a lattice spot, the bowls on one or both sides and their colours from the
    seed, the balls at rest in the cup; the gripper open, 21 cm above the table.

    ## Episode End
    Terminates when every ball has rested in the named bowl for 3 steps, or (failure) when a
    ball comes to rest anywhere else.

    ## Arguments
    ``difficulty`` (0: one bowl, one ball; 1: bowls on both sides, one ball; 2: both sides,
    two balls), ``action_mode`` (``discrete``, ``parametric``), ``obs_size``,
    ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        d = self.difficulty
        x, y = float(rng.integers(-6, 7)) * 0.02, -0.12 + float(rng.integers(5, 12)) * 0.02
        colours = sample(rng, OBJECT_COLOURS, BOWLS[d] + 1)
        self.cup = scene.tipping_cup("cup", colours[-1], (x, y), BALLS[d])
        sides = [1.0, -1.0] if rng.random() < 0.5 else [-1.0, 1.0]
        self.bowls = [scene.bin(f"bowl{k}", c, (x + s * BOWL_AT, y), BOWL_INNER, BOWL_WALL)
                      for k, (c, s) in enumerate(zip(colours, sides[: BOWLS[d]]))]
        self.bowl, self.side = self.bowls[0], sides[0]
        self.balls: list[Part] = [p for p in scene.parts if p.kind == "ball"]

    # -- rules
    def _goal_text(self) -> str:
        return f"Tip the cup so its balls pour into the {self.bowl.colour} bowl."

    @property
    def tilt(self) -> float:
        """Degrees the cup is tipped towards the named bowl."""
        return float(np.degrees(self.joint("cup"))) * self.side

    def _ball_in(self, ball: Part, bowl: Part) -> bool:
        p, b = self.pos(ball), bowl.xy
        return bool(abs(p[0] - b[0]) < BOWL_INNER[0] and abs(p[1] - b[1]) < BOWL_INNER[1] and p[2] < BOWL_WALL + 0.005)

    def _goal_met(self) -> bool:
        return all(self._ball_in(b, self.bowl) and self.speed(b) < 0.02 for b in self.balls)

    def _failed(self) -> str | None:
        for b in self.balls:
            p = self.pos(b)
            if self._out_of_cup(b) and p[2] < 0.05 and self.speed(b) < 0.01 and not self._ball_in(b, self.bowl):
                return "a ball came to rest outside the named bowl"
        return None

    def _progress_now(self) -> float:
        inside = np.mean([self._ball_in(b, self.bowl) for b in self.balls])
        return 0.5 * float(np.clip(self.tilt / TIP, 0.0, 1.0)) * (1.0 - inside) + 1.0 * inside * 0.9

    # -- oracle
    def _out_of_cup(self, ball: Part) -> bool:
        """The ball has left the cup (judged in the cup's own frame)."""
        d, b = self.sim.data, self.sim.body[self.cup.name]
        local = d.xmat[b].reshape(3, 3).T @ (self.pos(ball) - d.xpos[b])
        return bool(local[2] > self.cup.extra["height"] + 0.006 or np.hypot(local[0], local[1]) > CUP_R + 0.006)

    def _plan(self) -> Target:
        if all(self._out_of_cup(b) for b in self.balls):
            return self.retreat()
        (cx, cy), s, pivot = self.cup.xy, self.side, self.cup.extra["pivot_z"]
        tcp = self.tcp
        over = cx + s * 0.04  # above the middle of the cup's far wall once it lies on its side
        engaged = (abs(tcp[1] - cy) < 0.01 and tcp[2] < pivot + PUSH_H + 0.012 and self._sp[2] < pivot + PUSH_H + 0.012
                   and -0.09 < s * (tcp[0] - cx) < 0.06)
        if not engaged:
            return self.travel((cx - s * (CUP_R + 0.035), cy, pivot + PUSH_H), 0.0, closed=True, height=HOVER)
        if s * (self._sp[0] - over) < -1e-6:  # push the wall sideways until the fingers are over it
            step = min(MAX_STEP, s * (over - self._sp[0]))
            return self.direct((self._sp[0] + s * step, cy, pivot + PUSH_H), 0.0, closed=True)
        return self.direct((over, cy, pivot + 0.005), 0.0, closed=True)  # then press it down and over

SPECS = (
    TaskSpec(name="RobotPour", entry_point=RobotPour, max_episode_steps=120, max_return=2.0,
             tags=("robotics", "manipulation", "3d", "physics", "pouring", "articulated")),
)
