"""Traps: start snagged in geometry that really traps a long body (dead-end pockets, head-on-only
gaps, corners behind furniture, angled fence funnels, crates that wedge) and get out to the exit."""

from __future__ import annotations

from typing import Any

import numpy as np

from gymv_envs.core import Outcome, TaskSpec
from gymv_envs.domains.world3d._base import World3DEnv, one_of
from gymv_envs.domains.world3d._trap_geometry import clear_of, fence, local_frame
from gymv_envs.domains.world3d._world import Ent, Prim, cell_of, open_area

KINDS = ("pocket", "gap", "corner", "funnel", "crates")
FIELD = (14, 18, 22)
CLUTTER = (4, 8, 12)       # rocks and heavy crates
FENCES = (2, 4, 6)         # loose fence segments at angles, and posts
DEPTH = (2.0, 2.5, 3.0)    # pocket / channel depth


class Trap(World3DEnv):
    """Start snagged in a trap and reach the green exit gate.

    ## Description
    An open field cluttered with rocks, heavy crates, posts and fence segments at angles. You
    start caught in a trap that holds a long body (you are 0.7 m long and 0.4 m wide, and need
    0.7 m of room to turn): ``kind="pocket"``: deep in a dead-end slot too narrow to turn in,
    facing its end (back out). ``"gap"``: inside a fenced pen whose only way out is a gap just
    wider than you, passable only head-on (turn square to it, line up, walk through).
    ``"corner"``: in the channel between a sofa and a wall, facing the corner, with an armchair
    behind (back out, sidestep, turn). ``"funnel"``: at the point of a V of fences at an angle
    (back out until there is room to turn). ``"crates"``: in a corridor, pressed against a light
    crate that wedges in the narrowing ahead when pushed (the way out is behind you). The exit
    gate is far across the field. The trap is measured by the deadlock signal in ``info``.

    ## Action Space
    ``discrete``: `Discrete(10)` (move_forward, move_backward, strafe_left, strafe_right walk
    1 m under physics; rotate_left, rotate_right turn 30 degrees; look_up, look_down, interact,
    wait); ``parametric``: `Box(6)`: maneuver, duration, joystick x, y, turn, look (see
    ``action_prompt`` and `World3DEnv`); ``locomotion="grid"``: one cell per move, 90-degree turns.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the first-person MuJoCo view; ``render_view("left"/
    "right")`` are the peripheral cameras.

    ## Rewards
    1.0 on walking into the exit gate, else 0.0 (``max_return`` 1.0); ``info["progress"]`` is
    0.5 once out of the trap.

    ## Starting State
    Field, trap (its place and angle, a multiple of 30 degrees), clutter and exit come from the
    seed; you start touching the trap's end, facing it.

    ## Episode End
    Terminates on reaching the exit. Blocked moves are blocked by physics (not invalid).

    ## Arguments
    ``kind`` (``pocket``, ``gap``, ``corner``, ``funnel``, ``crates``), ``difficulty`` (0-2:
    field size, clutter, trap depth and shape), ``fov``, ``camera_height``, ``pitch``,
    ``locomotion``, ``buffers``, ``theme_split``, ``action_mode``, ``instruction_level``,
    ``obs_size``, ``render_mode``.

    ## Version History
    - v1: initial version (MuJoCo physics traps).
    """

    def __init__(self, kind: str = "pocket", **kwargs: Any) -> None:
        self.kind = one_of("kind", kind, KINDS)
        super().__init__(**kwargs)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        """Draw until the oracle's planner finds a way out from the start (clutter can close the
        one way out of a trap); a level that already has one keeps its first draw."""
        for _ in range(12):
            super()._generate(rng)
            self._next_steps()
            planned = bool(self._plan)
            self._plan, self._plan_key, self._expect, self._last_pose, self._stalls = [], None, None, None, 0
            if planned:
                return
        raise RuntimeError(f"no trap level with a way out in 12 draws (kind={self.kind!r})")

    def _build(self, rng: np.random.Generator) -> None:
        d = self.difficulty
        n = FIELD[d]
        self._begin(open_area(rng, n, n))
        self.trap: list[Prim] = []
        # the trap stands in one quarter of the field, the exit in the opposite one
        q = int(rng.integers(4))
        cx = 1 + n * (0.25 if q in (0, 3) else 0.75)
        cy = -(1 + n * (0.25 if q in (0, 1) else 0.75))
        cx, cy = round(cx) + 0.5, -round(-cy) - 0.5
        theta = float(rng.integers(12)) * np.pi / 6
        if self.locomotion == "grid":
            theta = round(theta / (np.pi / 2)) * np.pi / 2
        getattr(self, f"_trap_{self.kind}")(rng, cx, cy, theta)
        if self.locomotion == "grid":
            self._grid_start()
        self._clutter(rng, (cx, cy))
        for _try in range(20):  # the exit's cell clear of clutter and fences (else physics can keep you off it)
            ex = 1 + n * (0.75 if q in (0, 3) else 0.25) + rng.uniform(-1.5, 1.5)
            ey = -(1 + n * (0.75 if q in (0, 1) else 0.25)) + rng.uniform(-1.5, 1.5)
            if clear_of(self.things, self.trap, ex, ey):
                break
        self.exit = len(self.things)
        self.things.append(Ent("exit", cell_of(ex, ey)))
        self.snag = (self.x, self.y)

    def _grid_start(self) -> None:
        """Grid locomotion stands on cell centres: the free cell centre nearest the trap's start."""
        from gymv_envs.domains.world3d._nav import NavMap

        R, C = self.layout.walls.shape
        nav = NavMap((C, R), self.layout.walls, self.trap)
        r0, c0 = cell_of(self.x, self.y)
        cells = sorted(((r, c) for r in range(r0 - 2, r0 + 3) for c in range(c0 - 2, c0 + 3)),
                       key=lambda rc: np.hypot(rc[1] + 0.5 - self.x, -(rc[0] + 0.5) - self.y))
        for r, c in cells:
            x, y = c + 0.5, -(r + 0.5)
            if nav.free_points(nav.loose, np.array([[x, y]])) and not any(
                    e.solid() and np.hypot(e.pos[0] - x, e.pos[1] - y) < 0.8 for e in self.things):
                self.set_start((x, y), self.yaw)
                return

    def _trap_pocket(self, rng, cx, cy, theta) -> None:
        depth, half = DEPTH[self.difficulty], 0.31
        P = local_frame(cx, cy, theta)
        for v in (-half - 0.05, half + 0.05):
            self.trap.append(fence(*P(0, v), *P(depth + 0.05, v)))
        self.trap.append(fence(*P(depth + 0.05, -half - 0.1), *P(depth + 0.05, half + 0.1)))
        self.set_start(P(depth - 0.36, 0.0), theta)

    def _trap_gap(self, rng, cx, cy, theta) -> None:
        half, gap = 1.5 + 0.5 * self.difficulty, 0.28          # pen half-size, half the gap
        P = local_frame(cx, cy, theta)
        side = float(rng.choice([-1.0, 1.0]))
        # the pen: the gap is in the side ahead (+u), offset along v so that, at difficulty > 0, you
        # must first sidestep to line up with it
        off = float(self.difficulty > 0) * side
        for a, b in (((-half, -half), (-half, half)), ((-half, half), (half, half)), ((-half, -half), (half, -half))):
            self.trap.append(fence(*P(*a), *P(*b)))
        self.trap.append(fence(*P(half, -half), *P(half, off - gap - 0.05)))
        self.trap.append(fence(*P(half, off + gap + 0.05), *P(half, half)))
        self.set_start(P(-half + 0.41, 0.0), theta + np.pi)    # facing the back fence, touching it

    def _trap_corner(self, rng, cx, cy, theta) -> None:
        depth = DEPTH[self.difficulty]
        P = local_frame(cx, cy, theta)
        wall = dict(thick=0.2, height=1.6, material="plaster", rgba=(0.9, 0.86, 0.78, 1.0))
        self.trap.append(fence(*P(-2.5, -0.41), *P(depth + 0.1, -0.41), **wall))    # the room wall
        self.trap.append(fence(*P(depth + 0.1, -0.41), *P(depth + 0.1, 2.5), **wall))  # the corner
        sofa = (0.7, 0.28, 0.22, 1.0)
        self.trap.append(Prim("box", *P(depth / 2, 0.71), 0.4, depth / 2, 0.4, 0.4, yaw=theta, material="", rgba=sofa))
        self.trap.append(Prim("box", *P(-1.7, 0.3), 0.45, 0.4, 0.9, 0.45, yaw=theta, material="", rgba=sofa))  # armchair
        self.set_start(P(depth - 0.36, 0.0), theta)

    def _trap_funnel(self, rng, cx, cy, theta) -> None:
        P = local_frame(cx, cy, theta)
        spread = np.radians(20)
        length = 2.5 + 0.5 * self.difficulty
        for sgn in (-1, 1):
            self.trap.append(fence(*P(0, 0), *P(-length * np.cos(spread), sgn * length * np.sin(spread))))
        for k in range(2 + self.difficulty):  # posts along the mouth
            self.trap.append(Prim("cyl", *P(-length - 0.8, (k - (1 + self.difficulty) / 2) * 1.3), 0.55, 0.08, 0, 0.55,
                                  material="wood"))
        self.set_start(P(-0.9, 0.0), theta)

    def _trap_crates(self, rng, cx, cy, theta) -> None:
        P = local_frame(cx, cy, theta)
        for v in (-0.65, 0.65):   # the corridor, narrowing beyond the crate
            self.trap.append(fence(*P(-4.0, v), *P(1.6, v)))
            self.trap.append(fence(*P(1.6, v), *P(2.0, np.sign(v) * 0.45)))
            self.trap.append(fence(*P(2.0, np.sign(v) * 0.45), *P(4.0, np.sign(v) * 0.45)))
        self.things.append(Ent("crate", pos=P(0.0, 0.0), yaw=theta, state={"pushable": True}))
        self.set_start(P(-0.8, 0.0), theta)

    def _clutter(self, rng: np.random.Generator, centre: tuple[float, float]) -> None:
        near = {cell_of(*centre)}
        r0, c0 = cell_of(*centre)
        keep = [(r0 + dr, c0 + dc) for dr in range(-5, 6) for dc in range(-5, 6)]
        near.update(keep)
        for k in range(CLUTTER[self.difficulty]):
            self.place(rng, "rock" if k % 2 else "crate", keep_free=tuple(near))
        n = FIELD[self.difficulty]
        for _ in range(FENCES[self.difficulty]):
            for _try in range(20):
                x, y = rng.uniform(2, n), -rng.uniform(2, n)
                if np.hypot(x - centre[0], y - centre[1]) > 6.5 and not any(e.solid() and np.hypot(e.pos[0] - x, e.pos[1] - y) < 2.5 for e in self.things):
                    break
            a, length = rng.uniform(0, np.pi), rng.uniform(1.0, 2.0)
            self.trap.append(fence(x, y, x + length * np.cos(a), y + length * np.sin(a)))
            self.trap.append(Prim("cyl", x - 0.9 * np.sin(a), y + 0.9 * np.cos(a), 0.6, 0.09, 0, 0.6, material="wood"))

    def _scenery(self, rng: np.random.Generator) -> list[Prim]:
        return self.trap

    # -- rules
    def _enter(self) -> Outcome | None:
        if self.on(self.exit):
            return self.win("reached the exit gate")
        return None

    def _progress(self) -> float:
        return 0.5 if np.hypot(self.x - self.snag[0], self.y - self.snag[1]) > 3.5 else 0.0

    def _goal_text(self) -> str:
        what = {"pocket": "stuck deep in a narrow dead-end slot", "gap": "inside a fenced pen with one narrow gap",
                "corner": "wedged in the corner between a sofa and a wall", "funnel": "at the point of a V of fences",
                "crates": "pressed against a wooden crate in a narrowing corridor"}[self.kind]
        return (f"You start {what}. Get out and walk into the green exit gate (two green posts around a glowing "
                "pad) across the field. Your body is long: you cannot turn where it is narrow.")

    def _caption(self) -> list:
        return [{"pocket": "Back out of the slot", "gap": "Leave the pen by its gap", "corner": "Get out of the corner",
                 "funnel": "Back out of the V", "crates": "Escape the corridor"}[self.kind] + ", reach the exit"]

    def _subgoals(self) -> list[str]:
        first = {"pocket": ["Walk backwards out of the slot (you cannot turn inside it)"],
                 "gap": ["Find the narrow gap in the pen's fence", "Turn to face it squarely and line up with it",
                         "Walk straight through"],
                 "corner": ["Back out of the channel", "Step sideways clear of the wall", "Turn round past the armchair"],
                 "funnel": ["Back away from the point of the V until there is room to turn", "Turn round"],
                 "crates": ["Do not push the crate: it wedges", "Walk backwards out of the corridor"]}[self.kind]
        return first + ["Find the green exit gate across the field and walk into it"]

    def _target(self) -> tuple:
        return ("on", self.exit)


_TAGS = ("world3d", "3d", "first-person", "deadlock-recovery", "physics", "trap")
SPECS = tuple(
    TaskSpec(name=f"World3DTrap{kind.capitalize()}", entry_point=Trap, version=1, max_episode_steps=240,
             tags=(*_TAGS, "split:train"), kwargs={"kind": kind}) for kind in KINDS
) + (TaskSpec(name="World3DTrapPocketHeldOut", entry_point=Trap, version=1, max_episode_steps=240,
              tags=(*_TAGS, "split:test"), kwargs={"kind": "pocket", "theme_split": "test"}),)
