"""world3d worlds: grid layouts, the things placed in them, and the MJCF that renders them.

A world is a grid of 1 m cells (``walls[r, c]`` True for a wall) plus a list of `Ent` (things:
landmarks, items, switches, doors, characters, signs, exits, pads, crates, rocks, health
kits). Cell (r, c) has its centre at world (x, y) = (c + 0.5, -(r + 0.5)); headings 0..3 are
east, north, west, south (counter-clockwise, so turning left adds one). Every generator draws
from the `numpy.random.Generator` it is handed.

`build_mjcf` writes the world as MJCF: merged wall boxes, a checkered floor with a pale tint
per room, and one mocap body per thing, so moving, hiding or recolouring a thing never needs
a recompile. All worlds declare the same assets in the same order (see `_render`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gymv_envs.core.rng import sample
from gymv_envs.rules.maze import block_map, carve_maze, closed_walls

HEADINGS = ((0, 1), (-1, 0), (0, -1), (1, 0))  # (dr, dc): east, north, west, south
HEADING_NAMES = ("east", "north", "west", "south")
COLOURS = {
    "red": (0.86, 0.16, 0.14), "green": (0.16, 0.66, 0.22), "blue": (0.15, 0.36, 0.90),
    "yellow": (0.96, 0.82, 0.08), "purple": (0.56, 0.26, 0.78), "orange": (0.97, 0.50, 0.08),
    "cyan": (0.10, 0.78, 0.82), "pink": (0.96, 0.45, 0.70), "white": (0.95, 0.95, 0.95),
}
THING_COLOURS = ("red", "green", "blue", "yellow", "purple", "orange", "cyan", "pink")
SHAPES = ("cube", "ball", "cylinder", "cone", "pyramid", "capsule", "diamond")
ROOM_TINTS = {"sand": (0.86, 0.78, 0.60), "mint": (0.66, 0.84, 0.70), "sky": (0.64, 0.76, 0.90),
              "rose": (0.90, 0.68, 0.70), "lilac": (0.78, 0.70, 0.88), "stone": (0.70, 0.70, 0.68)}
WALL_HEIGHT = 1.5
HIDDEN_Z = -30.0
MESH_SCALES = {1.25: "l", 0.45: "s", 0.3: "h"}  # landmark, item, hat
# Things the agent cannot walk through (doors only while closed).
SOLID = {"landmark", "item", "switch", "door", "npc", "sign", "crate", "rock", "box"}


@dataclass
class Ent:
    """One thing in the world. ``state`` is free for tasks (pressed, open, carried, ...)."""

    kind: str
    cell: tuple[int, int]
    colour: str = "white"
    shape: str = "cube"
    hidden: bool = False
    lit: bool = False        # switches: pressed; exits: open
    axis: int = 0            # doors: 0 spans east-west, 1 spans north-south
    tag: str = ""
    state: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        if self.kind == "landmark":
            return f"{self.colour} {self.shape}"
        if self.kind == "item":
            return f"small {self.colour} {self.shape}"
        if self.kind == "npc":
            return f"character in the {self.colour} shirt"
        if self.kind in ("door", "switch", "pad", "sign"):
            return f"{self.colour} {self.kind}"
        if self.kind == "crate":
            return "light wooden crate" if self.state.get("pushable") else "heavy crate"
        return {"health": "health kit", "exit": "green exit gate", "rock": "rock", "box": "box"}.get(self.kind, self.kind)

    def solid(self) -> bool:
        return not self.hidden and self.kind in SOLID and not (self.kind == "door" and self.lit)


# ----------------------------------------------------------------------------- layouts
@dataclass
class Layout:
    walls: np.ndarray                                  # (R, C) bool, outer ring always walls
    rooms: list[tuple[int, int, int, int]]             # (r0, c0, r1, c1) inclusive interiors
    tints: list[str]                                   # one ROOM_TINTS name per room
    doorways: list[tuple[tuple[int, int], int]]        # (cell, axis) gaps between rooms

    def room_at(self, cell: tuple[int, int]) -> int:
        for i, (r0, c0, r1, c1) in enumerate(self.rooms):
            if r0 <= cell[0] <= r1 and c0 <= cell[1] <= c1:
                return i
        return -1

    def free_cells(self, room: int | None = None) -> list[tuple[int, int]]:
        if room is not None:
            r0, c0, r1, c1 = self.rooms[room]
            return [(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1) if not self.walls[r, c]]
        return [tuple(map(int, rc)) for rc in np.argwhere(~self.walls)]


def _tints(rng: np.random.Generator, n: int) -> list[str]:
    names = list(ROOM_TINTS)
    order = [names[int(i)] for i in rng.permutation(len(names))]
    return [order[i % len(order)] for i in range(n)]


def open_area(rng: np.random.Generator, rows: int, cols: int) -> Layout:
    """One walled field (rows x cols interior)."""
    walls = np.ones((rows + 2, cols + 2), dtype=bool)
    walls[1:-1, 1:-1] = False
    return Layout(walls, [(1, 1, rows, cols)], _tints(rng, 1), [])


def room_grid(rng: np.random.Generator, grid_r: int, grid_c: int, room: int, loops: int = 0,
              all_links: bool = False) -> Layout:
    """grid_r x grid_c rooms of room x room cells, linked by one-cell doorways (a spanning tree
    plus ``loops`` extra links, or every neighbouring pair with ``all_links``)."""
    R, C = grid_r * (room + 1) + 1, grid_c * (room + 1) + 1
    walls = np.ones((R, C), dtype=bool)
    rooms = []
    for i in range(grid_r):
        for j in range(grid_c):
            r0, c0 = i * (room + 1) + 1, j * (room + 1) + 1
            walls[r0:r0 + room, c0:c0 + room] = False
            rooms.append((r0, c0, r0 + room - 1, c0 + room - 1))
    pairs = [((i, j), (i + di, j + dj)) for i in range(grid_r) for j in range(grid_c)
             for di, dj in ((0, 1), (1, 0)) if i + di < grid_r and j + dj < grid_c]
    order = [pairs[int(k)] for k in rng.permutation(len(pairs))]
    parent = list(range(grid_r * grid_c))

    def find(a: int) -> int:
        while parent[a] != a:
            a = parent[a]
        return a

    links, spare = [], []
    for a, b in order:
        ia, ib = find(a[0] * grid_c + a[1]), find(b[0] * grid_c + b[1])
        if ia != ib or all_links:
            parent[ia] = ib
            links.append((a, b))
        else:
            spare.append((a, b))
    links += spare[:loops]
    doorways = []
    for (i, j), (k, m) in links:
        off = int(rng.integers(room))
        if k == i:  # east-west neighbours: a gap in the vertical wall
            cell = (i * (room + 1) + 1 + off, m * (room + 1))
            doorways.append((cell, 1))
        else:
            cell = (k * (room + 1), j * (room + 1) + 1 + off)
            doorways.append((cell, 0))
        walls[cell] = False
    return Layout(walls, rooms, _tints(rng, len(rooms)), doorways)


def maze(rng: np.random.Generator, n: int, openings: int = 0, width: int = 2) -> Layout:
    """A perfect maze of n x n cells carved as corridors ``width`` squares wide (plus
    ``openings`` extra links knocked through)."""
    passages = carve_maze(rng, n, HEADINGS)
    walls = block_map(n, passages + sample(rng, closed_walls(n, passages), openings), width)
    s = walls.shape[0]
    return Layout(walls, [(1, 1, s - 2, s - 2)], _tints(rng, 1), [])


def corridor_shape(rng: np.random.Generator, kind: str, length: int, width: int = 1) -> Layout:
    """MiniWorld-style shapes: ``hallway`` (a straight corridor), ``tmaze`` (a stem with a
    cross bar at its end), ``ymaze`` (a stem forking into two bent arms)."""
    if kind == "hallway":
        walls = np.ones((width + 2, length + 2), dtype=bool)
        walls[1:-1, 1:-1] = False
        return Layout(walls, [(1, 1, width, length)], _tints(rng, 1), [])
    arm = length
    R, C = 2 * arm + 3, length + 4
    walls = np.ones((R, C), dtype=bool)
    mid = arm + 1
    walls[mid, 1:length + 1] = False                      # the stem, west to east
    if kind == "tmaze":
        walls[1:R - 1, length + 1] = False                # the cross bar, north-south
        rooms = [(mid, 1, mid, length), (1, length + 1, R - 2, length + 1)]
    else:                                                 # ymaze: arms go up/down then east again
        fork = length + 1
        walls[mid - arm:mid + arm + 1, fork] = False
        walls[mid - arm, fork:C - 1] = False
        walls[mid + arm, fork:C - 1] = False
        rooms = [(mid, 1, mid, length), (mid - arm, fork, mid + arm, C - 2)]
    return Layout(walls, rooms, _tints(rng, len(rooms)), [])


# ----------------------------------------------------------------------------- MJCF
def _merged_walls(walls: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Wall cells merged into few rectangles (r0, c0, r1, c1), greedily row runs then down."""
    left = walls.copy()
    boxes = []
    R, C = walls.shape
    for r in range(R):
        c = 0
        while c < C:
            if not left[r, c]:
                c += 1
                continue
            c1 = c
            while c1 + 1 < C and left[r, c1 + 1]:
                c1 += 1
            r1 = r
            while r1 + 1 < R and left[r1 + 1, c:c1 + 1].all():
                r1 += 1
            left[r:r1 + 1, c:c1 + 1] = False
            boxes.append((r, c, r1, c1))
            c = c1 + 1
    return boxes


def _rgba(colour: str | tuple, alpha: float = 1.0) -> str:
    rgb = COLOURS[colour] if isinstance(colour, str) else colour
    return f"{rgb[0]:.3f} {rgb[1]:.3f} {rgb[2]:.3f} {alpha:g}"


def _shape_geoms(name: str, shape: str, scale: float, colour: str, z0: float = 0.0) -> str:
    """Geoms of a landmark/item shape standing on z0, about ``scale`` metres tall."""
    s, rgba = scale, _rgba(colour)
    g = f'name="{name}" rgba="{rgba}" contype="0" conaffinity="0"'
    if shape == "cube":
        return f'<geom {g} type="box" size="{0.36 * s:.3f} {0.36 * s:.3f} {0.36 * s:.3f}" pos="0 0 {z0 + 0.36 * s:.3f}"/>'
    if shape == "ball":
        return f'<geom {g} type="sphere" size="{0.4 * s:.3f}" pos="0 0 {z0 + 0.4 * s:.3f}"/>'
    if shape == "cylinder":
        return f'<geom {g} type="cylinder" size="{0.3 * s:.3f} {0.45 * s:.3f}" pos="0 0 {z0 + 0.45 * s:.3f}"/>'
    if shape == "capsule":
        return f'<geom {g} type="capsule" size="{0.25 * s:.3f} {0.3 * s:.3f}" pos="0 0 {z0 + 0.55 * s:.3f}"/>'
    return f'<geom {g} type="mesh" mesh="{shape}_{MESH_SCALES[scale]}" pos="0 0 {z0:.3f}"/>'


def _thing_body(i: int, e: Ent) -> str:
    """The mocap body of thing ``i`` (its geoms are named ``t{i}``, ``t{i}_a``, ...)."""
    n, parts = f"t{i}", []
    add = parts.append
    nc = 'contype="0" conaffinity="0"'
    if e.kind == "landmark":
        add(f'<geom name="{n}_base" type="cylinder" size="0.42 0.04" pos="0 0 0.04" rgba="0.3 0.3 0.32 1" {nc}/>')
        add(_shape_geoms(n, e.shape, 1.25, e.colour, 0.08))
    elif e.kind == "item":
        add(_shape_geoms(n, e.shape, 0.45, e.colour, 0.0))
    elif e.kind == "switch":
        add(f'<geom name="{n}_post" type="box" size="0.06 0.06 0.45" pos="0 0 0.45" rgba="0.35 0.35 0.38 1" {nc}/>')
        add(f'<geom name="{n}_frame" type="box" size="0.2 0.2 0.12" pos="0 0 0.95" rgba="{_rgba(e.colour)}" {nc}/>')
        add(f'<geom name="{n}" type="sphere" size="0.13" pos="0 0 1.12" rgba="0.85 0.1 0.1 1" {nc}/>')
    elif e.kind == "door":
        size = "0.5 0.08 0.75" if e.axis == 0 else "0.08 0.5 0.75"
        add(f'<geom name="{n}" type="box" size="{size}" pos="0 0 0.75" rgba="{_rgba(e.colour)}" {nc}/>')
        add(f'<geom name="{n}_knob" type="sphere" size="0.07" pos="0 0 0.75" rgba="0.2 0.2 0.2 1" {nc}/>')
    elif e.kind == "npc":
        add(f'<geom name="{n}_legs" type="capsule" size="0.12 0.25" pos="0 0 0.35" rgba="0.2 0.22 0.35 1" {nc}/>')
        add(f'<geom name="{n}" type="capsule" size="0.2 0.2" pos="0 0 0.85" rgba="{_rgba(e.colour)}" {nc}/>')
        add(f'<geom name="{n}_head" type="sphere" size="0.16" pos="0 0 1.35" rgba="0.93 0.76 0.6 1" {nc}/>')
        add(f'<geom name="{n}_hat" type="mesh" mesh="cone_h" pos="0 0 1.45" rgba="{_rgba(e.colour)}" {nc}/>')
    elif e.kind == "sign":
        add(f'<geom name="{n}_post" type="box" size="0.05 0.05 0.5" pos="0 0 0.5" rgba="0.45 0.3 0.15 1" {nc}/>')
        add(f'<geom name="{n}" type="box" size="0.32 0.32 0.22" pos="0 0 1.1" rgba="0.97 0.95 0.85 1" {nc}/>')
        add(f'<geom name="{n}_band" type="box" size="0.33 0.33 0.05" pos="0 0 1.1" rgba="{_rgba(e.colour)}" {nc}/>')
    elif e.kind == "exit":
        for k, y in (("a", 0.42), ("b", -0.42)):
            add(f'<geom name="{n}_{k}" type="box" size="0.07 0.07 0.8" pos="0 {y} 0.8" rgba="0.1 0.75 0.25 1" {nc}/>')
            add(f'<geom name="{n}_{k}2" type="box" size="0.07 0.07 0.8" pos="{y} 0 0.8" rgba="0.1 0.75 0.25 1" {nc}/>')
        add(f'<geom name="{n}" type="cylinder" size="0.45 0.02" pos="0 0 0.02" rgba="0.3 1 0.45 1" {nc}/>')
        add(f'<geom name="{n}_orb" type="sphere" size="0.14" pos="0 0 1.7" rgba="0.3 1 0.45 1" {nc}/>')
    elif e.kind == "pad":
        add(f'<geom name="{n}" type="cylinder" size="0.42 0.015" pos="0 0 0.015" rgba="{_rgba(e.colour)}" {nc}/>')
    elif e.kind == "crate":
        rgba = "0.86 0.66 0.36 1" if e.state.get("pushable") else "0.38 0.27 0.18 1"
        add(f'<geom name="{n}" type="box" size="0.44 0.44 0.4" pos="0 0 0.4" rgba="{rgba}" {nc}/>')
        add(f'<geom name="{n}_band" type="box" size="0.45 0.45 0.05" pos="0 0 0.55" rgba="0.25 0.18 0.1 1" {nc}/>')
    elif e.kind == "rock":
        add(f'<geom name="{n}" type="ellipsoid" size="0.5 0.45 0.38" pos="0 0 0.2" rgba="0.45 0.5 0.38 1" {nc}/>')
    elif e.kind == "health":
        add(f'<geom name="{n}" type="box" size="0.22 0.22 0.14" pos="0 0 0.14" rgba="0.97 0.97 0.97 1" {nc}/>')
        add(f'<geom name="{n}_x" type="box" size="0.16 0.05 0.01" pos="0 0 0.29" rgba="0.9 0.1 0.1 1" {nc}/>')
        add(f'<geom name="{n}_y" type="box" size="0.05 0.16 0.01" pos="0 0 0.29" rgba="0.9 0.1 0.1 1" {nc}/>')
    else:
        raise ValueError(f"unknown thing kind {e.kind!r}")
    return f'<body name="{n}" mocap="true">{"".join(parts)}</body>'


def _mesh_assets() -> str:
    """The same meshes, in the same order, in every world (the render context is shared)."""
    ring = [(np.cos(a), np.sin(a)) for a in np.linspace(0, 2 * np.pi, 16, endpoint=False)]
    verts = {"cone": " ".join(f"{0.4 * x:.3f} {0.4 * y:.3f} 0" for x, y in ring) + " 0 0 1.0",
             "pyramid": "-0.4 -0.4 0 0.4 -0.4 0 0.4 0.4 0 -0.4 0.4 0 0 0 0.9",
             "diamond": "0.32 0 0.5 -0.32 0 0.5 0 0.32 0.5 0 -0.32 0.5 0 0 0 0 0 1.0"}
    return "".join(f'<mesh name="{m}_{k}" vertex="{v}" scale="{s} {s} {s}"/>'
                   for m, v in verts.items() for s, k in MESH_SCALES.items())


def build_mjcf(layout: Layout, things: list[Ent], height: int, width: int, fov: float,
               camera_height: float, pitch: float) -> str:
    """The MJCF of one world: walls, floor, room tints, things, and the agent's cameras."""
    R, C = layout.walls.shape
    body = []
    for r0, c0, r1, c1 in _merged_walls(layout.walls):
        x, y = (c0 + c1 + 1) / 2, -(r0 + r1 + 1) / 2
        body.append(f'<geom type="box" material="wall" size="{(c1 - c0 + 1) / 2} {(r1 - r0 + 1) / 2} {WALL_HEIGHT / 2}" '
                    f'pos="{x} {y} {WALL_HEIGHT / 2}"/>')
    for (r0, c0, r1, c1), tint in zip(layout.rooms, layout.tints):
        x, y = (c0 + c1 + 1) / 2, -(r0 + r1 + 1) / 2
        body.append(f'<geom type="box" material="tint" rgba="{_rgba(ROOM_TINTS[tint], 0.45)}" '
                    f'size="{(c1 - c0 + 1) / 2} {(r1 - r0 + 1) / 2} 0.002" pos="{x} {y} 0.002"/>')
    body += [_thing_body(i, e) for i, e in enumerate(things)]
    p = np.radians(pitch)
    cams = []
    for name, yaw in (("front", 0.0), ("left", np.pi / 2), ("right", -np.pi / 2)):
        xa = (np.sin(yaw), -np.cos(yaw), 0.0)
        ya = (-np.sin(p) * np.cos(yaw), -np.sin(p) * np.sin(yaw), np.cos(p))
        axes = " ".join(f"{v:.5f}" for v in (*xa, *ya))
        cams.append(f'<camera name="{name}" pos="-0.25 0 {camera_height}" xyaxes="{axes}" fovy="{fov}"/>')
    return f"""<mujoco model="world3d">
<visual><global offwidth="{width}" offheight="{height}"/><quality shadowsize="0" offsamples="0"/>
<headlight ambient="0.42 0.42 0.42" diffuse="0.45 0.45 0.45" specular="0 0 0"/><map znear="0.02" zfar="80"/>
<rgba haze="0.72 0.8 0.9 1"/></visual>
<asset>
<texture name="sky" type="skybox" builtin="gradient" rgb1="0.55 0.72 0.92" rgb2="0.92 0.94 0.97" width="64" height="64"/>
<texture name="floor" type="2d" builtin="checker" rgb1="0.66 0.64 0.6" rgb2="0.44 0.42 0.39" width="64" height="64"/>
<texture name="wall" type="2d" builtin="checker" rgb1="0.78 0.76 0.72" rgb2="0.72 0.70 0.66" width="64" height="64"/>
<material name="floor" texture="floor" texrepeat="0.5 0.5" texuniform="true" specular="0" shininess="0"/>
<material name="wall" texture="wall" texrepeat="0.5 0.5" texuniform="true" specular="0" shininess="0"/>
<material name="tint" specular="0" shininess="0"/>
{_mesh_assets()}
</asset>
<worldbody>
<light directional="true" dir="0.35 0.5 -1" diffuse="0.45 0.45 0.42" specular="0 0 0" castshadow="false"/>
<geom type="plane" material="floor" size="{C / 2} {R / 2} 50" pos="{C / 2} {-R / 2} 0"/>
{chr(10).join(body)}
<body name="agent" mocap="true">{''.join(cams)}</body>
</worldbody>
</mujoco>"""


# ----------------------------------------------------------------------------- presets
WORLDS = ("open", "rooms", "maze", "fourrooms", "oneroom", "hallway", "tmaze", "ymaze")


def make_layout(rng: np.random.Generator, world: str, difficulty: int) -> Layout:
    """The layout preset ``world`` at ``difficulty`` (bigger and more branched when harder)."""
    d = difficulty
    if world == "open":
        n = (7, 10, 13)[d]
        return open_area(rng, n, n)
    if world == "rooms":
        gr, gc = ((2, 2), (2, 3), (3, 3))[d]
        return room_grid(rng, gr, gc, (3, 4, 5)[d], loops=d)
    if world == "maze":
        return maze(rng, (3, 4, 5)[d], openings=(0, 1, 2)[d])
    if world == "fourrooms":
        return room_grid(rng, 2, 2, (3, 5, 6)[d], all_links=True)
    if world == "oneroom":
        n = (5, 8, 11)[d]
        return open_area(rng, n, n)
    if world == "hallway":
        return corridor_shape(rng, "hallway", (8, 13, 18)[d])
    return corridor_shape(rng, world, (3, 5, 7)[d])


def pick_looks(rng: np.random.Generator, n: int, near_misses: bool) -> list[tuple[str, str]]:
    """``n`` distinct (colour, shape) pairs; the first is the target. With ``near_misses`` the
    next two share its colour or its shape."""
    colours = [THING_COLOURS[int(i)] for i in rng.permutation(len(THING_COLOURS))]
    shapes = [SHAPES[int(i)] for i in rng.permutation(len(SHAPES))]
    if not near_misses or n < 3:
        return [(colours[k % len(colours)], shapes[k % len(shapes)]) for k in range(n)]
    out = [(colours[0], shapes[0]), (colours[0], shapes[1]), (colours[1], shapes[0])]
    pool = [(c, s) for c in colours[1:] for s in shapes[1:] if (c, s) not in out]
    return out + [pool[int(i)] for i in rng.permutation(len(pool))[: n - 3]]
