"""Robotics scenes as MJCF: a table, a floating parallel gripper on a Cartesian gantry, and parts.

Everything is built from primitives (boxes, cylinders, spheres) in Python strings; no meshes.
World frame: the table top is the plane z = 0, x points right and y away from the front
camera (which looks at the table from the -y side). A `Scene` collects parts; each builder
returns a `Part` naming its MJCF body, kind, colour and size, which the env resolves to ids
after compiling. Every model declares the same textures in the same order, so one rendering
context per frame size serves every level (see `gymv_envs.core.mujoco_render`); a level's look
(table texture and tint, part colours) lives in materials and ``rgba``.

The gripper: body ``ee`` with slide joints ``jx``, ``jy``, ``jz`` and hinge ``jyaw`` (all
position servos with force limits, so contacts stop it), and two fingers on slide joints
coupled by an equality, closing along the gripper's local y axis. The tool point (tcp) is the
fingertips' lowest point, at the ``ee`` body origin. The wrist camera looks down between the
fingers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gymv_envs.core.canvas import PALETTE

TIMESTEP = 0.004
TABLE_HALF = (0.42, 0.32)
FINGER_HALF = (0.012, 0.006, 0.035)   # x (width), y (thickness), z (half length)
FINGER_OPEN = 0.045                     # finger joint at full opening: inner gap 2 * (0.045 + 0.001)
PALM_Z = 2 * FINGER_HALF[2]             # palm bottom above the tcp
OBJECT_COLOURS = ("red", "green", "blue", "yellow", "purple", "orange", "cyan", "pink")
TABLE_TINTS = ((0.78, 0.62, 0.44), (0.70, 0.70, 0.72), (0.62, 0.70, 0.62), (0.80, 0.74, 0.62), (0.60, 0.64, 0.74))
TABLE_TEXTURES = ("tab_checker", "tab_noise", "tab_plain")
ASSETS_KEY = "gymv-robotics-v0"  # names the texture block below for the shared rendering contexts

_ASSETS = """<asset>
<texture name="tab_checker" type="2d" builtin="checker" rgb1="1 1 1" rgb2=".88 .88 .88" width="64" height="64"/>
<texture name="tab_noise" type="2d" builtin="flat" rgb1="1 1 1" mark="random" random="0.06" markrgb=".78 .78 .78" width="128" height="128"/>
<texture name="tab_plain" type="2d" builtin="gradient" rgb1="1 1 1" rgb2=".84 .84 .84" width="64" height="64"/>
<material name="floor" rgba=".33 .34 .37 1"/>
<material name="table" texture="{table_tex}" texrepeat="{rep} {rep}" rgba="{table_rgba}"/>
</asset>"""

_GRIPPER = f"""<body name="ee" pos="0 0 0" gravcomp="1">
 <joint name="jx" type="slide" axis="1 0 0" damping="60" armature="0.2" range="-0.4 0.4"/>
 <joint name="jy" type="slide" axis="0 1 0" damping="60" armature="0.2" range="-0.3 0.3"/>
 <joint name="jz" type="slide" axis="0 0 1" damping="60" armature="0.2" range="-0.1 0.45"/>
 <joint name="jyaw" type="hinge" axis="0 0 1" damping="2" armature="0.01" range="-100 100"/>
 <geom name="palm" type="box" size=".02 .066 .012" pos="0 0 {PALM_Z + 0.012}" mass="0.5" rgba=".22 .23 .26 1"/>
 <geom name="wrist" type="cylinder" size=".016 .04" pos="0 0 {PALM_Z + 0.064}" mass="0.05" rgba=".35 .36 .4 1" contype="0" conaffinity="0"/>
 <camera name="wrist" pos="0 0 {PALM_Z - 0.012}" fovy="80"/>
 <body name="finger_l" gravcomp="1"><joint name="jfl" type="slide" axis="0 1 0" range="0 {FINGER_OPEN}" damping="5" armature="0.01"/>
  <geom name="finger_l" type="box" size="{FINGER_HALF[0]} {FINGER_HALF[1]} {FINGER_HALF[2]}" pos="0 {FINGER_HALF[1] + 0.001} {FINGER_HALF[2]}" mass="0.05" friction="1.5 .02 .002" condim="4" rgba=".78 .78 .8 1"/></body>
 <body name="finger_r" gravcomp="1"><joint name="jfr" type="slide" axis="0 -1 0" range="0 {FINGER_OPEN}" damping="5" armature="0.01"/>
  <geom name="finger_r" type="box" size="{FINGER_HALF[0]} {FINGER_HALF[1]} {FINGER_HALF[2]}" pos="0 {-FINGER_HALF[1] - 0.001} {FINGER_HALF[2]}" mass="0.05" friction="1.5 .02 .002" condim="4" rgba=".78 .78 .8 1"/></body>
</body>"""

_ACTUATORS = """<equality><joint joint1="jfr" joint2="jfl" polycoef="0 1 0 0 0"/>{equalities}</equality>
<actuator>
 <position name="ax" joint="jx" kp="2000" forcerange="-60 60"/>
 <position name="ay" joint="jy" kp="2000" forcerange="-60 60"/>
 <position name="az" joint="jz" kp="2000" forcerange="-60 60"/>
 <position name="ayaw" joint="jyaw" kp="60" forcerange="-10 10"/>
 <position name="agrip" joint="jfl" kp="400" forcerange="-12 12"/>
</actuator>"""


def rgba(colour: str, alpha: float = 1.0) -> str:
    r, g, b = PALETTE.get(colour, (245, 245, 245))
    return f"{r / 255:.3f} {g / 255:.3f} {b / 255:.3f} {alpha:g}"


def _v(*xs: float) -> str:
    return " ".join(f"{x:.5g}" for x in xs)


@dataclass
class Part:
    """Something in the scene a task refers to: its MJCF body, kind, colour and size."""

    name: str
    kind: str
    colour: str
    xy: tuple[float, float]
    half: tuple[float, float, float]   # half extents (boxes) or (radius, radius, half height)
    yaw: float = 0.0                   # degrees
    free: bool = True                  # a free body (moves by physics) or a fixture
    extra: dict = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.colour} {self.kind}"

    @property
    def height(self) -> float:
        return 2 * self.half[2]


class Scene:
    """An MJCF scene under construction: the table and gripper plus the parts tasks add."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.table_tex = TABLE_TEXTURES[int(rng.integers(len(TABLE_TEXTURES)))]
        self.table_rgba = TABLE_TINTS[int(rng.integers(len(TABLE_TINTS)))]
        self.bodies: list[str] = []
        self.equalities: list[str] = []
        self.excludes: list[tuple[str, str]] = []
        self.init_qpos: dict[str, float] = {}  # joint name -> starting position  # body pairs that never collide (a joint's fixed parent)
        self.parts: list[Part] = []

    def _add(self, part: Part, xml: str) -> Part:
        if any(p.name == part.name for p in self.parts):
            raise ValueError(f"two parts named {part.name!r}")
        self.parts.append(part)
        self.bodies.append(xml)
        return part

    # ------------------------------------------------------------- free objects
    def block(self, name: str, colour: str, xy, half=(0.02, 0.02, 0.02), yaw: float = 0.0,
              kind: str = "block", z: float = 0.0) -> Part:
        """A box resting on the surface at height ``z`` (the table, a ledge)."""
        x, y = xy
        xml = (f'<body name="{name}" pos="{_v(x, y, z + half[2])}" euler="0 0 {yaw:g}"><freejoint/>'
               f'<geom name="{name}" type="box" size="{_v(*half)}" rgba="{rgba(colour)}" density="500"/></body>')
        return self._add(Part(name, kind, colour, (x, y), tuple(half), yaw), xml)

    def cylinder(self, name: str, colour: str, xy, radius: float = 0.02, half_h: float = 0.02,
                 kind: str = "cylinder", density: float = 500) -> Part:
        x, y = xy
        xml = (f'<body name="{name}" pos="{_v(x, y, half_h)}"><freejoint/>'
               f'<geom name="{name}" type="cylinder" size="{_v(radius, half_h)}" rgba="{rgba(colour)}" density="{density:g}"/></body>')
        return self._add(Part(name, kind, colour, (x, y), (radius, radius, half_h)), xml)

    def mug(self, name: str, colour: str, xy, yaw: float = 0.0) -> Part:
        """A cup: a cylinder with a dark top (its opening) and a handle."""
        x, y = xy
        r, h = 0.026, 0.04
        xml = (f'<body name="{name}" pos="{_v(x, y, h)}" euler="0 0 {yaw:g}"><freejoint/>'
               f'<geom name="{name}" type="cylinder" size="{_v(r, h)}" rgba="{rgba(colour)}" density="400"/>'
               f'<geom type="cylinder" size="{_v(r - 0.004, 0.001)}" pos="0 0 {h:g}" rgba=".12 .1 .1 1" contype="0" conaffinity="0" mass="0"/>'
               f'<geom name="{name}_handle" type="box" size="{_v(0.012, 0.005, 0.022)}" pos="{r + 0.01:g} 0 0" rgba="{rgba(colour)}" mass="0.005"/></body>')
        return self._add(Part(name, "cup", colour, (x, y), (r, r, h), yaw), xml)

    # ------------------------------------------------------------- fixtures
    def pad(self, name: str, colour: str, xy, half=(0.035, 0.035), yaw: float = 0.0, kind: str = "target",
            round_: bool = False) -> Part:
        """A flat marker on the table (no collisions)."""
        x, y = xy
        shape = f'type="cylinder" size="{_v(half[0], 0.0008)}"' if round_ else f'type="box" size="{_v(half[0], half[1], 0.0008)}"'
        xml = (f'<body name="{name}" pos="{_v(x, y, 0.0008)}" euler="0 0 {yaw:g}">'
               f'<geom name="{name}" {shape} rgba="{rgba(colour, 0.9)}" contype="0" conaffinity="0"/></body>')
        return self._add(Part(name, kind, colour, (x, y), (half[0], half[1], 0.0008), yaw, free=False), xml)

    def outline(self, name: str, colour: str, xy, half, yaw: float) -> Part:
        """A rectangle outline on the table showing where and how a block should lie."""
        x, y = xy
        hx, hy, t = half[0], half[1], 0.003
        edges = [(0, hy - t, hx, t), (0, -hy + t, hx, t), (hx - t, 0, t, hy), (-hx + t, 0, t, hy)]
        geoms = "".join(f'<geom type="box" pos="{_v(ex, ey, 0)}" size="{_v(sx, sy, 0.0008)}" rgba="{rgba(colour)}" '
                        'contype="0" conaffinity="0"/>' for ex, ey, sx, sy in edges)
        xml = f'<body name="{name}" pos="{_v(x, y, 0.0008)}" euler="0 0 {yaw:g}">{geoms}</body>'
        return self._add(Part(name, "outline", colour, (x, y), (hx, hy, 0.0008), yaw, free=False), xml)

    def bin(self, name: str, colour: str, xy, inner=(0.065, 0.065), wall_h: float = 0.035, z: float = 0.0) -> Part:
        """An open box fixed on the table: a floor and four walls ``wall_h`` high."""
        x, y = xy
        ix, iy, t = inner[0], inner[1], 0.005
        walls = [(0, iy + t, ix + 2 * t, t), (0, -iy - t, ix + 2 * t, t), (ix + t, 0, t, iy), (-ix - t, 0, t, iy)]
        c = rgba(colour)
        geoms = f'<geom type="box" pos="0 0 0.002" size="{_v(ix + 2 * t, iy + 2 * t, 0.002)}" rgba="{c}"/>'
        geoms += "".join(f'<geom type="box" pos="{_v(wx, wy, wall_h / 2)}" size="{_v(sx, sy, wall_h / 2)}" rgba="{c}"/>'
                         for wx, wy, sx, sy in walls)
        xml = f'<body name="{name}" pos="{_v(x, y, z)}">{geoms}</body>'
        return self._add(Part(name, "bin", colour, (x, y), (ix, iy, wall_h / 2), free=False, extra={"z": z}), xml)

    def ledge(self, name: str, colour: str, xy, half=(0.08, 0.08), top: float = 0.04) -> Part:
        """A raised platform: a fixed box whose top is at ``top``."""
        x, y = xy
        xml = (f'<body name="{name}" pos="{_v(x, y, top / 2)}"><geom name="{name}" type="box" '
               f'size="{_v(half[0], half[1], top / 2)}" rgba="{rgba(colour)}"/></body>')
        return self._add(Part(name, "ledge", colour, (x, y), (half[0], half[1], top / 2), free=False), xml)

    def button(self, name: str, colour: str, xy) -> Part:
        """A push button: a grey housing and a coloured cap on a sprung slide joint (travel 12 mm)."""
        x, y = xy
        xml = (f'<body name="{name}_base" pos="{_v(x, y, 0)}">'
               f'<geom type="box" size="0.032 0.032 0.01" pos="0 0 0.01" rgba=".55 .56 .6 1"/>'
               f'<body name="{name}" pos="0 0 0.028"><joint name="{name}" type="slide" axis="0 0 1" range="-0.012 0" '
               f'stiffness="60" springref="0.01" damping="2"/>'
               f'<geom name="{name}" type="cylinder" size="0.022 0.008" rgba="{rgba(colour)}" mass="0.01"/></body></body>')
        self.excludes.append((f"{name}_base", name))
        return self._add(Part(name, "button", colour, (x, y), (0.022, 0.022, 0.018), free=False), xml)

    def hole(self, name: str, colour: str, xy, hole_half: float, height: float = 0.05) -> Part:
        """A fixed block with a square hole through it (four walls around the opening)."""
        x, y = xy
        w = 0.03  # wall thickness
        o = hole_half + w
        walls = [(0, hole_half + w / 2, o, w / 2), (0, -hole_half - w / 2, o, w / 2),
                 (hole_half + w / 2, 0, w / 2, hole_half), (-hole_half - w / 2, 0, w / 2, hole_half)]
        geoms = "".join(f'<geom type="box" pos="{_v(wx, wy, height / 2)}" size="{_v(sx, sy, height / 2)}" rgba="{rgba(colour)}"/>'
                        for wx, wy, sx, sy in walls)
        xml = f'<body name="{name}" pos="{_v(x, y, 0)}">{geoms}</body>'
        return self._add(Part(name, "hole", colour, (x, y), (hole_half, hole_half, height / 2), free=False), xml)

    def drawer(self, name: str, colour: str, xy, opening: float = 0.0) -> Part:
        """A cabinet (open at the front, -y) with a drawer on a slide joint (``name``; 0 closed,
        -0.10 fully open) and a bar handle 4.6 cm in front of the drawer's face."""
        x, y = xy
        hx, hy, top = 0.085, 0.08, 0.075
        t = 0.005
        body = rgba(colour)
        cab = "".join(f'<geom type="box" pos="{_v(*p)}" size="{_v(*s)}" rgba=".9 .9 .88 1"/>' for p, s in (
            ((0, 0, top - t), (hx, hy, t)), ((hx - t, 0, top / 2), (t, hy, top / 2)),
            ((-hx + t, 0, top / 2), (t, hy, top / 2)), ((0, hy - t, top / 2), (hx, t, top / 2)),
            ((0, 0, t), (hx, hy, t))))
        ix, iy = hx - 2 * t - 0.003, hy - t
        tray = (f'<geom type="box" pos="{_v(0, 0, 0.013)}" size="{_v(ix, iy - 0.004, 0.003)}" rgba="{body}"/>'
                f'<geom type="box" pos="{_v(ix - t, 0, 0.035)}" size="{_v(t, iy - 0.004, 0.022)}" rgba="{body}"/>'
                f'<geom type="box" pos="{_v(-ix + t, 0, 0.035)}" size="{_v(t, iy - 0.004, 0.022)}" rgba="{body}"/>'
                f'<geom type="box" pos="{_v(0, iy - 0.004 - t, 0.035)}" size="{_v(ix, t, 0.022)}" rgba="{body}"/>'
                f'<geom name="{name}_front" type="box" pos="{_v(0, -hy + t, 0.036)}" size="{_v(hx - 0.002, t, 0.032)}" rgba="{body}"/>'
                f'<geom type="box" pos="{_v(0.03, -hy - 0.023, 0.04)}" size="0.005 0.023 0.005" rgba=".25 .25 .28 1"/>'
                f'<geom type="box" pos="{_v(-0.03, -hy - 0.023, 0.04)}" size="0.005 0.023 0.005" rgba=".25 .25 .28 1"/>'
                f'<geom name="{name}_handle" type="box" pos="{_v(0, -hy - 0.046, 0.04)}" size="0.04 0.006 0.006" rgba=".25 .25 .28 1"/>')
        xml = (f'<body name="{name}_cabinet" pos="{_v(x, y, 0)}">{cab}'
               f'<body name="{name}" pos="0 0 0"><joint name="{name}" type="slide" axis="0 1 0" '
               f'range="-0.10 0" damping="12" frictionloss="0.2" armature="0.05"/>'
               f'{tray}</body></body>')
        self.excludes.append((f"{name}_cabinet", name))
        self.init_qpos[name] = -opening
        return self._add(Part(name, "drawer", colour, (x, y), (hx, hy, top / 2), free=False,
                              extra={"front": y - hy, "handle_z": 0.04}), xml)

    def door(self, name: str, colour: str, xy, latched: bool, width: float = 0.14) -> Part:
        """A door on a vertical hinge (joint ``name``, 0 closed, opening away from the camera)
        between two posts, the hinge at ``xy`` and the door along +x. A latched door has a lever
        handle (joint ``name_lever``, pressed down is negative) that must be pressed down before
        the door turns (the env lifts the latch)."""
        x, y = xy
        h = 0.08
        post = '<geom type="box" pos="{} 0 {}" size="0.008 0.008 {}" rgba=".3 .3 .32 1"/>'
        posts = post.format(-0.014, (h + 0.01) / 2, (h + 0.01) / 2) + post.format(width + 0.014, (h + 0.01) / 2, (h + 0.01) / 2)
        lever = (f'<body name="{name}_lever" pos="{_v(width - 0.03, -0.016, 0.07)}">'
                 f'<joint name="{name}_lever" type="hinge" axis="0 1 0" range="-50 0" damping="0.02" stiffness="0.3" springref="15"/>'
                 f'<geom type="box" pos="-0.022 -0.006 0" size="0.026 0.006 0.005" rgba=".15 .15 .17 1" mass="0.005"/>'
                 f'<geom type="cylinder" size="0.006 0.01" pos="0 0 0" euler="90 0 0" rgba=".15 .15 .17 1" mass="0.001"/></body>') if latched else ""
        xml = (f'<body name="{name}_frame" pos="{_v(x, y, 0)}">{posts}'
               f'<body name="{name}" pos="0 0 0"><joint name="{name}" type="hinge" axis="0 0 1" range="-2 100" damping="0.3" armature="0.002"/>'
               f'<geom name="{name}" type="box" pos="{_v(width / 2, 0, h / 2 + 0.004)}" size="{_v(width / 2 - 0.004, 0.006, h / 2)}" rgba="{rgba(colour)}" mass="0.08"/>'
               f'{lever}</body></body>')
        self.excludes.append((f"{name}_frame", name))
        if latched:
            self.excludes.append((f"{name}_frame", f"{name}_lever"))
            self.excludes.append((name, f"{name}_lever"))
            self.equalities.append(f'<joint name="{name}_latch" joint1="{name}" polycoef="0 0 0 0 0"/>')
        return self._add(Part(name, "door", colour, (x, y), (width / 2, 0.006, h / 2), free=False,
                              extra={"width": width, "latched": latched}), xml)

    def tipping_cup(self, name: str, colour: str, xy, balls: int) -> Part:
        """A cup on a post, hinged at its base (joint ``name``, about the y axis: positive tips it
        towards +x) and sprung upright, holding ``balls`` small balls (``name_ball0``, ...)."""
        x, y = xy
        post_h, r, h = 0.07, 0.03, 0.06
        walls = "".join(
            f'<geom type="box" pos="{_v(r * np.cos(a), r * np.sin(a), h / 2 + 0.004)}" euler="0 0 {np.degrees(a):.4g}" '
            f'size="{_v(0.004, r * 0.42, h / 2)}" rgba="{rgba(colour)}" mass="0.004"/>'
            for a in np.arange(8) * np.pi / 4)
        xml = (f'<body name="{name}_post" pos="{_v(x, y, 0)}">'
               f'<geom type="box" pos="0 0 {post_h / 2}" size="0.012 0.03 {post_h / 2}" rgba=".4 .4 .44 1"/>'
               f'<body name="{name}" pos="0 0 {post_h}"><joint name="{name}" type="hinge" axis="0 1 0" range="-125 125" '
               f'stiffness="0.08" damping="0.01"/>'
               f'<geom type="cylinder" size="{_v(r + 0.004, 0.004)}" pos="0 0 0.004" rgba="{rgba(colour)}" mass="0.01"/>{walls}'
               f'</body></body>')
        self.excludes.append((f"{name}_post", name))
        part = self._add(Part(name, "cup", colour, (x, y), (r, r, h / 2), free=False,
                              extra={"pivot_z": post_h, "height": h}), xml)
        for k in range(balls):
            ball = f"{name}_ball{k}"
            self._add(Part(ball, "ball", "white", (x, y), (0.011, 0.011, 0.011)),
                      f'<body name="{ball}" pos="{_v(x + 0.012 * (k - (balls - 1) / 2), y, post_h + 0.022 + 0.026 * k)}">'
                      f'<freejoint/><geom name="{ball}" type="sphere" size="0.011" rgba=".96 .96 .96 1" '
                      f'density="800" condim="6" friction="1 0.01 0.002"/></body>')
        return part

    # ------------------------------------------------------------- the model
    def xml(self, height: int, width: int) -> str:
        rep = {"tab_checker": 8, "tab_noise": 1, "tab_plain": 1}[self.table_tex]
        assets = _ASSETS.format(table_tex=self.table_tex, rep=rep, table_rgba=_v(*self.table_rgba, 1))
        tx, ty = TABLE_HALF
        legs = "".join(f'<geom type="box" pos="{_v(sx * (tx - 0.04), sy * (ty - 0.04), -0.38)}" size="0.025 0.025 0.34" '
                       'rgba=".3 .26 .22 1" contype="0" conaffinity="0"/>' for sx in (-1, 1) for sy in (-1, 1))
        return f"""<mujoco model="gymv-robotics">
<compiler angle="degree" autolimits="true"/>
<option timestep="{TIMESTEP}" integrator="implicitfast" cone="elliptic" impratio="10"/>
<statistic extent="1" center="0 0 0"/>
<visual><global offwidth="{width}" offheight="{height}"/><quality shadowsize="0" offsamples="0"/>
<headlight ambient=".4 .4 .4" diffuse=".45 .45 .45" specular="0 0 0"/><map znear="0.01" zfar="6"/></visual>
<default><geom solref="0.01 1" friction="1 0.01 0.001"/></default>
{assets}
<worldbody>
<light directional="true" dir="0.25 0.45 -1" diffuse=".5 .5 .48" specular="0 0 0" castshadow="false"/>
<geom name="floor" type="box" size="3 3 0.01" pos="0 0 -0.73" material="floor"/>
<geom name="backdrop" type="box" size="3 0.01 2" pos="0 2 0" rgba=".72 .76 .83 1" contype="0" conaffinity="0"/>
<geom name="table" type="box" size="{_v(tx, ty, 0.02)}" pos="0 0 -0.02" material="table"/>
{legs}
<camera name="front" pos="0 -0.5 0.56" xyaxes="1 0 0 0 0.726 0.687" fovy="54"/>
{_GRIPPER}
{"".join(self.bodies)}
</worldbody>
<contact>{"".join(f'<exclude body1="{a}" body2="{b}"/>' for a, b in self.excludes)}</contact>
{_ACTUATORS.format(equalities="".join(self.equalities))}
</mujoco>"""
