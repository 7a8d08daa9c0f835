"""Headless MuJoCo rendering for world3d: one GL context per process, contexts shared by size.

Creating a GL context costs about 100 ms on a software renderer and an `MjrContext` several
milliseconds, while a world is rebuilt at every reset. Every world3d model declares the same
assets (textures, materials, meshes) in the same order, so the GPU-side resources an
`MjrContext` holds are valid for every world of one frame size: the context is made once per
(process, height, width) and reused by every env and level. Only the `MjvScene` is per model.

``MUJOCO_GL`` defaults to ``egl``; when EGL cannot start, ``osmesa`` is tried. Shadows and
multisampling are off in every world (a software renderer spends 30-50 ms a frame on them).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np


def _import_mujoco():
    os.environ.setdefault("MUJOCO_GL", "egl")
    # Mesa's software rasteriser draws on the calling thread: one core per env, and no thread
    # hand-offs (much faster under vector envs or a busy machine). Set it yourself to override.
    os.environ.setdefault("LP_NUM_THREADS", "0")
    import mujoco

    return mujoco


class _GLPool:
    """The process's GL context and its `MjrContext` per frame size (rebuilt after a fork)."""

    pid: int | None = None
    gl: Any = None
    contexts: dict[tuple[int, int], Any] = {}
    stale: list = []

    @classmethod
    def context(cls, model: Any, height: int, width: int) -> Any:
        mujoco = _import_mujoco()
        if cls.pid != os.getpid():
            cls.pid, cls.gl, cls.contexts = os.getpid(), cls._make_gl(), {}
        try:
            cls.gl.make_current()
        except Exception:  # noqa: BLE001 - someone terminated the shared EGL display (SDL does on quit)
            egl = sys.modules.get("mujoco.egl")
            if egl is not None:
                egl.EGL_DISPLAY = None
            cls.stale.append((cls.gl, cls.contexts))  # kept alive: freeing them needs their dead display
            cls.gl, cls.contexts = cls._make_gl(), {}
            cls.gl.make_current()
        key = (height, width)
        if key not in cls.contexts:
            cls.contexts[key] = mujoco.MjrContext(model, mujoco.mjtFontScale.mjFONTSCALE_50.value)
        ctx = cls.contexts[key]
        # The GL context is shared by every size: bind this size's offscreen framebuffer at every
        # render, or a render after another size's draws into that size's (smaller) buffer and
        # reads back pixels that were never drawn.
        mujoco.mjr_setBuffer(mujoco.mjtFramebuffer.mjFB_OFFSCREEN.value, ctx)
        return ctx

    @staticmethod
    def _make_gl() -> Any:
        """A GL context from ``MUJOCO_GL`` (default ``egl``), falling back to ``osmesa``."""
        _import_mujoco()
        import importlib

        wanted = os.environ.get("MUJOCO_GL", "egl").lower()
        for backend in dict.fromkeys((wanted, "osmesa")):
            try:
                module = importlib.import_module(f"mujoco.{backend}")
                return module.GLContext(64, 64)
            except Exception as exc:  # noqa: BLE001 - try the next backend
                error = exc
        raise RuntimeError(f"world3d could not start MuJoCo rendering (MUJOCO_GL={wanted}, osmesa): {error}")


class WorldRenderer:
    """Renders one compiled world from its named cameras at a fixed frame size."""

    def __init__(self, xml: str, height: int, width: int) -> None:
        mujoco = _import_mujoco()
        self.mujoco = mujoco
        self.model = mujoco.MjModel.from_xml_string(xml)
        self.data = mujoco.MjData(self.model)
        self.height, self.width = height, width
        self.scene = mujoco.MjvScene(self.model, maxgeom=self.model.ngeom + 16)
        self.option = mujoco.MjvOption()
        self.camera = mujoco.MjvCamera()
        self.camera.type = mujoco.mjtCamera.mjCAMERA_FIXED
        self.rect = mujoco.MjrRect(0, 0, width, height)
        self.catmask = mujoco.mjtCatBit.mjCAT_ALL.value
        self.cameras = {mujoco.mj_id2name(self.model, mujoco.mjtObj.mjOBJ_CAMERA, i): i for i in range(self.model.ncam)}
        self.bodies = {mujoco.mj_id2name(self.model, mujoco.mjtObj.mjOBJ_BODY, i): i for i in range(self.model.nbody)}
        self.geoms = {mujoco.mj_id2name(self.model, mujoco.mjtObj.mjOBJ_GEOM, i): i for i in range(self.model.ngeom)}

    def mocap_id(self, body: str) -> int:
        return int(self.model.body_mocapid[self.bodies[body]])

    def render(self, camera: str) -> np.ndarray:
        mujoco = self.mujoco
        ctx = _GLPool.context(self.model, self.height, self.width)
        mujoco.mj_kinematics(self.model, self.data)
        mujoco.mj_camlight(self.model, self.data)
        self.camera.fixedcamid = self.cameras[camera]
        mujoco.mjv_updateScene(self.model, self.data, self.option, None, self.camera, self.catmask, self.scene)
        mujoco.mjr_render(self.rect, self.scene, ctx)
        out = np.empty((self.height, self.width, 3), dtype=np.uint8)
        mujoco.mjr_readPixels(out, None, self.rect, ctx)
        return np.ascontiguousarray(out[::-1])
