"""Artillery: adjust a cannon's angle and power, shot by shot, until a shell hits the target."""

from __future__ import annotations

import math

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.domains.spatial._artillery_view import ArtilleryView
from gymv_envs.domains.spatial._ballistics import WORLD_W, Ballistics

VIEW_H = 55.0                     # metres: least visible height
CANNON_X, MUZZLE_H = 6.0, 1.5     # cannon position and muzzle height above its ground
MAX_SHOTS = 10
# difficulty: (hills, wall height range or None, max wind, target width range, target x range)
LEVELS = {0: (False, None, 0.0, (7.0, 9.0), (30.0, 90.0)),
          1: (True, (12.0, 22.0), 0.0, (5.0, 6.5), (45.0, 90.0)),
          2: (True, (16.0, 30.0), 3.0, (4.0, 5.0), (50.0, 92.0))}


class Artillery(ArtilleryView, Ballistics, MultiTurnEnv):
    """Fire a cannon at a target; each shot's drawn trajectory guides the next one.

    ## Description
    A cannon on the left of a side view fires a shell with a chosen launch angle and power.
    The shell flies a ballistic arc (gravity 9.81 m/s^2, maximum launch speed 40 m/s) and,
    at difficulty 2, is pushed sideways by a constant wind shown as an arrow with its strength
    in m/s^2. It stops at the first thing it touches: the target (a hit), the ground, a wall or
    the edge of the field. The frame shows the last shot's path in bold and earlier shots faded.

    ## Action Space
    `Box([5, 0], [85, 1], (2,), float32)`: ``angle`` in degrees above the horizontal and
    ``power``, the launch speed as a fraction of the maximum.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the field (1 m = equal pixels both ways, distance ticks
    every 10 m), a header with the shot count, the last angle and power and the wind.

    ## Rewards
    1.0 when a shell hits the target, else 0.0 (``max_return`` 1.0).

    ## Starting State
    Target position and width, terrain, wall and wind are drawn from the seed; every level is
    checked to be solvable by one shot.

    ## Episode End
    Terminates on a hit (success); the budget is 10 shots.

    ## Arguments
    ``difficulty`` (0: flat ground, wide target; 1: hills, a wall, narrower target; 2: taller wall,
    wind, narrowest target), ``obs_size``. The registered id defaults to difficulty 1.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's action-space
      seeding (a seeded random policy no longer replays the level's draws). The registered id defaults
      to difficulty 1: random shots hit the wide target on flat ground of difficulty 0 in 35% of the
      levels, 10% at difficulty 1.
    """

    action_modes = ("parametric",)
    transient_attrs = (*MultiTurnEnv.transient_attrs, "_trail", "_image", "_cache")
    action_fields = (("angle", 5.0, 85.0, "launch angle in degrees above the horizontal"),
                     ("power", 0.0, 1.0, "launch speed as a fraction of the maximum"))

    def _configure(self) -> None:
        self.hills, self.wall_range, self.max_wind, self.width_range, self.x_range = LEVELS[self.difficulty]
        H, W = self.obs_size
        self.header = max(8, int(H * 0.08))
        self.scale = min(W / WORLD_W, (H - self.header) / VIEW_H)
        self.ox = (W - WORLD_W * self.scale) / 2
        self.thick = max(1, round(min(H, W) / 200))
        self._cache: dict[tuple, np.ndarray] = {}

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        self._solution = None
        while self._solution is None:  # about 1 level in 8 is redrawn at difficulty 2
            self._build(rng)
            self._solution = self._solve()
        self._level_text = self._describe()
        self._shots: list[tuple[float, float, str, float, float, float]] = []
        self._best = 0.0
        self._trail = self._image = None

    def _build(self, rng: np.random.Generator) -> None:
        tw, tx = float(rng.uniform(*self.width_range)), float(rng.uniform(*self.x_range))
        self.gx, gy = np.linspace(0.0, WORLD_W, 41), np.full(41, 8.0)
        if self.hills:
            for _ in range(int(rng.integers(2, 4))):
                c, w, h = rng.uniform(15, 100), rng.uniform(6, 15), rng.uniform(4, 18)
                gy += h * np.exp(-(((self.gx - c) / w) ** 2)) * np.clip((self.gx - 10) / 12, 0, 1)
        ty = float(np.interp(tx, self.gx, gy))
        gy[np.abs(self.gx - tx) <= tw / 2 + 2.5] = ty  # a flat pad under the target
        self.gy, self.target = gy, (tx - tw / 2, ty, tx + tw / 2, ty + 4.0)  # x0, y0, x1, y1
        self.muzzle, self.wall, self.wind = (CANNON_X, 8.0 + MUZZLE_H), None, 0.0
        if self.wall_range is not None:
            wx = float(rng.uniform(CANNON_X + 15, tx - tw / 2 - 8))
            top = float(np.interp(wx, self.gx, gy) + rng.uniform(*self.wall_range))
            self.wall = (wx - 1.25, wx + 1.25, top)  # x0, x1, top
        if self.max_wind:
            self.wind = float(rng.uniform(1.0, self.max_wind) * rng.choice((-1.0, 1.0)))

    # -- rules (the shell's flight in Ballistics)
    def _apply(self, action: np.ndarray) -> Outcome:
        angle, power = float(action[0]), float(action[1])
        kind, x, y, t = self._fly(angle, power)
        self._shots.append((angle, power, kind, x, y, t))
        self._image, (tx0, ty0, tx1, ty1) = None, self.target
        miss = math.hypot(x - (tx0 + tx1) / 2, y - (ty0 + ty1) / 2)
        self._best = max(self._best, 1.0 if kind == "hit" else min(0.99, max(0.0, 1 - miss / 60)))
        if kind == "hit":
            return Outcome(reward=1.0, terminated=True, success=True, feedback="hit the target")
        if kind == "ground":
            return Outcome(feedback=f"landed {tx0 - x:.1f} m short of the target" if x < tx0
                           else f"landed {x - tx1:.1f} m beyond the target")
        return Outcome(feedback="hit the wall" if kind == "wall" else f"flew out of the field on the {'left' if x < 0 else 'right'}")

    def _progress(self) -> float:
        return self._best

    # -- draw (the field and the shots in ArtilleryView)
    def _task_text(self) -> str:
        wind = (" A constant wind (the arrow in the top right; its strength in m/s^2) pushes the shell "
                "sideways." if self.wind else "")
        return ("The image is a side view of a field 100 m wide, with distance ticks every 10 m along the "
                "bottom. The cannon on the left fires a shell at the launch angle and power you choose; "
                "power is the launch speed as a fraction of 40 m/s, and gravity is 9.81 m/s^2." + wind +
                " The shell stops at the first thing it touches: the red-and-white target, the ground, "
                "a wall or the edge of the field. Hit the target. After each shot the frame shows that "
                "shot's path in bold red with a mark where it stopped, and earlier shots faded; use them "
                f"to correct your aim. You have {MAX_SHOTS} shots.")

    def _state_text(self) -> str:
        lines = [self._level_text]
        for i, (a, p, kind, x, y, _) in enumerate(self._shots[-3:], start=max(1, len(self._shots) - 2)):
            lines.append(f"shot {i}: angle {a:.1f}, power {p:.3f} -> {kind} at x={x:.1f} m, height {y:.1f} m")
        return "\n".join(lines)

    def _describe(self) -> str:
        x0, y0, x1, _ = self.target
        lines = [f"cannon muzzle at x={self.muzzle[0]:.1f} m, height {self.muzzle[1]:.1f} m",
                 f"target from x={x0:.1f} to {x1:.1f} m, standing on ground at height {y0:.1f} m, 4 m tall"]
        lines.append("ground height every 5 m: " + " ".join(f"{h:.0f}" for h in self.gy[::2]) if self.hills
                     else "ground flat at height 8 m")
        if self.wall is not None:
            lines.append(f"wall from x={self.wall[0]:.1f} to {self.wall[1]:.1f} m, top at height {self.wall[2]:.1f} m")
        lines.append(f"wind {self.wind:+.1f} m/s^2 (positive pushes right)" if self.wind else "no wind")
        return "\n".join(lines)

    # -- oracle (the aim that `Ballistics._solve` found at generation)
    def oracle_action(self) -> np.ndarray:
        """The level is static, so the solution found (and checked) at generation stays valid."""
        return self._solution.copy()


SPECS = (
    TaskSpec(name="Artillery", entry_point=Artillery, version=1, max_episode_steps=MAX_SHOTS,
             tags=("physics", "trajectory", "feedback", "continuous-action"), kwargs={"difficulty": 1}),
)
