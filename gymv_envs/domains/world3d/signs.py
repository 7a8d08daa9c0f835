"""Signs: read a sign (face it and interact) and follow what it says."""

from __future__ import annotations

from typing import Any

import numpy as np

from gymv_envs.core import Outcome, TaskSpec
from gymv_envs.domains.world3d._base import World3DEnv, one_of
from gymv_envs.domains.world3d._world import HEADINGS, THING_COLOURS, make_layout

MODES = ("pad", "trail", "switch")
PADS = (3, 4, 5)
TRAIL = (2, 3, 4)      # signs in a trail
SWITCHES = (3, 4, 5)


class Signs(World3DEnv):
    """Read a sign and do what it says.

    ## Description
    Signs are boards on posts with a coloured band; what a sign says is written on the board
    (painted into the scene's textures, legible from a couple of metres). A sign counts as read
    once you have faced it from up close (its surface within 2 m) or interacted with it. ``mode="pad"``: the sign names one of several coloured floor pads; stand on it.
    Standing on another pad fails. ``"trail"``: each sign names the band colour of the next
    sign; the last one names the pad to stand on (a multi-stage trail). ``"switch"``: the sign
    names which of several switches unlocks the exit gate; press it and walk into the gate
    (a wrong switch fails).

    ## Action Space
    ``discrete``: `Discrete(10)` (move_forward, move_backward, rotate_left, rotate_right
    (30 degrees), strafe_left, strafe_right (1 m under physics), interact, wait, look_up,
    look_down); ``parametric``: `Box(6)`: maneuver, duration, joystick x, y, turn, look (see
    ``action_prompt`` and `World3DEnv`); ``locomotion="grid"``: one cell per move, 90-degree turns.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the first-person MuJoCo view with captions;
    ``render_view("left"/"right")`` are the peripheral cameras.

    ## Rewards
    1.0 on success, else 0.0 (``max_return`` 1.0); ``info["progress"]`` counts signs read.

    ## Starting State
    World (rooms, or a maze for ``trail``), signs, pads, switches and the messages come from
    the seed; the first sign is far from the start.

    ## Episode End
    Terminates on success or on a wrong pad / wrong switch (failure). Walls and objects block
    the way (physics); interacting with nothing does nothing.

    ## Arguments
    ``mode`` (``pad``, ``trail``, ``switch``), ``world`` (layout preset, default ``rooms``),
    ``difficulty`` (0-2: size, pads, signs, switches), ``fov``, ``camera_height``, ``pitch``,
    ``locomotion``, ``buffers``, ``theme_split``, ``action_mode``, ``instruction_level``, ``obs_size``, ``render_mode``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding; the agent moves continuously on MuJoCo physics (30-degree turns,
      look up/down, a parametric joystick), blocked moves are not invalid, textured seeded
      themes, the deadlock signal, sub-goal instructions, ``locomotion="grid"`` for the old moves.
      Defaults that discriminate: SignPad defaults to difficulty 1 (random play reached the pad on
      20% of the difficulty-0 levels, 0% at 1).
    - v2 (World3DSignSwitch only; the other Signs ids stay at v1): defaults to difficulty 1.
      Random play reached the switch's goal on 12.5% of the difficulty-0 levels (0% at 1 and 2,
      40 seeds), more than world3d's 10%; the levels of each difficulty are unchanged.
    """

    def __init__(self, mode: str = "pad", world: str = "rooms", **kwargs: Any) -> None:
        self.mode = one_of("mode", mode, MODES)
        self.world = one_of("world", world, ("rooms", "maze", "open"))
        super().__init__(**kwargs)

    # -- generate
    def _build(self, rng: np.random.Generator) -> None:
        d = self.difficulty
        self._begin(make_layout(rng, self.world, d))
        colours = [THING_COLOURS[int(i)] for i in rng.permutation(len(THING_COLOURS))]
        n_signs = TRAIL[d] if self.mode == "trail" else 1
        self.signs = [self.place(rng, "sign", colour=colours[k]) for k in range(n_signs)]
        self.pads, self.switches, self.exit = [], [], None
        if self.mode == "switch":
            self.switches = [self.place(rng, "switch", colour=c) for c in colours[n_signs:n_signs + SWITCHES[d]]]
            self.exit = self.place(rng, "exit", state={"locked": True})
            self.answer = self.switches[int(rng.integers(len(self.switches)))]
        else:
            # pads never cut the way: the oracle walks around them
            self.pads = [self.place(rng, "pad", obstacle=True, colour=c) for c in colours[n_signs:n_signs + PADS[d]]]
            self.answer = self.pads[int(rng.integers(len(self.pads)))]
        self.read = 0          # signs read so far, in trail order
        for i in self.signs:   # boards face the most open side
            e = self.things[i]
            e.yaw = max(range(4), key=lambda h: (self._run(e.cell, h), -h)) * np.pi / 2
        self.far_start(rng, self.adjacent_free(self.things[self.signs[0]].cell), frac=0.5)

    def _run(self, cell: tuple[int, int], h: int) -> int:
        dr, dc = HEADINGS[h]
        k = 1
        while k < 6 and self.passable((cell[0] + k * dr, cell[1] + k * dc)):
            k += 1
        return k

    def _message(self, k: int) -> tuple[str, ...]:
        if k + 1 < len(self.signs):
            return ("GO TO THE SIGN", f"WITH THE {self.things[self.signs[k + 1]].colour.upper()} BAND")
        target = self.things[self.answer]
        if self.mode == "switch":
            return (f"THE {target.colour.upper()} SWITCH", "OPENS THE GATE")
        return ("STAND ON THE", f"{target.colour.upper()} PAD")

    def _texts(self) -> dict[int, tuple[str, ...]]:
        return {i: self._message(k) for k, i in enumerate(self.signs)}

    def _look(self) -> Outcome | None:
        """Reading: the next sign of the trail, faced from up close."""
        if self.read < len(self.signs):
            i = self.signs[self.read]
            e = self.things[i]
            dx, dy = e.pos[0] - self.x, e.pos[1] - self.y
            if self.surface_distance(i) <= 2.0 and abs(np.angle(np.exp(1j * (np.arctan2(dy, dx) - self.yaw)))) <= np.radians(30):
                self.read += 1
                return Outcome(feedback=f"read the {e.name}")
        return None

    # -- rules
    def _interact(self, i: int | None) -> Outcome | None:
        if i is None:
            return None
        e = self.things[i]
        if e.kind == "sign":
            k = self.signs.index(i)
            if k == self.read:
                self.read += 1
            return Outcome(feedback=f"looked closely at the {e.name}")
        if e.kind == "switch" and not e.lit:
            e.lit = True
            if i != self.answer:
                return Outcome(terminated=True, feedback=f"pressed the {e.name}: the wrong switch, the gate stays locked")
            self.things[self.exit].lit = True
            return Outcome(feedback="pressed the switch; the exit gate unlocks")
        return None

    def _enter(self) -> Outcome | None:
        seen = self._look()
        here = next((i for i in self.pads if self.on(i)), None)
        if here is not None:
            if here == self.answer and self.read == len(self.signs):
                return self.win(f"stood on the {self.things[here].name}")
            if self.read == len(self.signs):
                return Outcome(terminated=True, feedback=f"stood on the {self.things[here].name}: the wrong pad")
        if self.exit is not None and self.on(self.exit) and self.things[self.exit].lit:
            return self.win("left through the exit gate")
        return seen

    def _progress(self) -> float:
        pressed = self.exit is not None and self.things[self.exit].lit
        return (self.read + pressed) / (len(self.signs) + 2)

    def _goal_text(self) -> str:
        first = self.things[self.signs[0]].name
        what = {"pad": "It tells you which coloured floor pad to stand on; stepping on a wrong pad after reading fails.",
                "trail": "It starts a trail: each sign names the next sign, and the last one names the coloured floor "
                         "pad to stand on; stepping on a wrong pad after the last sign fails.",
                "switch": "It tells you which switch unlocks the green exit gate; press it (face it and interact) and "
                          "walk into the gate. A wrong switch fails."}[self.mode]
        return (f"Find the {first} (a board on a post with a {self.things[self.signs[0]].colour} band) and read what "
                f"is written on it (walk up close and face it). {what}")

    def _caption(self) -> list:
        then = {"pad": "go to the pad it names", "trail": "follow the trail of signs",
                "switch": "press the switch it names, exit"}[self.mode]
        return [f"Read the {self.things[self.signs[0]].name}, {then}"]

    def _extra_state(self) -> str:
        return f"Signs read: {self.read} of {len(self.signs)}."

    def _key_things(self) -> list[int]:
        return self.signs[:1]

    def _flags(self) -> tuple:
        return (self.read,)

    def _subgoals(self) -> list[str]:
        first = self.things[self.signs[0]].name
        then = {"pad": ["Stand on the pad the sign names"],
                "trail": ["Go to the sign it names and read that one, and so on to the last sign",
                          "Stand on the pad the last sign names"],
                "switch": ["Press the switch the sign names", "Walk into the green exit gate"]}[self.mode]
        return [f"Find the {first}", "Walk up to it and read it"] + then

    # -- oracle
    def _target(self) -> tuple:
        if self.read < len(self.signs):
            return ("use", self.signs[self.read])
        if self.mode == "switch":
            if not self.things[self.exit].lit:
                return ("use", self.answer)
            return ("on", self.exit)
        return ("on", self.answer)

    def _next_steps(self) -> list:
        # never step on a pad on the way (a wrong pad after reading ends the episode)
        pads = [self.things[i] for i in self.pads if i != self.answer or self.read < len(self.signs)]
        saved = [(e, e.kind) for e in pads]
        for e in pads:
            e.kind = "box"  # solid while planning
        try:
            return super()._next_steps()
        finally:
            for e, kind in saved:
                e.kind = kind


_TAGS = ("world3d", "3d", "first-person", "interaction", "reading")
SPECS = (
    TaskSpec(name="World3DSignPad", entry_point=Signs, version=1, max_episode_steps=240, tags=_TAGS,
             kwargs={"mode": "pad", "difficulty": 1}),
    TaskSpec(name="World3DSignPadMaze", entry_point=Signs, version=1, max_episode_steps=300, tags=_TAGS,
             kwargs={"mode": "pad", "world": "maze"}),
    TaskSpec(name="World3DSignTrail", entry_point=Signs, version=1, max_episode_steps=360,
             tags=(*_TAGS, "multi-stage"), kwargs={"mode": "trail", "world": "maze"}),
    TaskSpec(name="World3DSignSwitch", entry_point=Signs, version=2, max_episode_steps=300,
             tags=(*_TAGS, "multi-stage"), kwargs={"mode": "switch", "difficulty": 1}),
)
