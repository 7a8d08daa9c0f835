"""Pick by relation: lift the block that stands in the stated direction of a named cup."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import sample
from gymv_envs.domains.robotics._base import LIFT_Z, RobotEnv, Target
from gymv_envs.domains.robotics._scene import OBJECT_COLOURS, Part, Scene

# direction name -> unit offset (x right, y away from the camera), as seen in the front view
DIRECTIONS = {"left of": (-1, 0), "right of": (1, 0), "in front of": (0, -1), "behind": (0, 1)}
BLOCKS = (2, 3, 4)
OFFSET = 0.12
LIFT = 0.06


class RobotPickRelation(RobotEnv):
    """Lift the block described by its place relative to a cup ("the block left of the red cup").

    ## Description
    A cup stands on the table with blocks around it, one per direction (left, right, in front,
    behind, as seen from the camera); other cups stand elsewhere. The instruction names the cup
    by colour and a direction; lift the block in that direction at least 6 cm above the table
    and hold it for 3 steps. Lifting another block or a cup fails. At difficulty 2 all the
    blocks share one colour, so only the relation tells them apart.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (reaching, holding and raising the right block) each step,
    plus 1.0 on success (``max_return`` 2.0).

    ## Starting State
    The named cup near the middle, its blocks 12 cm away in their directions, other cups at
    least 25 cm from it, all from the seed; the gripper open, 21 cm above the table.

    ## Episode End
    Terminates when the right block has been held up for 3 steps, or (failure) when another
    object is lifted or falls off the table.

    ## Arguments
    ``difficulty`` (0: two blocks of different colours, one other cup; 1: three blocks, two
    other cups; 2: four blocks of one colour, two other cups), ``action_mode`` (``discrete``,
    ``parametric``), ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        d = self.difficulty
        colours = sample(rng, OBJECT_COLOURS, 3 + BLOCKS[d])
        ax, ay = float(rng.integers(-4, 5)) * 0.02, -0.12 + float(rng.integers(5, 9)) * 0.02
        self.anchor = scene.mug("cup0", colours[0], (ax, ay), yaw=float(rng.integers(0, 24)) * 15.0)
        self.reserve((ax, ay), 0.2)
        names = sample(rng, list(DIRECTIONS), BLOCKS[d])
        self.relation = names[0]
        self.blocks: list[Part] = []
        for k, name in enumerate(names):
            dx, dy = DIRECTIONS[name]
            colour = colours[3] if d == 2 else colours[3 + k]
            yaw = float(rng.integers(-3, 3)) * 15.0
            self.blocks.append(scene.block(f"block{k}", colour, (round(ax + dx * OFFSET, 4), round(ay + dy * OFFSET, 4)), yaw=yaw))
        others = 1 if d == 0 else 2
        self.cups = [self.anchor] + [scene.mug(f"cup{k + 1}", colours[1 + k], xy, yaw=float(rng.integers(0, 24)) * 15.0)
                                     for k, xy in enumerate(self.spots(rng, others, 0.05, y=(-0.18, 0.2), x=(-0.28, 0.28)))]
        self.target = self.blocks[0]

    def _after_build(self) -> None:
        self._r0 = max(0.05, float(np.linalg.norm(self.tcp - self.pos(self.target))))

    # -- rules
    def _goal_text(self) -> str:
        return f"Pick up the block {self.relation} the {self.anchor.colour} cup and hold it up."

    def _lifted(self, part: Part, height: float) -> bool:
        return self.extent(part)[0] >= height and self.holding(part)

    def _goal_met(self) -> bool:
        return self._lifted(self.target, LIFT)

    def _failed(self) -> str | None:
        for p in [*self.blocks[1:], *self.cups]:
            if self._lifted(p, 0.02):
                return f"lifted the {p.label}, not the block {self.relation} the {self.anchor.label}"
        return self.fell_off()

    def _progress_now(self) -> float:
        reach = max(0.0, 1.0 - float(np.linalg.norm(self.tcp - self.pos(self.target))) / self._r0)
        if not self.holding(self.target):
            return 0.3 * reach
        return 0.4 + 0.6 * min(1.0, max(0.0, self.extent(self.target)[0]) / LIFT)

    # -- oracle
    def _plan(self) -> Target:
        if not self.holding(self.target):
            return self.pick(self.target)
        return self.direct((self._sp[0], self._sp[1], LIFT_Z))


SPECS = (
    TaskSpec(name="RobotPickRelation", entry_point=RobotPickRelation, max_episode_steps=100, max_return=2.0,
             tags=("robotics", "manipulation", "3d", "physics", "spatial-relations", "grounding")),
)
