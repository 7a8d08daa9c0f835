"""Buttons: press the button of a named colour, or press several in a named order."""

from __future__ import annotations

from typing import Any

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import sample
from gymv_envs.domains.robotics._base import RobotEnv, Target
from gymv_envs.domains.robotics._scene import OBJECT_COLOURS, Part, Scene

MODES = ("one", "sequence")
BUTTONS = {"one": (2, 3, 4), "sequence": (3, 4, 5)}
LENGTH = {"one": (1, 1, 1), "sequence": (2, 3, 4)}
PRESSED = -0.007      # cap travel (m) that counts as a press (full travel 12 mm)
HOVER = 0.07          # tcp height between presses


class RobotButtons(RobotEnv):
    """Press coloured push buttons: one named button, or a named sequence.

    ## Description
    Push buttons (a grey housing with a coloured cap on a sprung slide joint) stand on a table.
    ``mode="one"``: press the button of the named colour and hold it down for 3 steps.
    ``mode="sequence"``: press the named buttons one after the other in the stated order and
    hold the last one down for 3 steps. A press counts when the cap goes down 7 mm; pressing a
    button out of turn fails the task.

    ## Action Space
    ``discrete``: `Discrete(11)` (move_left/right/forward/back/up/down by 2 cm, yaw_left/right by
    15 degrees, open, close, wait); ``parametric``: `Box(5)`: dx, dy, dz (metres, at most 0.04),
    dyaw (degrees, at most 30), grip (> 0.5 close, < -0.5 open).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the fixed front camera; ``render_view("wrist")`` is the
    camera on the gripper looking down between the fingers.

    ## Rewards
    The change of a shaped progress (buttons pressed in order, closeness to the next one) each
    step, plus 1.0 on success (``max_return`` 2.0).

    ## Starting State
    Buttons on lattice spots with distinct colours from the seed; the gripper open, 21 cm above
    the table.

    ## Episode End
    Terminates when the last button has been held down for 3 steps, or (failure) when a button
    is pressed out of turn.

    ## Arguments
    ``mode`` (``one``, ``sequence``), ``difficulty`` (``one``: 2, 3 or 4 buttons; ``sequence``:
    2 of 3, 3 of 4 or 4 of 5 buttons), ``action_mode`` (``discrete``, ``parametric``),
    ``obs_size``, ``render_mode``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1: with ``text_in_image``, the caption starts with a colour swatch per named button.
    """

    def __init__(self, mode: str = "one", **kwargs: Any) -> None:
        if mode not in MODES:
            raise ValueError(f"invalid mode={mode!r}; valid values: {', '.join(MODES)}")
        self.mode = mode
        super().__init__(**kwargs)

    # -- generate
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        d = self.difficulty
        colours = sample(rng, OBJECT_COLOURS, BUTTONS[self.mode][d])
        spots = self.spots(rng, len(colours), 0.05, radius=0.04)
        self.buttons: list[Part] = [scene.button(f"button{k}", c, xy) for k, (c, xy) in enumerate(zip(colours, spots))]
        self.order = self.buttons[: LENGTH[self.mode][d]]
        self.presses: list[Part] = []
        self._down: set[str] = set()

    def _after_build(self) -> None:
        self._d0 = max(0.05, float(np.linalg.norm(self.tcp - self._cap_top(self.order[0]))))

    def _cap_top(self, b: Part) -> np.ndarray:
        p = self.pos(b)
        return np.array([p[0], p[1], p[2] + 0.008])

    def _pressed(self, b: Part) -> bool:
        return self.joint(b.name) < PRESSED

    def _after_physics(self) -> None:
        down = {b.name for b in self.buttons if self._pressed(b)}
        self.presses += [b for b in self.buttons if b.name in down - self._down]
        self._down = down

    # -- rules
    def _goal_text(self) -> str:
        if self.mode == "one":
            return f"Press the {self.order[0].colour} button and hold it down."
        names = ", then ".join(b.colour for b in self.order)
        return f"Press the buttons in this order: {names}; hold the last one down."

    def _caption(self) -> list:
        """A swatch of each named colour, in order, before the words: at RL sizes (84x84) the words are
        too small to read, so the swatches carry which button to press."""
        return [*((("square", b.colour)) for b in self.order), self._goal_text()]

    def _in_order(self) -> bool:
        return [b.name for b in self.presses] == [b.name for b in self.order[: len(self.presses)]]

    def _goal_met(self) -> bool:
        return len(self.presses) == len(self.order) and self._in_order() and self._pressed(self.order[-1])

    def _failed(self) -> str | None:
        if not self._in_order():
            return f"pressed the {self.presses[-1].colour} button out of turn"
        return None

    def _progress_now(self) -> float:
        done = min(len(self.presses), len(self.order))
        if done == len(self.order):
            return 1.0
        near = max(0.0, 1.0 - float(np.linalg.norm(self.tcp - self._cap_top(self.order[done]))) / self._d0)
        return (done + 0.8 * near) / len(self.order)

    # -- oracle
    def _plan(self) -> Target:
        done = len(self.presses)
        if done and self.presses[-1].name != self.order[-1].name and self._pressed(self.presses[-1]):
            return self.direct((self._sp[0], self._sp[1], HOVER), closed=True, up=True)  # let go of it
        button = self.order[min(done, len(self.order) - 1)]
        top = self._cap_top(button)
        return self.travel((top[0], top[1], top[2] - 0.022), closed=True, height=HOVER)


_TAGS = ("robotics", "manipulation", "3d", "physics", "buttons")
SPECS = (
    TaskSpec(name="RobotPressButton", version=1, entry_point=RobotButtons, max_episode_steps=80, max_return=2.0,
             tags=_TAGS, kwargs={"mode": "one"}),
    TaskSpec(name="RobotButtonSequence", version=1, entry_point=RobotButtons, max_episode_steps=150, max_return=2.0,
             tags=(*_TAGS, "multi-stage"), kwargs={"mode": "sequence"}),
)
