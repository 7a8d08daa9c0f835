"""Headless MuJoCo rendering for world3d: one GL context per process and thread, contexts shared by size.

Creating a GL context costs about 100 ms on a software renderer and an `MjrContext` several
milliseconds, while a world is rebuilt at every reset. Every world3d model declares the same
assets (textures, materials, meshes) in the same order, so the GPU-side resources an
`MjrContext` holds are valid for every world of one frame size: the context is made once per
(process, height, width) and reused by every env and level. Only the `MjvScene` is per model.
The few textures that differ between levels (the words on its signs) are uploaded again whenever a world renders on a context that another world's
textures were last uploaded to.

``MUJOCO_GL`` defaults to ``egl``; when EGL cannot start, ``osmesa`` is tried. Shadows and
multisampling are on only when the GL renderer is a hardware one (`accelerated`): a software
renderer spends 30-50 ms a frame on them.
"""

from __future__ import annotations

import itertools
import zlib
from typing import Any

import numpy as np

from gymv_envs.core.mujoco_render import ThreadGL, import_mujoco

SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swrast", "software", "offscreen")


class _Pool(ThreadGL):
    """Per thread (`ThreadGL`), an `MjrContext` per frame size and baked planes, which renderer last set
    each one's material table (``users``) and uploaded its dynamic textures (``owners``), and whether the
    renderer is a hardware one."""

    # contexts kept per frame size (each holds the model's textures and offscreen buffers)
    MAX_PER_SIZE = 6

    def __init__(self) -> None:
        super().__init__()
        self.hardware = False
        self.owners: dict[tuple, dict[int, int]] = {}
        self.users: dict[tuple, int] = {}

    def _forget(self) -> None:
        super()._forget()
        self.owners, self.users = {}, {}

    def _started(self) -> None:
        self.hardware = self._probe_hardware()

    def accelerated(self) -> bool:
        """Whether this process renders on a hardware GL renderer (not Mesa's software ones)."""
        self.make_current()
        return self.hardware

    def context(self, model: Any, height: int, width: int, baked: tuple = (), serial: int = 0) -> tuple[Any, dict[int, int]]:
        """The `MjrContext` for this frame size and ``baked`` (`baked_signature`: what `MjrContext`
        compiles from the model it is made for), with the model's material-to-texture table."""
        mujoco = import_mujoco()
        self.make_current()
        key = (height, width, baked)
        if key not in self.contexts:
            same_size = [k for k in self.contexts if k[:2] == (height, width)]
            if len(same_size) >= self.MAX_PER_SIZE:  # the least recently made one goes
                old = same_size[0]
                self.contexts.pop(old).free()
                self.owners.pop(old, None)
                self.users.pop(old, None)
            self.contexts[key] = mujoco.MjrContext(model, mujoco.mjtFontScale.mjFONTSCALE_50.value)
            self.owners[key] = {}
        ctx = self.contexts[key]
        if self.users.get(key) != serial:
            # The context copied its maker's material-to-texture table; this model's may differ
            # (another family's floor texture) while the baked planes are the same.
            n = model.nmat
            ctx.mat_texid[:model.mat_texid.size] = model.mat_texid.ravel()
            ctx.mat_texuniform[:n] = model.mat_texuniform
            ctx.mat_texrepeat[:2 * n] = model.mat_texrepeat.ravel()
            self.users[key] = serial
        # The GL context is shared by every size: bind this size's offscreen framebuffer at every
        # render, or a render after another size's draws into that size's (smaller) buffer and
        # reads back pixels that were never drawn.
        mujoco.mjr_setBuffer(mujoco.mjtFramebuffer.mjFB_OFFSCREEN.value, ctx)
        return ctx, self.owners[key]

    def _probe_hardware(self) -> bool:
        if getattr(self.gl, "backend", "") == "osmesa":
            return False
        try:
            from OpenGL import GL

            self.gl.make_current()
            name = (GL.glGetString(GL.GL_RENDERER) or b"").decode("ascii", "replace").lower()
        except Exception:  # noqa: BLE001 - unknown renderer: assume software (the cheap choice)
            return False
        return bool(name) and not any(s in name for s in SOFTWARE_RENDERERS)


_GLPool = _Pool()


def accelerated() -> bool:
    """Whether world3d renders on a GPU in this process (shadows and anti-aliasing are then on)."""
    return _GLPool.accelerated()


_SERIAL = itertools.count(1)


def baked_signature(model: Any, dynamic: tuple[int, ...] = (), dynamic_meshes: tuple[int, ...] = ()) -> tuple:
    """What an `MjrContext` takes from the model it is made for and a renderer does not upload
    again: the plane geoms (their display lists hold each plane's size and its material's texture
    repeat), the texture and mesh layout, and the content of the textures other than ``dynamic``
    and of the meshes other than ``dynamic_meshes`` (a CRC). Worlds that differ here get their own
    context, or a level's frames would depend on which world drew first at that frame size."""
    mujoco = import_mujoco()
    planes = tuple(
        (tuple(model.geom_size[g].round(6).tolist()), int(model.geom_matid[g]),
         tuple(model.mat_texrepeat[model.geom_matid[g]].round(6).tolist()) if model.geom_matid[g] >= 0 else ())
        for g in range(model.ngeom) if model.geom_type[g] == mujoco.mjtGeom.mjGEOM_PLANE)
    textures = (int(model.ntex), tuple(model.tex_height.tolist()), tuple(model.tex_width.tolist()),
                int(model.nmesh), int(model.nhfield), int(model.nskin), int(model.vis.quality.numquads))
    crc = 0
    for t in range(model.ntex):
        if t not in dynamic:
            a = int(model.tex_adr[t])
            crc = zlib.crc32(model.tex_data[a:a + int(model.tex_height[t] * model.tex_width[t] * model.tex_nchannel[t])], crc)
    if not dynamic_meshes:
        crc = zlib.crc32(model.mesh_vert.tobytes(), zlib.crc32(model.mesh_face.tobytes(), crc))
    else:
        for k in range(model.nmesh):
            if k in dynamic_meshes:
                continue
            v, f = int(model.mesh_vertadr[k]), int(model.mesh_faceadr[k])
            crc = zlib.crc32(model.mesh_vert[v:v + int(model.mesh_vertnum[k])].tobytes(),
                             zlib.crc32(model.mesh_face[f:f + int(model.mesh_facenum[k])].tobytes(), crc))
    return planes, textures, crc


class WorldRenderer:
    """Renders one compiled world (``model``, ``data``) from its named cameras at a fixed size.

    ``dynamic`` lists the texture ids and ``dynamic_meshes`` the mesh ids that differ between
    levels (re-uploaded when another world used the shared context last); ``labels`` maps each
    model geom to a segmentation label.
    """

    def __init__(self, model: Any, data: Any, height: int, width: int, dynamic: tuple[int, ...] = (),
                 labels: np.ndarray | None = None, hidden_groups: tuple[int, ...] = (3,),
                 dynamic_meshes: tuple[int, ...] = ()) -> None:
        mujoco = import_mujoco()
        self.mujoco, self.model, self.data = mujoco, model, data
        self.height, self.width = height, width
        self.serial = next(_SERIAL)
        self.dynamic, self.dynamic_meshes = dynamic, dynamic_meshes
        self.baked = baked_signature(model, dynamic, dynamic_meshes)
        self.labels = labels
        self._sky: tuple[np.ndarray, np.ndarray] | None = None
        self.scene = mujoco.MjvScene(model, maxgeom=model.ngeom + 16)
        self.option = mujoco.MjvOption()
        for g in hidden_groups:
            self.option.geomgroup[g] = 0
        self.camera = mujoco.MjvCamera()
        self.camera.type = mujoco.mjtCamera.mjCAMERA_FIXED
        self.rect = mujoco.MjrRect(0, 0, width, height)
        self.catmask = mujoco.mjtCatBit.mjCAT_ALL.value
        self.cameras = {mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_CAMERA, i): i for i in range(model.ncam)}
        # view-frustum culling: geoms out of view get alpha 0 for the frame (MuJoCo then skips them;
        # a software renderer pays per geom drawn)
        shown = [g for g in range(model.ngeom) if model.geom_rgba[g, 3] > 0 and model.geom_group[g] < 3
                 and model.geom_type[g] != mujoco.mjtGeom.mjGEOM_PLANE]
        self.cull = np.array(shown, dtype=np.int64)
        self.rbound = model.geom_rbound[self.cull].copy()
        self.alpha = model.geom_rgba[self.cull, 3].copy()

    def _draw(self, camera: str, segment: bool = False) -> Any:
        mujoco = self.mujoco
        ctx, owners = _GLPool.context(self.model, self.height, self.width, self.baked, self.serial)
        for tex in self.dynamic:
            if owners.get(tex) != self.serial:
                mujoco.mjr_uploadTexture(self.model, ctx, tex)
                owners[tex] = self.serial
        if self.dynamic_meshes and owners.get("meshes") != self.serial:
            for mesh in self.dynamic_meshes:
                mujoco.mjr_uploadMesh(self.model, ctx, mesh)
            owners["meshes"] = self.serial
        mujoco.mj_kinematics(self.model, self.data)
        mujoco.mj_camlight(self.model, self.data)
        cam = self.cameras[camera]
        self.camera.fixedcamid = cam
        hidden = self._out_of_view(cam)
        self.model.geom_rgba[hidden, 3] = 0.0
        mujoco.mjv_updateScene(self.model, self.data, self.option, None, self.camera, self.catmask, self.scene)
        self.model.geom_rgba[self.cull, 3] = self.alpha
        self.scene.flags[mujoco.mjtRndFlag.mjRND_SEGMENT] = segment
        self.scene.flags[mujoco.mjtRndFlag.mjRND_IDCOLOR] = segment
        mujoco.mjr_render(self.rect, self.scene, ctx)
        return ctx

    def _out_of_view(self, cam: int) -> np.ndarray:
        """The geoms whose bounding spheres lie outside camera ``cam``'s view frustum."""
        mat = self.data.cam_xmat[cam].reshape(3, 3)
        v = self.data.geom_xpos[self.cull] - self.data.cam_xpos[cam]
        f, x, y = v @ -mat[:, 2], v @ mat[:, 0], v @ mat[:, 1]
        tv = np.tan(np.radians(self.model.cam_fovy[cam]) / 2)
        th = tv * self.width / self.height
        rb = self.rbound
        far = self.model.vis.map.zfar * self.model.stat.extent
        tiny = rb * (self.height / 2) < 0.4 * tv * np.maximum(f, 1e-6)   # under half a pixel across
        out = (f < -rb) | (f > far + rb) | (np.abs(x) - f * th > rb * np.sqrt(1 + th * th)) \
            | (np.abs(y) - f * tv > rb * np.sqrt(1 + tv * tv)) | tiny
        return self.cull[out]

    def render(self, camera: str, sky: np.ndarray | None = None) -> np.ndarray:
        """The RGB frame; ``sky`` (one colour per row) is painted where nothing was drawn."""
        ctx = self._draw(camera)
        out = np.empty((self.height, self.width, 3), dtype=np.uint8)
        self.mujoco.mjr_readPixels(out, None, self.rect, ctx)
        frame = np.ascontiguousarray(out[::-1])
        if sky is not None:  # only rows above the horizon can show sky (the floor reaches past the world)
            rows = min(len(sky), self.height)
            if self._sky is None or self._sky[0] is not sky:   # the sky's rows as an image, kept while it lasts
                self._sky = (sky, np.ascontiguousarray(np.broadcast_to(sky[:rows, None, :], (rows, self.width, 3))))
            top = frame[:rows]
            empty = (top[..., 0] | top[..., 1] | top[..., 2]) == 0
            # 3x cheaper than writing the empty pixels by index, 2x cheaper than a masked copy
            np.putmask(top, np.repeat(empty, 3, axis=1).reshape(top.shape), self._sky[1])
        return frame

    def depth(self, camera: str) -> np.ndarray:
        """Metres from the camera plane, ``(H, W) float32`` (the far plane where nothing is hit)."""
        ctx = self._draw(camera)
        z = np.empty((self.height, self.width), dtype=np.float32)
        self.mujoco.mjr_readPixels(None, z, self.rect, ctx)
        extent = self.model.stat.extent
        near, far = self.model.vis.map.znear * extent, self.model.vis.map.zfar * extent
        return np.ascontiguousarray((near / (1.0 - z * (1.0 - near / far)))[::-1]).astype(np.float32)

    def segmentation(self, camera: str) -> np.ndarray:
        """Per-pixel labels, ``(H, W) int16``, from ``labels`` by model geom (-1: no geom, the sky)."""
        mujoco = self.mujoco
        ctx = self._draw(camera, segment=True)
        rgb = np.empty((self.height, self.width, 3), dtype=np.uint8)
        mujoco.mjr_readPixels(rgb, None, self.rect, ctx)
        ids = rgb[::-1].astype(np.int32)
        segid = ids[..., 0] + ids[..., 1] * 256 + ids[..., 2] * 65536 - 1
        table = np.full(self.scene.ngeom + 1, -1, dtype=np.int16)
        for i in range(self.scene.ngeom):
            g = self.scene.geoms[i]
            if g.objtype == mujoco.mjtObj.mjOBJ_GEOM and self.labels is not None:
                table[i] = self.labels[g.objid]
        segid[(segid < 0) | (segid >= self.scene.ngeom)] = self.scene.ngeom
        return table[segid]
