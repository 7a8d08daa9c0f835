"""The oracle's navigation map of a world3d level, and a planner over the agent's poses.

`NavMap` rasterises the physical world at `RES` metres: the static colliders (wall blocks,
furniture, fences, posts; ``raw``) and the same grown by the agent's half-width (``strict``
with a safety margin, ``loose`` slightly under it, for poses already touching something), onto
which the current solid things are stamped when planning. A capsule pose is free when its
segment's two ends and centre are free in the grown map.

`plan` is an A* search over poses (x, y, heading) whose moves are the agent's own motion
primitives (a stride forward, back or sideways; a turn step left or right), each checked along
its sweep, with the walking distance to the goal region (a breadth-first search on a
`Heuristic` grid) as the estimate. The oracle follows the plan under physics and plans again
from wherever it really is when contacts push it off the plan.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gymv_envs.domains.world3d._scene import AGENT_HALF, AGENT_R
from gymv_envs.domains.world3d._world import Ent, Prim

RES = 0.1
MARGIN = 0.04
INF = 10**9


def _angle(a: float) -> float:
    return float(np.angle(np.exp(1j * a)))


class NavMap:
    """Occupancy rasters of one level (static part built once; things stamped per query)."""

    def __init__(self, bounds: tuple[float, float], walls: np.ndarray | None, prims: list[Prim]) -> None:
        W, D = bounds
        self.shape = (int(np.ceil(D / RES)), int(np.ceil(W / RES)))
        self.raw = np.zeros(self.shape, dtype=bool)
        self.strict = np.zeros(self.shape, dtype=bool)
        self.loose = np.zeros(self.shape, dtype=bool)
        if walls is not None:
            cells = np.repeat(np.repeat(walls, int(round(1 / RES)), axis=0), int(round(1 / RES)), axis=1)
            self.raw[:cells.shape[0], :cells.shape[1]] |= cells[:self.shape[0], :self.shape[1]]
            for r0, c0, r1, c1 in _runs(walls):
                box = Prim("box", (c0 + c1 + 1) / 2, -(r0 + r1 + 1) / 2, 0, (c1 - c0 + 1) / 2, (r1 - r0 + 1) / 2)
                self._stamp_prim(box, self.growths())
        for p in prims:
            if p.collide:
                self._stamp_prim(p, ((self.raw, 0.0), *self.growths()))
        self._things_key = None

    def growths(self):
        return ((self.strict, AGENT_R + MARGIN), (self.loose, AGENT_R - MARGIN))

    # ----------------------------------------------------------------- rasterising
    def _window(self, x0: float, y0: float, x1: float, y1: float):
        """Index ranges and pixel-centre coordinates covering the world box [x0, x1] x [y0, y1]."""
        c0, c1 = max(0, int(np.floor(x0 / RES))), min(self.shape[1], int(np.ceil(x1 / RES)))
        r0, r1 = max(0, int(np.floor(-y1 / RES))), min(self.shape[0], int(np.ceil(-y0 / RES)))
        if c0 >= c1 or r0 >= r1:
            return None
        xs = (np.arange(c0, c1) + 0.5) * RES
        ys = -(np.arange(r0, r1) + 0.5) * RES
        return (slice(r0, r1), slice(c0, c1)), xs[None, :], ys[:, None]

    def _stamp(self, grids, shape: str, x: float, y: float, a: float, b: float, yaw: float, grow: float) -> None:
        if shape == "box" and abs(np.sin(2 * yaw)) < 1e-9:  # axis-aligned: a grown rectangle (square corners)
            if abs(np.sin(yaw)) > 0.5:
                a, b = b, a
            c0, c1 = max(0, int(np.floor((x - a - grow) / RES + 0.5))), min(self.shape[1], int(np.floor((x + a + grow) / RES + 0.5)))
            r0, r1 = max(0, int(np.floor((-y - b - grow) / RES + 0.5))), min(self.shape[0], int(np.floor((-y + b + grow) / RES + 0.5)))
            for g in grids:
                g[r0:r1, c0:c1] = True
            return
        reach = (np.hypot(a, b) if shape == "box" else a) + grow
        win = self._window(x - reach, y - reach, x + reach, y + reach)
        if win is None:
            return
        idx, xs, ys = win
        dx, dy = xs - x, ys - y
        if shape == "cyl":
            inside = dx * dx + dy * dy <= (a + grow) ** 2
        else:
            c, s = np.cos(yaw), np.sin(yaw)
            u, v = np.abs(c * dx + s * dy), np.abs(-s * dx + c * dy)
            if grow:
                ou, ov = np.maximum(u - a, 0.0), np.maximum(v - b, 0.0)
                inside = ou * ou + ov * ov <= grow * grow
            else:
                inside = (u <= a) & (v <= b)
        for g in grids:
            g[idx] |= inside

    def _stamp_prim(self, p: Prim, targets) -> None:
        """Stamp ``p`` onto each (grid, growth) of ``targets``."""
        shape = "box" if p.shape == "box" else "cyl"
        for grid, grow in targets:
            self._stamp((grid,), shape, p.x, p.y, p.sx, p.sy, p.yaw, grow)

    def with_things(self, things: list[Ent], skip: tuple[int, ...] = ()) -> tuple[np.ndarray, np.ndarray]:
        """The grown maps with the current solid things stamped on (cached until they change)."""
        solid = [(i, e.kind, round(e.pos[0], 2), round(e.pos[1], 2), round(e.yaw, 2)) for i, e in enumerate(things)
                 if e.solid() and i not in skip]
        key = tuple(solid)
        if key != self._things_key:
            strict, loose = self.strict.copy(), self.loose.copy()
            for i, *_ in solid:
                e = things[i]
                shape = e.collider()
                a, b = shape[1], (shape[2] if shape[0] == "box" else 0.0)
                for g, grow in ((strict, AGENT_R + MARGIN), (loose, AGENT_R - MARGIN)):
                    self._stamp((g,), shape[0], e.pos[0], e.pos[1], a, b, e.yaw, grow)
            self._things_key, self._maps = key, (strict, loose)
        return self._maps

    # ----------------------------------------------------------------- queries
    def index(self, x: float, y: float) -> tuple[int, int]:
        return int(np.floor(-y / RES)), int(np.floor(x / RES))

    def free_points(self, grid: np.ndarray, pts: np.ndarray) -> bool:
        r = (-pts[:, 1] * (1 / RES)).astype(np.int64)
        c = (pts[:, 0] * (1 / RES)).astype(np.int64)
        np.clip(r, 0, self.shape[0] - 1, out=r)
        np.clip(c, 0, self.shape[1] - 1, out=c)
        return not grid[r, c].any()

    def clear_line(self, x0: float, y0: float, x1: float, y1: float, stop_short: float = 0.0) -> bool:
        """No static collider on the segment from (x0, y0) towards (x1, y1), ending ``stop_short`` early."""
        length = np.hypot(x1 - x0, y1 - y0) - stop_short
        if length <= 0:
            return True
        t = np.arange(0.0, length, RES / 2) / max(np.hypot(x1 - x0, y1 - y0), 1e-9)
        pts = np.stack([x0 + t * (x1 - x0), y0 + t * (y1 - y0)], axis=1)
        return self.free_points(self.raw, pts)

    def clear_lines(self, xs: np.ndarray, ys: np.ndarray, x1: float, y1: float, stop_short: float = 0.0) -> np.ndarray:
        """`clear_line` from each point (``xs``, ``ys``) towards (x1, y1), vectorised over the points."""
        xs, ys = np.asarray(xs, dtype=float).ravel(), np.asarray(ys, dtype=float).ravel()
        dist = np.hypot(x1 - xs, y1 - ys)
        frac = np.clip((dist - stop_short) / np.maximum(dist, 1e-9), 0.0, 1.0)
        n = max(2, int(np.ceil(float(dist.max(initial=0.0)) / (RES / 2))) + 1)
        t = np.linspace(0.0, 1.0, n)[:, None] * frac[None, :]
        r = np.clip((-(ys + t * (y1 - ys)) * (1 / RES)).astype(np.int64), 0, self.shape[0] - 1)
        c = np.clip(((xs + t * (x1 - xs)) * (1 / RES)).astype(np.int64), 0, self.shape[1] - 1)
        return ~self.raw[r, c].any(axis=0)


def _runs(walls: np.ndarray) -> list[tuple[int, int, int, int]]:
    from gymv_envs.domains.world3d._scene import merged_walls

    return merged_walls(walls)


class Heuristic:
    """Walking distance (metres, 4-connected) to a goal region on a grid of ``res`` metres sampled
    from a grown occupancy map."""

    def __init__(self, grid: np.ndarray, res: float, sources: np.ndarray) -> None:
        step = max(1, int(round(res / RES)))
        self.step, self.res = step, step * RES
        free = ~grid[step // 2::step, step // 2::step]
        dist = np.full(free.shape, INF, dtype=np.int64)
        frontier = sources[: free.shape[0], : free.shape[1]] & free
        if not frontier.any():  # goal cells all blocked (e.g. the goal is a thing): start next to them
            grown = frontier | sources[: free.shape[0], : free.shape[1]]
            near = np.zeros_like(grown)
            near[1:] |= grown[:-1]
            near[:-1] |= grown[1:]
            near[:, 1:] |= grown[:, :-1]
            near[:, :-1] |= grown[:, 1:]
            frontier = near & free
        dist[frontier] = 0
        seen, d = frontier.copy(), 0
        while frontier.any():
            d += 1
            nb = np.zeros_like(frontier)
            nb[1:] |= frontier[:-1]
            nb[:-1] |= frontier[1:]
            nb[:, 1:] |= frontier[:, :-1]
            nb[:, :-1] |= frontier[:, 1:]
            nb &= free
            nb &= ~seen
            dist[nb] = d
            seen |= nb
            frontier = nb
        self.dist = dist

    def __call__(self, x: float, y: float) -> float:
        r, c = int(-y / self.res), int(x / self.res)
        if 0 <= r < self.dist.shape[0] and 0 <= c < self.dist.shape[1]:
            d = self.dist[r, c]
            return INF if d >= INF else float(d) * self.res
        return INF

    @staticmethod
    def sources(shape: tuple[int, int], res: float, test: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
        step = max(1, int(round(res / RES)))
        rows, cols = -(np.arange(shape[0] // step + 1) + 0.5) * step * RES, (np.arange(shape[1] // step + 1) + 0.5) * step * RES
        return test(cols[None, :], rows[:, None])


@dataclass(frozen=True)
class Motion:
    """The agent's motion primitives: ``(action, forward m, left m, turn steps)`` each, with a turn
    step of ``turn`` radians; ``grid`` motion is checked centre to centre (no footprint)."""

    prims: tuple[tuple[int, float, float, int], ...]
    turn: float
    grid: bool = False


def _samples(fwd: float, left: float, turns: int, step: float, yaw: float) -> np.ndarray:
    """Capsule sample points (relative to the start position) along one primitive from heading ``yaw``."""
    pts = []
    if turns:
        for f in np.linspace(0, 1, 4)[1:]:
            a = yaw + f * turns * step
            u = np.array([np.cos(a), np.sin(a)]) * AGENT_HALF
            pts += [u, -u]
        return np.array(pts)
    c, s = np.cos(yaw), np.sin(yaw)
    d = np.array([c * fwd - s * left, s * fwd + c * left])
    u = np.array([c, s]) * AGENT_HALF
    n = max(1, int(np.ceil(np.hypot(fwd, left) / 0.2)))
    for f in np.linspace(0, 1, n + 1)[1:]:
        p = d * f
        pts += [p, p + u, p - u]
    return np.array(pts)


def plan(nav: NavMap, grids: tuple[np.ndarray, np.ndarray], motion: Motion, start: tuple[float, float, float],
         goal: Callable[[float, float, float], bool], h: Heuristic, stride: float,
         max_nodes: int = 12000, weight: float = 2.0) -> list[tuple[int, tuple[float, float, float]]] | None:
    """A* over poses from ``start`` to a pose where ``goal`` holds: the primitives' actions with the
    pose each one ends at, or None when no plan is found within ``max_nodes`` expansions (then the
    best partial plan, towards the pose nearest the goal, if it makes progress). ``weight`` > 1 makes
    the search greedier (weighted A*: plans at most that factor longer, found much faster)."""
    strict, loose = grids
    x0, y0, yaw0 = start
    K = int(round(2 * np.pi / motion.turn))
    P = len(motion.prims)
    table: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def sweep(k: int):
        """All primitives' sample points from heading k, where each primitive's run starts, and the
        displacement each one makes."""
        if k not in table:
            yaw = yaw0 + k * motion.turn
            c, s = np.cos(yaw), np.sin(yaw)
            chunks, starts, moves = [], [], []
            for _, fwd, left, turns in motion.prims:
                if motion.grid:
                    d = np.array([c * fwd - s * left, s * fwd + c * left]) if not turns else np.zeros(2)
                    pts = np.array([d * t for t in (0.5, 0.75, 1.0)]) if not turns else np.zeros((1, 2))
                else:
                    pts = _samples(fwd, left, turns, motion.turn, yaw)
                    d = np.zeros(2) if turns else np.array([c * fwd - s * left, s * fwd + c * left])
                starts.append(sum(len(q) for q in chunks))
                chunks.append(pts)
                moves.append(d)
            table[k] = (np.concatenate(chunks), np.array(starts), np.array(moves))
        return table[k]

    inv = 1.0 / RES
    ny, nx = nav.shape

    def blocked(grid: np.ndarray, pts: np.ndarray, starts: np.ndarray) -> np.ndarray:
        r = np.clip((-pts[:, 1] * inv).astype(np.int64), 0, ny - 1)
        c = np.clip((pts[:, 0] * inv).astype(np.int64), 0, nx - 1)
        return np.logical_or.reduceat(grid[r, c], starts)

    if goal(x0, y0, yaw0):
        return []
    start_h = h(x0, y0) / stride
    heap = [(start_h, 0, 0, (x0, y0, 0))]
    parents: dict[tuple, tuple | None] = {(x0, y0, 0): None}
    seen = {(round(x0 * 5), round(y0 * 5), 0): 0}
    best, best_h, tick, n, found = (x0, y0, 0), start_h, 0, 0, None
    limit = INF / stride
    while heap and n < max_nodes:
        _, g, _, node = heapq.heappop(heap)
        x, y, k = node
        n += 1
        if goal(x, y, yaw0 + k * motion.turn):
            found = node
            break
        pts, starts, moves = sweep(k)
        grid = loose if abs(x - x0) + abs(y - y0) < 0.6 else strict
        bad = blocked(strict if motion.grid else grid, pts + (x, y), starts)
        for p in range(P):
            if bad[p]:
                continue
            action, _, _, turns = motion.prims[p]
            nx_, ny_ = x + moves[p][0], y + moves[p][1]
            nk = (k + turns) % K
            key = (round(nx_ * 5), round(ny_ * 5), nk)
            if seen.get(key, INF) <= g + 1:
                continue
            hv = h(nx_, ny_) / stride
            if hv >= limit:
                continue
            seen[key] = g + 1
            child = (nx_, ny_, nk)
            parents[child] = (node, action)
            tick += 1
            heapq.heappush(heap, (g + 1 + weight * hv, g + 1, tick, child))
            if hv < best_h:
                best, best_h = child, hv
    if found is None:
        if best_h >= start_h - 0.5:
            return None
        found = best
    out = []
    node = found
    while parents[node] is not None:
        prev, action = parents[node]
        x, y, k = node
        out.append((action, (x, y, yaw0 + k * motion.turn)))
        node = prev
    return out[::-1]
