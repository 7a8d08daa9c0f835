"""Static boxes merged into a few meshes for drawing: one draw call per look and tile.

A software renderer pays a fixed cost per geom it draws (about 1.4 us measured on llvmpipe, on top
of shading its pixels), and a town's frame shows a hundred static boxes (walls, roofs, fences,
kerbs, roads). `merge_boxes` turns every
visible static box into faces of a mesh shared by all boxes of the same look (material and
colour) in the same ``tile`` x ``tile`` metre square, so a frame draws a handful of meshes, and
view culling still drops the tiles behind the camera. Colliding boxes stay in the model for
physics and rays, moved to `COLLIDER_GROUP` (never drawn); a box alone in its look and tile stays
a box geom. Each face gets the texture coordinates MuJoCo gives a box face (`_FACES`: 0-1 across
the face, scaled by the material's ``texrepeat`` times the box's x and y half-sizes where the
material is ``texuniform``), so a merged box shows the texture a box geom did. Undersides resting
on the floor are dropped (never seen).
"""

from __future__ import annotations

import numpy as np

COLLIDER_GROUP = 4   # colliding boxes whose looks were merged: seen by physics and rays, not drawn
# corners (in the box's [-1, 1]^3), texture coordinates and normal of each face as MuJoCo's builtin
# box draws them (render_context.c, numquads 1): top, bottom, +x, -x, -y, +y (MuJoCo computes the
# mesh's normals from the corners: each face has its own four vertices, so they come out flat)
_FACES = (
    (((-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)), ((0, 1), (1, 1), (1, 0), (0, 0)), (0, 0, 1)),
    (((-1, 1, -1), (1, 1, -1), (1, -1, -1), (-1, -1, -1)), ((0, 0), (1, 0), (1, 1), (0, 1)), (0, 0, -1)),
    (((1, -1, -1), (1, 1, -1), (1, 1, 1), (1, -1, 1)), ((0, 1), (1, 1), (1, 0), (0, 0)), (1, 0, 0)),
    (((-1, -1, 1), (-1, 1, 1), (-1, 1, -1), (-1, -1, -1)), ((0, 0), (1, 0), (1, 1), (0, 1)), (-1, 0, 0)),
    (((-1, -1, -1), (1, -1, -1), (1, -1, 1), (-1, -1, 1)), ((0, 1), (1, 1), (1, 0), (0, 0)), (0, -1, 0)),
    (((-1, 1, 1), (1, 1, 1), (1, 1, -1), (-1, 1, -1)), ((0, 0), (1, 0), (1, 1), (0, 1)), (0, 1, 0)),
)
_CORNERS = np.array([f[0] for f in _FACES], dtype=np.float64)     # (6, 4, 3)
_UV = np.array([f[1] for f in _FACES], dtype=np.float64)          # (6, 4, 2)


def _numbers(a: np.ndarray) -> str:
    """Numbers as MJCF text, to a tenth of a millimetre (one %-format: 10x faster than np.char)."""
    flat = a.ravel().tolist()
    return ("%.4f " * len(flat) % tuple(flat))[:-1]


def box_mesh(boxes: np.ndarray, repeat: float | None, name: str) -> str:
    """The ``<mesh>`` asset of ``boxes`` (rows x, y, z, sx, sy, sz, yaw), in world coordinates;
    ``repeat`` is the texuniform material's texrepeat (None: untextured, no texture coordinates)."""
    n = len(boxes)
    c, h, yaw = boxes[:, :3], boxes[:, 3:6], boxes[:, 6]
    cos, sin = np.cos(yaw)[:, None, None], np.sin(yaw)[:, None, None]
    local = _CORNERS[None] * h[:, None, None, :]                      # (n, 6, 4, 3)
    world = np.empty_like(local)
    world[..., 0] = cos[..., 0:1] * local[..., 0] - sin[..., 0:1] * local[..., 1]
    world[..., 1] = sin[..., 0:1] * local[..., 0] + cos[..., 0:1] * local[..., 1]
    world[..., 2] = local[..., 2]
    world += c[:, None, None, :]
    keep = np.ones((n, 6), dtype=bool)
    keep[:, 1] = c[:, 2] - h[:, 2] > 0.02                             # undersides on the floor: never seen
    verts = world[keep]                                               # (f, 4, 3)
    f = len(verts)
    quads = np.arange(4 * f).reshape(f, 4)
    faces = np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]], axis=1)
    attrs = (f'<mesh name="{name}" inertia="shell" vertex="{_numbers(verts)}" '
             f'face="{" ".join(map(str, faces.ravel().tolist()))}"')
    if repeat is not None:
        scale = repeat * h[:, None, None, :2]                            # texuniform: texrepeat x half-size
        uv = np.broadcast_to(_UV[None], (n, 6, 4, 2)) * scale
        attrs += f' texcoord="{_numbers(uv[keep])}"'
    return attrs + "/>"


def merge_boxes(prims: list, tile: float, look, texrepeat: dict[str, float]) -> tuple[list, list[str], list[str], list[str]]:
    """Split ``prims`` for drawing. Returns (the prims that stay geoms, in their order, each as
    ``(prim, merged)``: a merged one stays only as a collider; the textured materials the meshes
    use; the mesh assets; the mesh geoms). ``look(prim)`` gives a prim's look attributes (material
    and rgba, as `_prim_geom` writes them) or None for a prim that must stay a geom of its own;
    ``texrepeat`` gives each textured material's repeat (materials absent from it are untextured).
    Merged textured boxes use material ``<name>_uv`` (the same texture with repeat 1, not uniform)."""
    looks = [look(p) if p.shape == "box" and p.visible else None for p in prims]
    keys = [None if attrs is None else (p.material, attrs, p.z < 0.02, int(np.floor(p.x / tile)), int(np.floor(p.y / tile)))
            for p, attrs in zip(prims, looks)]
    count: dict = {}
    for key in keys:
        count[key] = count.get(key, 0) + 1
    stay, groups = [], {}
    for p, key in zip(prims, keys):
        merged = key is not None and count[key] > 1       # a box alone in its look and tile stays a box
        if not merged or p.collide:
            stay.append((p, merged))
        if merged:
            groups.setdefault(key, []).append((*(round(v, 3) for v in (p.x, p.y, p.z, p.sx, p.sy, p.sz)), p.yaw))
    assets, geoms, materials = [], [], []
    for k, ((material, attrs, floor, *_), boxes) in enumerate(groups.items()):
        repeat = texrepeat.get(material)
        assets.append(box_mesh(np.array(boxes, dtype=np.float64), repeat, f"merged{k}"))
        if repeat is not None:
            attrs = attrs.replace(f'material="{material}"', f'material="{material}_uv"')
            materials.append(material)
        geoms.append(f'<geom type="mesh" mesh="merged{k}" group="{2 if floor else 1}"{attrs}/>')
    return stay, sorted(set(materials)), assets, geoms
