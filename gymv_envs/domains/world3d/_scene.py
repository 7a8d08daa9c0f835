"""The MJCF of a world3d level: static geometry, things, the agent's body and cameras, assets.

Geom groups: 0 static colliders (walls, furniture, fences; visible), 1 decoration and the things'
looks, 2 floors, 3 invisible colliders of things and of the agent (hidden from cameras, seen by
rays), 4 static colliders whose looks are drawn by merged meshes (towns, `_merge`; hidden from
cameras, seen by rays as group 0 is). Contact
bits: static and mocap colliders ``contype=1, conaffinity=0`` (they never touch each other);
the agent and light crates ``contype=2, conaffinity=3`` (they touch everything). Contacts are
frictionless (``condim=1``): the agent slides along walls, and crates rub on the floor through
joint friction.

Every world declares the same textures and meshes in the same order (`texture_order`), so one
GL context per frame size serves every level (see `_render`); only the text textures
(`_textures.TEXT_SLOTS`) change between levels, and in towns the merged meshes (``merged*``,
padded to a multiple of 16, uploaded again like the text textures). There is no skybox (a software renderer spends
more on it than on the whole world): the renderer paints the theme's sky where nothing was drawn.
"""

from __future__ import annotations

import numpy as np

from gymv_envs.domains.world3d._merge import COLLIDER_GROUP, merge_boxes
from gymv_envs.domains.world3d._textures import (
    SURFACE_SIZE,
    SURFACES,
    TEXT_SIZE,
    TEXT_SLOTS,
    surface,
)
from gymv_envs.domains.world3d._world import (
    COLOURS,
    HIDDEN_Z,
    ROOM_TINTS,
    Ent,
    Layout,
    Prim,
    Theme,
)

AGENT_R, AGENT_HALF = 0.2, 0.15     # capsule radius and half-segment: 0.7 m long, 0.4 m wide
AGENT_Z = 0.5
AGENT_MASS = 10.0
TIMESTEP = 0.02
MESH_SCALES = {1.25: "l", 0.45: "s", 0.3: "h"}  # landmark, item, hat
TEXREPEAT = {"brick": 1.0, "plaster": 0.5, "wood": 1.0, "grass": 0.5, "road": 0.4, "water": 0.6, "stone": 1.0,
             "tiles": 1.0}
SURFACE_RGB = {"brick": (0.78, 0.42, 0.32), "plaster": (0.93, 0.88, 0.78), "wood": (0.72, 0.54, 0.36),
               "grass": (0.40, 0.66, 0.32), "road": (0.36, 0.36, 0.38), "water": (0.25, 0.52, 0.80),
               "stone": (0.70, 0.68, 0.64), "tiles": (0.82, 0.80, 0.74)}
LABEL_SKY, LABEL_FLOOR, LABEL_STATIC, LABEL_AGENT, LABEL_THING0 = -1, 0, 1, 2, 3


def merged_walls(walls: np.ndarray) -> list[tuple[int, int, int, int]]:
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


def layout_prims(layout: Layout, wall_height: float = 1.5, tints: bool = True) -> list[Prim]:
    """The wall blocks of ``layout`` as merged boxes, and a tinted floor per room."""
    prims = []
    for r0, c0, r1, c1 in merged_walls(layout.walls):
        prims.append(Prim("box", (c0 + c1 + 1) / 2, -(r0 + r1 + 1) / 2, wall_height / 2, (c1 - c0 + 1) / 2,
                          (r1 - r0 + 1) / 2, wall_height / 2, material="wall"))
    if tints and len(layout.rooms) > 1:
        for (r0, c0, r1, c1), tint in zip(layout.rooms, layout.tints):
            prims.append(Prim("box", (c0 + c1 + 1) / 2, -(r0 + r1 + 1) / 2, 0.003, (c1 - c0 + 1) / 2, (r1 - r0 + 1) / 2,
                              0.002, material="floor", rgba=(*ROOM_TINTS[tint], 1.0), collide=False))
    return prims


def _rgba(colour: str | tuple, alpha: float = 1.0) -> str:
    rgb = COLOURS[colour] if isinstance(colour, str) else colour
    return f"{rgb[0]:.3f} {rgb[1]:.3f} {rgb[2]:.3f} {rgb[3] if len(rgb) > 3 else alpha:g}"


def _quat(yaw: float) -> str:
    return f"{np.cos(yaw / 2):.6f} 0 0 {np.sin(yaw / 2):.6f}"


def _look(p: Prim) -> str:
    """A prim's material and colour attributes."""
    look = f' material="{p.material}"' if p.material else ""
    if p.rgba is not None:
        look += f' rgba="{_rgba(p.rgba)}"'
    return look


def _mergeable_look(p: Prim) -> str | None:
    """`_look` of a prim whose box may join a merged mesh (not a named one, not a board with words)."""
    return None if p.name or p.material.startswith("text") else _look(p)


def _collider_geom(p: Prim) -> str:
    """A colliding box whose looks were merged into a mesh: physics and rays only."""
    quat = f' quat="{_quat(p.yaw)}"' if p.yaw else ""
    return (f'<geom class="static" type="box" size="{p.sx:.3f} {p.sy:.3f} {p.sz:.3f}" pos="{p.x:.3f} {p.y:.3f} {p.z:.3f}"'
            f'{quat} group="{COLLIDER_GROUP}"/>')


def _prim_geom(p: Prim) -> str:
    size = {"box": f"{p.sx:.3f} {p.sy:.3f} {p.sz:.3f}", "cyl": f"{p.sx:.3f} {p.sz:.3f}", "sphere": f"{p.sx:.3f}"}[p.shape]
    kind = {"box": "box", "cyl": "cylinder", "sphere": "sphere"}[p.shape]
    group = (0 if p.visible else 3) if p.collide else (2 if p.z < 0.02 else 1)
    cls = ' class="static"' if p.collide else ""
    look = _look(p)
    quat = f' quat="{_quat(p.yaw)}"' if p.yaw else ""
    name = f' name="{p.name}"' if p.name else ""
    return f'<geom{name}{cls} type="{kind}" size="{size}" pos="{p.x:.3f} {p.y:.3f} {p.z:.3f}"{quat} group="{group}"{look}/>'


def _shape_geoms(name: str, shape: str, scale: float, colour: str, z0: float = 0.0) -> str:
    """Geoms of a landmark/item shape standing on z0, about ``scale`` metres tall."""
    s, g = scale, f'name="{name}" rgba="{_rgba(colour)}"'
    if shape == "cube":
        return f'<geom {g} type="box" size="{0.36 * s:.3f} {0.36 * s:.3f} {0.36 * s:.3f}" pos="0 0 {z0 + 0.36 * s:.3f}"/>'
    if shape == "ball":
        return f'<geom {g} type="sphere" size="{0.4 * s:.3f}" pos="0 0 {z0 + 0.4 * s:.3f}"/>'
    if shape == "cylinder":
        return f'<geom {g} type="cylinder" size="{0.3 * s:.3f} {0.45 * s:.3f}" pos="0 0 {z0 + 0.45 * s:.3f}"/>'
    if shape == "capsule":
        return f'<geom {g} type="capsule" size="{0.25 * s:.3f} {0.3 * s:.3f}" pos="0 0 {z0 + 0.55 * s:.3f}"/>'
    return f'<geom {g} type="mesh" mesh="{shape}_{MESH_SCALES[scale]}" pos="0 0 {z0:.3f}"/>'


def _visuals(n: str, e: Ent, text_slot: int | None) -> list[str]:
    parts: list[str] = []
    add = parts.append
    if e.kind == "landmark":
        add(f'<geom name="{n}_base" type="cylinder" size="0.42 0.04" pos="0 0 0.04" rgba="0.3 0.3 0.32 1"/>')
        add(_shape_geoms(n, e.shape, 1.25, e.colour, 0.08))
    elif e.kind == "item":
        add(_shape_geoms(n, e.shape, 0.45, e.colour, 0.0))
    elif e.kind == "key":
        add(f'<geom name="{n}" type="cylinder" size="0.12 0.03" pos="0 0 0.45" quat="0.7071 0.7071 0 0" rgba="{_rgba(e.colour)}"/>')
        add(f'<geom name="{n}_stem" type="box" size="0.03 0.02 0.18" pos="0 0 0.22" rgba="{_rgba(e.colour)}"/>')
        add(f'<geom name="{n}_stand" type="cylinder" size="0.16 0.02" pos="0 0 0.02" rgba="0.3 0.3 0.3 1"/>')
    elif e.kind == "switch":
        add(f'<geom name="{n}_post" type="box" size="0.06 0.06 0.45" pos="0 0 0.45" rgba="0.35 0.35 0.38 1"/>')
        add(f'<geom name="{n}_frame" type="box" size="0.2 0.2 0.12" pos="0 0 0.95" rgba="{_rgba(e.colour)}"/>')
        add(f'<geom name="{n}" type="sphere" size="0.13" pos="0 0 1.12" rgba="0.85 0.1 0.1 1"/>')
    elif e.kind == "door":
        half = e.state.get("half", 0.5)
        add(f'<geom name="{n}" type="box" size="{half} 0.08 1.05" pos="0 0 1.05" rgba="{_rgba(e.colour)}"/>')
        add(f'<geom name="{n}_knob" type="sphere" size="0.07" pos="{0.6 * half:.2f} 0 0.95" rgba="0.2 0.2 0.2 1"/>')
    elif e.kind == "npc":
        add(f'<geom name="{n}_legs" type="capsule" size="0.12 0.25" pos="0 0 0.35" rgba="0.2 0.22 0.35 1"/>')
        add(f'<geom name="{n}" type="capsule" size="0.2 0.2" pos="0 0 0.85" rgba="{_rgba(e.colour)}"/>')
        add(f'<geom name="{n}_head" type="sphere" size="0.16" pos="0 0 1.35" rgba="0.93 0.76 0.6 1"/>')
        add(f'<geom name="{n}_hat" type="mesh" mesh="cone_h" pos="0 0 1.45" rgba="{_rgba(e.colour)}"/>')
    elif e.kind == "sign":
        add(f'<geom name="{n}_post" type="box" size="0.05 0.05 0.55" pos="0 0 0.55" rgba="0.45 0.3 0.15 1"/>')
        board = f'material="text{text_slot}"' if text_slot is not None else 'rgba="0.97 0.95 0.85 1"'
        # two boards back to back, the second turned round: the words read right from both sides
        add(f'<geom name="{n}" type="box" size="0.015 0.45 0.17" pos="-0.016 0 1.22" {board}/>')
        add(f'<geom name="{n}_back" type="box" size="0.015 0.45 0.17" pos="0.016 0 1.22" quat="0 0 0 1" {board}/>')
        add(f'<geom name="{n}_band" type="box" size="0.04 0.47 0.03" pos="0 0 1.42" rgba="{_rgba(e.colour)}"/>')
    elif e.kind == "exit":
        for k, y in (("a", 0.42), ("b", -0.42)):
            add(f'<geom name="{n}_{k}" type="box" size="0.07 0.07 0.8" pos="0 {y} 0.8" rgba="0.1 0.75 0.25 1"/>')
            add(f'<geom name="{n}_{k}2" type="box" size="0.07 0.07 0.8" pos="{y} 0 0.8" rgba="0.1 0.75 0.25 1"/>')
        add(f'<geom name="{n}" type="cylinder" size="0.45 0.02" pos="0 0 0.02" rgba="0.3 1 0.45 1"/>')
        add(f'<geom name="{n}_orb" type="sphere" size="0.14" pos="0 0 1.7" rgba="0.3 1 0.45 1"/>')
    elif e.kind == "pad":
        add(f'<geom name="{n}" type="cylinder" size="0.42 0.015" pos="0 0 0.015" rgba="{_rgba(e.colour)}"/>')
    elif e.kind == "crate":
        rgba = "0.86 0.66 0.36 1" if e.dynamic else "0.38 0.27 0.18 1"
        add(f'<geom name="{n}" type="box" size="0.44 0.44 0.4" pos="0 0 {0.4 - AGENT_Z * e.dynamic:.2f}" material="crate" rgba="{rgba}"/>')
        add(f'<geom name="{n}_band" type="box" size="0.45 0.45 0.05" pos="0 0 {0.55 - AGENT_Z * e.dynamic:.2f}" rgba="0.25 0.18 0.1 1"/>')
    elif e.kind == "rock":
        add(f'<geom name="{n}" type="ellipsoid" size="0.5 0.45 0.38" pos="0 0 0.2" rgba="0.45 0.5 0.38 1"/>')
    elif e.kind == "health":
        add(f'<geom name="{n}" type="box" size="0.22 0.22 0.14" pos="0 0 0.14" rgba="0.97 0.97 0.97 1"/>')
        add(f'<geom name="{n}_x" type="box" size="0.16 0.05 0.01" pos="0 0 0.29" rgba="0.9 0.1 0.1 1"/>')
        add(f'<geom name="{n}_y" type="box" size="0.05 0.16 0.01" pos="0 0 0.29" rgba="0.9 0.1 0.1 1"/>')
    elif e.kind != "box":
        raise ValueError(f"unknown thing kind {e.kind!r}")
    return parts


def _collider(n: str, e: Ent, z: float = 0.5) -> str:
    shape = e.collider()
    if shape is None or e.kind == "box":
        return ""
    cls = "dyn" if e.dynamic else "col"
    mass = ' mass="15"' if e.dynamic else ""
    if shape[0] == "cyl":
        return f'<geom name="{n}_col" class="{cls}" type="cylinder" size="{shape[1]} 0.5" pos="0 0 {z}"{mass}/>'
    return f'<geom name="{n}_col" class="{cls}" type="box" size="{shape[1]} {shape[2]} 0.5" pos="0 0 {z}"{mass}/>'


def thing_body(i: int, e: Ent, text_slot: int | None = None) -> str:
    """Thing ``i`` as a body named ``t{i}``: mocap (placed by the task) or, for light crates, on
    planar joints (moved by contacts). Its geoms are named ``t{i}...``; the collider ``t{i}_col``."""
    n = f"t{i}"
    x, y = e.pos
    if e.dynamic:
        joints = (f'<joint name="{n}_x" type="slide" axis="1 0 0" frictionloss="40" damping="8"/>'
                  f'<joint name="{n}_y" type="slide" axis="0 1 0" frictionloss="40" damping="8"/>'
                  f'<joint name="{n}_r" type="hinge" axis="0 0 1" frictionloss="8" damping="2"/>')
        geoms = "".join(_visuals(n, e, text_slot)) + _collider(n, e, 0.0)
        return f'<body name="{n}" pos="0 0 {AGENT_Z}" childclass="thing">{joints}{geoms}</body>'
    z = HIDDEN_Z if e.hidden else 0.0
    geoms = "".join(_visuals(n, e, text_slot)) + _collider(n, e)
    return f'<body name="{n}" mocap="true" pos="{x:.3f} {y:.3f} {z}" quat="{_quat(e.yaw)}" childclass="thing">{geoms}</body>'


def _mesh_assets() -> str:
    ring = [(np.cos(a), np.sin(a)) for a in np.linspace(0, 2 * np.pi, 16, endpoint=False)]
    verts = {"cone": " ".join(f"{0.4 * x:.3f} {0.4 * y:.3f} 0" for x, y in ring) + " 0 0 1.0",
             "pyramid": "-0.4 -0.4 0 0.4 -0.4 0 0.4 0.4 0 -0.4 0.4 0 0 0 0.9",
             "diamond": "0.32 0 0.5 -0.32 0 0.5 0 0.32 0.5 0 -0.32 0.5 0 0 0 0 0 1.0"}
    return "".join(f'<mesh name="{m}_{k}" vertex="{v}" scale="{s} {s} {s}"/>'
                   for m, v in verts.items() for s, k in MESH_SCALES.items())


def texture_order() -> list[str]:
    """Texture names in declaration order (the texture ids every world shares)."""
    return ["crate", *SURFACES, *(f"text{k}" for k in range(TEXT_SLOTS))]


def _assets(theme: Theme) -> str:
    s = SURFACE_SIZE
    tex = ['<texture name="crate" type="2d" builtin="checker" rgb1="0.9 0.9 0.9" rgb2="0.75 0.75 0.75" width="32" height="32"/>']
    tex += [f'<texture name="{n}" type="2d" builtin="flat" rgb1="1 1 1" width="{s}" height="{s}"/>' for n in SURFACES]
    th, tw = TEXT_SIZE
    tex += [f'<texture name="text{k}" type="2d" builtin="flat" rgb1="1 1 1" width="{tw}" height="{th}"/>'
            for k in range(TEXT_SLOTS)]
    mats = [f'<material name="{n}" texture="{n}" texrepeat="{TEXREPEAT[n]} {TEXREPEAT[n]}" texuniform="true" '
            f'rgba="{_rgba(SURFACE_RGB[n])}" specular="0" shininess="0"/>' for n in SURFACES]
    mats.append(f'<material name="wall" texture="{theme.wall}" texrepeat="{TEXREPEAT[theme.wall]} {TEXREPEAT[theme.wall]}" '
                f'texuniform="true" rgba="{_rgba(theme.wall_rgb)}" specular="0" shininess="0"/>')
    mats.append(f'<material name="floor" texture="{theme.floor}" texrepeat="{TEXREPEAT[theme.floor]} {TEXREPEAT[theme.floor]}" '
                f'texuniform="true" rgba="{_rgba(theme.floor_rgb)}" specular="0" shininess="0"/>')
    mats.append('<material name="tint" specular="0" shininess="0"/>')
    mats.append('<material name="crate" texture="crate" texrepeat="2 2" specular="0" shininess="0"/>')
    mats += [f'<material name="text{k}" texture="text{k}" texrepeat="1 1" specular="0" shininess="0" emission="0.3"/>'
             for k in range(TEXT_SLOTS)]
    return "\n".join(tex + mats) + "\n" + _mesh_assets()


def camera_axes(yaw: float, pitch_deg: float) -> tuple[float, ...]:
    """The camera's x and y axes (MJCF ``xyaxes``) for a view yawed by ``yaw`` and pitched up by ``pitch``."""
    p = np.radians(pitch_deg)
    xa = (np.sin(yaw), -np.cos(yaw), 0.0)
    ya = (-np.sin(p) * np.cos(yaw), -np.sin(p) * np.sin(yaw), np.cos(p))
    return (*xa, *ya)


VIEW_YAWS = {"front": 0.0, "left": np.pi / 2, "right": -np.pi / 2}


def build_xml(prims: list[Prim], things: list[Ent], bounds: tuple[float, float], theme: Theme,
              light_dir: tuple[float, float, float], light_gain: float, camera_height: float, pitch: float,
              fov: float, size: tuple[int, int], text_slots: dict[int, int], accelerated: bool,
              zfar: float = 80.0, floor_cell: float = 1.0, merge_tile: float = 0.0) -> str:
    """The MJCF of one level. ``bounds`` is the world's (width, depth) in metres (x from 0, y to
    minus it); ``text_slots`` maps thing indices to the text texture their board shows. With
    ``merge_tile`` (metres), visible static boxes are drawn as merged meshes per look and tile
    (`_merge`), in a body ``scenery`` after the agent's (so every other geom and body keeps its id)."""
    W, D = bounds
    height, width = size
    scenery, extra = "", ""
    floor = (f'<geom name="floor" type="plane" material="floor" size="{W / 2 + 40} {D / 2 + 40} {floor_cell:g}" '
             f'pos="{W / 2} {-D / 2} 0" group="2"/>\n')
    if merge_tile > 0:
        surfaces = {n: (n, TEXREPEAT[n], SURFACE_RGB[n]) for n in SURFACES}
        surfaces["wall"] = (theme.wall, TEXREPEAT[theme.wall], theme.wall_rgb)
        surfaces["floor"] = (theme.floor, TEXREPEAT[theme.floor], theme.floor_rgb)
        stay, materials, meshes, geoms = merge_boxes(prims, merge_tile, _mergeable_look,
                                                     {n: v[1] for n, v in surfaces.items()})
        mats = [f'<material name="{n}_uv" texture="{surfaces[n][0]}" texrepeat="1 1" rgba="{_rgba(surfaces[n][2])}" '
                'specular="0" shininess="0"/>' for n in materials]
        # padded to a multiple of 16 meshes: levels with the same count share a GL context
        meshes += [f'<mesh name="merged_pad{k}" inertia="shell" vertex="0 0 0 0.01 0 0 0 0.01 0 0 0 0.01" '
                   'face="0 2 1 0 1 3 0 3 2 1 2 3"/>' for k in range(-len(meshes) % 16)]
        extra = "\n" + "\n".join(mats + meshes)
        # drawn last (MuJoCo draws opaque geoms in order): what stands on the floor hides it before it is shaded
        scenery = f'\n<body name="scenery">{"".join(geoms)}{floor.strip()}</body>'
        body = [_collider_geom(p) if merged else _prim_geom(p) for p, merged in stay]
    else:
        body = [_prim_geom(p) for p in prims]
    body += [thing_body(i, e, text_slots.get(i)) for i, e in enumerate(things)]
    cams = []
    for name, yaw in VIEW_YAWS.items():
        axes = " ".join(f"{v:.5f}" for v in camera_axes(yaw, pitch))
        cams.append(f'<camera name="{name}" pos="-0.25 0 {camera_height - AGENT_Z:.3f}" xyaxes="{axes}" fovy="{fov}"/>')
    light = 0.5 * light_gain * theme.light / 0.5
    shadow, samples = ("4096", "4") if accelerated else ("0", "0")
    amb = theme.ambient
    return f"""<mujoco model="world3d">
<compiler angle="radian"/>
<option timestep="{TIMESTEP}" integrator="implicitfast" gravity="0 0 0"/>
<statistic extent="1" center="0 0 0"/>
<visual><global offwidth="{width}" offheight="{height}"/><quality shadowsize="{shadow}" offsamples="{samples}" numquads="1" numslices="12" numstacks="6"/>
<headlight ambient="{amb:.3f} {amb:.3f} {amb:.3f}" diffuse="0.35 0.35 0.35" specular="0 0 0"/>
<map znear="0.03" zfar="{zfar}" shadowclip="30"/></visual>
<default><geom contype="0" conaffinity="0" condim="1" density="0" solref="0.04 1" solimp="0.95 0.99 0.001"/>
<default class="static"><geom contype="1" conaffinity="0"/></default>
<default class="col"><geom contype="1" conaffinity="0" group="3" rgba="0 0 0 0.01"/></default>
<default class="dyn"><geom contype="2" conaffinity="3" group="3" rgba="0 0 0 0.01"/></default>
<default class="thing"><geom group="1"/></default></default>
<asset>
{_assets(theme)}{extra}
</asset>
<worldbody>
<light directional="true" dir="{light_dir[0]:.3f} {light_dir[1]:.3f} {light_dir[2]:.3f}" diffuse="{light:.3f} {light:.3f} {light * 0.95:.3f}" specular="0 0 0" castshadow="{'true' if accelerated else 'false'}"/>
{floor if not merge_tile else ""}{chr(10).join(body)}
<body name="agent" pos="0 0 {AGENT_Z}">
<joint name="agent_x" type="slide" axis="1 0 0"/><joint name="agent_y" type="slide" axis="0 1 0"/><joint name="agent_yaw" type="hinge" axis="0 0 1"/>
<geom name="agent" class="dyn" type="capsule" fromto="-{AGENT_HALF} 0 0 {AGENT_HALF} 0 0" size="{AGENT_R}" mass="{AGENT_MASS}"/>
{''.join(cams)}
</body>{scenery}
</worldbody>
<actuator><velocity name="drive_x" joint="agent_x" kv="400" forcerange="-150 150"/><velocity name="drive_y" joint="agent_y" kv="400" forcerange="-150 150"/>
<position name="turn" joint="agent_yaw" kp="200" kv="12" forcerange="-100 100"/></actuator>
</mujoco>"""


def fill_textures(model, texts: dict[int, np.ndarray]) -> tuple[int, ...]:
    """Write the surfaces and the level's text images into ``model.tex_data``; returns the ids of
    the textures that differ between levels (the text slots in use)."""
    order = texture_order()
    for k, name in enumerate(order):
        if name in SURFACES:
            img = surface(name)
        elif name.startswith("text") and int(name[4:]) in texts:
            img = texts[int(name[4:])]
        else:
            continue
        adr = model.tex_adr[k]
        model.tex_data[adr:adr + img.size] = img.reshape(-1)
    return tuple(order.index(f"text{k}") for k in sorted(texts))


def geom_labels(model, mujoco) -> np.ndarray:
    """Segmentation label of each geom: floor 0, static scenery 1, the agent 2, thing i 3 + i."""
    labels = np.full(model.ngeom, LABEL_STATIC, dtype=np.int16)
    for g in range(model.ngeom):
        body = mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, model.geom_bodyid[g]) or ""
        if body.startswith("t") and body[1:].isdigit():
            labels[g] = LABEL_THING0 + int(body[1:])
        elif body == "agent":
            labels[g] = LABEL_AGENT
        elif model.geom_group[g] == 2:
            labels[g] = LABEL_FLOOR
    return labels


def merged_meshes(model, mujoco) -> tuple[int, ...]:
    """Ids of the meshes `build_xml` merged from the level's boxes (they differ between levels)."""
    return tuple(k for k in range(model.nmesh)
                 if (mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_MESH, k) or "").startswith("merged"))
