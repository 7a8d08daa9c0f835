"""Artillery's ballistics: a shell's flight over the field (gravity, wind, what it hits first) and the aim
that hits the target (`Ballistics`, a mixin over the level's muzzle, wind, target, wall and ground)."""

from __future__ import annotations

import math

import numpy as np

WORLD_W = 100.0                   # metres: field width
GRAVITY, V_MAX = 9.81, 40.0       # m/s^2, m/s (flat range at 45 degrees: 163 m)
SPACING = 0.25                    # metres between collision samples along a flight


class Ballistics:
    """The shell's flight and the aim that hits (see the module docstring)."""

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
