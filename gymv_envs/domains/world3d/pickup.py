"""Pickup: find and pick up items, collect by colour or all, collect health kits, put next to."""

from __future__ import annotations

from typing import Any

import numpy as np

from gymv_envs.core import Outcome, TaskSpec
from gymv_envs.domains.world3d._base import World3DEnv, one_of
from gymv_envs.domains.world3d._world import THING_COLOURS, WORLDS, make_layout, pick_looks

MODES = ("one", "colour", "all", "health", "putnext")
ITEMS = {"one": (3, 4, 6), "colour": (4, 6, 8), "all": (3, 5, 7), "health": (3, 5, 7), "putnext": (2, 3, 4)}
WANTED = {"colour": (2, 3, 4)}
LANDMARKS = (2, 3, 3)


class Pickup(World3DEnv):
    """Find and collect items in a 3D world.

    ## Description
    Small items (coloured shapes on the floor) are spread over a generated world (``world``).
    ``mode="one"``: pick up the named item (distractors share its colour or shape at
    difficulty 1-2). ``"colour"``: collect every item of the named colour and none of the
    others. ``"all"``: collect every item (MiniWorld PickupObjects). ``"health"``: walk over
    every health kit (white boxes with a red cross; MiniWorld CollectHealth). ``"putnext"``:
    pick up the named item and drop it on a square next to the named landmark (MiniWorld
    PutNext); ``interact`` facing an empty square drops what you hold. Big landmarks help
    orientation.

    ## Action Space
    ``discrete``: `Discrete(10)` (move_forward, move_backward, rotate_left, rotate_right
    (30 degrees), strafe_left, strafe_right (1 m under physics), interact, wait, look_up,
    look_down); ``parametric``: `Box(6)`: maneuver, duration, joystick x, y, turn, look (see
    ``action_prompt`` and `World3DEnv`); ``locomotion="grid"``: one cell per move, 90-degree turns.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the first-person MuJoCo view, with "holding: ..." written
    at the top while carrying; ``render_view("left"/"right")`` are the peripheral cameras.

    ## Rewards
    1.0 when the task is complete, else 0.0 (``max_return`` 1.0); ``info["progress"]`` counts
    the items collected.

    ## Starting State
    Layout, items, landmarks and start from the seed; the start is far from the first target.

    ## Episode End
    Terminates on success, or (failure) on picking up an item that is not wanted. Walls and
    objects block the way (physics); interacting with nothing does nothing.

    ## Arguments
    ``mode`` (``one``, ``colour``, ``all``, ``health``, ``putnext``), ``world`` (a layout preset
    as in GoTo), ``difficulty`` (0-2: size, items, distractors), ``fov``, ``camera_height``,
    ``pitch``, ``locomotion``, ``buffers``, ``theme_split``, ``action_mode``, ``instruction_level``, ``obs_size``,
    ``render_mode``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding; the agent moves continuously on MuJoCo physics (30-degree turns,
      look up/down, a parametric joystick), blocked moves are not invalid, textured seeded
      themes, the deadlock signal, sub-goal instructions, ``locomotion="grid"`` for the old moves.
    """

    def __init__(self, mode: str = "one", world: str = "rooms", **kwargs: Any) -> None:
        self.mode = one_of("mode", mode, MODES)
        self.world = one_of("world", world, WORLDS)
        super().__init__(**kwargs)

    # -- generate
    def _build(self, rng: np.random.Generator) -> None:
        d, mode = self.difficulty, self.mode
        self._begin(make_layout(rng, self.world, d))
        n = ITEMS[mode][d]
        if mode == "health":
            self.wanted = [self.place(rng, "health") for _ in range(n)]
        elif mode == "colour":
            colours = [THING_COLOURS[int(i)] for i in rng.permutation(len(THING_COLOURS))]
            k = WANTED["colour"][d]
            looks = [(colours[0] if j < k else colours[1 + j % 3], ("cube", "ball", "cylinder", "cone", "pyramid")[j % 5]) for j in range(n)]
            self.wanted = [self.place(rng, "item", colour=c, shape=s) for c, s in looks][:k]
            self.colour = colours[0]
        else:
            looks = pick_looks(rng, n, near_misses=d > 0 and mode == "one")
            ids = [self.place(rng, "item", colour=c, shape=s) for c, s in looks]
            self.wanted = ids if mode == "all" else ids[:1]
        marks = pick_looks(rng, LANDMARKS[d] + 3, near_misses=False)[3:]
        self.marks = [self.place(rng, "landmark", colour=c, shape=s) for c, s in marks]
        self.collected: list[int] = []
        first = self.things[self.wanted[0]].cell
        self.far_start(rng, self.adjacent_free(first) + ([first] if mode == "health" else []), frac=0.5)

    # -- rules
    def _interact(self, i: int | None) -> Outcome | None:
        if self.mode == "putnext":
            return self._putnext(i)
        if i is None or self.things[i].kind != "item":
            return None
        e = self.things[i]
        e.hidden = True
        if i not in self.wanted:
            return Outcome(terminated=True, feedback=f"picked up the {e.name}, which was not wanted: task failed")
        self.collected.append(i)
        if len(self.collected) == len(self.wanted):
            return self.win(f"picked up the {e.name}: all done")
        return Outcome(feedback=f"picked up the {e.name} ({len(self.collected)} of {len(self.wanted)})")

    def _putnext(self, i: int | None) -> Outcome | None:
        if self.carrying is None:
            if i is None or self.things[i].kind != "item":
                return None
            self.carrying = i
            self.things[i].hidden = True
            return Outcome(feedback=f"picked up the {self.things[i].name}")
        if i is not None:
            return None
        spot = self.drop_spot()
        if spot is None:
            return None
        held, self.carrying = self.things[self.carrying], None
        held.pos, held.hidden = spot, False
        if held is self.things[self.wanted[0]] and self.near(self.marks[0], *spot):
            return self.win(f"put the {held.name} next to the {self.things[self.marks[0]].name}")
        return Outcome(feedback=f"dropped the {held.name}")

    def _enter(self) -> Outcome | None:
        if self.mode != "health":
            return None
        i = next((k for k in self.wanted if k not in self.collected and self.on(k)), None)
        if i is None:
            return None
        self.things[i].hidden = True
        self.collected.append(i)
        if len(self.collected) == len(self.wanted):
            return self.win("collected every health kit")
        return Outcome(feedback=f"collected a health kit ({len(self.collected)} of {len(self.wanted)})")

    def _progress(self) -> float:
        if self.mode == "putnext":
            return 0.5 if self.carrying is not None else 0.0
        return len(self.collected) / len(self.wanted)

    def _goal_text(self) -> str:
        if self.mode == "health":
            return (f"Collect all {len(self.wanted)} health kits (white boxes with a red cross on the floor) by "
                    "walking onto them.")
        if self.mode == "colour":
            return (f"Pick up every {self.colour} item ({len(self.wanted)} of them) and nothing else: face an item and "
                    "interact to pick it up. Picking up an item of another colour fails the task.")
        if self.mode == "all":
            return f"Pick up all {len(self.wanted)} small items in the world: face an item and interact to pick it up."
        target = self.things[self.wanted[0]].name
        if self.mode == "putnext":
            return (f"Pick up the {target} (face it and interact), carry it to the big {self.things[self.marks[0]].name} "
                    "and drop it on a square right next to the landmark (face an empty square and interact).")
        return f"Find the {target} and pick it up (face it and interact). Picking up any other item fails the task."

    def _caption(self) -> list:
        n, target = len(self.wanted), self.things[self.wanted[0]].name
        if self.mode == "health":
            return [f"Collect the {n} health kits"]
        if self.mode == "colour":
            return [f"Pick up only the {n} {self.colour} items"]
        if self.mode == "all":
            return [f"Pick up all {n} items"]
        if self.mode == "putnext":
            return [f"Put the {target} next to the big {self.things[self.marks[0]].name}"]
        return [f"Pick up the {target}"]

    def _extra_state(self) -> str:
        return f"Collected: {len(self.collected)} of {len(self.wanted)}." if self.mode != "putnext" else ""

    def _key_things(self) -> list[int]:
        return self.wanted[:3] + (self.marks[:1] if self.mode == "putnext" else [])

    def _flags(self) -> tuple:
        return (len(self.collected),)

    def _subgoals(self) -> list[str]:
        target = self.things[self.wanted[0]].name
        if self.mode == "health":
            return [f"Find the {len(self.wanted)} health kits", "Walk onto each of them"]
        if self.mode == "colour":
            return [f"Find the {self.colour} items", "Pick up each of them (face it and interact)", "Leave the other items alone"]
        if self.mode == "all":
            return [f"Find the {len(self.wanted)} small items", "Pick up each of them (face it and interact)"]
        if self.mode == "putnext":
            return [f"Find the {target} and pick it up", f"Carry it to the big {self.things[self.marks[0]].name}",
                    "Face an empty spot next to the landmark and interact to put the item down"]
        return [f"Find the {target}", "Face it and interact to pick it up"]

    # -- oracle
    def _target(self) -> tuple:
        if self.mode == "putnext":
            if self.carrying is None:
                return ("use", self.wanted[0])
            return ("drop", self.marks[0])
        i = self.nearest([k for k in self.wanted if k not in self.collected])
        return ("on", i) if self.mode == "health" else ("use", i)


_TAGS = ("world3d", "3d", "first-person", "interaction")
SPECS = (
    TaskSpec(name="World3DPickupItem", entry_point=Pickup, version=1, max_episode_steps=240, tags=_TAGS,
             kwargs={"mode": "one", "world": "rooms"}),
    TaskSpec(name="World3DPickupItemMaze", entry_point=Pickup, version=1, max_episode_steps=240, tags=_TAGS,
             kwargs={"mode": "one", "world": "maze"}),
    TaskSpec(name="World3DCollectColour", entry_point=Pickup, version=1, max_episode_steps=300, tags=_TAGS,
             kwargs={"mode": "colour", "world": "rooms"}),
    TaskSpec(name="World3DPickupObjects", entry_point=Pickup, version=1, max_episode_steps=240,
             tags=(*_TAGS, "miniworld"), kwargs={"mode": "all", "world": "oneroom"}),
    TaskSpec(name="World3DPickupObjectsRooms", entry_point=Pickup, version=1, max_episode_steps=300, tags=_TAGS,
             kwargs={"mode": "all", "world": "rooms"}),
    TaskSpec(name="World3DCollectHealthRooms", entry_point=Pickup, version=1, max_episode_steps=300, tags=_TAGS,
             kwargs={"mode": "health", "world": "rooms"}),
    TaskSpec(name="World3DCollectHealth", entry_point=Pickup, version=1, max_episode_steps=240,
             tags=(*_TAGS, "miniworld"), kwargs={"mode": "health", "world": "open"}),
    TaskSpec(name="World3DPutNext", entry_point=Pickup, version=1, max_episode_steps=200,
             tags=(*_TAGS, "miniworld"), kwargs={"mode": "putnext", "world": "oneroom"}),
    TaskSpec(name="World3DPutNextRooms", entry_point=Pickup, version=1, max_episode_steps=300, tags=_TAGS,
             kwargs={"mode": "putnext", "world": "rooms"}),
)
