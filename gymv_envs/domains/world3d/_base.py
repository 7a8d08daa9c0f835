"""`World3DEnv`: the fat base of every world3d task (a module with no SPECS).

The agent is a MuJoCo body (a capsule 0.7 m long and 0.4 m wide) moved by a velocity controller
and advanced with `mj_step` (see `_sim`); walls, furniture, fences, posts, things and crates are
collision geometry, so a blocked move is simply blocked, and light crates are pushed by contact.
With ``locomotion="grid"`` the agent instead steps kinematically from cell centre to cell centre
and turns 90 degrees (the pre-physics movement, for RL baselines). The world is rendered by MuJoCo
from cameras on the agent (front; left/right peripheral).

A task subclass implements ``_build(rng)`` (layout, things, start; it begins with `_begin`),
``_goal_text()``, ``_caption()``, ``_subgoals()``, ``_target()`` (what the oracle should do
next) and the event hooks ``_interact(i)`` / ``_enter()``; `one_of` checks its choice arguments.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome
from gymv_envs.core.canvas import draw_text, fill
from gymv_envs.core.env import VisionEnv, check_number
from gymv_envs.core.vqa import next_view_question
from gymv_envs.domains.world3d import _nav
from gymv_envs.domains.world3d._scene import (
    AGENT_Z,
    VIEW_YAWS,
    build_xml,
    camera_axes,
    layout_prims,
)
from gymv_envs.domains.world3d._world import (
    COMPASS,
    HEADINGS,
    HIDDEN_Z,
    THEME_SPLITS,
    Ent,
    Layout,
    Prim,
    cell_centre,
    cell_of,
    pick_theme,
)
from gymv_envs.rules.maze import grid_distances

ACTIONS = ("move_forward", "move_backward", "rotate_left", "rotate_right", "strafe_left", "strafe_right",
           "interact", "wait", "look_up", "look_down")
FORWARD, BACKWARD, LEFT, RIGHT, STRAFE_L, STRAFE_R, INTERACT, WAIT, LOOK_UP, LOOK_DOWN = range(10)
MOVES = {FORWARD: (1.0, 0.0), BACKWARD: (-1.0, 0.0), STRAFE_L: (0.0, 1.0), STRAFE_R: (0.0, -1.0)}  # (forward, left)
PARAMETRIC = (
    ("maneuver", 0.0, 2.0, "rounded: 0 walk with the joystick for `duration`, 1 interact with what is right in "
                           "front of you, 2 stand still for `duration`"),
    ("duration", 0.1, 3.0, "simulated seconds the walk or the wait lasts"),
    ("x", -1.0, 1.0, "joystick x, sideways (right positive); the joystick's direction is the walking direction "
                     "relative to where you face and its length (up to 1) the speed, 2 m/s at full tilt; under 0.1 it rests"),
    ("y", -1.0, 1.0, "joystick y, forward positive"),
    ("turn", -180.0, 180.0, "degrees to turn (camera and body) before the maneuver, positive turns left"),
    ("look", -30.0, 30.0, "degrees to tilt the camera before the maneuver, positive looks up"),
)
CAMERA_RANGES = {"fov": (30.0, 120.0, " degrees (vertical)"), "camera_height": (0.3, 1.4, " metres"),
                 "pitch": (-45.0, 30.0, " degrees (positive looks up)")}
LOCOMOTIONS = ("continuous", "grid")
BUFFERS = ("depth", "segmentation")
SPEED = 2.0            # m/s at full joystick
TURN_STEP = np.radians(30.0)
LOOK_STEP = 15.0       # degrees per look_up / look_down
WAIT_TIME = 0.5
REACH = 1.0            # interact: thing's surface within this many metres ...
FACE = np.radians(30)  # ... and within this angle of the heading
NEXT_TO = 0.9          # "stand next to": surface within this many metres
ON = 0.5               # "step on": centre within this many metres
PAUSE = 2.5            # walking characters stop when the agent is this close
# Deadlock signal (info["stuck"]): over the last STUCK_WINDOW steps, at least half were moves
# (a translation commanded) and the agent's net displacement stayed under STUCK_DISTANCE.
STUCK_WINDOW, STUCK_DISTANCE, RECOVER_DISTANCE = 6, 0.5, 1.0


def one_of(name: str, value: Any, valid: tuple[str, ...]) -> str:
    """``value`` if it is one of ``valid``, else a `ValueError` naming the valid values."""
    if value not in valid:
        raise ValueError(f"invalid {name}={value!r}; valid values: {', '.join(valid)}")
    return value


def _wrap(a: float) -> float:
    return float(np.angle(np.exp(1j * a)))


def _quat_from_axes(xa, ya) -> np.ndarray:
    from gymv_envs.domains.world3d._render import import_mujoco

    x, y = np.array(xa), np.array(ya)
    z = (x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0])
    mat = np.array([[x[0], y[0], z[0]], [x[1], y[1], z[1]], [x[2], y[2], z[2]]], dtype=np.float64).reshape(-1)
    q = np.empty(4)
    import_mujoco().mju_mat2Quat(q, mat)
    return q


class World3DEnv(MultiTurnEnv):
    """Base of world3d tasks (not registered itself; see the module docstring).

    The deadlock signal in ``info``: ``stuck`` is True when, over the last 6 steps
    (`STUCK_WINDOW`), at least half commanded a translation and the agent's net displacement
    stayed under 0.5 m (`STUCK_DISTANCE`); ``deadlocks`` counts how often ``stuck`` turned True
    this episode, ``stuck_steps`` the steps spent stuck, and ``recoveries`` the deadlocks that
    ended with the agent getting out: no longer stuck and at least 1 m (`RECOVER_DISTANCE`) from
    where the deadlock began.
    """

    extras: ClassVar[tuple[str, ...]] = ("world3d",)
    action_modes: ClassVar[tuple[str, ...]] = ("discrete", "parametric")
    instruction_levels: ClassVar[tuple[str, ...]] = ("goal", "step", "visual")
    views: ClassVar[tuple[str, ...]] = ("front", "left", "right")
    default_obs_size: ClassVar[tuple[int, int]] = (384, 384)
    transient_attrs: ClassVar[tuple[str, ...]] = (*VisionEnv.transient_attrs, "_renderer", "_sim", "_navmap")
    stride: ClassVar[float] = 1.0       # metres per discrete move (continuous locomotion)
    wall_height: ClassVar[float] = 1.5
    zfar: ClassVar[float] = 80.0
    # the floor plane's grid cell in metres (MuJoCo draws a plane as a grid of quads; a software
    # renderer pays for every one of them)
    floor_cell: ClassVar[float] = 1.0
    # visible static boxes drawn as merged meshes per look and square of this many metres (0: each
    # box its own geom); see `_merge`
    merge_tile: ClassVar[float] = 0.0
    heuristic_res: ClassVar[float] = 0.1
    reach: ClassVar[float] = REACH      # interaction reach (surface distance, metres)

    def __init__(self, fov: float = 75.0, camera_height: float = 0.9, pitch: float = -12.0,
                 locomotion: str = "continuous", buffers: tuple[str, ...] | list[str] = (), theme_split: str = "train",
                 **kwargs: Any) -> None:
        self.fov = check_number("fov", fov, *CAMERA_RANGES["fov"])
        self.camera_height = check_number("camera_height", camera_height, *CAMERA_RANGES["camera_height"])
        self.pitch = check_number("pitch", pitch, *CAMERA_RANGES["pitch"])
        self.locomotion = one_of("locomotion", locomotion, LOCOMOTIONS)
        if isinstance(buffers, str) or not isinstance(buffers, (tuple, list)) or any(b not in BUFFERS for b in buffers):
            raise ValueError(f"invalid buffers={buffers!r}; valid values: a tuple of {', '.join(BUFFERS)}")
        self.buffers = tuple(dict.fromkeys(buffers))
        self.theme_split = one_of("theme_split", theme_split, THEME_SPLITS)
        self._renderer = self._sim = self._navmap = None
        super().__init__(**kwargs)
        if self.locomotion == "grid" and self.action_mode != "discrete":
            raise ValueError("invalid action_mode with locomotion='grid'; valid values: discrete")

    @property
    def action_names(self) -> tuple[str, ...]:  # type: ignore[override]
        return ACTIONS if self.action_mode == "discrete" else ()

    @property
    def action_fields(self) -> tuple[tuple[str, float, float, str], ...]:  # type: ignore[override]
        return PARAMETRIC if self.action_mode == "parametric" else ()

    # ----------------------------------------------------------------- task hooks
    def _build(self, rng: np.random.Generator) -> None:
        """Set ``self.layout``, ``self.things`` and the start pose (``far_start`` or ``set_start``)."""
        raise NotImplementedError

    def _goal_text(self) -> str:
        raise NotImplementedError

    def _subgoals(self) -> list[str]:
        """The task's sub-goals in order (the ``step`` instruction level)."""
        return [self._goal_text()]

    def _target(self) -> tuple:
        """What the oracle does next: ``("near", i)`` (stand next to thing i), ``("face", i)`` (stand
        in front of it, facing it), ``("on", i)`` (step on it), ``("use", i)`` (face it and
        interact), ``("drop", i)`` (drop what you hold next to it), ``("reach", cells)`` (stand in
        one of the cells), ``("at", (x, y), r)``, ``("push", i, angle)`` (push crate i along angle)
        or ``("act", a)``."""
        raise NotImplementedError

    def _interact(self, i: int | None) -> Outcome | None:
        """Interact with thing ``i`` (or with the empty space ahead when ``None``); ``None`` means
        nothing happens."""
        return None

    def _enter(self) -> Outcome | None:
        """Checked while the agent moves (every simulated tenth of a second) and after interactions."""
        return None

    def _key_things(self) -> list[int]:
        return []

    def _flags(self) -> tuple:
        return ()

    def _extra_state(self) -> str:
        return ""

    def _scenery(self, rng: np.random.Generator) -> list[Prim]:
        """Static geometry besides the layout's wall blocks (furniture, fences, buildings)."""
        return []

    def _texts(self) -> dict[int, tuple[str, ...]]:
        """Words painted on boards: thing index -> lines (signs show their message)."""
        return {}

    # ----------------------------------------------------------------- generation
    def _generate(self, rng: np.random.Generator) -> None:
        self.carrying: int | None = None
        self.caption = ""
        self.look = self.pitch
        self.walkers: list[int] = []
        self.time = 0.0
        self._plan: list = []
        self._plan_key = None
        self._expect = None
        self._last_pose = None
        self._stalls = 0
        self._dist_cache: dict = {}
        self._heuristics: dict = {}
        self._navmap = self._renderer = self._sim = None
        self._sim_state = self._sky = None
        self._boards: list[tuple[str, ...]] = []
        self._build(rng)
        if self.locomotion == "grid":  # cell centres and the four axis headings
            self.set_start(self.agent, round(self.yaw / (np.pi / 2)) * np.pi / 2)
        self.start = (self.x, self.y, self.yaw)
        self.prims = self._layout_prims() + self._scenery(rng)
        self.theme, light_dir, gain = pick_theme(rng, self.theme_split)
        floor = self._theme_floor()
        if floor is not None:
            self.theme = dataclasses.replace(self.theme, floor=floor[0], floor_rgb=floor[1])
        words = self._texts()
        self._text_slots = {i: self.add_board(words[i]) for i in sorted(words)}
        self._words = dict(enumerate(self._boards))
        from gymv_envs.domains.world3d._render import accelerated

        R, C = self.layout.walls.shape
        self._xml = build_xml(self.prims, self.things, (C, R), self.theme, light_dir, gain, self.camera_height,
                              self.pitch, self.fov, self.obs_size, self._text_slots, accelerated(), self.zfar,
                              self.floor_cell, self.merge_tile)
        self._hist: list[tuple[float, float, bool]] = [(self.x, self.y, False)]
        self._cmd = False
        self.stuck, self.deadlocks, self.stuck_steps, self.recoveries = False, 0, 0, 0
        self._anchor: tuple[float, float] | None = None
        self._route = self._subgoal_text() if self.instruction_level == "step" else ""
        self._hint = self._visual_text() if self.instruction_level == "visual" else ""

    def add_board(self, lines: tuple[str, ...]) -> int:
        """A text texture showing ``lines``; returns its slot (a prim shows it with material
        ``f"text{slot}"``; things get theirs from `_texts`)."""
        from gymv_envs.domains.world3d._textures import TEXT_SLOTS

        if len(self._boards) >= TEXT_SLOTS:
            raise RuntimeError(f"a world has at most {TEXT_SLOTS} boards with words")
        self._boards.append(tuple(lines))
        return len(self._boards) - 1

    def _layout_prims(self) -> list[Prim]:
        return layout_prims(self.layout, self.wall_height)

    def _theme_floor(self) -> tuple[str, tuple[float, float, float]] | None:
        """A floor surface and tint that replace the theme's (None keeps the theme's)."""
        return None

    def _begin(self, layout: Layout) -> None:
        """Start building a level on ``layout``: no things yet, the agent at (0, 0) facing east."""
        self.layout = layout
        self.things: list[Ent] = []
        self.x, self.y, self.yaw = 0.5, -0.5, 0.0

    def set_start(self, cell_or_xy, yaw: float) -> None:
        x, y = cell_centre(cell_or_xy) if isinstance(cell_or_xy[0], (int, np.integer)) else cell_or_xy
        self.x, self.y, self.yaw = float(x), float(y), float(_wrap(yaw))

    # placement helpers (all draws from the generator handed to _build)
    @property
    def agent(self) -> tuple[int, int]:
        """The cell the agent stands in."""
        return cell_of(self.x, self.y)

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
        runs: list[list[int]] = []
        for step in range(1, 9):
            k = (k0 + step) % 8
            if free[k] and not free[(k - 1) % 8]:
                runs.append([])
            if free[k]:
                runs[-1].append(k)
        return len([run for run in runs if any(k % 2 == 0 for k in run)]) == 1

    def place(self, rng: np.random.Generator, kind: str, cells: list[tuple[int, int]] | None = None,
              keep_free: tuple = (), obstacle: bool = False, fallback: bool = False, **kw: Any) -> int:
        """Add a thing at the centre of a random free cell of ``cells`` (default: anywhere) and
        return its index. Solid things (and any with ``obstacle``) never cut the free space in
        two; nothing is placed on ``keep_free`` cells. With ``fallback``, any free cell will do
        when none of ``cells`` can take the thing."""
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

        def cost(i: int) -> float:
            cell = self.things[i].cell
            near = [dist[n] for n in self.adjacent_free(cell)] + ([0] if cell == self.agent else [])
            return min(near, default=10**6)
        return min(indices, key=lambda i: (cost(i), i))

    def adjacent_free(self, cell: tuple[int, int]) -> list[tuple[int, int]]:
        return [(cell[0] + dr, cell[1] + dc) for dr, dc in HEADINGS if self.passable((cell[0] + dr, cell[1] + dc))]

    def far_start(self, rng: np.random.Generator, goals: list[tuple[int, int]], frac: float = 0.6,
                  cells: list[tuple[int, int]] | None = None) -> None:
        """Put the agent at the centre of a free cell at least ``frac`` of the farthest walking
        distance from ``goals``, facing one of twelve headings (30-degree steps) at random."""
        dist = self.reach_distances(goals)
        taken = self.occupied()
        pool = [cell for cell in (cells or self.layout.free_cells()) if cell not in taken and dist[cell] < 10**6]
        far = max(int(dist[cell]) for cell in pool)
        good = [cell for cell in pool if dist[cell] >= max(1, frac * far)]
        cell = good[int(rng.integers(len(good)))]
        self.set_start(cell, self.open_heading(rng, cell))

    def open_heading(self, rng: np.random.Generator, cell: tuple[int, int]) -> float:
        """One of the twelve 30-degree headings, drawn among those with 2 m of free cells ahead."""
        x, y = cell_centre(cell)
        solid = {e.cell for e in self.things if e.solid()}
        R, C = self.layout.walls.shape

        def open_for(k: int) -> bool:
            for t in (0.5, 1.0, 1.5, 2.0):
                r, c = cell_of(x + t * np.cos(k * TURN_STEP), y + t * np.sin(k * TURN_STEP))
                if not (0 <= r < R and 0 <= c < C) or self.layout.walls[r, c] or (r, c) in solid:
                    return False
            return True
        ks = [k for k in range(12) if open_for(k)] or list(range(12))
        return ks[int(rng.integers(len(ks)))] * TURN_STEP

    def passable(self, cell: tuple[int, int]) -> bool:
        return not self.layout.walls[cell] and not any(e.solid() and e.cell == cell for e in self.things)

    # ----------------------------------------------------------------- physics plumbing
    @property
    def sim(self):
        """The level's physics (built on first use, and again after unpickling)."""
        if self._sim is None:
            from gymv_envs.domains.world3d._sim import Sim
            from gymv_envs.domains.world3d._textures import text_texture

            texts = {k: text_texture(lines) for k, lines in self._words.items()}
            dynamic = [i for i, e in enumerate(self.things) if e.dynamic]
            mocap = [i for i, e in enumerate(self.things) if not e.dynamic]
            sim = Sim(self._xml, texts, dynamic, mocap)
            if self._sim_state is not None:
                sim.set_state(self._sim_state)
            else:
                sim.set_pose(self.x, self.y, self.yaw)
                for i in dynamic:
                    sim.set_crate(i, *self.things[i].pos, self.things[i].yaw)
            self._sim, self._sim_state = sim, None
            self._sync_things()
        return self._sim

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        if self._sim is not None:
            state["_sim_state"] = self._sim.get_state()
        return state

    def _sync_things(self) -> None:
        sim = self._sim
        for i, e in enumerate(self.things):
            if not e.dynamic:
                z = HIDDEN_Z if e.hidden or (e.kind == "door" and e.lit) else 0.0
                sim.set_mocap(i, e.pos[0], e.pos[1], z, e.yaw)
        sim.refresh()

    def _read_pose(self) -> None:
        sim = self._sim
        self.x, self.y, self.yaw = sim.pose()
        for i, e in enumerate(self.things):
            if e.dynamic:
                x, y, yaw = sim.crate_pose(i)
                e.pos, e.yaw = (x, y), yaw

    @property
    def navmap(self) -> _nav.NavMap:
        if self._navmap is None:
            R, C = self.layout.walls.shape
            self._navmap = _nav.NavMap((C, R), self.layout.walls, self.prims)
        return self._navmap

    # ----------------------------------------------------------------- geometry of things
    def surface_distance(self, i: int, x: float | None = None, y: float | None = None) -> float:
        e = self.things[i]
        x, y = (self.x, self.y) if x is None else (x, y)
        return float(np.hypot(e.pos[0] - x, e.pos[1] - y)) - e.radius

    def faces(self, i: int, x: float | None = None, y: float | None = None, yaw: float | None = None) -> bool:
        """Thing ``i`` is within reach of an agent at (x, y, yaw): its surface within ``reach`` (1 m; 1.6 m in towns), its
        centre within `FACE` of the heading, and no wall between."""
        x, y, yaw = (self.x, self.y, self.yaw) if x is None else (x, y, yaw)
        e = self.things[i]
        dx, dy = e.pos[0] - x, e.pos[1] - y
        dist = float(np.hypot(dx, dy))
        if dist - e.radius > self.reach or abs(_wrap(np.arctan2(dy, dx) - yaw)) > FACE:
            return False
        hit, _ = self.sim.ray(x, y, float(np.arctan2(dy, dx)), AGENT_Z, walls_only=True)
        return hit < 0 or hit > dist - e.radius - 0.05

    def near(self, i: int, x: float | None = None, y: float | None = None) -> bool:
        return self.surface_distance(i, x, y) <= NEXT_TO

    def on(self, i: int, x: float | None = None, y: float | None = None) -> bool:
        e = self.things[i]
        x, y = (self.x, self.y) if x is None else (x, y)
        return float(np.hypot(e.pos[0] - x, e.pos[1] - y)) <= ON

    FLAT = ("pad", "exit", "health")

    def facing_thing(self, x: float | None = None, y: float | None = None, yaw: float | None = None) -> int | None:
        """The thing ``interact`` reaches from (x, y, yaw) (default: the agent's pose): the nearest one faced."""
        best, dist = None, 1e9
        for i, e in enumerate(self.things):
            if e.hidden or e.kind in self.FLAT or (e.kind == "door" and e.lit):
                continue
            if self.faces(i, x, y, yaw):
                d = self.surface_distance(i, x, y)
                if d < dist:
                    best, dist = i, d
        return best

    def drop_spot(self, x: float | None = None, y: float | None = None, yaw: float | None = None) -> tuple[float, float] | None:
        """Where ``interact`` with nothing ahead puts down what you hold: 1 m ahead, if free."""
        x, y, yaw = (self.x, self.y, self.yaw) if x is None else (x, y, yaw)
        px, py = x + np.cos(yaw), y + np.sin(yaw)
        hit, _ = self.sim.ray(x, y, yaw, AGENT_Z)
        if 0 <= hit < 1.3:
            return None
        if any(e.solid() and np.hypot(e.pos[0] - px, e.pos[1] - py) < e.radius + 0.3 for e in self.things):
            return None
        return float(px), float(py)

    # ----------------------------------------------------------------- rules
    def _apply(self, action: Any) -> Outcome:
        self.sim  # noqa: B018 - build the physics before moving
        if self.action_mode == "discrete":
            out = self._do(int(action))
        else:
            out = self._param(action)
        self._sync_things()
        return out

    def _param(self, action: np.ndarray) -> Outcome:
        kind = int(round(float(action[0])))
        seconds, jx, jy = float(action[1]), float(action[2]), float(action[3])
        turn, look = np.radians(float(action[4])), float(action[5])
        self.look = float(np.clip(self.look + look, *CAMERA_RANGES["pitch"][:2]))
        events = _Events()
        if abs(turn) > 1e-6:
            self.caption = ""
            if self.sim.turn(turn, events.chunk(self)):
                self._read_pose()
                return events.outcome()
            self._read_pose()
        if kind == 1:
            return self._use(events)
        speed = min(1.0, float(np.hypot(jx, jy)))
        if kind == 0 and speed >= 0.1:
            self._cmd = True
            self.caption = ""
            fwd, left = jy / max(np.hypot(jx, jy), 1e-9) * speed * SPEED, -jx / max(np.hypot(jx, jy), 1e-9) * speed * SPEED
            self.sim.move(fwd, left, seconds, float(self.yaw), events.chunk(self))
        else:
            self.sim.run(seconds, heading=float(self.yaw), each_chunk=events.chunk(self))
        self._read_pose()
        return events.outcome()

    def _do(self, a: int) -> Outcome:
        if a in (LOOK_UP, LOOK_DOWN):
            self.look = float(np.clip(self.look + (LOOK_STEP if a == LOOK_UP else -LOOK_STEP), *CAMERA_RANGES["pitch"][:2]))
            return Outcome(feedback=f"looking {'up' if a == LOOK_UP else 'down'} ({self.look:+.0f} degrees)")
        if self.locomotion == "grid":
            return self._grid_step(a)
        events = _Events()
        if a in MOVES:
            self._cmd = True
            self.caption = ""
            f, lft = MOVES[a]
            hold = self._detent(self.yaw)
            hold = float(self.yaw) if hold is None else hold
            self.sim.move(f * SPEED, lft * SPEED, self.stride / SPEED, hold, events.chunk(self))
        elif a in (LEFT, RIGHT):
            self.caption = ""
            base = self._detent(self.yaw)
            target = (base if base is not None else self.yaw) + (TURN_STEP if a == LEFT else -TURN_STEP)
            self.sim.turn(0.0, events.chunk(self), target=target)
        elif a == INTERACT:
            return self._use(events)
        else:
            self.sim.run(WAIT_TIME, heading=float(self.yaw), each_chunk=events.chunk(self))
        self._read_pose()
        return events.outcome()

    @staticmethod
    def _detent(yaw: float) -> float | None:
        """The 30-degree heading ``yaw`` is within 4 degrees of (discrete turns keep to these)."""
        k = round(yaw / TURN_STEP)
        return k * TURN_STEP if abs(yaw - k * TURN_STEP) < np.radians(4) else None

    def _use(self, events: _Events) -> Outcome:
        i = self.facing_thing()
        if i is None:
            i = next((k for k, e in enumerate(self.things) if not e.hidden and e.kind in self.FLAT and self.on(k)), None)
        out = self._interact(i)
        if out is None:
            what = "nothing here to interact with" if i is None else f"nothing happens with the {self.things[i].name}"
            return Outcome(feedback=what)
        self._sync_things()
        after = None if out.terminated else self._enter()  # e.g. already standing where the new goal is
        if after is not None and after.terminated:
            after.feedback = f"{out.feedback}; {after.feedback}"
            after.reward += out.reward
            return after
        return out

    def _grid_step(self, a: int) -> Outcome:
        """Kinematic movement: one cell per move, 90-degree turns (``locomotion="grid"``)."""
        h = int(round(self.yaw / (np.pi / 2))) % 4
        sim = self.sim
        if a in (LEFT, RIGHT):
            self.caption = ""
            self.yaw = _wrap((h + (1 if a == LEFT else -1)) * np.pi / 2)
            sim.set_pose(self.x, self.y, self.yaw)
            self._advance(WAIT_TIME)
            return Outcome(feedback=f"turned {'left' if a == LEFT else 'right'}")
        if a == INTERACT:
            return self._use(_Events())
        if a == WAIT:
            self._advance(WAIT_TIME)
            return Outcome(feedback="waited")
        self._cmd = True
        f, lft = MOVES[a]
        ang = h * np.pi / 2 + np.arctan2(lft, f)
        d = np.array([np.cos(ang), np.sin(ang)]).round(6)
        tx, ty = self.x + d[0], self.y + d[1]
        crate = next((i for i, e in enumerate(self.things) if e.dynamic and np.hypot(e.pos[0] - tx, e.pos[1] - ty) < 0.6), None)
        nav = self.navmap
        skip = () if crate is None else (crate,)
        _, loose = nav.with_things(self.things, skip)
        path = np.array([[self.x + d[0] * t, self.y + d[1] * t] for t in (0.5, 0.75, 1.0)])
        if not nav.free_points(loose, path):
            self._advance(WAIT_TIME)
            return Outcome()
        if crate is not None:
            e = self.things[crate]
            beyond = np.array([[e.pos[0] + d[0] * t, e.pos[1] + d[1] * t] for t in (0.5, 1.0)])
            strict, _ = nav.with_things(self.things, skip)
            if not nav.free_points(nav.raw, beyond) or any(
                    o.solid() and k != crate and np.hypot(o.pos[0] - beyond[-1][0], o.pos[1] - beyond[-1][1]) < 0.6
                    for k, o in enumerate(self.things)):
                self._advance(WAIT_TIME)
                return Outcome()
            e.pos = (float(e.pos[0] + d[0]), float(e.pos[1] + d[1]))
            sim.set_crate(crate, *e.pos, e.yaw)
        self.x, self.y = float(tx), float(ty)
        sim.set_pose(self.x, self.y, self.yaw)
        self.caption = ""
        self._advance(WAIT_TIME)
        return self._enter() or Outcome(feedback=ACTIONS[a].replace("_", " "))

    def _advance(self, seconds: float) -> None:
        """Grid locomotion: the world's clock (walking characters) runs on without physics."""
        t = seconds
        while t > 1e-9:
            dt = min(0.1, t)
            self._walk(dt)
            t -= dt

    def _walk(self, dt: float) -> None:
        """Move the walking characters along their routes (they stop while the agent is near)."""
        self.time += dt
        for i in self.walkers:
            e = self.things[i]
            if np.hypot(e.pos[0] - self.x, e.pos[1] - self.y) < PAUSE:
                continue
            route, k = e.state["route"], e.state["leg"]
            step = e.state.get("speed", 1.0) * dt
            x, y = e.pos
            while step > 1e-9:
                tx, ty = route[(k + 1) % len(route)]
                d = float(np.hypot(tx - x, ty - y))
                if d <= step:
                    x, y, step, k = tx, ty, step - d, (k + 1) % len(route)
                else:
                    x, y, step = x + (tx - x) * step / d, y + (ty - y) * step / d, 0.0
                    e.yaw = float(np.arctan2(ty - y, tx - x))
            e.pos, e.state["leg"] = (float(x), float(y)), k
            if self._sim is not None:
                self._sim.set_mocap(i, x, y, 0.0, e.yaw)

    def say(self, text: str) -> None:
        """Show ``text`` as a speech band at the bottom of the frame until the agent next moves."""
        self.caption = text

    @staticmethod
    def win(feedback: str) -> Outcome:
        return Outcome(reward=1.0, terminated=True, success=True, feedback=feedback)

    def _info(self, outcome: Outcome) -> dict[str, Any]:
        if self._started:
            self._track(self._cmd)
        self._cmd = False
        info = super()._info(outcome)
        info.update(stuck=bool(self.stuck), deadlocks=int(self.deadlocks), stuck_steps=int(self.stuck_steps),
                    recoveries=int(self.recoveries))
        for name in self.buffers:
            info[name] = self.render_buffer(name)
        return info

    def _track(self, commanded: bool) -> None:
        """Update the deadlock signal after a step (see the class docstring)."""
        self._hist.append((self.x, self.y, commanded))
        del self._hist[:-STUCK_WINDOW - 1]
        was = self.stuck
        window = self._hist[1:]
        x0, y0, _ = self._hist[0]
        self.stuck = (len(window) == STUCK_WINDOW and 2 * sum(c for *_, c in window) >= STUCK_WINDOW
                      and np.hypot(self.x - x0, self.y - y0) < STUCK_DISTANCE)
        if self.stuck and not was:
            self.deadlocks += 1
            self._anchor = (self.x, self.y)
        self.stuck_steps += self.stuck
        if not self.stuck and self._anchor is not None and np.hypot(self.x - self._anchor[0], self.y - self._anchor[1]) >= RECOVER_DISTANCE:
            self.recoveries += 1
            self._anchor = None

    # ----------------------------------------------------------------- draw
    def _draw(self) -> np.ndarray:
        if self.__dict__.get("_vqa_blind"):  # offline VQA plays steps between the frames it shows unrendered
            return np.zeros((*self.obs_size, 3), dtype=np.uint8)
        frame = self._render_camera("front")
        self._overlay(frame)
        return frame

    def _view(self, name: str) -> np.ndarray:
        return self._render_camera(name)

    @property
    def renderer(self):
        if self._renderer is None:
            from gymv_envs.domains.world3d._render import WorldRenderer

            sim = self.sim
            self._renderer = WorldRenderer(sim.model, sim.data, *self.obs_size, dynamic=sim.dynamic_textures,
                                           labels=sim.labels, dynamic_meshes=sim.dynamic_meshes)
            self._renderer.pitch = None
        return self._renderer

    def _aim_cameras(self) -> None:
        rend = self.renderer
        if rend.pitch != self.look:
            model = rend.model
            for name, yaw in VIEW_YAWS.items():
                model.cam_quat[rend.cameras[name]] = _quat_from_axes(*np.split(np.array(camera_axes(yaw, self.look)), 2))
            rend.pitch = self.look

    def _render_camera(self, name: str) -> np.ndarray:
        self._aim_cameras()
        if self._sky is None or self._sky[0] != self.look:
            from gymv_envs.domains.world3d._textures import sky_rows

            rows = sky_rows(self.obs_size[0], self.fov, self.look, self.theme.sky_top, self.theme.sky_bottom)
            self._sky = (self.look, rows)
        return self.renderer.render(name, self._sky[1])

    def render_buffer(self, name: str, view: str = "front") -> np.ndarray:
        """The ``depth`` (metres, float32) or ``segmentation`` (int16 labels: -1 sky, 0 floor, 1
        static scenery, 2 the agent, 3 + i thing i) buffer of camera ``view``."""
        one_of("buffer", name, BUFFERS)
        one_of("view", view, self.views)
        self._aim_cameras()
        return self.renderer.depth(view) if name == "depth" else self.renderer.segmentation(view)

    def _overlay(self, frame: np.ndarray) -> None:
        H, W = frame.shape[:2]
        size = max(7, min(H, W) // 24)
        if self.carrying is not None:
            draw_text(frame, f"holding: {self.things[self.carrying].name}", (4, 3), size, (255, 255, 255), anchor="lt", bold=True)
        if self.caption and H >= 64:
            from gymv_envs.core.captions import wrap_to_fit

            band = int(size * 4.2)
            region = frame[H - band:]
            region[...] = (region.astype(np.uint16) // 3).astype(np.uint8)
            text, tsize = wrap_to_fit(self.caption, W - 8, band - 4, max_lines=3, bold=False)
            for k, line in enumerate(text.split("\n")):
                n = len(text.split("\n"))
                draw_text(frame, line, (W / 2, H - band + 2 + (k + 0.5) * (band - 4) / n), tsize, (255, 250, 210), anchor="mm")
        elif self.caption:
            fill(frame[H - 3:], (255, 250, 210))

    # ----------------------------------------------------------------- text
    def _caption(self) -> list:
        return [self._goal_text()]

    def _task_text(self) -> str:
        text = f"You are in a 3D world seen in first person (the image is what you see ahead). {self._goal_text()} "
        if self.locomotion == "grid":
            text += ("Moves go one floor square at a time (move_forward, move_backward, strafe_left, strafe_right); "
                     "rotate_left and rotate_right turn 90 degrees; look_up and look_down tilt the view; ")
        elif self.action_mode == "discrete":
            text += (f"You move under physics: move_forward, move_backward, strafe_left and strafe_right walk about "
                     f"{self.stride:g} m; rotate_left and rotate_right turn 30 degrees; look_up and look_down tilt "
                     "the view; ")
        else:
            text += ("You move under physics: each action can turn you and tilt the view, then walk in any direction "
                     "for a chosen time at a chosen speed, interact, or stand still; ")
        text += ("interact uses what is right in front of you (pick up, press, talk, open, give); walls and objects "
                 "block the way, and light wooden crates slide when pushed.")
        if self.instruction_level == "step":
            text += " Sub-goals: " + self._route
        elif self.instruction_level == "visual":
            text += " " + self._hint
        return text

    def _subgoal_text(self) -> str:
        goals = self._subgoals()
        return " ".join(f"{k}) {g.rstrip('.')}." for k, g in enumerate(goals, 1))

    def _state_text(self) -> str:
        deg = int(round(np.degrees(self.yaw))) % 360
        compass = COMPASS[int(round(deg / 45)) % 8]
        dist, geom = self.sim.ray(self.x, self.y, self.yaw, AGENT_Z)
        if dist < 0:
            ahead = "open space"
        else:
            body = self.sim.model.geom_bodyid[geom]
            name = self.sim.model.body(body).name
            ahead = f"the {self.things[int(name[1:])].name}" if name.startswith("t") and name[1:].isdigit() else "a wall"
        held = self.things[self.carrying].name if self.carrying is not None else "nothing"
        free = max(0.0, dist - 0.35) if geom >= 0 else 99.0
        text = (f"You stand at x={self.x:.1f} m, y={self.y:.1f} m, facing {deg} degrees ({compass}). Ahead: "
                f"{'more than 20' if free > 20 else f'{free:.1f}'} m free, then {ahead}. Holding: {held}.")
        extra = self._extra_state()
        return f"{text} {extra}".strip()

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
                m = min(refs, key=lambda m: (np.hypot(*np.subtract(self.things[m].pos, e.pos)), m))
                dx, dy = np.subtract(e.pos, self.things[m].pos)
                rel = []
                if abs(dy) >= 0.5:
                    rel.append(f"{abs(dy):.0f} m {'north' if dy > 0 else 'south'}")
                if abs(dx) >= 0.5:
                    rel.append(f"{abs(dx):.0f} m {'east' if dx > 0 else 'west'}")
                where += f", {' and '.join(rel) or 'right next to'} of the big {self.things[m].name}"
            parts.append(f"The {e.name} is{where or ' somewhere in the world'}.")
        tints = ", ".join(sorted(set(self.layout.tints))) if len(self.layout.rooms) > 1 else ""
        deg = int(round(np.degrees(self.yaw))) % 360
        start = f"You start facing {COMPASS[int(round(deg / 45)) % 8]} (north is up on a map)."
        return " ".join(parts + [start] + ([f"Room floors are tinted {tints}."] if tints else []))

    # ----------------------------------------------------------------- oracle
    def _motion(self) -> _nav.Motion:
        if self.locomotion == "grid":
            prims = ((FORWARD, 1.0, 0.0, 0), (BACKWARD, -1.0, 0.0, 0), (STRAFE_L, 0.0, 1.0, 0), (STRAFE_R, 0.0, -1.0, 0),
                     (LEFT, 0.0, 0.0, 1), (RIGHT, 0.0, 0.0, -1))
            return _nav.Motion(prims, np.pi / 2, grid=True)
        s = self.stride
        prims = ((FORWARD, s, 0.0, 0), (LEFT, 0.0, 0.0, 1), (RIGHT, 0.0, 0.0, -1), (STRAFE_L, 0.0, s, 0),
                 (STRAFE_R, 0.0, -s, 0), (BACKWARD, -s, 0.0, 0))
        return _nav.Motion(prims, TURN_STEP)

    def _goal_test(self, target: tuple):
        """(goal predicate on a pose, heuristic source test on points, final action or None)."""
        kind = target[0]
        if kind in ("near", "face", "use", "drop"):
            i = target[1]
            e = self.things[i]
            tx, ty, rad = e.pos[0], e.pos[1], e.radius
            if kind == "near":
                return (lambda x, y, a: self.near(i, x, y)), self._disc(tx, ty, rad + NEXT_TO), None
            if kind == "face":
                return (lambda x, y, a: self.faces(i, x, y, a)), self._disc(tx, ty, rad + self.reach), None
            if kind == "use":
                # facing it, with nothing nearer in front that interact would reach first
                return (lambda x, y, a: self.faces(i, x, y, a) and self.facing_thing(x, y, a) == i), \
                    self._disc(tx, ty, rad + self.reach), INTERACT

            def drops(x, y, a):
                spot = self.drop_spot(x, y, a)
                return spot is not None and np.hypot(spot[0] - tx, spot[1] - ty) - rad <= NEXT_TO
            # the drop region reaches 1 m beyond "next to": only the side of walls the landmark is on
            return drops, self._sighted_disc(tx, ty, rad + NEXT_TO + 1.0, rad), INTERACT
        if kind == "on":
            e = self.things[target[1]]
            return (lambda x, y, a: self.on(target[1], x, y)), self._disc(*e.pos, ON), None
        if kind == "at":
            (px, py), r = target[1], target[2]
            return (lambda x, y, a: np.hypot(x - px, y - py) <= r), self._disc(px, py, r), None
        if kind == "reach":
            cells = set(map(tuple, target[1]))

            def inside(X, Y):
                return np.isin((np.floor(-Y).astype(int) * 10000 + np.floor(X).astype(int)),
                               [r * 10000 + c for r, c in cells])
            return (lambda x, y, a: cell_of(x, y) in cells), inside, None
        if kind == "push":  # stand behind the crate on the line it is to go along, facing that way
            e = self.things[target[1]]
            ang = target[2]
            ux, uy = np.cos(ang), np.sin(ang)

            def behind(x, y, a):
                dx, dy = e.pos[0] - x, e.pos[1] - y
                along, side = dx * ux + dy * uy, -dx * uy + dy * ux
                return 0.7 <= along <= 1.15 and abs(side) < 0.12 and abs(_wrap(a - ang)) < np.radians(5)
            return behind, self._disc(e.pos[0] - ux, e.pos[1] - uy, 0.3), FORWARD
        raise ValueError(f"unknown oracle target {target!r}")

    @staticmethod
    def _disc(cx: float, cy: float, r: float):
        return lambda X, Y: (X - cx) ** 2 + (Y - cy) ** 2 <= (r + 0.15) ** 2

    def _sighted_disc(self, cx: float, cy: float, r: float, inner: float):
        """`_disc`, less the points with a static collider between them and the thing (surface at
        ``inner`` from its centre): a heuristic source across a wall is a false goal the search
        cannot walk out of."""
        disc, nav = self._disc(cx, cy, r), self.navmap

        def test(X, Y):
            X, Y = np.broadcast_arrays(X, Y)
            inside = disc(X, Y)
            out = np.zeros(X.shape, dtype=bool)
            out[inside] = nav.clear_lines(X[inside], Y[inside], cx, cy, stop_short=inner)
            return out
        return test

    def _target_key(self, target: tuple) -> tuple:
        out = [target[0]]
        for v in target[1:]:
            if isinstance(v, (int, np.integer)) and target[0] in ("near", "face", "use", "drop", "on", "push"):
                e = self.things[int(v)]
                if int(v) in self.walkers:  # a moving target: plan again when it has moved on
                    grain = 2.0 if np.hypot(e.pos[0] - self.x, e.pos[1] - self.y) < 12 else 10.0
                    out.append((int(v), grain, round(e.pos[0] / grain), round(e.pos[1] / grain)))
                else:
                    out.append(int(v))
            elif isinstance(v, list):
                out.append(tuple(map(tuple, v)))
            else:
                out.append(v if not isinstance(v, np.ndarray) else tuple(v))
        return (tuple(out), self.carrying, self._flags())

    def _close(self, pose: tuple[float, float, float]) -> bool:
        return (abs(pose[0] - self.x) < 0.1 and abs(pose[1] - self.y) < 0.1
                and abs(_wrap(pose[2] - self.yaw)) < np.radians(3))

    def _next_steps(self) -> list[tuple[int, tuple[float, float, float]]]:
        """The rest of the oracle's plan from the current pose: the plan so far when the last
        action ended where it should have, else a new one (or a recovery move after snags)."""
        target = self._target()
        here = (self.x, self.y, self.yaw)
        if target[0] == "act":
            return [(int(target[1]), here)]
        key = self._target_key(target)
        if key == self._plan_key and self._expect is not None and self._close(self._expect[0]):
            self._plan = self._plan[self._expect[1]:]
            if self._plan:
                self._stalls = 0
                return self._plan
        moved = self._last_pose is None or not (abs(here[0] - self._last_pose[0]) < 0.05 and abs(here[1] - self._last_pose[1]) < 0.05
                                                and abs(_wrap(here[2] - self._last_pose[2])) < np.radians(2))
        self._stalls = 0 if moved else self._stalls + 1
        self._last_pose = here
        self._plan, self._plan_key = [], None
        goal, sources, final = self._goal_test(target)
        if goal(*here):
            return [(final if final is not None else WAIT, here)]
        steps = None
        if self._stalls < 2:
            nav = self.navmap
            grids = nav.with_things(self.things)
            h = self._heuristics.get(key[0])
            if h is None:
                src = _nav.Heuristic.sources(nav.shape, self.heuristic_res, sources)
                h = _nav.Heuristic(nav.loose, self.heuristic_res, src)
                if len(self._heuristics) > 16:
                    self._heuristics.clear()
                self._heuristics[key[0]] = h
            steps = _nav.plan(nav, grids, self._motion(), here, goal, h, self.stride if self.locomotion != "grid" else 1.0)
        if not steps:
            # a snag the map does not show: back off, sidestep or turn, then plan again
            recovery = (BACKWARD, LEFT, STRAFE_L, RIGHT, STRAFE_R, FORWARD)[(self._elapsed + self._stalls) % 6]
            self._stalls = 0 if self._stalls >= 4 else self._stalls
            return [(recovery, here)]
        if final is not None and goal(*steps[-1][1]):  # not after a partial plan: it ends short of the goal
            steps.append((final, steps[-1][1]))
        self._plan, self._plan_key = steps, key
        return steps

    # ----------------------------------------------------------------- offline VQA
    VQA_MOVES: ClassVar[tuple[str, ...]] = ("move_forward", "move_backward", "strafe_left", "strafe_right",
                                            "rotate_left", "rotate_right")

    def vqa_questions(self, rng: np.random.Generator, clip: int = 4) -> list[dict[str, Any]]:
        """Egocentric questions for offline VQA (``gymv-bench export-vqa``), each played on pickled copies
        under physics: "which image shows your view right after <action>?" (`core.vqa.next_view_question`),
        and questions on a first-person clip of ``clip`` frames (which way you turned, what you passed,
        where the clip's start is, where a thing seen is), the planner's steps left and whether six forward
        moves leave you stuck (`_vqa`). Discrete mode only."""
        if not self.action_names:
            return []
        from gymv_envs.domains.world3d import _vqa

        return next_view_question(self, rng, self.VQA_MOVES) + _vqa.questions(self, rng, clip)

    def oracle_action(self) -> Any:
        steps = self._next_steps()
        n, action = 1, steps[0][0]
        if self.action_mode == "parametric":
            n, action = self._compress(steps)
        self._expect = (steps[n - 1][1], n) if self._plan else None
        return action

    def _compress(self, steps: list) -> tuple[int, np.ndarray]:
        """Several plan steps as one parametric action: the turns before a walk, then the walk."""
        turn, k = 0.0, 0
        while k < len(steps) and steps[k][0] in (LEFT, RIGHT) and abs(turn) < np.pi - 1e-6:
            turn += TURN_STEP if steps[k][0] == LEFT else -TURN_STEP
            k += 1
        deg = float(np.degrees(turn))
        if k == len(steps) or steps[k][0] in (LEFT, RIGHT):
            return k, np.array([2, 0.1, 0, 0, deg, 0], dtype=np.float32)
        a = steps[k][0]
        if a in MOVES:
            n = 1
            while k + n < len(steps) and steps[k + n][0] == a and (n + 1) * self.stride / SPEED <= 3.0:
                n += 1
            f, lft = MOVES[a]
            return k + n, np.array([0, n * self.stride / SPEED, -lft, f, deg, 0], dtype=np.float32)
        if a == INTERACT:
            return k + 1, np.array([1, 0.1, 0, 0, deg, 0], dtype=np.float32)
        return k + 1, np.array([2, WAIT_TIME if a == WAIT else 0.1, 0, 0, deg, 0], dtype=np.float32)

    def describe_room(self, cell: tuple[int, int]) -> str:
        room = self.layout.room_at(cell)
        return f"the room with the {self.layout.tints[room]} floor" if room >= 0 and len(self.layout.rooms) > 1 else "the world"


class _Events:
    """Collects what `World3DEnv._enter` reports while the agent moves; stops the move on an ending."""

    def __init__(self) -> None:
        self.parts: list[Outcome] = []

    def chunk(self, env: World3DEnv):
        def each(dt: float) -> bool:
            env._walk(dt)
            env._read_pose()
            out = env._enter()
            if out is not None:
                self.parts.append(out)
                return out.terminated
            return False
        return each

    def outcome(self) -> Outcome:
        if not self.parts:
            return Outcome()
        out = Outcome(reward=sum(p.reward for p in self.parts), terminated=any(p.terminated for p in self.parts),
                      success=any(p.success for p in self.parts), feedback="; ".join(p.feedback for p in self.parts if p.feedback))
        return out

