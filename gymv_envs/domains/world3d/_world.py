"""world3d worlds: layouts on a grid of 1 m cells, static geometry, the things placed in them, themes.

A layout is a grid of 1 m cells (``walls[r, c]`` True for a solid block) from which levels are
generated; the physical world is continuous. Cell (r, c) spans x in [c, c + 1], y in
[-(r + 1), -r] and has its centre at (c + 0.5, -(r + 0.5)). Headings are angles in radians,
counter-clockwise from east (0 east, pi/2 north). Besides the wall blocks a world holds static
`Prim` geometry (furniture, fences, posts, buildings, floor patches; colliding or decoration)
and `Ent` things (landmarks, items, switches, doors, characters, signs, exits, pads, crates,
rocks, health kits) at continuous positions. Every generator draws from the
`numpy.random.Generator` it is handed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gymv_envs.core.rng import sample
from gymv_envs.rules.maze import block_map, carve_maze, closed_walls

HEADINGS = ((0, 1), (-1, 0), (0, -1), (1, 0))  # (dr, dc): east, north, west, south (90-degree steps)
HEADING_NAMES = ("east", "north", "west", "south")
COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east")
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
# Things the agent cannot walk through (doors only while closed), and their collision shapes:
# ("cyl", radius) or ("box", half-x, half-y) before the thing's yaw.
SOLID = {"landmark", "item", "switch", "door", "npc", "sign", "crate", "rock", "box", "key"}
COLLIDERS = {"landmark": ("cyl", 0.42), "item": ("cyl", 0.18), "key": ("cyl", 0.18), "switch": ("cyl", 0.2),
             "npc": ("cyl", 0.25), "sign": ("cyl", 0.12), "crate": ("box", 0.44, 0.44), "rock": ("cyl", 0.45),
             "box": ("cyl", 0.45), "door": ("box", 0.5, 0.08)}


def cell_centre(cell: tuple[int, int]) -> tuple[float, float]:
    return (cell[1] + 0.5, -(cell[0] + 0.5))


def cell_of(x: float, y: float) -> tuple[int, int]:
    return (int(np.floor(-y)), int(np.floor(x)))


class Ent:
    """One thing in the world, at continuous ``pos`` (x, y) with ``yaw``; ``cell`` is the cell it
    stands in (setting it moves the thing to that cell's centre). ``state`` is free for tasks."""

    def __init__(self, kind: str, cell: tuple[int, int] | None = None, colour: str = "white", shape: str = "cube",
                 hidden: bool = False, lit: bool = False, axis: int = 0, tag: str = "", state: dict | None = None,
                 pos: tuple[float, float] | None = None, yaw: float = 0.0) -> None:
        self.kind, self.colour, self.shape = kind, colour, shape
        self.hidden, self.lit, self.axis, self.tag = hidden, lit, axis, tag
        self.state = {} if state is None else state
        self.pos = tuple(map(float, pos)) if pos is not None else cell_centre(cell or (0, 0))
        self.yaw = float(yaw) if kind != "door" else (np.pi / 2 if axis else 0.0)

    @property
    def cell(self) -> tuple[int, int]:
        return cell_of(*self.pos)

    @cell.setter
    def cell(self, value: tuple[int, int]) -> None:
        self.pos = cell_centre(value)

    @property
    def name(self) -> str:
        if self.state.get("name"):
            return self.state["name"]
        if self.kind == "landmark":
            return f"{self.colour} {self.shape}"
        if self.kind == "item":
            return f"small {self.colour} {self.shape}"
        if self.kind == "key":
            return f"{self.colour} key"
        if self.kind == "npc":
            return f"character in the {self.colour} shirt"
        if self.kind in ("door", "switch", "pad", "sign"):
            return f"{self.colour} {self.kind}"
        if self.kind == "crate":
            return "light wooden crate" if self.state.get("pushable") else "heavy crate"
        return {"health": "health kit", "exit": "green exit gate", "rock": "rock", "box": "box"}.get(self.kind, self.kind)

    @property
    def dynamic(self) -> bool:
        """Moved by physics (light crates), not placed by the task."""
        return self.kind == "crate" and bool(self.state.get("pushable"))

    def collider(self) -> tuple | None:
        """The collision shape: ``("cyl", radius)`` or ``("box", half-x, half-y)`` before ``yaw``
        (a door's half-width from ``state["half"]``, default 0.5 m), or None for flat things."""
        shape = COLLIDERS.get(self.kind)
        if shape is not None and self.kind == "door":
            return ("box", float(self.state.get("half", 0.5)), shape[2])
        return shape

    @property
    def radius(self) -> float:
        """The collider's extent from its centre (for reach and "next to" tests)."""
        shape = self.collider()
        if shape is None:
            return 0.0
        return shape[1] if shape[0] == "cyl" else float(min(shape[1], shape[2]) if self.kind == "door" else shape[1])

    def solid(self) -> bool:
        return not self.hidden and self.kind in SOLID and not (self.kind == "door" and self.lit)

    def __repr__(self) -> str:
        return f"Ent({self.kind!r}, pos=({self.pos[0]:.2f}, {self.pos[1]:.2f}), colour={self.colour!r})"


@dataclass
class Prim:
    """A piece of static geometry: a ``box`` (half-sizes sx, sy, sz), ``cyl`` (radius sx, half-height
    sz) or ``sphere`` (radius sx) centred at (x, y, z) and turned by ``yaw``; ``material`` names a
    surface of the level's theme (or ``rgba`` colours it); ``collide`` makes it block movement
    (an invisible collider with ``visible=False``)."""

    shape: str
    x: float
    y: float
    z: float
    sx: float
    sy: float = 0.0
    sz: float = 0.0
    yaw: float = 0.0
    material: str = "wall"
    rgba: tuple[float, float, float, float] | None = None
    collide: bool = True
    name: str = ""
    visible: bool = True


@dataclass(frozen=True)
class Theme:
    """A level's look: the surfaces its walls and floors use and their tints, the sky, the light."""

    name: str
    wall: str
    wall_rgb: tuple[float, float, float]
    floor: str
    floor_rgb: tuple[float, float, float]
    sky_top: tuple[float, float, float]
    sky_bottom: tuple[float, float, float]
    light: float          # directional light strength
    ambient: float


TRAIN_THEMES = (
    Theme("daylight brick", "brick", (0.86, 0.55, 0.45), "wood", (0.80, 0.66, 0.48), (0.40, 0.62, 0.92), (0.88, 0.93, 0.98), 0.55, 0.40),
    Theme("plaster noon", "plaster", (0.95, 0.90, 0.80), "tiles", (0.78, 0.78, 0.80), (0.45, 0.66, 0.95), (0.92, 0.95, 1.00), 0.60, 0.42),
    Theme("stone grey", "stone", (0.72, 0.72, 0.74), "stone", (0.62, 0.60, 0.58), (0.55, 0.62, 0.72), (0.82, 0.84, 0.86), 0.45, 0.45),
    Theme("evening", "plaster", (0.98, 0.80, 0.62), "wood", (0.70, 0.52, 0.36), (0.30, 0.30, 0.55), (0.98, 0.72, 0.50), 0.50, 0.34),
    Theme("garden", "brick", (0.70, 0.48, 0.40), "grass", (0.45, 0.70, 0.38), (0.42, 0.66, 0.90), (0.86, 0.92, 0.96), 0.55, 0.40),
    Theme("mint tiles", "tiles", (0.70, 0.86, 0.80), "tiles", (0.86, 0.84, 0.76), (0.50, 0.70, 0.90), (0.90, 0.94, 0.96), 0.55, 0.42),
)
# Reserved for ids tagged ``split:test`` (held-out looks).
TEST_THEMES = (
    Theme("dusk violet", "stone", (0.70, 0.62, 0.86), "road", (0.55, 0.50, 0.62), (0.18, 0.16, 0.38), (0.76, 0.52, 0.70), 0.42, 0.36),
    Theme("snow", "plaster", (0.86, 0.90, 0.96), "stone", (0.92, 0.94, 0.98), (0.62, 0.70, 0.80), (0.95, 0.96, 0.98), 0.50, 0.50),
)
THEME_SPLITS = ("train", "test")


def pick_theme(rng: np.random.Generator, split: str) -> tuple[Theme, tuple[float, float, float], float]:
    """A theme of ``split`` and a light direction and strength jitter drawn for the level."""
    themes = TRAIN_THEMES if split == "train" else TEST_THEMES
    theme = themes[int(rng.integers(len(themes)))]
    az, el = rng.uniform(0, 2 * np.pi), rng.uniform(0.5, 1.2)
    direction = (float(np.cos(az) * np.cos(el)), float(np.sin(az) * np.cos(el)), -float(np.sin(el)))
    return theme, direction, float(rng.uniform(0.85, 1.15))


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
