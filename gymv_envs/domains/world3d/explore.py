"""Explore: find the exit, return to the start, patrol pads in order, escape a clutter trap."""

from __future__ import annotations

from typing import Any

import numpy as np

from gymv_envs.core import Outcome, TaskSpec
from gymv_envs.domains.world3d._base import World3DEnv, one_of
from gymv_envs.domains.world3d._escape_trap import pocket_ring
from gymv_envs.domains.world3d._world import HEADINGS, THING_COLOURS, Ent, make_layout, pick_looks

MODES = ("exit", "return", "patrol", "escape")
LANDMARKS = (2, 3, 4)
CLUTTER = (3, 6, 10)     # rocks and heavy crates scattered around
PATROL = (2, 3, 4)
POCKET = ((1, 1), (2, 1), (2, 2))   # trap interior (rows, cols) per difficulty


class Explore(World3DEnv):
    """Explore a 3D world: find the exit, return to the start, patrol, or escape a trap.

    ## Description
    ``mode="exit"``: the green exit gate is somewhere out of view; find it and walk into it.
    ``"return"``: walk up to the named big landmark, then come back to the white start pad
    you started on (stage flags). ``"patrol"``: step on the coloured floor pads in the order
    given; stepping on a pad out of turn fails. ``"escape"``: you start boxed in by heavy dark
    crates and rocks; one light wooden crate can be pushed (walk into it; the square behind it
    must be free) to break out, then reach the exit gate (deadlock recovery); you start facing a
    heavy crate, snagged. Rocks and crates clutter every world.

    ## Action Space
    ``discrete``: `Discrete(10)` (move_forward, move_backward, rotate_left, rotate_right
    (30 degrees), strafe_left, strafe_right (1 m under physics), interact, wait, look_up,
    look_down); ``parametric``: `Box(6)`: maneuver, duration, joystick x, y, turn, look (see
    ``action_prompt`` and `World3DEnv`); ``locomotion="grid"``: one cell per move, 90-degree turns.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the first-person MuJoCo view; ``render_view("left"/
    "right")`` are the peripheral cameras.

    ## Rewards
    1.0 on success, else 0.0 (``max_return`` 1.0).

    ## Starting State
    Layout (``world``), clutter, targets and start come from the seed; the goal is far from
    the start.

    ## Episode End
    Terminates on success, or on a pad stepped on out of turn (patrol, failure). Walls and
    objects block the way (physics); only light wooden crates move when pushed.

    ## Arguments
    ``mode`` (``exit``, ``return``, ``patrol``, ``escape``), ``world`` (``open``, ``rooms``,
    ``maze``), ``difficulty`` (0-2: size, clutter, stages), ``fov``, ``camera_height``,
    ``pitch``, ``locomotion``, ``buffers``, ``theme_split``, ``action_mode``, ``instruction_level``, ``obs_size``,
    ``render_mode``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding; the agent moves continuously on MuJoCo physics (30-degree turns,
      look up/down, a parametric joystick), blocked moves are not invalid, textured seeded
      themes, the deadlock signal, sub-goal instructions, ``locomotion="grid"`` for the old moves.
      Defaults that discriminate: FindExit, FindExitOpen, ReturnToStart and Patrol default to
      difficulty 1 (random play found the goal on 20-30% of the difficulty-0 levels, 0-10% at 1).
    - v2 (World3DEscapeClutter only; the other Explore ids stay at v1): defaults to difficulty 2.
      Random play escaped on 15% of the difficulty-0 levels (17.5% at 1, 5% at 2, 40 seeds),
      more than world3d's 10%; the levels of each difficulty are unchanged.
    """

    def __init__(self, mode: str = "exit", world: str = "rooms", **kwargs: Any) -> None:
        self.mode = one_of("mode", mode, MODES)
        self.world = one_of("world", world, ("open", "rooms", "maze"))
        super().__init__(**kwargs)

    # -- generate
    def _build(self, rng: np.random.Generator) -> None:
        d, mode = self.difficulty, self.mode
        self._begin(make_layout(rng, self.world, d))
        self.stage, self.order, self.light, self.keep, self.pocket = 0, [], None, [], set()
        if mode == "escape":
            self._trap(rng)
        looks = pick_looks(rng, LANDMARKS[d], near_misses=False)
        self.marks = [self.place(rng, "landmark", keep_free=self.keep, colour=c, shape=s) for c, s in looks]
        for k in range(CLUTTER[d] if self.world == "open" else CLUTTER[d] // 2):
            self.place(rng, "rock" if k % 2 else "crate", keep_free=self.keep)
        if mode == "patrol":
            colours = [THING_COLOURS[int(i)] for i in rng.permutation(len(THING_COLOURS))]
            self.order = [self.place(rng, "pad", obstacle=True, colour=c) for c in colours[:PATROL[d]]]
            self.far_start(rng, [self.things[self.order[0]].cell], frac=0.4)
        elif mode == "return":
            self.goal = self.marks[0]
            self.far_start(rng, self.adjacent_free(self.things[self.goal].cell), frac=0.6)
            self.home = len(self.things)
            self.things.append(Ent("pad", self.agent, colour="white"))
        elif mode == "exit":
            self.goal = self.place(rng, "exit")
            self.far_start(rng, [self.things[self.goal].cell], frac=0.7)
        else:
            self.goal = self.place(rng, "exit", cells=self._far_from(self.agent))

    def _trap(self, rng: np.random.Generator) -> None:
        """Box the start in: a pocket ringed by heavy crates and rocks, one light crate in the ring."""
        ph, pw = POCKET[self.difficulty]
        r0, c0, ring, cell, h, path = pocket_ring(rng, self.layout.walls, ph, pw)
        dr, dc = HEADINGS[h]
        for k, rc in enumerate(ring):
            if rc == cell:
                self.light = len(self.things)
                self.things.append(Ent("crate", rc, state={"pushable": True}))
            else:
                self.things.append(Ent("crate" if k % 3 else "rock", rc))
        self.push_heading = h
        self.keep = path + [(p[0] + sr, p[1] + sc) for p in path for sr, sc in ((dc, dr), (-dc, -dr))]  # the way out
        start = (cell[0] - dr, cell[1] - dc)
        heavy = [k for k, (sr, sc) in enumerate(HEADINGS) if (start[0] + sr, start[1] + sc) in ring and k != h]
        self.set_start(start, heavy[int(rng.integers(len(heavy)))] * np.pi / 2)  # snagged: facing a heavy crate
        self.pocket = {(r, c) for r in range(r0, r0 + ph) for c in range(c0, c0 + pw)}

    def _far_from(self, cell: tuple[int, int]) -> list[tuple[int, int]]:
        free = [c for c in self.layout.free_cells() if c not in self.pocket and c not in self.occupied() and c not in self.keep]
        dist = {c: abs(c[0] - cell[0]) + abs(c[1] - cell[1]) for c in free}
        top = max(dist.values())
        return [c for c in free if dist[c] >= 0.6 * top]

    # -- rules
    def _enter(self) -> Outcome | None:
        if self.mode in ("exit", "escape") and self.on(self.goal):
            return self.win("went through the exit gate")
        if self.mode == "return":
            if self.stage == 0 and self.near(self.goal):
                self.stage = 1
                self.say(f"You reached the {self.things[self.goal].name}. Now return to the start pad.")
                return Outcome(reward=0.0, feedback=f"reached the {self.things[self.goal].name}; now return to the start")
            if self.stage == 1 and self.on(self.home):
                return self.win("returned to the start pad")
        if self.mode == "patrol":
            here = next((i for i in self.order if self.on(i)), None)
            if here is None or self.order.index(here) < self.stage:
                return None
            if self.order.index(here) > self.stage:
                return Outcome(terminated=True, feedback=f"stepped on the {self.things[here].name} out of turn")
            self.stage += 1
            self.things[here].lit = True
            if self.stage == len(self.order):
                return self.win("visited every pad in order")
            return Outcome(feedback=f"visited the {self.things[here].name} ({self.stage} of {len(self.order)})")
        return None

    def _progress(self) -> float:
        if self.mode == "patrol":
            return self.stage / len(self.order)
        if self.mode == "return":
            return 0.5 * self.stage
        return 0.5 if self.mode == "escape" and self.agent not in self.pocket else 0.0

    def _caption(self) -> list:
        if self.mode == "exit":
            return ["Find the green exit gate"]
        if self.mode == "return":
            return [f"Go to the big {self.things[self.goal].name}, then back to the start"]
        if self.mode == "patrol":
            return ["Pads in order: " + ", ".join(self.things[i].colour for i in self.order)]
        return ["Push the light crate out, reach the exit"]

    def _goal_text(self) -> str:
        if self.mode == "exit":
            return "Find the green exit gate (two green posts around a glowing pad) and walk into it. It is out of sight."
        if self.mode == "return":
            return (f"Walk up to the big {self.things[self.goal].name} (stand on a square next to it), then return to the "
                    "white pad you started on.")
        if self.mode == "patrol":
            names = ", then ".join(self.things[i].colour for i in self.order)
            return (f"Step on the coloured floor pads in this order: {names}. Stepping on a pad out of turn fails; "
                    "pads already visited are safe.")
        return ("You are trapped among heavy crates and rocks. One light wooden crate can be pushed by walking into it "
                "when the square behind it is free. Break out and walk into the green exit gate.")

    def _extra_state(self) -> str:
        if self.mode == "patrol":
            return f"Pads visited: {self.stage} of {len(self.order)}."
        return f"Stage: {self.stage}." if self.mode == "return" else ""

    def _key_things(self) -> list[int]:
        if self.mode == "patrol":
            return self.order[:2]
        return [self.goal]

    def _flags(self) -> tuple:
        return (self.stage,)

    def _subgoals(self) -> list[str]:
        if self.mode == "exit":
            return ["Explore to find the green exit gate", "Walk into it"]
        if self.mode == "return":
            return [f"Find the big {self.things[self.goal].name} and stand next to it",
                    "Walk back to the white pad you started on"]
        if self.mode == "patrol":
            return [f"Step on the {self.things[i].colour} pad" for i in self.order]
        return ["Find the light wooden crate in the ring around you", "Push it outwards (walk into it) to open a gap",
                "Squeeze out through the gap", "Find the green exit gate and walk into it"]

    # -- oracle
    def _target(self) -> tuple:
        if self.mode == "patrol":
            return ("on", self.order[self.stage])
        if self.mode == "return":
            return ("near", self.goal) if self.stage == 0 else ("on", self.home)
        goal = self.things[self.goal].cell
        if self.mode == "escape" and self.dist_to([goal])[self.agent] >= 10**6:
            return ("push", self.light, self.push_heading * np.pi / 2)
        return ("on", self.goal)

    def _next_steps(self) -> list:
        if self.mode != "patrol":
            return super()._next_steps()
        avoid = [self.things[i] for i in self.order[self.stage + 1:]]
        for e in avoid:
            e.kind = "box"  # solid while planning: never step on a pad out of turn
        try:
            return super()._next_steps()
        finally:
            for e in avoid:
                e.kind = "pad"


_TAGS = ("world3d", "3d", "first-person", "exploration")
SPECS = (
    TaskSpec(name="World3DFindExit", entry_point=Explore, version=1, max_episode_steps=300, tags=_TAGS,
             kwargs={"mode": "exit", "world": "rooms", "difficulty": 1}),
    TaskSpec(name="World3DFindExitMaze", entry_point=Explore, version=1, max_episode_steps=300, tags=_TAGS,
             kwargs={"mode": "exit", "world": "maze"}),
    TaskSpec(name="World3DFindExitOpen", entry_point=Explore, version=1, max_episode_steps=240, tags=_TAGS,
             kwargs={"mode": "exit", "world": "open", "difficulty": 1}),
    TaskSpec(name="World3DReturnToStart", entry_point=Explore, version=1, max_episode_steps=300,
             tags=(*_TAGS, "multi-stage"), kwargs={"mode": "return", "world": "open", "difficulty": 1}),
    TaskSpec(name="World3DReturnToStartRooms", entry_point=Explore, version=1, max_episode_steps=360,
             tags=(*_TAGS, "multi-stage"), kwargs={"mode": "return", "world": "rooms"}),
    TaskSpec(name="World3DPatrol", entry_point=Explore, version=1, max_episode_steps=300,
             tags=(*_TAGS, "multi-stage"), kwargs={"mode": "patrol", "world": "open", "difficulty": 1}),
    TaskSpec(name="World3DPatrolRooms", entry_point=Explore, version=1, max_episode_steps=360,
             tags=(*_TAGS, "multi-stage"), kwargs={"mode": "patrol", "world": "rooms"}),
    TaskSpec(name="World3DEscapeClutter", entry_point=Explore, version=2, max_episode_steps=240,
             tags=(*_TAGS, "deadlock-recovery"), kwargs={"mode": "escape", "world": "open", "difficulty": 2}),
)
