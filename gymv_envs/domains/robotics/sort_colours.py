"""Sort by colour: put every block into the bin of its own colour."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import sample
from gymv_envs.domains.robotics._base import RobotEnv, Target
from gymv_envs.domains.robotics._scene import OBJECT_COLOURS, Part, Scene

BINS = (2, 2, 3)
BLOCKS = (2, 3, 4)


class RobotSortColours(RobotEnv):
    """Sort the blocks into the bins by colour.

    ## Description
    Coloured bins stand on a table and blocks of the same colours lie around them (every bin
    gets at least one block). Put each block into the bin of its colour; the task is done when
    every block rests inside its bin for 3 steps. A block dropped into the wrong bin must be
    taken out again.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (blocks sorted, the others' distances to their bins) each
    step, plus 1.0 on success (``max_return`` 2.0).

    ## Starting State
    Bins and blocks on lattice spots from the seed; the gripper open, 21 cm above the table.

    ## Episode End
    Terminates when every block has rested in its bin for 3 steps, or (failure) when a block
    falls off the table.

    ## Arguments
    ``difficulty`` (0: 2 bins, 2 blocks; 1: 2 bins, 3 blocks; 2: 3 bins, 4 blocks),
    ``action_mode`` (``discrete``, ``parametric``), ``obs_size``, ``render_mode``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        d = self.difficulty
        colours = sample(rng, OBJECT_COLOURS, BINS[d])
        spots = self.spots(rng, BINS[d], 0.04, y=(-0.10, 0.16), radius=0.08)
        self.bins = {c: scene.bin(f"bin{k}", c, xy) for k, (c, xy) in enumerate(zip(colours, spots))}
        wanted = colours + [colours[int(rng.integers(len(colours)))] for _ in range(BLOCKS[d] - BINS[d])]
        self.blocks: list[Part] = []
        for k, (c, xy) in enumerate(zip(wanted, self.spots(rng, BLOCKS[d], 0.06))):
            self.blocks.append(scene.block(f"block{k}", c, xy, yaw=float(rng.integers(-3, 3)) * 15.0))

    def _after_build(self) -> None:
        self._d0 = [max(0.05, self.dist_xy(b, self.bins[b.colour].xy)) for b in self.blocks]

    # -- rules
    def _goal_text(self) -> str:
        return "Put every block into the bin of its own colour."

    def _sorted(self, block: Part, margin: float = 0.0) -> bool:
        return self.in_bin(block, self.bins[block.colour], margin)

    def _goal_met(self) -> bool:
        return all(self._sorted(b) and self.speed(b) < 0.05 and not self.holding(b) for b in self.blocks)

    def _failed(self) -> str | None:
        return self.fell_off()

    def _progress_now(self) -> float:
        parts = [1.0 if self._sorted(b) else 0.7 * self.toward(b, self.bins[b.colour].xy, d0) + 0.1 * self.holding(b)
                 for b, d0 in zip(self.blocks, self._d0)]
        return float(np.mean(parts))

    # -- oracle
    def _plan(self) -> Target:
        held = next((b for b in self.blocks if self.holding(b)), None)
        todo = [b for b in self.blocks if not self._sorted(b, margin=0.01)]
        block = held or (min(todo, key=lambda b: self.dist_xy(b, self.tcp[:2])) if todo else None)
        if block is None:
            return self.retreat()
        bin_ = self.bins[block.colour]
        if self.holding(block):
            xy, yaw = self._free_corner(block, bin_)
            return self.place(block, xy, bin_.extra["z"] + 0.004, yaw=yaw)
        return self.pick(block)

    def _free_corner(self, block: Part, bin_: Part) -> tuple[tuple[float, float], float]:
        """A corner spot of the bin (2 cm off its centre on both axes) away from the blocks already
        in it, and the gripper yaw that keeps the fingers off the opposite corner."""
        inside = [self.pos(b)[:2] for b in self.blocks if b is not block and self._sorted(b)]
        corners = [(sx, sy) for sx in (-1, 1) for sy in (-1, 1)]
        spot = lambda c: (bin_.xy[0] + c[0] * 0.02, bin_.xy[1] + c[1] * 0.02)  # noqa: E731
        best = max(corners, key=lambda c: (min((np.hypot(spot(c)[0] - q[0], spot(c)[1] - q[1]) for q in inside), default=1.0),
                                           -round(float(np.hypot(spot(c)[0] - self._sp[0], spot(c)[1] - self._sp[1])), 4)))
        return spot(best), 45.0 if best[0] == best[1] else -45.0


SPECS = (
    TaskSpec(name="RobotSortColours", entry_point=RobotSortColours, max_episode_steps=450, max_return=2.0,
             tags=("robotics", "manipulation", "3d", "physics", "sorting", "multi-stage")),
)
