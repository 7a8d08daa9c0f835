"""Trap geometry: fence pieces as boxes, a trap's own frame, and whether a point is clear of things and trap pieces."""

from __future__ import annotations

import numpy as np

from gymv_envs.domains.world3d._world import Ent, Prim, cell_of


def fence(x0: float, y0: float, x1: float, y1: float, thick: float = 0.1, height: float = 0.8,
          material: str = "wood", rgba=(0.58, 0.42, 0.26, 1.0)) -> Prim:
    return Prim("box", (x0 + x1) / 2, (y0 + y1) / 2, height / 2, float(np.hypot(x1 - x0, y1 - y0)) / 2 + thick / 2,
                thick / 2, height / 2, yaw=float(np.arctan2(y1 - y0, x1 - x0)), material=material, rgba=rgba)


def local_frame(cx: float, cy: float, theta: float):
    c, s = np.cos(theta), np.sin(theta)
    return lambda u, v: (cx + c * u - s * v, cy + s * u + c * v)


def clear_of(things: list[Ent], trap: list[Prim], x: float, y: float, room: float = 1.0) -> bool:
    """No solid thing and no trap or fence piece within ``room`` metres of the exit cell's centre."""
    r, c = cell_of(x, y)
    x, y = c + 0.5, -(r + 0.5)
    if any(e.solid() and np.hypot(e.pos[0] - x, e.pos[1] - y) < room + 0.5 for e in things):
        return False
    for p in trap:
        dx, dy = x - p.x, y - p.y
        if p.shape == "box":
            u = abs(np.cos(p.yaw) * dx + np.sin(p.yaw) * dy) - p.sx
            v = abs(-np.sin(p.yaw) * dx + np.cos(p.yaw) * dy) - p.sy
            gap = np.hypot(max(u, 0.0), max(v, 0.0))
        else:
            gap = np.hypot(dx, dy) - p.sx
        if gap < room:
            return False
    return True
