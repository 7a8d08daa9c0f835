"""Quests: talk to a character, then do what it asks (fetch, meet, press, deliver, chains)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gymv_envs.core import Outcome, TaskSpec
from gymv_envs.domains.world3d._base import World3DEnv, one_of
from gymv_envs.domains.world3d._world import THING_COLOURS, make_layout, pick_looks

MODES = ("fetch", "meet", "switch", "deliver", "chain")
ITEMS = (2, 4, 5)        # items in the world (the wanted one and distractors)
NPCS = (2, 3, 4)         # characters (the quest giver, the receiver, bystanders)
LANDMARKS = (2, 4, 5)


class Quest(World3DEnv):
    """Talk to a character and carry out its request, a multi-stage quest.

    ## Description
    Characters (simple figures told apart by their shirt and hat colour) stand in a world of
    rooms. The instruction names the quest giver only; what it wants is said when you talk to
    it (face it and interact): the words appear as a caption at the bottom of the frame and in
    ``info["feedback"]``. ``mode="fetch"``: it asks for an item; pick it up and give it (face
    the character and interact). ``"meet"``: it names a landmark to meet at; walk next to it.
    ``"switch"``: it names one of several switches; press it to open the exit gate, then walk
    into the gate. ``"deliver"``: it hands you a parcel for another character. ``"chain"``: it
    sends you to another character, who asks for an item. Progress flags are kept per stage.

    ## Action Space
    ``discrete``: `Discrete(10)` (move_forward, move_backward, rotate_left, rotate_right
    (30 degrees), strafe_left, strafe_right (1 m under physics), interact, wait, look_up,
    look_down); ``parametric``: `Box(6)`: maneuver, duration, joystick x, y, turn, look (see
    ``action_prompt`` and `World3DEnv`); ``locomotion="grid"``: one cell per move, 90-degree turns.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the first-person MuJoCo view with captions and "holding";
    ``render_view("left"/"right")`` are the peripheral cameras.

    ## Rewards
    1.0 when the quest is complete, else 0.0 (``max_return`` 1.0); ``info["progress"]`` is the
    fraction of stages done.

    ## Starting State
    Rooms, characters, items, landmarks and the request come from the seed; the start is far
    from the quest giver.

    ## Episode End
    Terminates when the quest is complete. Giving the wrong item, pressing the wrong switch
    (``switch`` mode fails the quest) and interacting with nothing are handled as the caption
    says; walls and objects block the way (physics).

    ## Arguments
    ``mode`` (``fetch``, ``meet``, ``switch``, ``deliver``, ``chain``), ``world`` (``rooms``,
    ``maze``, ``open``), ``difficulty`` (0-2: more
    rooms, items and characters), ``fov``, ``camera_height``, ``pitch``, ``locomotion``, ``buffers``, ``theme_split``,
    ``action_mode``, ``instruction_level``, ``obs_size``, ``render_mode``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding; the agent moves continuously on MuJoCo physics (30-degree turns,
      look up/down, a parametric joystick), blocked moves are not invalid, textured seeded
      themes, the deadlock signal, sub-goal instructions, ``locomotion="grid"`` for the old moves.
    """

    def __init__(self, mode: str = "fetch", world: str = "rooms", **kwargs: Any) -> None:
        self.mode = one_of("mode", mode, MODES)
        self.world = one_of("world", world, ("rooms", "maze", "open"))
        super().__init__(**kwargs)

    # -- generate
    def _build(self, rng: np.random.Generator) -> None:
        d, mode = self.difficulty, self.mode
        self._begin(make_layout(rng, self.world, d))
        shirts = [THING_COLOURS[int(i)] for i in rng.permutation(len(THING_COLOURS))]
        self.npcs = [self.place(rng, "npc", colour=shirts[0])]
        dist = self.reach_distances([self.things[self.npcs[0]].cell])
        free = [c for c in self.layout.free_cells() if dist[c] < 10**6]
        top = max(dist[c] for c in free)
        far = [c for c in free if dist[c] >= 0.5 * top]  # the stages lead across the world
        self.npcs += [self.place(rng, "npc", far if k == 1 else None, fallback=True, colour=c) for k, c in enumerate(shirts[1:NPCS[d]], 1)]
        looks = pick_looks(rng, ITEMS[d] + LANDMARKS[d], near_misses=False)
        n_items = ITEMS[d] if mode in ("fetch", "chain") else (1 if mode == "deliver" else 0)
        self.items = [self.place(rng, "item", far if k == 0 else None, fallback=True, colour=c, shape=s) for k, (c, s) in enumerate(looks[:n_items])]
        self.marks = [self.place(rng, "landmark", far if k == 0 else None, fallback=True, colour=c, shape=s)
                      for k, (c, s) in enumerate(looks[ITEMS[d]:len(looks) - (mode == "switch")])]
        self.switches, self.exit = [], None
        if mode == "switch":
            self.switches = [self.place(rng, "switch", colour=c) for c in shirts[-3:]]
            self.exit = self.place(rng, "exit", state={"locked": True})
        if mode == "deliver":  # the parcel starts in the giver's hands
            self.things[self.items[0]].hidden = True
        self.giver = self.npcs[0]
        self.want = {"fetch": self.items[:1], "chain": self.items[:1], "deliver": self.items[:1],
                     "meet": self.marks[:1], "switch": self.switches[:1]}[mode][0]
        self.receiver = self.npcs[1]
        self.stage = 0
        self.stages = 3 if mode in ("chain", "switch") else 2
        self.far_start(rng, self.adjacent_free(self.things[self.giver].cell), frac=0.5)

    # -- rules
    def _request(self) -> str:
        want, rec = self.things[self.want], self.things[self.receiver]
        return {"fetch": f'"Please bring me the {want.name}."',
                "meet": f'"Meet me by the big {want.name}."',
                "switch": f'"Press the {want.colour} switch to open the exit gate, then leave through it."',
                "deliver": f'"Take this {want.name} to the {rec.name}."',
                "chain": f'"Go and talk to the {rec.name}."'}[self.mode]

    def _interact(self, i: int | None) -> Outcome | None:
        if i is None:
            return None
        e = self.things[i]
        if e.kind == "npc":
            return self._talk(i)
        if e.kind == "item" and self.carrying is None and self.mode in ("fetch", "chain"):
            e.hidden, self.carrying = True, i
            return Outcome(feedback=f"picked up the {e.name}")
        if e.kind == "switch" and not e.lit and self.stage >= 1:
            e.lit = True
            if i != self.want:
                return Outcome(terminated=True, feedback=f"pressed the {e.name}: a wrong switch, the gate stays locked")
            self.things[self.exit].lit, self.stage = True, 2
            self.say("Click! The exit gate is open.")
            return Outcome(feedback="pressed the switch; the exit gate opens")
        return None

    def _talk(self, i: int) -> Outcome | None:
        e = self.things[i]
        if i == self.giver and self.stage == 0:
            self.stage = 1
            if self.mode == "deliver":
                self.carrying = self.want
            self.say(f"{e.name.capitalize()}: {self._request()}")
            return Outcome(feedback=f"the {e.name} says: {self._request()}")
        if self.mode == "chain" and i == self.receiver and self.stage == 1:
            self.stage = 2
            text = f'"Bring me the {self.things[self.want].name}."'
            self.say(f"{e.name.capitalize()}: {text}")
            return Outcome(feedback=f"the {e.name} says: {text}")
        target = {"fetch": self.giver, "deliver": self.receiver, "chain": self.receiver}.get(self.mode)
        ready = self.stage == (2 if self.mode == "chain" else 1)
        if i == target and ready and self.carrying == self.want:
            self.carrying = None
            return self.win(f"gave the {self.things[self.want].name} to the {e.name}")
        self.say(f"{e.name.capitalize()}: \"Hello!\"")
        return Outcome(feedback=f"the {e.name} says hello")

    def _enter(self) -> Outcome | None:
        if self.mode == "meet" and self.stage == 1 and self.near(self.want):
            return self.win(f"met by the {self.things[self.want].name}")
        if self.mode == "switch" and self.stage == 2 and self.on(self.exit):
            return self.win("left through the exit gate")
        return None

    def _progress(self) -> float:
        return (self.stage + (self.carrying == self.want)) / (self.stages + 1)

    def _goal_text(self) -> str:
        giver = self.things[self.giver].name
        extra = {"fetch": "To give an item, hold it, face the character and interact.",
                 "deliver": "To give an item, hold it, face the character and interact.",
                 "chain": "To give an item, hold it, face the character and interact.",
                 "meet": "", "switch": "Pressing a wrong switch fails the quest."}[self.mode]
        return (f"Find the {giver} and talk to it (face it and interact), then do what it asks; what characters "
                f"say appears at the bottom of the image. You can carry one item at a time. {extra}").strip()

    def _caption(self) -> list:
        return [f"Talk to the {self.things[self.giver].name}, then do as asked"]

    def _extra_state(self) -> str:
        return f"Quest stage: {self.stage} of {self.stages}."

    def _key_things(self) -> list[int]:
        return [self.giver]

    def _flags(self) -> tuple:
        return (self.stage,)

    def _subgoals(self) -> list[str]:
        giver = self.things[self.giver].name
        then = {"fetch": ["Find the item it asks for and pick it up", f"Bring it back to the {giver} and give it"],
                "meet": ["Go to the landmark it names and stand next to it"],
                "switch": ["Press the switch it names", "Walk into the green exit gate"],
                "deliver": ["Take the parcel it gives you to the character it names and give it"],
                "chain": ["Talk to the character it sends you to", "Find the item that one asks for and pick it up",
                          "Bring it back and give it"]}[self.mode]
        return [f"Find the {giver} and talk to it"] + then

    # -- oracle
    def _target(self) -> tuple:
        if self.stage == 0:
            return ("use", self.giver)
        if self.mode == "meet":
            return ("near", self.want)
        if self.mode == "switch":
            return ("use", self.want) if self.stage == 1 else ("on", self.exit)
        if self.mode == "chain" and self.stage == 1:
            return ("use", self.receiver)
        if self.carrying != self.want:
            return ("use", self.want)
        return ("use", self.giver if self.mode == "fetch" else self.receiver)


_TAGS = ("world3d", "3d", "first-person", "interaction", "multi-stage", "dialogue")
SPECS = (
    TaskSpec(name="World3DQuestFetch", entry_point=Quest, version=1, max_episode_steps=300, tags=_TAGS,
             kwargs={"mode": "fetch"}),
    TaskSpec(name="World3DQuestFetchMaze", entry_point=Quest, version=1, max_episode_steps=300, tags=_TAGS,
             kwargs={"mode": "fetch", "world": "maze"}),
    TaskSpec(name="World3DQuestMeet", entry_point=Quest, version=1, max_episode_steps=240, tags=_TAGS,
             kwargs={"mode": "meet"}),
    TaskSpec(name="World3DQuestSwitch", entry_point=Quest, version=1, max_episode_steps=300, tags=_TAGS,
             kwargs={"mode": "switch"}),
    TaskSpec(name="World3DQuestDeliver", entry_point=Quest, version=1, max_episode_steps=300, tags=_TAGS,
             kwargs={"mode": "deliver"}),
    TaskSpec(name="World3DQuestChain", entry_point=Quest, version=1, max_episode_steps=360, tags=_TAGS,
             kwargs={"mode": "chain"}),
)
