"""`World3DEnv`: the fat base of every world3d task (a module with no SPECS).

The agent is kinematic: it stands at a cell centre facing one of four headings, and moves
one cell or turns 90 degrees per action, with collisions checked against the map. The world
is rendered by MuJoCo from cameras on the agent (front; left/right peripheral). A task
subclass implements ``_build(rng)`` (layout, things, start; it begins with `_begin`),
``_goal_text()``, ``_target()`` (what the oracle should do next), and the event hooks
``_interact(i)`` / ``_enter()``; `one_of` checks its choice arguments (``mode``, ``world``).
"""

from __future__ import annotations

import copy
import heapq
from typing import Any, ClassVar

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome
from gymv_envs.core.canvas import draw_text, fill
from gymv_envs.core.env import VisionEnv, check_number
from gymv_envs.domains.world3d._world import (
    HEADING_NAMES,
    HEADINGS,
    HIDDEN_Z,
    Ent,
    Layout,
    build_mjcf,
)
from gymv_envs.rules.maze import grid_distances

ACTIONS = ("move_forward", "move_backward", "rotate_left", "rotate_right", "strafe_left", "strafe_right", "interact", "wait")
FORWARD, BACKWARD, LEFT, RIGHT, STRAFE_L, STRAFE_R, INTERACT, WAIT = range(8)
MOVE_OFFSET = {FORWARD: 0, BACKWARD: 2, STRAFE_L: 1, STRAFE_R: 3}  # heading offset of each move
PARAMETRIC = (
    ("maneuver", 0.0, 3.0, "rounded to a whole number: 0 walk with the joystick, 1 turn (x < 0 left, x > 0 right), "
                           "2 interact with what is in front of you, 3 wait"),
    ("duration", 1.0, 4.0, "seconds, rounded: one cell walked or one 90-degree turn per second; a walk stops early "
                           "at an obstacle or when something happens"),
    ("x", -1.0, 1.0, "joystick x: walk sideways (right positive) or choose the turn direction; |x| < 0.3 is neutral"),
    ("y", -1.0, 1.0, "joystick y: walk forward (positive) or backward; the axis pushed harder wins, and a walk with "
                     "both axes under 0.3 waits"),
)
CAMERA_RANGES = {"fov": (30.0, 120.0, " degrees (vertical)"), "camera_height": (0.3, 1.4, " metres"),
                 "pitch": (-45.0, 30.0, " degrees (positive looks up)")}
DEAD_ZONE = 0.3


def one_of(name: str, value: Any, valid: tuple[str, ...]) -> str:
    """``value`` if it is one of ``valid``, else a `ValueError` naming the valid values."""
    if value not in valid:
        raise ValueError(f"invalid {name}={value!r}; valid values: {', '.join(valid)}")
    return value


class World3DEnv(MultiTurnEnv):
    """Base of world3d tasks (not registered itself; see the module docstring)."""

    extras: ClassVar[tuple[str, ...]] = ("world3d",)
    action_modes: ClassVar[tuple[str, ...]] = ("discrete", "parametric")
    instruction_levels: ClassVar[tuple[str, ...]] = ("goal", "step", "visual")
    views: ClassVar[tuple[str, ...]] = ("front", "left", "right")
    default_obs_size: ClassVar[tuple[int, int]] = (384, 384)
    transient_attrs: ClassVar[tuple[str, ...]] = (*VisionEnv.transient_attrs, "_renderer")

    def __init__(self, fov: float = 75.0, camera_height: float = 0.9, pitch: float = -12.0,
                 stuck_after: int = 10, **kwargs: Any) -> None:
        self.fov = check_number("fov", fov, *CAMERA_RANGES["fov"])
        self.camera_height = check_number("camera_height", camera_height, *CAMERA_RANGES["camera_height"])
        self.pitch = check_number("pitch", pitch, *CAMERA_RANGES["pitch"])
        if isinstance(stuck_after, bool) or not isinstance(stuck_after, (int, np.integer)) or not 2 <= stuck_after <= 100:
            raise ValueError(f"invalid stuck_after={stuck_after!r}; valid values: integers 2 to 100")
        self.stuck_after = int(stuck_after)
        self._renderer = None
        super().__init__(**kwargs)

    @property
    def action_names(self) -> tuple[str, ...]:  # type: ignore[override]
        return ACTIONS if self.action_mode == "discrete" else ()

    @property
    def action_fields(self) -> tuple[tuple[str, float, float, str], ...]:  # type: ignore[override]
        return PARAMETRIC if self.action_mode == "parametric" else ()

    # ----------------------------------------------------------------- task hooks
    def _build(self, rng: np.random.Generator) -> None:
        """Set ``self.layout``, ``self.things``, ``self.agent`` (cell) and ``self.heading``."""
        raise NotImplementedError

    def _goal_text(self) -> str:
        raise NotImplementedError

    def _target(self) -> tuple:
        """What the oracle does next: ``("reach", cells)``, ``("use", i)`` (face thing i and
        interact), ``("push", i, heading)`` (push crate i one cell along heading) or ``("act", a)``."""
        raise NotImplementedError

    def _interact(self, i: int | None) -> Outcome | None:
        """Interact with thing ``i`` (or with the empty square ahead when ``None``); ``None``
        means nothing happens (an invalid action)."""
        return None

    def _enter(self) -> Outcome | None:
        return None

    def _key_things(self) -> list[int]:
        """Things worth describing in the visual instruction."""
        return []

    def _flags(self) -> tuple:
        """Task progress that the oracle's cached plan depends on."""
        return ()

    def _extra_state(self) -> str:
        return ""

    # ----------------------------------------------------------------- generation
    def _generate(self, rng: np.random.Generator) -> None:
        self.carrying: int | None = None
        self.caption = ""
        self._still = 0
        self._stuck_count = 0
        self._plan: list[tuple[tuple, int]] = []
        self._dist_cache: dict = {}
        self._build(rng)
        self.start = self.agent
        self._xml = build_mjcf(self.layout, self.things, *self.obs_size, self.fov, self.camera_height, self.pitch)
        self._renderer = None
        self._route = self._route_text() if self.instruction_level == "step" else ""
        self._hint = self._visual_text() if self.instruction_level == "visual" else ""

    def _begin(self, layout: Layout) -> None:
        """Start building a level on ``layout``: no things yet, the agent at (0, 0) with heading 0
        until the task places it."""
        self.layout = layout
        self.things, self.agent, self.heading = [], (0, 0), 0

    # placement helpers (all draws from the generator handed to _build)
    def occupied(self) -> set[tuple[int, int]]:
        return {e.cell for e in self.things if not e.hidden}

    def safe_to_block(self, cell: tuple[int, int], blocked: set) -> bool:
        """Blocking ``cell`` keeps the free cells connected: its free 4-neighbours are joined
        through free cells of its 8-neighbourhood (a simple point)."""
        r, c = cell
        ring = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
        free = [not self.layout.walls[r + dr, c + dc] and (r + dr, c + dc) not in blocked for dr, dc in ring]
        if not any(free[k] for k in (0, 2, 4, 6)):
            return False
        k0 = next((k for k in range(8) if not free[k]), None)
        if k0 is None:
            return True
        seen_runs: list[list[int]] = []  # runs of consecutive free ring squares
        for step in range(1, 9):
            k = (k0 + step) % 8
            if free[k] and not free[(k - 1) % 8]:
                seen_runs.append([])
            if free[k]:
                seen_runs[-1].append(k)
        with_orth = [run for run in seen_runs if any(k % 2 == 0 for k in run)]
        return len(with_orth) == 1

    def place(self, rng: np.random.Generator, kind: str, cells: list[tuple[int, int]] | None = None,
              keep_free: tuple = (), obstacle: bool = False, fallback: bool = False, **kw: Any) -> int:
        """Add a thing at a random free cell of ``cells`` (default: anywhere) and return its index.
        Solid things (and any with ``obstacle``, e.g. pads the oracle walks around) never cut
        the free space in two; nothing is placed on ``keep_free`` cells. With ``fallback``, any
        free cell will do when none of ``cells`` can take the thing."""
        pool = self.layout.free_cells() if cells is None else cells
        taken = self.occupied() | {self.agent} | set(keep_free)
        blocked = {e.cell for e in self.things if e.solid() or e.kind == "pad"}
        ent = Ent(kind, (0, 0), **kw)
        order = [tuple(pool[int(k)]) for k in rng.permutation(len(pool))]
        for strict in (True, False):  # first try squares that touch no other solid thing
            for cell in order:
                if cell in taken or self.layout.walls[cell]:
                    continue
                if ent.solid() or obstacle:
                    near = [(cell[0] + dr, cell[1] + dc) for dr, dc in HEADINGS]
                    if not self.safe_to_block(cell, blocked) or (strict and any(n in blocked for n in near)):
                        continue
                    if any(n in blocked and len([m for m in self.adjacent_free(n) if m != cell]) == 0 for n in near):
                        continue  # would wall in a solid thing
                ent.cell = cell
                self.things.append(ent)
                return len(self.things) - 1
        if cells is not None and fallback:
            return self.place(rng, kind, None, keep_free, obstacle, **kw)
        raise RuntimeError(f"no free cell for a {kind}")

    def reach_distances(self, goals: list[tuple[int, int]]) -> np.ndarray:
        """Walking distance (cells) from every cell to the nearest of ``goals``, around solid things."""
        return grid_distances(self.layout.walls, goals, {e.cell for e in self.things if e.solid()})

    def dist_to(self, goals: list[tuple[int, int]]) -> np.ndarray:
        """`reach_distances`, cached per (goals, solid cells) for the episode."""
        key = (tuple(goals), frozenset(e.cell for e in self.things if e.solid()))
        cache = self.__dict__.setdefault("_dist_cache", {})
        if key not in cache:
            if len(cache) > 64:
                cache.clear()
            cache[key] = self.reach_distances(goals)
        return cache[key]

    def nearest(self, indices: list[int]) -> int:
        """The thing among ``indices`` closest to the agent on foot (ties: lowest index)."""
        dist = self.dist_to([self.agent])
        def cost(i: int) -> int:
            cell = self.things[i].cell
            near = [dist[n] for n in self.adjacent_free(cell)] + ([0] if cell == self.agent else [])
            return min(near, default=10**6)
        return min(indices, key=lambda i: (cost(i), i))

    def adjacent_free(self, cell: tuple[int, int]) -> list[tuple[int, int]]:
        return [(cell[0] + dr, cell[1] + dc) for dr, dc in HEADINGS if self.passable((cell[0] + dr, cell[1] + dc))]

    def far_start(self, rng: np.random.Generator, goals: list[tuple[int, int]], frac: float = 0.6,
                  cells: list[tuple[int, int]] | None = None) -> None:
        """Put the agent on a free cell at least ``frac`` of the farthest walking distance from
        ``goals``, facing a random heading."""
        dist = self.reach_distances(goals)
        taken = self.occupied()
        pool = [cell for cell in (cells or self.layout.free_cells()) if cell not in taken and dist[cell] < 10**6]
        far = max(int(dist[cell]) for cell in pool)
        good = [cell for cell in pool if dist[cell] >= max(1, frac * far)]
        self.agent = good[int(rng.integers(len(good)))]
        open_ahead = [h for h, (dr, dc) in enumerate(HEADINGS) if self.passable((self.agent[0] + dr, self.agent[1] + dc))]
        self.heading = open_ahead[int(rng.integers(len(open_ahead)))] if open_ahead else int(rng.integers(4))

    def passable(self, cell: tuple[int, int]) -> bool:
        return not self.layout.walls[cell] and not any(e.solid() and e.cell == cell for e in self.things)

    # ----------------------------------------------------------------- rules
    def _apply(self, action: Any) -> Outcome:
        if self.action_mode == "discrete":
            return self._do(int(action))
        kind, reps = int(round(float(action[0]))), int(round(float(action[1])))
        x, y = float(action[2]), float(action[3])
        if kind == 0:
            if max(abs(x), abs(y)) < DEAD_ZONE:
                sub = WAIT
            elif abs(y) >= abs(x):
                sub = FORWARD if y > 0 else BACKWARD
            else:
                sub = STRAFE_R if x > 0 else STRAFE_L
        elif kind == 1:
            sub = WAIT if abs(x) < DEAD_ZONE else (RIGHT if x > 0 else LEFT)
        else:
            sub, reps = (INTERACT if kind == 2 else WAIT), 1
        total, out = 0.0, Outcome()
        for k in range(1 if sub == WAIT else reps):
            nxt = self._do(sub)
            if nxt.invalid:
                if k == 0:
                    return nxt
                out.feedback += f"; stopped: {nxt.feedback}"
                break
            total += nxt.reward
            out = nxt
            if nxt.terminated:
                break
        out.reward = total
        return out

    def _do(self, a: int) -> Outcome:
        r, c = self.agent
        if a in MOVE_OFFSET:
            dr, dc = HEADINGS[(self.heading + MOVE_OFFSET[a]) % 4]
            cell = (r + dr, c + dc)
            if self.layout.walls[cell]:
                return Outcome(invalid=True, feedback="blocked by a wall")
            hit = next((i for i, e in enumerate(self.things) if e.solid() and e.cell == cell), None)
            if hit is not None:
                e = self.things[hit]
                beyond = (cell[0] + dr, cell[1] + dc)
                if not (e.kind == "crate" and e.state.get("pushable") and self.passable(beyond) and beyond not in self.occupied()):
                    return Outcome(invalid=True, feedback=f"blocked by the {e.name}")
                e.cell = beyond
            self.agent = cell
            self.caption = ""
            done = self._enter()
            return done or Outcome(feedback=ACTIONS[a].replace("_", " ") + (" and pushed the crate" if hit is not None else ""))
        if a in (LEFT, RIGHT):
            self.heading = (self.heading + (1 if a == LEFT else -1)) % 4
            self.caption = ""
            return Outcome(feedback=f"turned {'left' if a == LEFT else 'right'}, now facing {HEADING_NAMES[self.heading]}")
        if a == INTERACT:
            i = self.facing_thing()
            if i is None:
                i = next((k for k, e in enumerate(self.things) if not e.hidden and e.cell == self.agent), None)
            out = self._interact(i)
            if out is None:
                what = "nothing here to interact with" if i is None else f"nothing happens with the {self.things[i].name}"
                return Outcome(invalid=True, feedback=what)
            after = None if out.terminated else self._enter()  # e.g. already standing where the new goal is
            if after is not None and after.terminated:
                after.feedback = f"{out.feedback}; {after.feedback}"
                after.reward += out.reward
                return after
            return out
        return Outcome(feedback="waited")

    def facing_thing(self) -> int | None:
        dr, dc = HEADINGS[self.heading]
        cell = (self.agent[0] + dr, self.agent[1] + dc)
        return next((i for i, e in enumerate(self.things) if not e.hidden and e.cell == cell), None)

    def say(self, text: str) -> None:
        """Show ``text`` as a caption on the frame until the agent next moves or turns."""
        self.caption = text

    @staticmethod
    def win(feedback: str) -> Outcome:
        return Outcome(reward=1.0, terminated=True, success=True, feedback=feedback)

    def step(self, action: Any):
        before = (self.agent, self._stuck_count) if self._started else None
        obs, reward, terminated, truncated, info = super().step(action)
        if before is not None:
            self._still = self._still + 1 if self.agent == before[0] else 0
            if self._still == self.stuck_after:
                self._stuck_count += 1
        info["stuck"] = self._still >= self.stuck_after
        info["stuck_count"] = self._stuck_count
        return obs, reward, terminated, truncated, info

    def _info(self, outcome: Outcome) -> dict[str, Any]:
        info = super()._info(outcome)
        info["stuck"] = self._still >= self.stuck_after
        info["stuck_count"] = self._stuck_count
        return info

    # ----------------------------------------------------------------- draw
    def _draw(self) -> np.ndarray:
        return self._render_camera("front")

    def _view(self, name: str) -> np.ndarray:
        return self._render_camera(name)

    def _render_camera(self, name: str) -> np.ndarray:
        from gymv_envs.domains.world3d._render import WorldRenderer

        if self._renderer is None:
            self._renderer = WorldRenderer(self._xml, *self.obs_size)
            rend = self._renderer
            self._mocap = np.array([rend.mocap_id(f"t{i}") for i in range(len(self.things))], dtype=np.int64)
            self._agent_mocap = rend.mocap_id("agent")
            self._tint_geoms = {i: rend.geoms[f"t{i}"] for i, e in enumerate(self.things) if e.kind in ("switch", "exit")}
        rend = self._renderer
        data, model = rend.data, rend.model
        if len(self.things):
            pos = np.array([(e.cell[1] + 0.5, -(e.cell[0] + 0.5), HIDDEN_Z if e.hidden or (e.kind == "door" and e.lit) else 0.0)
                            for e in self.things])
            data.mocap_pos[self._mocap] = pos
        yaw = self.heading * np.pi / 2
        data.mocap_pos[self._agent_mocap] = (self.agent[1] + 0.5, -(self.agent[0] + 0.5), 0.0)
        data.mocap_quat[self._agent_mocap] = (np.cos(yaw / 2), 0.0, 0.0, np.sin(yaw / 2))
        for i, g in self._tint_geoms.items():
            e = self.things[i]
            model.geom_rgba[g] = ((0.1, 0.85, 0.2, 1) if e.lit else (0.85, 0.1, 0.1, 1)) if e.kind == "switch" else \
                ((0.3, 1, 0.45, 1) if e.lit or not e.state.get("locked") else (0.5, 0.5, 0.5, 1))
        frame = rend.render(name)
        if name == "front":
            self._overlay(frame)
        return frame

    def _overlay(self, frame: np.ndarray) -> None:
        H, W = frame.shape[:2]
        size = max(7, min(H, W) // 24)
        if self.carrying is not None:
            draw_text(frame, f"holding: {self.things[self.carrying].name}", (4, 3), size, (255, 255, 255), anchor="lt", bold=True)
        if self.caption and H >= 64:
            band = int(size * 2.6)
            region = frame[H - band:]
            region[...] = (region.astype(np.uint16) // 3).astype(np.uint8)
            text = self.caption if len(self.caption) * size * 0.55 < W else self.caption[: int(W / (size * 0.55)) - 3] + "..."
            draw_text(frame, text, (W / 2, H - band / 2), size, (255, 250, 210), anchor="mm")
        elif self.caption:
            fill(frame[H - 3:], (255, 250, 210))

    # ----------------------------------------------------------------- text
    def _caption(self) -> list:
        return [self._goal_text()]

    def _task_text(self) -> str:
        text = (f"You are in a 3D world seen in first person (the image is what you see ahead). {self._goal_text()} "
                "Moves go one floor square at a time (move_forward, move_backward, strafe_left, strafe_right); "
                "rotate_left and rotate_right turn 90 degrees; interact uses what is right in front of you "
                "(pick up, press, talk, read, open); walls and most objects block the way.")
        if self.instruction_level == "step":
            text += " Directions: " + self._route
        elif self.instruction_level == "visual":
            text += " " + self._hint
        return text

    def _state_text(self) -> str:
        r, c = self.agent
        dr, dc = HEADINGS[self.heading]
        k, ahead = 1, "a wall"
        while True:
            cell = (r + k * dr, c + k * dc)
            if self.layout.walls[cell]:
                break
            hit = next((e for e in self.things if not e.hidden and e.cell == cell and not (e.kind == "door" and e.lit)), None)
            if hit is not None:
                ahead = f"the {hit.name}"
                break
            k += 1
        held = self.things[self.carrying].name if self.carrying is not None else "nothing"
        text = (f"You stand at row {r}, column {c}, facing {HEADING_NAMES[self.heading]}. Ahead: {k - 1} free "
                f"squares, then {ahead}. Holding: {held}.")
        extra = self._extra_state()
        return f"{text} {extra}".strip()

    def _route_text(self) -> str:
        """Turn-by-turn directions: the oracle's route from the start, simulated on a copy."""
        sim = copy.deepcopy(self)
        sim.action_mode = "discrete"
        steps: list[tuple[int, str]] = []
        for _ in range(400):
            a = sim._next_action()
            name = sim.things[sim.facing_thing()].name if a == INTERACT and sim.facing_thing() is not None else ""
            out = sim._do(a)
            steps.append((a, name))
            if out.terminated:
                break
        phrases, k = [], 0
        words = {FORWARD: "walk forward", BACKWARD: "step back", STRAFE_L: "step left", STRAFE_R: "step right",
                 LEFT: "turn left", RIGHT: "turn right", WAIT: "wait"}
        while k < len(steps):
            a, name = steps[k]
            n = 1
            while k + n < len(steps) and steps[k + n][0] == a and a in MOVE_OFFSET:
                n += 1
            if a == INTERACT:
                phrases.append(f"interact with the {name}" if name else "interact")
            elif a in MOVE_OFFSET:
                phrases.append(f"{words[a]} {n} square{'s' * (n > 1)}")
            elif a in (LEFT, RIGHT) and k + 1 < len(steps) and steps[k + 1][0] == a:
                phrases.append("turn around")
                n = 2
            else:
                phrases.append(words[a])
            k += n
        return ", ".join(phrases) + "."

    def _visual_text(self) -> str:
        marks = [i for i, e in enumerate(self.things) if e.kind == "landmark"]
        parts = []
        for i in self._key_things():
            e = self.things[i]
            where = ""
            room = self.layout.room_at(e.cell)
            if len(self.layout.rooms) > 1 and room >= 0:
                where = f" in the room with the {self.layout.tints[room]}-tinted floor"
            refs = [m for m in marks if m != i]
            if refs:
                m = min(refs, key=lambda m: (abs(self.things[m].cell[0] - e.cell[0]) + abs(self.things[m].cell[1] - e.cell[1]), m))
                dr, dc = e.cell[0] - self.things[m].cell[0], e.cell[1] - self.things[m].cell[1]
                rel = []
                if dr:
                    rel.append(f"{abs(dr)} square{'s' * (abs(dr) > 1)} {'south' if dr > 0 else 'north'}")
                if dc:
                    rel.append(f"{abs(dc)} square{'s' * (abs(dc) > 1)} {'east' if dc > 0 else 'west'}")
                where += f", {' and '.join(rel)} of the big {self.things[m].name}"
            parts.append(f"The {e.name} is{where or ' somewhere in the world'}.")
        tints = ", ".join(sorted(set(self.layout.tints))) if len(self.layout.rooms) > 1 else ""
        start = f"You start facing {HEADING_NAMES[self.heading]}."
        return " ".join(parts + [start] + ([f"Room floors are tinted {tints}."] if tints else []))

    # ----------------------------------------------------------------- oracle
    def _key(self) -> tuple:
        return (self.agent, self.heading, self.carrying, self._flags(),
                tuple((e.cell, e.hidden, e.lit) for e in self.things))

    def _next_action(self) -> int:
        key = self._key()
        for k, (state, a) in enumerate(self._plan):
            if state == key:
                self._plan = self._plan[k:]
                return a
        target = self._target()
        if target[0] == "act":
            return int(target[1])
        actions = self._search(target)
        if not actions:
            raise RuntimeError(f"{type(self).__name__}: the oracle found no way to {target}")
        self._plan = self._trace(actions, key)
        return actions[0]

    def _trace(self, actions: list[int], key: tuple) -> list[tuple[tuple, int]]:
        """The plan as (state key, action) pairs, so the oracle follows it without replanning."""
        plan, (r, c), h = [], self.agent, self.heading
        for a in actions:
            plan.append(((( r, c), h, *key[2:]), a))
            if a in MOVE_OFFSET:
                dr, dc = HEADINGS[(h + MOVE_OFFSET[a]) % 4]
                r, c = r + dr, c + dc
            elif a in (LEFT, RIGHT):
                h = (h + (1 if a == LEFT else -1)) % 4
            else:
                break
        return plan

    def _search(self, target: tuple) -> list[int]:
        """A cheapest action list (over cell and heading) that fulfils ``target``, final action included."""
        blocked = {e.cell for e in self.things if e.solid()}
        walls = self.layout.walls
        kind = target[0]
        if kind == "reach":
            goals, final = {(cell, h) for cell in target[1] for h in range(4)}, None
        elif kind == "use":
            cell = self.things[target[1]].cell
            goals = {((cell[0] - dr, cell[1] - dc), h) for h, (dr, dc) in enumerate(HEADINGS)}
            final = INTERACT
            if self.things[target[1]].cell == self.agent:  # a flat thing underfoot
                return [INTERACT]
        elif kind == "drop":  # face a free, empty square of target[1] and interact
            taken = self.occupied()
            goals = {((cell[0] - dr, cell[1] - dc), h) for cell in target[1] if self.passable(cell) and cell not in taken
                     for h, (dr, dc) in enumerate(HEADINGS)}
            final = INTERACT
        else:  # push
            cell, h = self.things[target[1]].cell, target[2]
            dr, dc = HEADINGS[h]
            goals, final = {((cell[0] - dr, cell[1] - dc), h)}, FORWARD
        # Dijkstra: sidesteps and backing up cost double, so routes read as "turn, walk forward"
        start = (self.agent, self.heading)
        prev: dict[tuple, tuple | None] = {start: None}
        best = {start: 0}
        heap = [(0, 0, start)]
        found, tick = None, 0
        while heap:
            cost, _, s = heapq.heappop(heap)
            if cost > best[s]:
                continue
            if s in goals:
                found = s
                break
            (r, c), h = s
            for a in (FORWARD, LEFT, RIGHT, STRAFE_L, STRAFE_R, BACKWARD):
                if a in MOVE_OFFSET:
                    dr, dc = HEADINGS[(h + MOVE_OFFSET[a]) % 4]
                    n = ((r + dr, c + dc), h)
                    if walls[n[0]] or n[0] in blocked:
                        continue
                else:
                    n = ((r, c), (h + (1 if a == LEFT else -1)) % 4)
                step = 1 if a in (FORWARD, LEFT, RIGHT) else 2
                if cost + step < best.get(n, 10**9):
                    best[n] = cost + step
                    prev[n] = (s, a)
                    tick += 1
                    heapq.heappush(heap, (cost + step, tick, n))
        if found is None:
            return []
        actions = [] if final is None else [final]
        while prev[found] is not None:
            found, a = prev[found]
            actions.append(a)
        return actions[::-1]

    def oracle_action(self) -> Any:
        a = self._next_action()
        if self.action_mode == "discrete":
            return a
        n = 1
        if a in MOVE_OFFSET or a in (LEFT, RIGHT):
            while n < min(4, len(self._plan)) and self._plan[n][1] == a:
                n += 1
        if a in MOVE_OFFSET:
            x, y = {FORWARD: (0, 1), BACKWARD: (0, -1), STRAFE_L: (-1, 0), STRAFE_R: (1, 0)}[a]
            return np.array([0, n, x, y], dtype=np.float32)
        if a in (LEFT, RIGHT):
            return np.array([1, n, -1 if a == LEFT else 1, 0], dtype=np.float32)
        return np.array([2 if a == INTERACT else 3, 1, 0, 0], dtype=np.float32)

    def describe_room(self, cell: tuple[int, int]) -> str:
        room = self.layout.room_at(cell)
        return f"the room with the {self.layout.tints[room]} floor" if room >= 0 and len(self.layout.rooms) > 1 else "the world"

