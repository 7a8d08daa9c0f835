"""Artillery: adjust a cannon's angle and power, shot by shot, until a shell hits the target."""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec, canvas

WORLD_W, VIEW_H = 100.0, 55.0     # metres: field width, least visible height
GRAVITY, V_MAX = 9.81, 40.0       # m/s^2, m/s (flat range at 45 degrees: 163 m)
CANNON_X, MUZZLE_H = 6.0, 1.5     # cannon position and muzzle height above its ground
SPACING = 0.25                    # metres between collision samples along a flight
MAX_SHOTS = 10
# difficulty: (hills, wall height range or None, max wind, target width range, target x range)
LEVELS = {0: (False, None, 0.0, (7.0, 9.0), (30.0, 90.0)),
          1: (True, (12.0, 22.0), 0.0, (5.0, 6.5), (45.0, 90.0)),
          2: (True, (16.0, 30.0), 3.0, (4.0, 5.0), (50.0, 92.0))}
SKY, EARTH, GRASS, OUTSIDE = (214, 234, 248), (150, 112, 70), (88, 160, 70), (190, 190, 190)
PANEL, WALL, SHOT, FADED = (236, 236, 230), (105, 105, 115), (215, 60, 20), (150, 158, 178)


class Artillery(MultiTurnEnv):
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

    # -- rules
    def _launch(self, angle: float, power: float) -> tuple[float, float]:
        th = math.radians(angle)
        return power * V_MAX * math.cos(th), power * V_MAX * math.sin(th)

    def _path(self, angle: float, power: float, t_end: float, n: int) -> tuple[np.ndarray, np.ndarray]:
        vx, vy = self._launch(angle, power)
        t = np.arange(n) * (t_end / (n - 1))
        return self.muzzle[0] + vx * t + 0.5 * self.wind * t * t, self.muzzle[1] + vy * t - 0.5 * GRAVITY * t * t

    def _fly(self, angle: float, power: float) -> tuple[str, float, float, float]:
        """(what the shell hit, impact x, impact y, flight time)."""
        vx, vy = self._launch(angle, power)
        t_end = (vy + math.sqrt(vy * vy + 2 * GRAVITY * self.muzzle[1])) / GRAVITY  # falls to y = 0
        a = 0.5 * self.wind
        for edge in (-0.5, WORLD_W + 0.5):  # or leaves the field sideways, if sooner
            c = self.muzzle[0] - edge
            if a == 0:
                roots = [-c / vx] if vx else []
            else:
                disc = vx * vx - 4 * a * c
                roots = [(-vx + k * math.sqrt(disc)) / (2 * a) for k in (-1, 1)] if disc >= 0 else []
            t_end = min([t_end] + [r for r in roots if r > 0])
        speed = math.hypot(abs(vx) + abs(self.wind) * t_end, max(abs(vy), GRAVITY * t_end - vy))
        n = int(min(6000, speed * t_end / SPACING)) + 2
        x, y = self._path(angle, power, t_end, n)
        x0, y0, x1, y1 = self.target
        hit, out = (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1), (x < 0) | (x > WORLD_W)
        w = self.wall or (0.0, -1.0, 0.0)
        wall = (x >= w[0]) & (x <= w[1]) & (y <= w[2])
        stop = hit | out | wall | (y <= np.interp(x, self.gx, self.gy))
        i = int(np.argmax(stop))
        kind = "hit" if hit[i] else "out" if out[i] else "wall" if wall[i] else "ground"
        return kind, float(x[i]), float(y[i]), t_end * i / (n - 1)

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

    # -- draw
    def _px(self, x, y):
        return self.ox + np.asarray(x) * self.scale, self.obs_size[0] - np.asarray(y) * self.scale

    def _background(self) -> np.ndarray:
        H, W = self.obs_size
        img = canvas.new_frame(H, W, SKY)
        s, xw = self.scale, (np.arange(W) + 0.5 - self.ox) / self.scale
        depth = np.arange(H)[:, None] - (H - np.interp(xw, self.gx, self.gy) * s)[None, :]  # below ground
        img[depth >= 0] = EARTH
        img[(depth >= 0) & (depth < max(1, s * 0.8))] = GRASS
        img[:, (xw < 0) | (xw > WORLD_W)] = OUTSIDE
        if self.wall is not None:
            (a, top_), (b, _) = self._px(self.wall[0], self.wall[2]), self._px(self.wall[1], 0)
            canvas.fill_rect(img, a, top_, b, H, WALL)
            canvas.outline_rect(img, a, top_, b, H, canvas.INK, max(1, int(s * 0.2)))
        (a, b), (c, d) = self._px(self.target[0], self.target[3]), self._px(self.target[2], self.target[1])
        canvas.fill_rect(img, a, b, c, d, (220, 40, 40))
        canvas.fill_rect(img, a, b + (d - b) / 3, c, d - (d - b) / 3, (255, 255, 255))
        canvas.outline_rect(img, a, b, c, d, canvas.INK, max(1, int(s * 0.25)))
        mx, my = self._px(*self.muzzle)
        canvas.draw_shape(img, "circle", mx, my + 0.3 * s, max(3, int(2.8 * s)), canvas.INK)
        tick = max(6, int(s * 2.2))
        for m in range(10, int(WORLD_W), 10):
            px, _ = self._px(m, 0)
            canvas.fill_rect(img, px, H - max(2, s), px + max(1, s * 0.25), H, (255, 255, 255))
            if tick >= 9 and m % 20 == 0:
                canvas.draw_text(img, f"{m} m", (px, H - max(2, s) - 1), tick, (255, 255, 255), anchor="mb")
        canvas.fill_rect(img, 0, 0, W, self.header, PANEL)
        canvas.fill_rect(img, 0, self.header - max(1, H // 256), W, self.header, canvas.INK)
        label = f"wind {abs(self.wind):.1f} m/s\u00b2" if self.wind else "no wind"
        wsize = max(5, int(min(H, W) * 0.035))
        x1, y1, x2, y2 = canvas.draw_text(img, label, (W - wsize * 0.6, self.header + wsize * 0.5), wsize, anchor="rt")
        if self.wind:
            y, a, sign = y2 + wsize * 0.9, max(2.0, wsize * 0.45), float(np.sign(self.wind))
            tail, head = (x2, x1) if sign < 0 else (x1, x2)
            with canvas.pil_draw(img) as d:
                d.line([(tail, y), (head - sign * a, y)], fill=(30, 90, 200), width=max(1, int(a * 0.6)))
                d.polygon([(head, y), (head - sign * 1.6 * a, y - a), (head - sign * 1.6 * a, y + a)], fill=(30, 90, 200))
        return img

    def _stroke(self, xs: np.ndarray, ys: np.ndarray, thick: int) -> np.ndarray:
        """Flat channel-0 indices (into ``frame.reshape(-1)``) of a polyline ``thick`` pixels wide."""
        H, W = self.obs_size
        px, py = self._px(xs, ys)
        o = np.arange(thick) - thick // 2
        px = (px.astype(np.int64)[:, None] + np.tile(o, thick)).ravel()
        py = (py.astype(np.int64)[:, None] + np.repeat(o, thick)).ravel()
        keep = (px >= 0) & (px < W) & (py >= self.header) & (py < H)
        return (py[keep] * W + px[keep]) * 3

    def _shot_pixels(self, shot: tuple) -> np.ndarray:
        x, y = self._path(shot[0], shot[1], shot[5], 33)
        n = int(min(20000, np.hypot(np.diff(x), np.diff(y)).sum() * self.scale / (0.75 * self.thick))) + 2
        return self._stroke(*self._path(shot[0], shot[1], shot[5], n), self.thick)

    @staticmethod
    def _paint(img: np.ndarray, idx: np.ndarray, color: tuple[int, int, int]) -> None:
        flat = img.reshape(-1)
        for c in range(3):
            flat[idx + c] = color[c]

    def _label(self, img: np.ndarray, text: str, x: float, size: int, cells: bool = False) -> float:
        """Blit a header label (cached, pre-blended on the panel); returns its right edge. Numbers
        that change every shot (``cells``) are assembled from cached per-character cells."""
        patch = np.concatenate([self._line(ch, size) for ch in text], axis=1) if cells else self._line(text, size)
        x0, y0 = int(x), max(0, int(self.header / 2 - patch.shape[0] / 2))
        h, w = min(patch.shape[0], self.header - 1 - y0), min(patch.shape[1], img.shape[1] - x0)
        if w > 0 and h > 0:
            img[y0:y0 + h, x0:x0 + w] = patch[:h, :w]
        return x0 + w

    def _line(self, text: str, size: int) -> np.ndarray:
        """``text`` on the panel colour, on a line box of fixed height (shared baseline), cached."""
        patch = self._cache.get((text, size))
        if patch is None:
            f = canvas.font(size)
            im = Image.new("L", (max(1, round(f.getlength(text))), sum(f.getmetrics())), 0)
            ImageDraw.Draw(im).text((0, 0), text, fill=255, font=f)
            patch = self._cache[(text, size)] = canvas.new_frame(im.size[1], im.size[0], PANEL)
            canvas.blend_mask(patch, np.asarray(im), 0, 0, canvas.INK)
        return patch

    def _draw(self) -> np.ndarray:
        if self._image is not None:
            return self._image
        if self._trail is None:  # a new level, or just unpickled
            self._trail = self._background()
            for shot in self._shots[:-1]:
                self._paint(self._trail, self._shot_pixels(shot), FADED)
        if self._cache is None or len(self._cache) > 512:
            self._cache = {}  # header labels and barrel pixels, cached across steps and levels
        img, s = self._trail.copy(), self.scale
        angle = round(self._shots[-1][0]) if self._shots else 45
        barrel = self._cache.get(("barrel", angle))
        if barrel is None:
            d, th = np.linspace(0.0, 5.0, max(2, int(5.0 * s / 2))), math.radians(angle)
            barrel = self._cache[("barrel", angle)] = self._stroke(
                self.muzzle[0] + d * math.cos(th), self.muzzle[1] + d * math.sin(th), max(2, int(s * 1.3)))
        self._paint(img, barrel, (50, 50, 60))
        size = max(5, int(self.header * 0.5))
        right = self._label(img, f"shots: {len(self._shots)}", size * 0.3, size)
        if self._shots:
            shot = self._shots[-1]
            pix = self._shot_pixels(shot)
            self._paint(img, pix, SHOT)
            x, y = self._px(shot[3], shot[4])
            canvas.draw_shape(img, "star" if shot[2] == "hit" else "cross", x, y, max(4, int(2.4 * s)),
                       (250, 200, 0) if shot[2] == "hit" else (40, 40, 40))
            for text, digits in (("last shot:  angle", False), (f"{shot[0]:.1f}\u00b0", True),
                                 ("power", False), (f"{shot[1]:.2f}", True)):
                right = self._label(img, text, right + size * (0.3 if digits else 0.9), size, digits)
            self._paint(self._trail, pix, FADED)  # the trail for later frames
        self._image = img
        return img

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

    # -- oracle
    def _solve(self) -> np.ndarray | None:
        """An (angle, power) whose arc passes through the target's centre and is not blocked."""
        x0, y0, x1, y1 = self.target
        dx, dy = (x0 + x1) / 2 - self.muzzle[0], (y0 + y1) / 2 - self.muzzle[1]
        angles = np.arange(5.0, 85.01, 0.5)
        powers = np.round(np.arange(0.02, 1.0005, 0.001), 3)
        miss = self._height_at_target(np.radians(angles)[:, None], powers[None, :] * V_MAX, dx) - dy
        rows, cols = np.nonzero((miss[:, :-1] < 0) & (miss[:, 1:] >= 0))  # the arc crosses the centre
        cols = np.where(-miss[rows, cols] < miss[rows, cols + 1], cols, cols + 1)
        for k in np.argsort(np.abs(angles[rows] - 40.0), kind="stable"):
            action = np.array([angles[rows[k]], powers[cols[k]]], dtype=np.float32)
            if all(self._fly(float(action[0]), float(action[1]) + e)[0] == "hit" for e in (-0.002, 0.0, 0.002)):
                return action
        return None

    def _height_at_target(self, th, v, dx: float):
        """Height (relative to the muzzle) of the arc where it first reaches ``dx`` metres out."""
        vx, vy = v * np.cos(th), v * np.sin(th)
        disc = vx * vx + 2 * self.wind * dx
        with np.errstate(invalid="ignore", divide="ignore"):
            t = 2 * dx / (vx + np.sqrt(np.maximum(disc, 0)))
            h = vy * t - 0.5 * GRAVITY * t * t
        return np.where((disc >= 0) & np.isfinite(h), h, -1e9)

    def oracle_action(self) -> np.ndarray:
        """The level is static, so the solution found (and checked) at generation stays valid."""
        return self._solution.copy()


SPECS = (
    TaskSpec(name="Artillery", entry_point=Artillery, version=1, max_episode_steps=MAX_SHOTS,
             tags=("physics", "trajectory", "feedback", "continuous-action"), kwargs={"difficulty": 1}),
)
