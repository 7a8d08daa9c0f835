"""GoTo: walk to a described landmark in a 3D world (open field, rooms, maze, MiniWorld shapes)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gymv_envs.core import Outcome, TaskSpec
from gymv_envs.domains.world3d._base import World3DEnv, one_of
from gymv_envs.domains.world3d._world import WORLDS, make_layout, open_area, pick_looks

# landmarks per difficulty, rocks per difficulty (open fields only)
LANDMARKS = {"hallway": (1, 1, 1), "tmaze": (2, 2, 2), "ymaze": (2, 2, 2), "oneroom": (1, 2, 3)}
ROCKS = {"open": (2, 6, 12)}
FINISHES = ("near", "face")
ONE_ROOM = (5, 8, 14)  # the one room's side per difficulty (14 m at 2, where other tasks' one room is 11 m)


class GoTo(World3DEnv):
    """Walk up to the landmark the instruction names.

    ## Description
    A procedurally generated 3D world (chosen by ``world``): an open field with rocks, a grid of
    rooms joined by doorways (each room with its own floor tint), a maze of corridors, four
    rooms, one room, or the MiniWorld shapes hallway, T-maze and Y-maze. Big landmarks (coloured
    cubes, balls, cylinders, cones, pyramids, capsules, diamonds on grey bases) stand in it;
    the instruction names one. At difficulty 1 and 2 distractors share the target's colour or
    shape. In the hallway the target is at the far end; in the T- and Y-maze a target and a
    distractor end the two arms.

    ## Action Space
    ``action_mode="discrete"``: `Discrete(10)`: ``move_forward``, ``move_backward``,
    ``strafe_left``, ``strafe_right`` (walk 1 m under physics), ``rotate_left``,
    ``rotate_right`` (30 degrees), ``look_up``, ``look_down`` (camera pitch, 15 degrees),
    ``interact``, ``wait``. ``action_mode="parametric"``: `Box(6)` with fields ``maneuver`` (0
    walk, 1 interact, 2 wait; rounded), ``duration`` (0.1 to 3 simulated seconds), joystick ``x``
    and ``y`` in [-1, 1] (direction continuous, length the speed), ``turn`` (degrees, before the
    maneuver) and ``look`` (degrees of pitch); see ``action_prompt``. ``locomotion="grid"``:
    the same ten actions, one cell per move and 90-degree turns.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the first-person view rendered by MuJoCo;
    ``render_view("left")``/``("right")`` are the peripheral cameras (yawed 90 degrees).

    ## Rewards
    1.0 on reaching the target, else 0.0 (``max_return`` 1.0).

    ## Starting State
    Layout, landmarks, start and visual theme come from the seed; the start is at least 60% of
    the farthest walking distance from the target, facing one of twelve headings. ``info``
    carries the deadlock signal (``stuck``, ``deadlocks``, ``stuck_steps``, ``recoveries``; see
    `World3DEnv`).

    ## Episode End
    Terminates on standing next to the target (its surface within 0.9 m); with
    ``finish="face"``, when an action leaves you in front of it and facing it (its surface within
    1 m, its centre within 30 degrees of the heading, no wall between), so that walking or turning
    past it does not count. Walking into a wall or an object is blocked by physics (not an invalid action). The
    budget is registered per id.

    ## Arguments
    ``world`` (one of ``open``, ``rooms``, ``maze``, ``fourrooms``, ``oneroom``, ``hallway``,
    ``tmaze``, ``ymaze``), ``difficulty`` (0-2: size, clutter, distractors), ``fov`` (30-120
    degrees vertical), ``camera_height`` (0.3-1.4 m), ``pitch`` (-45 to 30 degrees),
    ``locomotion`` (``continuous`` physics, ``grid`` kinematic cells), ``buffers`` (any of
    ``depth``, ``segmentation``: returned in ``info`` each step), ``theme_split`` (``train``,
    ``test``: the visual themes drawn from), ``action_mode``, ``instruction_level`` (``goal``,
    ``step``: sub-goals, ``visual``: the target located against other landmarks and room
    tints), ``finish`` (``near``: stand next to the target, ``face``: stand in front of it,
    facing it; ``target="landmark"`` only), ``obs_size``, ``render_mode``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding; the agent moves continuously on MuJoCo physics (30-degree turns,
      look up/down, a parametric joystick), blocked moves are not invalid, textured seeded
      themes, the deadlock signal, sub-goal instructions, ``locomotion="grid"`` for the old moves.
      Defaults that discriminate: FourRooms, GoToRooms and Hallway default to difficulty 1,
      GoToLandmark, TMaze, YMaze and OneRoom to 2 (random play reached the goal on 20-100% of
      the difficulty-0 levels; OneRoom, one small room, still lets it on 30% at difficulty 2).
    - v2 (World3DOneRoom only; the other GoTo ids stay at v1): ``finish="face"``, the episode
      ends when an action leaves you in front of the target facing it, not on passing next to it;
      the one room is 14 m across at difficulty 2 (was 11 m). Random play reached the target on
      15% of the v1 difficulty-2 levels (30% in parametric mode), more than world3d's 10%.
    - v2 (World3DGoToRoom): defaults to difficulty 2. Random play reached the room on 22.5% of
      the difficulty-0 levels (7.5% at 1, 0% at 2, 40 seeds), more than world3d's 10%; the
      levels of each difficulty are unchanged.
    """

    def __init__(self, world: str = "open", target: str = "landmark", finish: str = "near", **kwargs: Any) -> None:
        one_of("world", world, WORLDS)
        if target not in ("landmark", "room") or (target == "room" and world not in ("rooms", "fourrooms")):
            raise ValueError(f"invalid target={target!r}; valid values: 'landmark', or 'room' with world rooms/fourrooms")
        if finish not in FINISHES or (finish == "face" and target == "room"):
            raise ValueError(f"invalid finish={finish!r}; valid values: 'near', or 'face' with target='landmark'")
        self.world, self.target, self.finish = world, target, finish
        super().__init__(**kwargs)

    # -- generate
    def _build(self, rng: np.random.Generator) -> None:
        d = self.difficulty
        self._begin(open_area(rng, ONE_ROOM[d], ONE_ROOM[d]) if self.world == "oneroom" else make_layout(rng, self.world, d))
        n = LANDMARKS.get(self.world, (3, 4, 6))[d]
        looks = pick_looks(rng, n, near_misses=d > 0 and n >= 3)
        ends = self._corridor_ends()
        for k, (colour, shape) in enumerate(looks):
            cells = [ends[k]] if ends and k < len(ends) else None
            self.place(rng, "landmark", cells, colour=colour, shape=shape)
        if ends and len(ends) > 1 and rng.random() < 0.5:  # which arm holds the target
            self.things[0].cell, self.things[1].cell = self.things[1].cell, self.things[0].cell
        for _ in range(ROCKS.get(self.world, (0, 0, 0))[d]):
            self.place(rng, "rock")
        self.goal = self.things[0]
        if self.target == "room":
            tints = self.layout.tints
            unique = [k for k, t in enumerate(tints) if tints.count(t) == 1]
            self.room = unique[int(rng.integers(len(unique)))]
            self.far_start(rng, self.layout.free_cells(self.room), frac=0.6)
        else:
            self.far_start(rng, self.adjacent_free(self.goal.cell), cells=[self._stem()] if ends else None)
        self.start_dist = max(1, int(self.reach_distances(self._goal_cells())[self.agent]))

    def _goal_cells(self) -> list[tuple[int, int]]:
        if self.target == "room":
            return [c for c in self.layout.free_cells(self.room) if self.passable(c)]
        return self.adjacent_free(self.goal.cell)

    def _corridor_ends(self) -> list[tuple[int, int]]:
        walls = self.layout.walls
        R, C = walls.shape
        if self.world == "hallway":
            return [(1, C - 2)]
        if self.world == "tmaze":
            return [(1, C - 3), (R - 2, C - 3)]
        if self.world == "ymaze":
            return [(1, C - 2), (R - 2, C - 2)]
        return []

    def _stem(self) -> tuple[int, int]:
        return (self.layout.walls.shape[0] // 2, 1) if self.world != "hallway" else (1, 1)

    # -- rules
    def _enter(self) -> Outcome | None:
        if self.target == "room":
            return self.win("entered the room") if self.layout.room_at(self.agent) == self.room else None
        if self.finish == "near" and self.near(0):
            return self.win(f"reached the {self.goal.name}")
        return None

    def _apply(self, action: Any) -> Outcome:
        out = super()._apply(action)
        if self.finish == "face" and not out.terminated and self.faces(0):  # where the action leaves you, not on the way
            return self.win(f"stopped in front of the {self.goal.name}")
        return out

    def _progress(self) -> float:
        dist = self.dist_to(self._goal_cells())
        return 1.0 - float(dist[self.agent]) / max(1, self.start_dist)

    def _subgoals(self) -> list[str]:
        if self.target == "room":
            return [f"Find a doorway into the room whose floor is tinted {self.layout.tints[self.room]}",
                    "Walk into that room"]
        return [f"Look around for the big {self.goal.name}", "Walk towards it",
                "Stop right in front of it, facing it" if self.finish == "face" else "Stop right next to it"]

    def _goal_text(self) -> str:
        if self.target == "room":
            return f"Go into the room whose floor is tinted {self.layout.tints[self.room]}."
        if self.finish == "face":
            return f"Walk up to the big {self.goal.name} and stop right in front of it, facing it (within 1 m)."
        return f"Walk up to the big {self.goal.name} and stand on a square right next to it."

    def _caption(self) -> list:
        if self.target == "room":
            return [f"Go into the {self.layout.tints[self.room]} room"]
        return [f"Go to the big {self.goal.name}" + (" and face it" if self.finish == "face" else "")]

    def _key_things(self) -> list[int]:
        return [] if self.target == "room" else [0]

    # -- oracle
    def _target(self) -> tuple:
        if self.target == "room":
            return ("reach", self._goal_cells())
        return ("face", 0) if self.finish == "face" else ("near", 0)


SPECS = (
    TaskSpec(name="World3DGoToLandmark", entry_point=GoTo, version=1, max_episode_steps=180,
             tags=("world3d", "navigation", "3d", "first-person"), kwargs={"world": "open", "difficulty": 2}),
    TaskSpec(name="World3DGoToRooms", entry_point=GoTo, version=1, max_episode_steps=240,
             tags=("world3d", "navigation", "3d", "first-person", "rooms"), kwargs={"world": "rooms", "difficulty": 1}),
    TaskSpec(name="World3DGoToRoom", entry_point=GoTo, version=2, max_episode_steps=240,
             tags=("world3d", "navigation", "3d", "first-person", "rooms"), kwargs={"world": "rooms", "target": "room", "difficulty": 2}),
    TaskSpec(name="World3DGoToMaze", entry_point=GoTo, version=1, max_episode_steps=240,
             tags=("world3d", "navigation", "3d", "first-person", "maze"), kwargs={"world": "maze"}),
    TaskSpec(name="World3DFourRooms", entry_point=GoTo, version=1, max_episode_steps=200,
             tags=("world3d", "navigation", "3d", "miniworld"), kwargs={"world": "fourrooms", "difficulty": 1}),
    TaskSpec(name="World3DOneRoom", entry_point=GoTo, version=2, max_episode_steps=180,
             tags=("world3d", "navigation", "3d", "miniworld"),
             kwargs={"world": "oneroom", "difficulty": 2, "finish": "face"}),
    TaskSpec(name="World3DHallway", entry_point=GoTo, version=1, max_episode_steps=180,
             tags=("world3d", "navigation", "3d", "miniworld"), kwargs={"world": "hallway", "difficulty": 1}),
    TaskSpec(name="World3DTMaze", entry_point=GoTo, version=1, max_episode_steps=180,
             tags=("world3d", "navigation", "3d", "miniworld"), kwargs={"world": "tmaze", "difficulty": 2}),
    TaskSpec(name="World3DYMaze", entry_point=GoTo, version=1, max_episode_steps=180,
             tags=("world3d", "navigation", "3d", "miniworld"), kwargs={"world": "ymaze", "difficulty": 2}),
)
