"""`RobotEnv`: the fat base of every robotics task (a module with no SPECS).

The world is real MuJoCo physics: every env step sets the gripper's servo targets and runs
`SUBSTEPS` calls of ``mj_step``; objects move only by contact, gravity and friction, and
success is read from the physics state. A task subclass implements:

``_build(rng, scene)``   add parts to the `Scene` (all randomness from ``rng``) and keep the
                         `Part` handles it needs; lattice spots come from `spots`
``_goal_text()``         the goal, naming its targets (colour, relation)
``_goal_met()``          whether the goal holds in the current physics state (it must hold for
                         `HOLD_STEPS` steps in a row to succeed)
``_progress_now()``      shaped progress in [0, 1], about 0 at the start
``_failed()``            a reason when the episode is lost (wrong button, ...), else ``None``
``_plan()``              the oracle: the next servo target as a `Target`, from the state,
                         built with the skills below (`pick`, `place`, `travel`, `direct`)

Positions of generated parts lie on the discrete action lattice (`HOME` plus multiples of
`STEP`), so both action modes can align the gripper with them exactly.
"""

from __future__ import annotations

import itertools
from typing import Any, ClassVar, NamedTuple

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome
from gymv_envs.core.env import VisionEnv
from gymv_envs.core.mujoco_render import SceneRenderer, import_mujoco
from gymv_envs.core.vqa import next_view_question
from gymv_envs.domains.robotics._scene import ASSETS_KEY, FINGER_OPEN, OBJECT_COLOURS, Part, Scene

STEP = 0.02            # metres per discrete move
YAW_STEP = 15.0        # degrees per discrete turn
SUBSTEPS = 12          # mj_step calls per env step (12 x 4 ms)
HOME = np.array([0.0, -0.12, 0.21, 0.0])         # start: x, y, z (tcp, metres), yaw (degrees)
LOW = np.array([-0.30, -0.24, -0.01, -90.0])     # servo target bounds (lattice points)
HIGH = np.array([0.30, 0.24, 0.25, 90.0])
TRAVEL_Z = 0.17        # tcp height at which the oracle carries things across
LIFT_Z = 0.23          # tcp height the oracle lifts things to
HOLD_STEPS = 3         # the goal must hold this many steps in a row
MAX_MOVE, MAX_YAW = 0.04, 30.0
FINE = np.array([0.001, 0.001, 0.001, 0.5])     # the oracle's target grid in parametric mode
ACTIONS = ("move_left", "move_right", "move_forward", "move_back", "move_up", "move_down",
           "yaw_left", "yaw_right", "open", "close", "wait")
MOVES = {0: (0, -1), 1: (0, 1), 2: (1, 1), 3: (1, -1), 4: (2, 1), 5: (2, -1), 6: (3, 1), 7: (3, -1)}
OPEN, CLOSE, WAIT = 8, 9, 10
PARAMETRIC = (
    ("dx", -MAX_MOVE, MAX_MOVE, "metres to move the gripper right (negative: left) in the camera's view"),
    ("dy", -MAX_MOVE, MAX_MOVE, "metres to move the gripper away from the camera (negative: towards it)"),
    ("dz", -MAX_MOVE, MAX_MOVE, "metres to move the gripper up (negative: down)"),
    ("dyaw", -MAX_YAW, MAX_YAW, "degrees to turn the gripper counter-clockwise seen from above (negative: clockwise)"),
    ("grip", -1.0, 1.0, "finger command: above 0.5 closes the fingers, below -0.5 opens them, in between keeps them"),
)
STATE_SIG = None  # mjSTATE_INTEGRATION, set on first use (mujoco is imported lazily)


class Target(NamedTuple):
    """A servo target the oracle wants next: tcp position (m), yaw (degrees), fingers closed."""

    x: float
    y: float
    z: float
    yaw: float
    closed: bool


_SERIALS = itertools.count()


class _Sim:
    """A compiled model and its data, with name lookups (rebuilt from the MJCF when unpickled)."""

    def __init__(self, xml: str, parts: list[Part], state: np.ndarray | None = None) -> None:
        global STATE_SIG
        mujoco = import_mujoco()
        STATE_SIG = mujoco.mjtState.mjSTATE_INTEGRATION.value
        self.mujoco = mujoco
        self.model = mujoco.MjModel.from_xml_string(xml)
        self.data = mujoco.MjData(self.model)
        m = self.model
        self.body = {p.name: mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, p.name) for p in parts}
        self.geoms = {p.name: np.flatnonzero(m.geom_bodyid == self.body[p.name]) for p in parts}
        self.fingers = (mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, "finger_l"),
                        mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, "finger_r"))
        self.gripper_bodies = tuple(mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, b) for b in ("ee", "finger_l", "finger_r"))
        self.renderer: SceneRenderer | None = None
        self.serial = next(_SERIALS)  # tells compiled models apart (for per-state caches)
        if state is not None:
            mujoco.mj_setState(m, self.data, state, STATE_SIG)
        mujoco.mj_forward(m, self.data)

    def joint_adr(self, name: str) -> tuple[int, int]:
        j = self.mujoco.mj_name2id(self.model, self.mujoco.mjtObj.mjOBJ_JOINT, name)
        if j < 0:
            raise KeyError(name)
        return int(self.model.jnt_qposadr[j]), int(self.model.jnt_dofadr[j])

    def get_state(self) -> np.ndarray:
        out = np.empty(self.mujoco.mj_stateSize(self.model, STATE_SIG))
        self.mujoco.mj_getState(self.model, self.data, out, STATE_SIG)
        return out


class RobotEnv(MultiTurnEnv):
    """Base of robotics tasks (not registered itself; see the module docstring)."""

    extras: ClassVar[tuple[str, ...]] = ("robotics",)
    action_modes: ClassVar[tuple[str, ...]] = ("discrete", "parametric")
    views: ClassVar[tuple[str, ...]] = ("front", "wrist")
    default_obs_size: ClassVar[tuple[int, int]] = (512, 512)
    transient_attrs: ClassVar[tuple[str, ...]] = (*VisionEnv.transient_attrs, "_sim", "_contacts", "_contacts_key")
    hold_steps: int = HOLD_STEPS  # steps in a row the goal must hold (tasks may set it per level)

    def __init__(self, **kwargs: Any) -> None:
        self._sim: _Sim | None = None
        self._xml = ""
        super().__init__(**kwargs)

    @property
    def action_names(self) -> tuple[str, ...]:  # type: ignore[override]
        return ACTIONS if self.action_mode == "discrete" else ()

    @property
    def action_fields(self) -> tuple[tuple[str, float, float, str], ...]:  # type: ignore[override]
        return PARAMETRIC if self.action_mode == "parametric" else ()

    # ----------------------------------------------------------------- task hooks
    def _build(self, rng: np.random.Generator, scene: Scene) -> None:
        raise NotImplementedError

    def _goal_text(self) -> str:
        raise NotImplementedError

    def _goal_met(self) -> bool:
        raise NotImplementedError

    def _progress_now(self) -> float:
        raise NotImplementedError

    def _failed(self) -> str | None:
        return None

    def _plan(self) -> Target:
        raise NotImplementedError

    # ----------------------------------------------------------------- generation
    def _generate(self, rng: np.random.Generator) -> None:
        self._taken: list[tuple[float, float, float]] = []
        scene = Scene(rng)
        self._build(rng, scene)
        self.parts = {p.name: p for p in scene.parts}
        self._xml = scene.xml(*self.obs_size)
        self._sim = None
        self._physics_state = None
        self._sp = HOME.copy()
        self._closed = False
        self._hold = 0
        sim = self.sim
        d = sim.data
        d.qpos[:4] = self._sp[:3].tolist() + [np.radians(self._sp[3])]
        d.qpos[4:6] = FINGER_OPEN
        for joint, value in scene.init_qpos.items():
            d.qpos[sim.joint_adr(joint)[0]] = value
        self._set_ctrl(self._sp)
        for _ in range(30):  # let the scene settle (balls drop into cups, springs rest)
            sim.mujoco.mj_step(sim.model, d)
        d.qvel[:] = 0.0
        sim.mujoco.mj_forward(sim.model, d)
        self._after_build()
        self._phi0 = float(np.clip(self._progress_now(), 0.0, 0.9))
        self._phi = 0.0

    def _after_physics(self) -> None:
        """Hook: called after every step's physics, before the goal is judged (events, latches)."""

    def _progress(self) -> float:
        """The task's progress, rescaled so that the start is 0 (the reward is its change)."""
        return self._phi

    def _measure_progress(self) -> float:
        raw = float(np.clip(self._progress_now(), 0.0, 1.0))
        return float(np.clip((raw - self._phi0) / (1.0 - self._phi0), 0.0, 1.0))

    def _after_build(self) -> None:
        """Hook: remember initial physics quantities (distances for progress) after the scene settles."""

    def spots(self, rng: np.random.Generator, n: int, gap: float, x=(-0.24, 0.24), y=(-0.16, 0.18),
              radius: float = 0.03) -> list[tuple[float, float]]:
        """``n`` lattice points in the box ``x`` by ``y`` whose discs of ``radius`` keep ``gap``
        metres apart from each other and from earlier spots (all draws from ``rng``)."""
        xs = np.arange(np.ceil(x[0] / STEP), np.floor(x[1] / STEP) + 1) * STEP + HOME[0]
        ys = np.arange(np.ceil((y[0] - HOME[1]) / STEP), np.floor((y[1] - HOME[1]) / STEP) + 1) * STEP + HOME[1]
        grid = [(round(float(a), 4), round(float(b), 4)) for a in xs for b in ys]
        order = [grid[int(k)] for k in rng.permutation(len(grid))]
        for g in (gap, 0.6 * gap, 0.0):  # a crowded table leaves less room between parts
            out: list[tuple[float, float]] = []
            taken = list(self._taken)
            for p in order:
                if len(out) == n:
                    break
                if all(np.hypot(p[0] - q[0], p[1] - q[1]) >= g + radius + r for *q, r in taken):
                    out.append(p)
                    taken.append((p[0], p[1], radius))
            if len(out) == n:
                self._taken = taken
                return out
        raise RuntimeError(f"{type(self).__name__}: no room for {n} parts")

    def scatter(self, rng: np.random.Generator, scene: Scene, looks: list[tuple[str, str]], gap: float = 0.06,
                prefix: str = "obj", **region: Any) -> list[Part]:
        """Free objects ``(colour, kind)`` (kind ``block``, ``cylinder`` or ``cup``) on lattice spots;
        blocks get a yaw that is a multiple of `YAW_STEP`."""
        out = []
        for k, ((colour, kind), xy) in enumerate(zip(looks, self.spots(rng, len(looks), gap, **region))):
            name = f"{prefix}{k}"
            if kind == "block":
                out.append(scene.block(name, colour, xy, yaw=float(rng.integers(-3, 3)) * YAW_STEP))
            elif kind == "cylinder":
                out.append(scene.cylinder(name, colour, xy))
            else:
                out.append(scene.mug(name, colour, xy, yaw=float(rng.integers(0, 24)) * YAW_STEP))
        return out

    @staticmethod
    def looks(rng: np.random.Generator, n: int, kinds: tuple[str, ...] = ("block", "cylinder"),
              near_misses: bool = False) -> list[tuple[str, str]]:
        """``n`` distinct (colour, kind) pairs, the first the target; with ``near_misses`` the
        others share its colour or its kind where they can."""
        colours = [OBJECT_COLOURS[int(i)] for i in rng.permutation(len(OBJECT_COLOURS))]
        first = (colours[0], kinds[int(rng.integers(len(kinds)))])
        out = [first]
        pool = [(c, k) for c in colours for k in kinds if (c, k) != first]
        if near_misses:
            pool.sort(key=lambda ck: 0 if (ck[0] == first[0]) != (ck[1] == first[1]) else 1)  # stable: random within
        for ck in pool:
            if len(out) == n:
                break
            out.append(ck)
        return out

    def reserve(self, xy, radius: float) -> None:
        """Keep later `spots` away from a disc at ``xy`` (for fixtures placed by hand)."""
        self._taken.append((float(xy[0]), float(xy[1]), radius))

    # ----------------------------------------------------------------- physics
    @property
    def sim(self) -> _Sim:
        if self._sim is None:
            self._sim = _Sim(self._xml, list(self.parts.values()), self._physics_state)
        return self._sim

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        if self._sim is not None:
            state["_physics_state"] = self._sim.get_state()
        return state

    def _set_ctrl(self, sp: np.ndarray) -> None:
        d = self.sim.data
        d.ctrl[:4] = (sp[0], sp[1], sp[2], np.radians(sp[3]))
        d.ctrl[4] = 0.0 if self._closed else FINGER_OPEN

    def _apply(self, action: Any) -> Outcome:
        delta, grip, name = self._decode(action)
        before = self._closed
        if grip is not None:
            self._closed = grip
        old = self._sp.copy()
        new = np.clip(old + delta, LOW, HIGH)
        sim = self.sim
        for k in range(SUBSTEPS):  # the servo targets ramp from the old to the new setpoint
            self._set_ctrl(old + (new - old) * (k + 1) / SUBSTEPS)
            sim.mujoco.mj_step(sim.model, sim.data)
        sim.mujoco.mj_forward(sim.model, sim.data)
        self._sp = new
        self._after_physics()
        met = self._goal_met()
        self._hold = self._hold + 1 if met else 0
        fail = self._failed()
        success = self._hold >= self.hold_steps and fail is None
        phi = 1.0 if success else self._measure_progress()
        reward = phi - self._phi + (1.0 if success else 0.0)
        self._phi = phi
        feedback = name
        if self._closed != before:
            held = [p.label for p in self.parts.values() if p.free and self.holding(p)]
            feedback += f" (holding the {held[0]})" if held else ""
        if success:
            return Outcome(reward=reward, terminated=True, success=True, feedback=f"{feedback}; goal reached")
        if fail is not None:
            return Outcome(reward=reward, terminated=True, feedback=f"{feedback}; task failed: {fail}")
        if met:
            feedback += f"; goal holds, keep it for {self.hold_steps - self._hold} more step(s)"
        return Outcome(reward=reward, feedback=feedback)

    def _decode(self, action: Any) -> tuple[np.ndarray, bool | None, str]:
        delta = np.zeros(4)
        if self.action_mode == "discrete":
            a = int(action)
            if a in MOVES:
                axis, sign = MOVES[a]
                delta[axis] = sign * (YAW_STEP if axis == 3 else STEP)
            return delta, {OPEN: False, CLOSE: True}.get(a), ACTIONS[a].replace("_", " ")
        a = np.asarray(action, dtype=np.float64)
        delta[:] = a[:4]
        grip = True if a[4] > 0.5 else False if a[4] < -0.5 else None
        name = "moved" if np.any(delta != 0) else "waited"
        if grip is not None:
            name += "; closed the fingers" if grip else "; opened the fingers"
        return delta, grip, name

    # ----------------------------------------------------------------- reading the state
    @property
    def tcp(self) -> np.ndarray:
        """Actual tool point (x, y, z) in metres."""
        return self.sim.data.qpos[:3].copy()

    @property
    def tcp_yaw(self) -> float:
        return float(np.degrees(self.sim.data.qpos[3]))

    def pos(self, part: Part | str) -> np.ndarray:
        name = part if isinstance(part, str) else part.name
        return self.sim.data.xpos[self.sim.body[name]].copy()

    def yaw(self, part: Part) -> float:
        """The part's heading about z in degrees."""
        R = self.sim.data.xmat[self.sim.body[part.name]].reshape(3, 3)
        return float(np.degrees(np.arctan2(R[1, 0], R[0, 0])))

    def speed(self, part: Part) -> float:
        """Linear speed of a free part (m/s)."""
        dof = self._free_dof(part)
        return float(np.linalg.norm(self.sim.data.qvel[dof:dof + 3]))

    def _free_dof(self, part: Part) -> int:
        m, b = self.sim.model, self.sim.body[part.name]
        return int(m.jnt_dofadr[m.body_jntadr[b]])

    def joint(self, name: str) -> float:
        return float(self.sim.data.qpos[self.sim.joint_adr(name)[0]])

    def extent(self, part: Part) -> tuple[float, float]:
        """Lowest and highest z of the part's geoms (from their current poses)."""
        d, m = self.sim.data, self.sim.model
        lo, hi = np.inf, -np.inf
        for g in self.sim.geoms[part.name]:
            R = d.geom_xmat[g].reshape(3, 3)
            size = m.geom_size[g]
            t = m.geom_type[g]
            if t == 6:  # box
                h = float(np.abs(R[2]) @ size)
            elif t == 5:  # cylinder: radius across, half length along its axis
                h = float(abs(R[2, 2]) * size[1] + np.hypot(R[2, 0], R[2, 1]) * size[0])
            else:
                h = float(size[0])
            z = d.geom_xpos[g][2]
            lo, hi = min(lo, z - h), max(hi, z + h)
        return lo, hi

    def _contact_bodies(self) -> frozenset:
        """Pairs of body ids in contact now (both orders), computed once per physics state."""
        d = self.sim.data
        key = (self.sim.serial, d.time)
        if getattr(self, "_contacts_key", None) != key:
            bodies = self.sim.model.geom_bodyid[d.contact.geom[: d.ncon]] if d.ncon else np.zeros((0, 2), int)
            self._contacts = frozenset(map(tuple, bodies.tolist())) | frozenset((b, a) for a, b in bodies.tolist())
            self._contacts_key = key
        return self._contacts

    def touching(self, a: Part, b: Part | None = None) -> bool:
        """Whether part ``a`` touches part ``b`` (or the gripper when ``b`` is None)."""
        pairs, ba = self._contact_bodies(), self.sim.body[a.name]
        others = self.sim.gripper_bodies if b is None else (self.sim.body[b.name],)
        return any((ba, o) in pairs for o in others)

    def holding(self, part: Part) -> bool:
        """Closed fingers press on ``part`` from both sides."""
        if not self._closed:
            return False
        pairs, b = self._contact_bodies(), self.sim.body[part.name]
        return all((b, f) in pairs for f in self.sim.gripper_bodies[1:])

    def finger_gap(self) -> float:
        return float(2 * self.sim.data.qpos[4])

    def fingers_moving(self) -> bool:
        return bool(abs(self.sim.data.qvel[4]) > 0.01)

    def fell_off(self) -> str | None:
        """The first free part that left the table, if any (a failure for every task)."""
        for p in self.parts.values():
            if p.free and self.pos(p)[2] < -0.03:
                return f"the {p.label} fell off the table"
        return None

    def on_top(self, upper: Part, lower: Part, tol: float = 0.6) -> bool:
        """``upper`` rests on ``lower``: its centre within ``tol`` of the lower's half width, its
        bottom at the lower's top."""
        a, b = self.pos(upper), self.pos(lower)
        return bool(np.hypot(a[0] - b[0], a[1] - b[1]) < tol * min(lower.half[:2])
                    and abs(self.extent(upper)[0] - self.extent(lower)[1]) < 0.012)

    def toward(self, part: Part, xy, d0: float) -> float:
        """1 - (the part's distance to ``xy``) / ``d0``, clipped to [0, 1]."""
        p = self.pos(part)
        return float(np.clip(1.0 - np.hypot(p[0] - xy[0], p[1] - xy[1]) / max(d0, 1e-3), 0.0, 1.0))

    def dist_xy(self, part: Part, xy) -> float:
        p = self.pos(part)
        return float(np.hypot(p[0] - xy[0], p[1] - xy[1]))

    def carry(self, part: Part, xy, support_z: float, yaw: float | None = None) -> Target:
        """Next target to pick ``part`` up and put it down over ``xy`` on a surface at ``support_z``."""
        if self.holding(part):
            return self.place(part, xy, support_z, yaw)
        return self.pick(part)

    def in_bin(self, part: Part, bin_: Part, margin: float = 0.0) -> bool:
        """The part's centre is inside the bin's walls and below their top."""
        p, b = self.pos(part), bin_.xy
        ix, iy, hz = bin_.half
        return bool(abs(p[0] - b[0]) < ix - margin and abs(p[1] - b[1]) < iy - margin
                    and p[2] < bin_.extra.get("z", 0.0) + 2 * hz + 0.01)

    # ----------------------------------------------------------------- drawing
    def _render(self, camera: str) -> np.ndarray:
        sim = self.sim
        if sim.renderer is None or (sim.renderer.height, sim.renderer.width) != self.obs_size:
            sim.renderer = SceneRenderer(sim.model, *self.obs_size, assets=ASSETS_KEY)
        return sim.renderer.render(sim.data, camera)

    def _draw(self) -> np.ndarray:
        if self.__dict__.get("_vqa_blind"):  # offline VQA plays steps between the frames it shows unrendered
            return np.zeros((*self.obs_size, 3), dtype=np.uint8)
        return self._render("front")

    def _view(self, name: str) -> np.ndarray:
        return self._render(name)

    # ----------------------------------------------------------------- text
    def _caption(self) -> list:
        return [self._goal_text()]

    def _task_text(self) -> str:
        if self.action_mode == "discrete":
            how = (f"Each move shifts the gripper {STEP * 100:g} cm (left/right, forward = away from the camera / "
                   f"back = towards it, up/down); yaw_left/yaw_right turn it {YAW_STEP:g} degrees; open and close "
                   "drive the fingers.")
        else:
            how = (f"Each action moves the gripper by up to {MAX_MOVE * 100:g} cm per axis, turns it by up to "
                   f"{MAX_YAW:g} degrees and can open or close the fingers.")
        return (f"A two-finger robot gripper works over a table, seen by a fixed camera in front of the table. "
                f"{self._goal_text()} {how} The world is simulated physics: objects fall, slide and collide, "
                f"and grasped objects are held by friction. The goal must hold for {self.hold_steps} steps.")

    def _state_text(self) -> str:
        x, y, z = self.tcp
        held = [p.label for p in self.parts.values() if p.free and self.holding(p)]
        objs = "; ".join(f"{p.label} at ({self.pos(p)[0]:+.2f}, {self.pos(p)[1]:+.2f}, {self.pos(p)[2]:+.2f})"
                         for p in self.parts.values() if p.free)
        fixed = "; ".join(f"{p.label} at ({p.xy[0]:+.2f}, {p.xy[1]:+.2f})" for p in self.parts.values() if not p.free)
        return (f"Gripper at ({x:+.2f}, {y:+.2f}, {z:+.2f}) m, yaw {self.tcp_yaw:+.0f} deg, fingers "
                f"{'closed' if self._closed else 'open'}, holding {held[0] if held else 'nothing'}. Objects: {objs or 'none'}."
                + (f" Fixtures: {fixed}." if fixed else ""))

    # ----------------------------------------------------------------- oracle: skills
    def snap(self, x: float, y: float, z: float, yaw: float, up: bool = False) -> np.ndarray:
        """The servo target the action mode can reach closest to (x, y, z, yaw): a lattice
        point in discrete mode (``up``: the nearest at or above ``z``), within the bounds."""
        t = np.array([x, y, z, yaw], dtype=np.float64)
        units = np.array([STEP, STEP, STEP, YAW_STEP]) if self.action_mode == "discrete" else FINE
        k = np.round((t - HOME) / units)
        if up and HOME[2] + k[2] * units[2] < z - 1e-9:
            k[2] += 1
        return np.clip(HOME + k * units, LOW, HIGH)

    def at(self, target: np.ndarray, tol: float = 0.004) -> bool:
        """The setpoint is ``target`` and the gripper has settled there."""
        if np.any(np.abs(self._sp[:3] - target[:3]) > 1e-5) or abs(self._sp[3] - target[3]) > 1e-3:
            return False
        return bool(np.all(np.abs(self.tcp - target[:3]) < tol) and abs(self.tcp_yaw - target[3]) < 3.0
                    and np.linalg.norm(self.sim.data.qvel[:3]) < 0.03)

    def direct(self, xyz, yaw: float | None = None, closed: bool | None = None, up: bool = False) -> Target:
        """Go straight to ``xyz`` (snapped)."""
        t = self.snap(*xyz, self._sp[3] if yaw is None else yaw, up=up)
        return Target(*t, self._closed if closed is None else closed)

    def travel(self, xyz, yaw: float | None = None, closed: bool | None = None, up: bool = False,
               height: float = TRAVEL_Z) -> Target:
        """Rise to ``height``, cross over, then go down to ``xyz`` (snapped)."""
        t = self.snap(*xyz, self._sp[3] if yaw is None else yaw, up=up)
        closed = self._closed if closed is None else closed
        across = np.any(np.abs(t[:2] - self._sp[:2]) > 1e-5) or abs(t[3] - self._sp[3]) > 1e-3
        top = max(height, t[2])
        if across and self._sp[2] < top - 1e-6:
            return Target(self._sp[0], self._sp[1], self.snap(0, 0, top, 0, up=True)[2], self._sp[3], closed)
        if across:
            return Target(t[0], t[1], self._sp[2], t[3], closed)
        if t[2] < self._sp[2] - 1e-6 and (np.any(np.abs(self.tcp[:2] - self._sp[:2]) > 0.006)
                                          or abs(self.tcp_yaw - self._sp[3]) > 4.0):
            return Target(*self._sp, closed)  # arrive over the spot, turned, before going down
        return Target(*t, closed)

    def hold_here(self, closed: bool | None = None) -> Target:
        return Target(*self._sp, self._closed if closed is None else closed)

    @staticmethod
    def grasp_yaw(part: Part, yaw: float) -> float:
        """Gripper yaw that closes the fingers across the part's narrow side (in [-90, 90))."""
        if part.kind in ("cylinder", "cup", "ball"):
            return 0.0
        if abs(part.half[0] - part.half[1]) < 1e-6:
            return (yaw + 45.0) % 90.0 - 45.0
        base = yaw if part.half[0] > part.half[1] else yaw + 90.0
        return (base + 90.0) % 180.0 - 90.0

    def pick(self, part: Part, yaw: float | None = None) -> Target:
        """Next target to grasp ``part`` from above (call while not holding it)."""
        p = self.pos(part)
        lo, hi = self.extent(part)
        z = max(lo + 0.01, hi - 0.045)
        yaw = self.grasp_yaw(part, self.yaw(part)) if yaw is None else yaw
        grasp = self.snap(p[0], p[1], z, yaw)
        grasp[2] = max(grasp[2], self.snap(0, 0, lo + 0.005, 0, up=True)[2])
        if self._closed:
            if self.fingers_moving() and self.finger_gap() > 0.004:
                return self.hold_here()  # the fingers are still closing
            if np.any(np.abs(grasp[:2] - self._sp[:2]) > 1e-5) and self._sp[2] < TRAVEL_Z - 1e-6:
                return self.direct((*self._sp[:2], TRAVEL_Z), closed=True, up=True)  # rise before opening
            return self.hold_here(closed=False)
        if not self.at(grasp):
            return self.travel(grasp[:3], grasp[3], closed=False)
        return Target(*grasp, True)

    def place(self, part: Part, xy, support_z: float, yaw: float | None = None, clearance: float = 0.008) -> Target:
        """Next target to carry the held ``part`` over ``xy`` and let go with its bottom just
        above ``support_z`` (``yaw``: the gripper yaw to hold while doing so)."""
        lo, _ = self.extent(part)
        z = support_z + clearance + (self.tcp[2] - lo)
        t = self.snap(xy[0], xy[1], z, self._sp[3] if yaw is None else yaw, up=True)
        band = STEP if self.action_mode == "discrete" else FINE[2]
        if np.allclose(t[[0, 1, 3]], self._sp[[0, 1, 3]], atol=1e-5) and z - 0.005 <= self._sp[2] <= z + band + 0.005:
            t[2] = self._sp[2]  # already at a good height: do not chase the measured offset
        if not self.at(t, tol=0.006):
            return self.travel(t[:3], t[3], closed=True, height=max(TRAVEL_Z, t[2]))
        return Target(*t, False)

    def retreat(self) -> Target:
        """Open the fingers and rise to the travel height (then wait)."""
        if self._closed:
            return self.hold_here(closed=False)
        return self.direct((self._sp[0], self._sp[1], max(self._sp[2], TRAVEL_Z)), closed=False, up=True)

    # ----------------------------------------------------------------- offline VQA
    VQA_MOVES: ClassVar[tuple[str, ...]] = ("move_left", "move_right", "move_forward", "move_back", "move_up",
                                            "move_down", "open", "close")

    def vqa_questions(self, rng: np.random.Generator, clip: int = 4) -> list[dict[str, Any]]:
        """Questions for offline VQA (``gymv-bench export-vqa``), each played on pickled copies under
        physics: "which image shows the scene right after <action> 5 times in a row?" (10 cm of gripper
        travel, or the fingers opening or closing; `core.vqa.next_view_question`), and which way the gripper
        moved over a clip of ``clip`` wrist-camera frames (`_vqa.clip_motion`). Discrete mode only."""
        if not self.action_names:
            return []
        from gymv_envs.domains.robotics import _vqa

        return (next_view_question(self, rng, self.VQA_MOVES, repeat=5, what="the scene")
                + _vqa.clip_motion(self, rng, clip))

    # ----------------------------------------------------------------- oracle: the follower
    def oracle_action(self) -> Any:
        t = self._plan()
        want = np.array(t[:4], dtype=np.float64)
        diff = want - self._sp
        discrete = self.action_mode == "discrete"
        if t.closed != self._closed:
            if discrete:
                return CLOSE if t.closed else OPEN
            return np.array([0, 0, 0, 0, 1.0 if t.closed else -1.0], dtype=np.float32)
        if discrete:
            steps = diff / np.array([STEP, STEP, STEP, YAW_STEP])
            axis = int(np.argmax(np.abs(steps)))
            if abs(steps[axis]) < 0.5:
                return WAIT
            return next(a for a, (ax, s) in MOVES.items() if ax == axis and s == np.sign(steps[axis]))
        move = np.round(np.clip(diff[:3], -MAX_MOVE, MAX_MOVE), 4)
        turn = round(float(np.clip(diff[3], -MAX_YAW, MAX_YAW)), 2)
        return np.array([*move, turn, 0.0], dtype=np.float32)

