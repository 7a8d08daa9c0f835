"""Align in a row: put one block on each square of a marked row."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import choice
from gymv_envs.domains.robotics._base import RobotEnv, Target
from gymv_envs.domains.robotics._scene import OBJECT_COLOURS, Part, Scene

SLOTS = (2, 3, 3)
SPACING = 0.10
TOLERANCE = (0.025, 0.02, 0.015)


class RobotAlignRow(RobotEnv):
    """Line the blocks up: one block on each square marker of a row.

    ## Description
    A row of flat square markers is drawn on the table (along x or along y) and as many blocks
    lie scattered around. Put one block on each marker, centred within a tolerance, so that the
    blocks stand in a row; any block may go on any marker. The row is done when every marker
    holds a resting block for 3 steps.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (markers covered, the nearest blocks' distances to the free
    markers) each step, plus 1.0 on success (``max_return`` 2.0).

    ## Starting State
    The row (direction and place) and the blocks on lattice spots from the seed; the gripper
    open, 21 cm above the table.

    ## Episode End
    Terminates when every marker has held a block for 3 steps, or (failure) when a block falls
    off the table.

    ## Arguments
    ``difficulty`` (0: two markers, 2.5 cm tolerance; 1: three, 2 cm; 2: three, 1.5 cm, with two
    distractor cylinders that must not go on the markers), ``action_mode`` (``discrete``,
    ``parametric``), ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        d, n = self.difficulty, SLOTS[self.difficulty]
        along_x = bool(rng.random() < 0.5)
        span = SPACING * (n - 1)
        if along_x:
            x0, y0 = (round(-span / 2 / 0.02) + float(rng.integers(-2, 3))) * 0.02, -0.12 + float(rng.integers(1, 14)) * 0.02
            row = [(round(x0 + k * SPACING, 4), y0) for k in range(n)]
        else:
            x0, y0 = float(rng.integers(-10, 11)) * 0.02, -0.12 + float(rng.integers(0, 3)) * 0.02
            row = [(x0, round(y0 + k * SPACING, 4)) for k in range(n)]
        colour = choice(rng, OBJECT_COLOURS)
        self.slots = [scene.pad(f"slot{k}", colour, xy, half=(0.028, 0.028)) for k, xy in enumerate(row)]
        for xy in row:
            self.reserve(xy, 0.03)
        looks = [(choice(rng, [c for c in OBJECT_COLOURS if c != colour]), "block") for _ in range(n)]
        self.blocks: list[Part] = self.scatter(rng, scene, looks, gap=0.07, prefix="block")
        self.others = self.scatter(rng, scene, [(colour, "cylinder")] * (2 if d == 2 else 0), gap=0.07, prefix="cyl")
        self.colour = colour

    def _after_build(self) -> None:
        self._d0 = max(0.05, float(np.mean([min(self.dist_xy(b, s.xy) for s in self.slots) for b in self.blocks])))

    # -- rules
    def _goal_text(self) -> str:
        return f"Put one block on each {self.colour} square so the blocks stand in a row."

    def _on(self, part: Part, slot: Part, tol: float) -> bool:
        return self.dist_xy(part, slot.xy) <= tol and self.extent(part)[0] < 0.01 and not self.holding(part)

    def _covered(self, slot: Part, tol: float) -> Part | None:
        return next((b for b in self.blocks if self._on(b, slot, tol)), None)

    def _goal_met(self) -> bool:
        tol = TOLERANCE[self.difficulty]
        return all(self._covered(s, tol) is not None for s in self.slots) and not any(
            self.touching(b) for b in self.blocks) and all(self.speed(b) < 0.03 for b in self.blocks)

    def _failed(self) -> str | None:
        return self.fell_off()

    def _progress_now(self) -> float:
        tol = TOLERANCE[self.difficulty]
        free = [s for s in self.slots if self._covered(s, tol) is None]
        loose = [b for b in self.blocks if not any(self._on(b, s, tol) for s in self.slots)]
        near = [self.toward(b, min(free, key=lambda s: self.dist_xy(b, s.xy)).xy, self._d0) for b in loose] if free else []
        return (len(self.slots) - len(free) + 0.7 * sum(sorted(near)[::-1][:len(free)])) / len(self.slots)

    # -- oracle
    def _plan(self) -> Target:
        tol = min(TOLERANCE[self.difficulty], 0.012)
        held = next((b for b in self.blocks if self.holding(b)), None)
        free = [s for s in self.slots if self._covered(s, tol) is None]
        if not free:
            return self.retreat()
        loose = [b for b in self.blocks if not any(self._on(b, s, tol) for s in self.slots)]
        block = held or min(loose, key=lambda b: min(self.dist_xy(b, s.xy) for s in free))
        slot = min(free, key=lambda s: self.dist_xy(block, s.xy))
        return self.carry(block, slot.xy, 0.0)


SPECS = (
    TaskSpec(name="RobotAlignRow", entry_point=RobotAlignRow, max_episode_steps=300, max_return=2.0,
             tags=("robotics", "manipulation", "3d", "physics", "arrangement", "multi-stage")),
)
