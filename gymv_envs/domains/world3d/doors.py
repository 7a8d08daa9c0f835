"""Doors: press a switch (or fetch a key) to open a door, go through, reach the exit."""

from __future__ import annotations

from typing import Any

import numpy as np

from gymv_envs.core import Outcome, TaskSpec
from gymv_envs.domains.world3d._base import World3DEnv, one_of
from gymv_envs.domains.world3d._world import HEADINGS, THING_COLOURS, Ent, room_grid

MODES = ("switch", "colour", "key", "mixed")
DOORS = {"switch": (1, 2, 3), "colour": (1, 1, 2), "key": (1, 2, 3), "mixed": (2, 3, 3)}
MIXED = ("switch", "key", "colour")  # mixed mode: door k is opened like MIXED[k]
SWITCHES = (2, 3, 4)   # colour mode: switches per door
ROOM = (4, 4, 5)


class Doors(World3DEnv):
    """Open the doors between rooms and reach the exit.

    ## Description
    A row of rooms joined by doorways, each doorway shut by a coloured door; the green exit
    gate stands in the last room. ``mode="switch"``: a switch (a post with a coloured frame and
    a red lamp) in each room opens the door of its colour; pressing it (face it and interact)
    turns its lamp green. ``"colour"``: several switches of different colours stand in each
    room, and only the one matching the door's colour opens it. ``"key"``: a small key item of
    the door's colour lies in each room; carry it to the door and interact to unlock it.
    ``"mixed"``: the doors alternate between those three mechanisms.
    Difficulty adds doors (stages), switches and room size.

    ## Action Space
    ``discrete``: `Discrete(10)` (move_forward, move_backward, rotate_left, rotate_right
    (30 degrees), strafe_left, strafe_right (1 m under physics), interact, wait, look_up,
    look_down); ``parametric``: `Box(6)`: maneuver, duration, joystick x, y, turn, look (see
    ``action_prompt`` and `World3DEnv`); ``locomotion="grid"``: one cell per move, 90-degree turns.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the first-person MuJoCo view; ``render_view("left"/
    "right")`` are the peripheral cameras.

    ## Rewards
    1.0 on stepping into the exit gate, else 0.0 (``max_return`` 1.0); ``info["progress"]``
    counts the doors opened.

    ## Starting State
    The agent starts in the first room; layout, colours and positions come from the seed.

    ## Episode End
    Terminates on reaching the exit. Pressing a wrong switch does nothing but costs a step;
    walls, closed doors and objects block the way (physics; not invalid actions).

    ## Arguments
    ``mode`` (``switch``, ``colour``, ``key``, ``mixed``: door by door switch, key, colour
    switch), ``difficulty`` (0-2: 1-3 doors, more
    switches, bigger rooms), ``fov``, ``camera_height``, ``pitch``, ``locomotion``, ``buffers``, ``theme_split``,
    ``action_mode``, ``instruction_level``, ``obs_size``, ``render_mode``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding; the agent moves continuously on MuJoCo physics (30-degree turns,
      look up/down, a parametric joystick), blocked moves are not invalid, textured seeded
      themes, the deadlock signal, sub-goal instructions, ``locomotion="grid"`` for the old moves.
    """

    def __init__(self, mode: str = "switch", **kwargs: Any) -> None:
        self.mode = one_of("mode", mode, MODES)
        super().__init__(**kwargs)

    # -- generate
    def _build(self, rng: np.random.Generator) -> None:
        d, n = self.difficulty, DOORS[self.mode][self.difficulty]
        self._begin(room_grid(rng, 1, n + 1, ROOM[d]))
        colours = [THING_COLOURS[int(i)] for i in rng.permutation(len(THING_COLOURS))]
        doorways = sorted(self.layout.doorways, key=lambda dw: dw[0][1])
        near_doors = [(r + dr, c + dc) for (r, c), _ in doorways for dr, dc in HEADINGS]
        self.doors, self.openers = [], []
        for k, (cell, axis) in enumerate(doorways):
            self.doors.append(len(self.things))
            self.things.append(Ent("door", cell, colour=colours[k], axis=axis))
        self.mech = [MIXED[k % 3] if self.mode == "mixed" else self.mode for k in range(n)]
        for k, door in enumerate(self.doors):
            room = self.layout.free_cells(k)
            colour = self.things[door].colour
            if self.mech[k] == "key":
                self.openers.append(self.place(rng, "item", room, keep_free=near_doors, colour=colour, shape="diamond"))
                continue
            count = SWITCHES[d] if self.mech[k] == "colour" else 1
            others = [c for c in colours if c != colour]
            looks = [colour] + [others[int(i)] for i in rng.permutation(len(others))[: count - 1]]
            ids = [self.place(rng, "switch", room, keep_free=near_doors, colour=c) for c in looks]
            self.openers.append(ids[0])
        self.exit = self.place(rng, "exit", self.layout.free_cells(n), keep_free=near_doors)
        self.far_start(rng, [doorways[0][0]], frac=0.5, cells=self.layout.free_cells(0))

    # -- rules
    def _interact(self, i: int | None) -> Outcome | None:
        if i is None:
            return None
        e = self.things[i]
        if e.kind == "switch" and not e.lit:
            e.lit = True
            door = next((self.things[k] for k in self.doors if self.things[k].colour == e.colour), None)
            if door is None:
                return Outcome(feedback=f"pressed the {e.name}; nothing seems to open")
            door.lit = True
            return Outcome(feedback=f"pressed the {e.name}; the {door.name} opens")
        if e.kind == "item" and self.carrying is None:
            e.hidden, self.carrying = True, i
            return Outcome(feedback=f"picked up the {e.colour} key")
        if e.kind == "door" and not e.lit and self.carrying is not None:
            held = self.things[self.carrying]
            if held.colour != e.colour:
                return Outcome(feedback=f"the {held.colour} key does not fit the {e.name}")
            e.lit, self.carrying = True, None
            return Outcome(feedback=f"unlocked the {e.name}")
        return None

    def _enter(self) -> Outcome | None:
        if self.on(self.exit):
            return self.win("went through the exit gate")
        return None

    def _progress(self) -> float:
        return sum(self.things[k].lit for k in self.doors) / (len(self.doors) + 1)

    def _caption(self) -> list:
        return [f"Open {len(self.doors)} door{'s' * (len(self.doors) > 1)} ({self.mode}), reach the green gate"]

    def _goal_text(self) -> str:
        how = {"switch": "Each door is opened by pressing the switch of the same colour (face it and interact).",
               "colour": "Each door is opened only by the switch of the same colour (face it and interact); other "
                         "switches do nothing.",
               "key": "Each door is locked: pick up the key of the door's colour (face it and interact), then face "
                      "the door and interact to unlock it. You can carry one key at a time.",
               "mixed": "Some doors open with the switch of the same colour (face it and interact; other switches do "
                        "nothing); others are locked: carry the key (a small diamond) of the door's colour to it and "
                        "interact."}[self.mode]
        return (f"Reach the green exit gate beyond {len(self.doors)} closed door{'s' * (len(self.doors) > 1)}. {how} "
                "Walk into the gate to finish.")

    def _extra_state(self) -> str:
        shut = [self.things[k].colour for k in self.doors if not self.things[k].lit]
        return f"Closed doors: {', '.join(shut) or 'none'}."

    def _key_things(self) -> list[int]:
        return [self.openers[0], self.exit]

    def _subgoals(self) -> list[str]:
        out = []
        for door, mech in zip(self.doors, self.mech):
            colour = self.things[door].colour
            if mech == "key":
                out += [f"Pick up the {colour} key", f"Unlock the {colour} door with it"]
            else:
                out.append(f"Press the {colour} switch to open the {colour} door")
            out.append(f"Go through the {colour} door")
        return out + ["Walk into the green exit gate"]

    # -- oracle
    def _target(self) -> tuple:
        for door, opener in zip(self.doors, self.openers):
            if self.things[door].lit:
                continue
            if self.carrying == opener:
                return ("use", door)
            return ("use", opener)
        return ("on", self.exit)


_TAGS = ("world3d", "3d", "first-person", "interaction", "multi-stage")
SPECS = (
    TaskSpec(name="World3DSwitchDoor", entry_point=Doors, version=1, max_episode_steps=240, tags=_TAGS,
             kwargs={"mode": "switch"}),
    TaskSpec(name="World3DColourSwitch", entry_point=Doors, version=1, max_episode_steps=240, tags=_TAGS,
             kwargs={"mode": "colour"}),
    TaskSpec(name="World3DDoorsMixed", entry_point=Doors, version=1, max_episode_steps=360, tags=_TAGS,
             kwargs={"mode": "mixed"}),
    TaskSpec(name="World3DKeyDoor", entry_point=Doors, version=1, max_episode_steps=300, tags=_TAGS,
             kwargs={"mode": "key"}),
)
