"""A seeded town: a grid of blocks between streets, with shops, houses, parks, plazas, towers.

The town is ``BLOCKS x BLOCKS`` blocks of ``BLOCK`` metres separated by ``STREET``-metre streets
(110 m a side at four blocks), inside a boundary wall. Each block is a plaza (paving, a fountain),
a park (grass, trees, a pond, a fence with gaps) or a lot of one or two buildings. Buildings
have walls a cell thick, a two-cell doorway facing a street, an inner partition with a
doorway, furniture; shops carry a name board over the door (words painted into a text
texture), houses a coloured door that may be locked. Tall coloured towers stand at street
corners and are seen from afar. Walkers' routes run along street centre lines around blocks.
Everything is drawn from the generator handed to `build_town`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gymv_envs.domains.world3d._world import COLOURS, Layout, Prim, cell_centre

BLOCK, STREET = 20, 6
SHOP_NAMES = ("BAKERY", "BOOKS", "TAILOR", "POST", "SMITH", "INN", "MARKET", "TOOLS", "CAFE", "FLORIST",
              "BANK", "PHARMACY", "MILL", "TOYS", "CHEESE", "LAMPS")
TOWER_COLOURS = ("red", "blue", "yellow", "purple", "orange", "cyan")
WALL_MATERIALS = ("brick", "plaster", "stone")


@dataclass
class Building:
    kind: str                              # "shop" or "house"
    name: str                              # the shop's name or the house door's colour
    rect: tuple[int, int, int, int]        # outer wall cells (r0, c0, r1, c1), inclusive
    door: list[tuple[int, int]]            # the doorway's two cells
    outward: float                         # heading from the doorway out to the street
    inside: list[tuple[int, int]]          # free interior cells
    spot: tuple[float, float]              # where the keeper stands / the prize lies
    height: float


@dataclass
class Town:
    layout: Layout
    prims: list[Prim]
    buildings: list[Building]
    towers: list[tuple[str, tuple[float, float]]]          # (colour, position)
    plazas: list[tuple[float, float]]                      # fountain centres
    parks: list[tuple[int, int, int, int]]                 # block rects (r0, c0, r1, c1)
    routes: list[list[tuple[float, float]]]                # closed loops along streets
    street: list[tuple[int, int]]                          # free street cells
    boards: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)  # (prim index, words)


def block_rect(i: int, j: int) -> tuple[int, int, int, int]:
    r0, c0 = STREET + i * (BLOCK + STREET), STREET + j * (BLOCK + STREET)
    return r0, c0, r0 + BLOCK - 1, c0 + BLOCK - 1


def _box(rect: tuple[int, int, int, int], z: float, hz: float, **kw) -> Prim:
    r0, c0, r1, c1 = rect
    return Prim("box", (c0 + c1 + 1) / 2, -(r0 + r1 + 1) / 2, z, (c1 - c0 + 1) / 2, (r1 - r0 + 1) / 2, hz, **kw)


def _tint(rng: np.random.Generator, base: tuple[float, float, float], spread: float = 0.12) -> tuple:
    return tuple(float(np.clip(v + rng.uniform(-spread, spread), 0.05, 1.0)) for v in base) + (1.0,)


def _building(rng: np.random.Generator, walls: np.ndarray, rect: tuple[int, int, int, int], facing: int, kind: str,
              name: str, prims: list[Prim]) -> Building:
    """Walls of ``rect`` into ``walls``, a doorway on side ``facing`` (0 east, 1 north, 2 west, 3 south),
    an inner partition, furniture prims; returns the building."""
    r0, c0, r1, c1 = rect
    walls[r0:r1 + 1, c0] = walls[r0:r1 + 1, c1] = True
    walls[r0, c0:c1 + 1] = walls[r1, c0:c1 + 1] = True
    if facing in (1, 3):
        row = r0 if facing == 1 else r1
        col = int(rng.integers(c0 + 2, c1 - 2))
        door = [(row, col), (row, col + 1)]
    else:
        col = c1 if facing == 0 else c0
        row = int(rng.integers(r0 + 2, r1 - 2))
        door = [(row, col), (row + 1, col)]
    for cell in door:
        walls[cell] = False
    height = float(rng.uniform(3.5, 5.5))
    material = WALL_MATERIALS[int(rng.integers(len(WALL_MATERIALS)))]
    base = {"brick": (0.80, 0.46, 0.36), "plaster": (0.94, 0.88, 0.74), "stone": (0.72, 0.71, 0.68)}[material]
    colour = _tint(rng, base)
    sub = walls[r0:r1 + 1, c0:c1 + 1]
    from gymv_envs.domains.world3d._scene import merged_walls

    for a, b, c, d in merged_walls(sub):
        prims.append(_box((r0 + a, c0 + b, r0 + c, c0 + d), height / 2, height / 2, material=material, rgba=colour))
    prims.append(_box(rect, height + 0.1, 0.1, material="", rgba=(0.45, 0.30, 0.26, 1.0), collide=False))  # roof
    # lintel over the doorway
    (dr0, dc0), (dr1, dc1) = door
    lintel = (min(dr0, dr1), min(dc0, dc1), max(dr0, dr1), max(dc0, dc1))
    prims.append(_box(lintel, (height + 2.4) / 2, (height - 2.4) / 2, material=material, rgba=colour, collide=False))
    inside = [(r, c) for r in range(r0 + 1, r1) for c in range(c0 + 1, c1)]
    # the wall facing the door has a counter (shops) or a table (houses) before it
    dx, dy = cell_centre(door[0])
    dx, dy = (dx + cell_centre(door[1])[0]) / 2, (dy + cell_centre(door[1])[1]) / 2
    depth = (c1 - c0 - 1) if facing in (0, 2) else (r1 - r0 - 1)
    back = depth - 2.0
    out = {0: 0.0, 1: np.pi / 2, 2: np.pi, 3: -np.pi / 2}[facing]
    ix, iy = -np.cos(out), -np.sin(out)          # into the building
    cx, cy = dx + ix * (back + 0.5), dy + iy * (back + 0.5)
    yaw = out + np.pi / 2
    prims.append(Prim("box", cx, cy, 0.5, 1.3, 0.35, 0.5, yaw=yaw, material="wood", rgba=_tint(rng, (0.6, 0.42, 0.28))))
    spot = (float(dx + ix * (back - 1.6)), float(dy + iy * (back - 1.6)))
    # shelves along one side wall
    side = np.array([np.cos(out + np.pi / 2), np.sin(out + np.pi / 2)])
    half = ((r1 - r0 - 1) if facing in (0, 2) else (c1 - c0 - 1)) / 2
    for k in range(1):
        px = dx + ix * (2.5 + 2.2 * k) + side[0] * (half - 0.7) * (1 if k == 0 else -1)
        py = dy + iy * (2.5 + 2.2 * k) + side[1] * (half - 0.7) * (1 if k == 0 else -1)
        if abs(px - dx) < 30 and abs(py - dy) < 30:
            prims.append(Prim("box", float(px), float(py), 0.8, 0.9, 0.3, 0.8, yaw=out, material="wood",
                              rgba=_tint(rng, (0.55, 0.40, 0.30))))
    return Building(kind, name, rect, door, out, inside, spot, height)


def _park(rng: np.random.Generator, walls: np.ndarray, rect: tuple[int, int, int, int], prims: list[Prim]) -> None:
    r0, c0, r1, c1 = rect
    prims.append(_box(rect, 0.006, 0.004, material="grass", collide=False))
    # a fence along the edge with a 2 m gap in the middle of each side
    for side in range(4):
        if side in (0, 2):
            x = c1 + 0.9 if side == 0 else c0 + 0.1
            ys = (-(r0 + 0.0), -(r0 + 9.0)), (-(r0 + 11.0), -(r1 + 1.0))
            for ya, yb in ys:
                prims.append(Prim("box", x, (ya + yb) / 2, 0.5, 0.05, abs(ya - yb) / 2, 0.5, material="wood",
                                  rgba=(0.55, 0.40, 0.25, 1.0)))
        else:
            y = -(r0 + 0.1) if side == 1 else -(r1 + 0.9)
            xs = ((c0 + 0.0, c0 + 9.0), (c0 + 11.0, c1 + 1.0))
            for xa, xb in xs:
                prims.append(Prim("box", (xa + xb) / 2, y, 0.5, abs(xa - xb) / 2, 0.05, 0.5, material="wood",
                                  rgba=(0.55, 0.40, 0.25, 1.0)))
    # a pond
    pr, pc = int(rng.integers(r0 + 3, r1 - 8)), int(rng.integers(c0 + 3, c1 - 8))
    walls[pr:pr + 4, pc:pc + 5] = True
    prims.append(_box((pr, pc, pr + 3, pc + 4), 0.5, 0.5, material="", visible=False))
    prims.append(_box((pr, pc, pr + 3, pc + 4), 0.04, 0.04, material="water", collide=False))
    # trees
    for _ in range(int(rng.integers(5, 9))):
        r, c = int(rng.integers(r0 + 2, r1 - 1)), int(rng.integers(c0 + 2, c1 - 1))
        if walls[r - 1:r + 2, c - 1:c + 2].any():
            continue
        walls[r, c] = True
        x, y = cell_centre((r, c))
        prims.append(Prim("cyl", x, y, 0.9, 0.22, 0, 0.9, material="wood", rgba=(0.45, 0.32, 0.2, 1.0)))
        prims.append(Prim("sphere", x, y, 2.6, 1.3, material="grass", rgba=_tint(rng, (0.25, 0.55, 0.22)), collide=False))


def _plaza(rng: np.random.Generator, walls: np.ndarray, rect: tuple[int, int, int, int], prims: list[Prim]) -> tuple[float, float]:
    r0, c0, r1, c1 = rect
    prims.append(_box(rect, 0.006, 0.004, material="stone", collide=False))
    cr, cc = (r0 + r1) // 2, (c0 + c1) // 2
    walls[cr - 1:cr + 2, cc - 1:cc + 2] = True
    x, y = cell_centre((cr, cc))
    prims.append(Prim("cyl", x, y, 0.35, 1.5, 0, 0.35, material="stone", collide=False))
    prims.append(Prim("cyl", x, y, 0.72, 1.3, 0, 0.02, material="water", collide=False))
    prims.append(Prim("cyl", x, y, 0.4, 1.4, 0, 0.4, material="", visible=False))
    prims.append(Prim("sphere", x, y, 2.5, 0.3, material="water", collide=False))
    for k in range(4):  # benches, between the diagonals
        a = k * np.pi / 2
        bx, by = x + 5.5 * np.cos(a), y + 5.5 * np.sin(a)
        prims.append(Prim("box", float(bx), float(by), 0.25, 0.9, 0.25, 0.25, yaw=a + np.pi / 2, material="wood"))
    return x, y


def build_town(rng: np.random.Generator, blocks: int = 4, shops: int = 8) -> Town:
    """A town of ``blocks x blocks`` blocks (see the module docstring)."""
    N = blocks * (BLOCK + STREET) + STREET
    walls = np.zeros((N, N), dtype=bool)
    walls[0, :] = walls[-1, :] = walls[:, 0] = walls[:, -1] = True
    prims: list[Prim] = []
    cells = [(i, j) for i in range(blocks) for j in range(blocks)]
    order = [cells[int(k)] for k in rng.permutation(len(cells))]
    centre = [(i, j) for i in (blocks // 2 - 1, blocks // 2) for j in (blocks // 2 - 1, blocks // 2)]
    plaza_blocks = [centre[int(rng.integers(len(centre)))]]
    rest = [b for b in order if b not in plaza_blocks]
    plaza_blocks.append(rest.pop())
    park_blocks = [rest.pop() for _ in range(3)]
    names = [SHOP_NAMES[int(k)] for k in rng.permutation(len(SHOP_NAMES))]
    colours = list(TOWER_COLOURS)
    house_colours = ["red", "green", "blue", "yellow", "purple", "orange", "cyan", "pink"]
    house_colours = [house_colours[int(k)] for k in rng.permutation(len(house_colours))] + ["brown"] * 16
    buildings: list[Building] = []
    plazas = [_plaza(rng, walls, block_rect(*b), prims) for b in plaza_blocks]
    parks = [block_rect(*b) for b in park_blocks]
    for rect in parks:
        _park(rng, walls, rect, prims)
    lots_total = 2 * len(rest)
    shop_lots = set(int(k) for k in rng.permutation(lots_total)[:shops])
    shop_count, lot_index = 0, 0
    for i, j in rest:
        r0, c0, r1, c1 = block_rect(i, j)
        split_rows = bool(rng.integers(2))
        lots = ([(r0 + 1, c0 + 1, r0 + 9, c1 - 1), (r0 + 11, c0 + 1, r1 - 1, c1 - 1)] if split_rows
                else [(r0 + 1, c0 + 1, r1 - 1, c0 + 9), (r0 + 1, c0 + 11, r1 - 1, c1 - 1)])
        for k, lot in enumerate(lots):
            facing = (1 if k == 0 else 3) if split_rows else (2 if k == 0 else 0)
            if lot_index in shop_lots:
                b = _building(rng, walls, lot, facing, "shop", names[shop_count], prims)
                shop_count += 1
            else:
                b = _building(rng, walls, lot, facing, "house", house_colours[lot_index - shop_count], prims)
            buildings.append(b)
            lot_index += 1
    # towers at four street corners, far apart
    corners = [(STREET // 2 + a * (BLOCK + STREET), STREET // 2 + b * (BLOCK + STREET)) for a in range(1, blocks)
               for b in range(1, blocks)]
    picks = [corners[int(k)] for k in rng.permutation(len(corners))][:4]
    towers = []
    for k, (r, c) in enumerate(picks):
        x, y = float(c), float(-r)
        walls[r - 1:r + 1, c - 1:c + 1] = True
        colour = colours[k]
        h = float(rng.uniform(9, 13))
        prims.append(Prim("box", x, y, h / 2, 0.9, 0.9, h / 2, material="stone"))
        prims.append(Prim("sphere", x, y, h + 1.0, 1.3, material="", rgba=(*COLOURS[colour], 1.0), collide=False))
        prims.append(Prim("box", x, y, h * 0.75, 0.95, 0.95, 0.6, material="", rgba=(*COLOURS[colour], 1.0), collide=False))
        towers.append((colour, (x, y)))
    # walkers' loops round blocks, along street centre lines
    routes = []
    for i in range(blocks):
        for j in range(blocks):
            r0, c0, r1, c1 = block_rect(i, j)
            a, b = c0 - STREET / 2, c1 + 1 + STREET / 2
            top, bot = -(r0 - STREET / 2), -(r1 + 1 + STREET / 2)
            routes.append([(a, top), (b, top), (b, bot), (a, bot)])
    # roads, and the boundary wall
    for k in range(blocks + 1):
        lo = k * (BLOCK + STREET)
        prims.append(_box((lo, 0, lo + STREET - 1, N - 1), 0.007, 0.004, material="road", collide=False))
        prims.append(_box((0, lo, N - 1, lo + STREET - 1), 0.008, 0.004, material="road", collide=False))
    lane = np.arange(N) % (BLOCK + STREET) < STREET
    free = ~walls & (lane[:, None] | lane[None, :])
    free[[0, -1], :] = free[:, [0, -1]] = False
    street = [(r, c) for r, c in np.argwhere(free).tolist()]      # row by row, as a loop over cells would
    layout = Layout(walls, [(1, 1, N - 2, N - 2)], ["stone"], [])
    return Town(layout, prims, buildings, towers, plazas, parks, routes, street)


def boundary_prims(layout: Layout, height: float = 3.0) -> list[Prim]:
    """The town's outer wall and the walls of parks' ponds and trees (the cells ``build_town`` marks
    outside buildings) as colliding boxes; buildings draw their own walls."""
    walls = layout.walls
    N = walls.shape[0]
    prims = [_box((0, 0, 0, N - 1), height / 2, height / 2, material="brick"),
             _box((N - 1, 0, N - 1, N - 1), height / 2, height / 2, material="brick"),
             _box((1, 0, N - 2, 0), height / 2, height / 2, material="brick"),
             _box((1, N - 1, N - 2, N - 1), height / 2, height / 2, material="brick")]
    return prims


# ----------------------------------------------------------------------------- the env base
from gymv_envs.domains.world3d._base import World3DEnv  # noqa: E402  (the generator above needs no env)
from gymv_envs.domains.world3d._world import Ent  # noqa: E402


class TownEnv(World3DEnv):
    """Base of the town tasks: builds the town, its shop boards, shopkeepers and walkers.

    The town is 110 m a side; a discrete move walks 2 m (``stride``). Subclasses call
    `town_setup` from ``_build`` and then add their characters and things."""

    stride = 2.0
    reach = 1.6
    zfar = 160.0
    floor_cell = 50.0   # a 270 m floor in 1 m quads cost 1 ms of a 2.5 ms frame at 128x128
    merge_tile = 40.0
    heuristic_res = 1.0
    wall_height = 3.0

    def town_setup(self, rng: np.random.Generator, shops: int = 10) -> Town:
        town = build_town(rng, shops=shops)
        self._begin(town.layout)
        self.town = town
        self.keepers: dict[str, int] = {}
        for b in town.buildings:
            if b.kind == "shop":
                ent = Ent("npc", pos=b.spot, colour=_SHIRTS[len(self.keepers) % len(_SHIRTS)],
                          yaw=b.outward, state={"name": f"{b.name} keeper"})
                self.keepers[b.name] = len(self.things)
                self.things.append(ent)
        return town

    def add_walker(self, rng: np.random.Generator, colour: str, near: tuple[float, float] | None = None) -> int:
        """A character in a ``colour`` shirt walking a loop round a block (they stop when you come
        near); with ``near``, round one of the four blocks closest to that point."""
        routes = self.town.routes
        if near is not None:
            routes = sorted(routes, key=lambda r: np.hypot(np.mean([p[0] for p in r]) - near[0],
                                                           np.mean([p[1] for p in r]) - near[1]))[:4]
        route = routes[int(rng.integers(len(routes)))]
        if rng.random() < 0.5:
            route = route[::-1]
        leg = int(rng.integers(len(route)))
        a, b = np.array(route[leg]), np.array(route[(leg + 1) % len(route)])
        pos = a + (b - a) * rng.uniform(0.1, 0.9)
        ent = Ent("npc", pos=(float(pos[0]), float(pos[1])), colour=colour,
                  state={"route": [tuple(map(float, p)) for p in route], "leg": leg, "speed": 1.0})
        self.things.append(ent)
        self.walkers.append(len(self.things) - 1)
        return len(self.things) - 1

    def building(self, name: str) -> Building:
        return next(b for b in self.town.buildings if b.name == name)

    def door_front(self, b: Building, out: float = 3.0) -> tuple[float, float]:
        """A point on the street ``out`` metres in front of a building's doorway."""
        (x0, y0), (x1, y1) = cell_centre(b.door[0]), cell_centre(b.door[1])
        return ((x0 + x1) / 2 + out * np.cos(b.outward), (y0 + y1) / 2 + out * np.sin(b.outward))

    def _layout_prims(self) -> list[Prim]:
        return boundary_prims(self.layout)

    def _theme_floor(self) -> tuple[str, tuple[float, float, float]]:
        return "tiles", (0.78, 0.76, 0.72)

    def _scenery(self, rng: np.random.Generator) -> list[Prim]:
        prims = list(self.town.prims)
        for b in self.town.buildings:
            if b.kind != "shop":
                continue
            slot = self.add_board((b.name,))
            x, y = self.door_front(b, out=0.53)
            prims.append(Prim("box", x, y, 2.75, 0.03, 1.3, 0.32, yaw=b.outward + np.pi, material=f"text{slot}",
                              collide=False))
        return prims


_SHIRTS = ("white", "orange", "cyan", "pink", "green", "yellow", "purple", "blue", "red")
