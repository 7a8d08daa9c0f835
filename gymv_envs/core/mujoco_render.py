"""Headless MuJoCo rendering shared by the domains that render with MuJoCo (a module, no env).

Creating a GL context costs about 100 ms on a software renderer and an `MjrContext` several
milliseconds, while a model is rebuilt at every reset. The GPU-side resources an `MjrContext`
holds (textures, meshes, the offscreen framebuffer) depend only on the model's assets and frame
size, so a domain whose models all declare the same assets in the same order names them with an
``assets`` key, and the context is made once per (process, height, width, assets) and reused by
every env and level. Only the `MjvScene` is per model.

``MUJOCO_GL`` defaults to ``egl``; when EGL cannot start, ``osmesa`` is tried. Keep shadows and
multisampling off in the models (a software renderer spends 30-50 ms a frame on them).

    renderer = SceneRenderer(model, 84, 84, assets="robotics-v0")
    frame = renderer.render(data, "front")      # (84, 84, 3) uint8, a new array
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Hashable
from typing import Any

import numpy as np


def import_mujoco() -> Any:
    """``mujoco``, imported with the headless defaults (``MUJOCO_GL=egl``, single-threaded Mesa)."""
    os.environ.setdefault("MUJOCO_GL", "egl")
    # Mesa's software rasteriser draws on the calling thread: one core per env, and no thread
    # hand-offs (much faster under vector envs or a busy machine). Set it yourself to override.
    os.environ.setdefault("LP_NUM_THREADS", "0")
    import mujoco

    return mujoco


def gl_is_current(gl: Any) -> bool:
    """Whether ``gl`` (a `mujoco.egl.GLContext`) is already current on this thread. Making it
    current again is not free: Mesa's EGL spends milliseconds per call at 512x512 frames."""
    context = getattr(gl, "_context", None)
    egl = sys.modules.get("mujoco.egl")
    if context is None or egl is None or not isinstance(gl, egl.GLContext):
        return False
    current = egl.EGL.eglGetCurrentContext()
    return bool(current) and current.address == context.address


def release_at_exit(pool: threading.local) -> None:
    """Register, once per process and pool, a hook that frees the main thread's GL context and its
    `MjrContext`s at exit. Registered after MuJoCo's own hook (it terminates the EGL display; hooks run
    last-in first-out), it frees them while the display lives, where Python's teardown freed them after
    and printed an ``EGLError`` once a worker thread had rendered too."""
    import atexit

    key = (id(pool), os.getpid())
    if key in _RELEASE_HOOKS:
        return
    _RELEASE_HOOKS.add(key)

    def release() -> None:
        if pool.gl is None or pool.pid != os.getpid():   # pool's fields: the main thread's (atexit runs there)
            return
        try:
            if not gl_is_current(pool.gl):
                pool.gl.make_current()
            for ctx in pool.contexts.values():
                ctx.free()
            pool.contexts.clear()
            pool.gl.free()
        except Exception:  # noqa: BLE001 - at exit: nothing left to save
            pass
        pool.gl, pool.pid = None, None

    atexit.register(release)


_RELEASE_HOOKS: set[tuple[int, int]] = set()


class ThreadGL(threading.local):
    """A GL context per thread that renders, and its `MjrContext`s in ``contexts`` (rebuilt after a fork).
    A GL context is current on one thread at a time, so each thread has its own: envs stepped from several
    threads (the runner's thread executor, a VLM evaluation) each render on theirs. Subclasses key
    ``contexts`` as they need and may extend `_forget` and `_started`."""

    stale: list = []   # shared: contexts whose display died, kept alive (freeing them needs that display)

    def __init__(self) -> None:
        self.pid: int | None = None
        self.gl: Any = None
        self.contexts: dict[Hashable, Any] = {}

    def _forget(self) -> None:
        """Drop this thread's contexts (a new process, or a GL context remade)."""
        self.contexts = {}

    def _started(self) -> None:
        """Called once a process's first GL context of this thread is made (world3d probes the renderer)."""

    def make_current(self) -> None:
        """Make this thread's GL context current, making it first if needed, or again if its display died."""
        if self.pid != os.getpid():
            self.pid, self.gl = os.getpid(), self._make_gl()
            self._forget()
            self._started()
            release_at_exit(self)
        try:
            if not gl_is_current(self.gl):
                self.gl.make_current()
        except Exception:  # noqa: BLE001 - someone terminated the shared EGL display (SDL does on quit)
            egl = sys.modules.get("mujoco.egl")
            if egl is not None:
                egl.EGL_DISPLAY = None
            self.stale.append((self.gl, self.contexts))  # kept alive: freeing them needs their dead display
            self.gl = self._make_gl()
            self._forget()
            self.gl.make_current()

    @staticmethod
    def _make_gl() -> Any:
        """A GL context from ``MUJOCO_GL`` (default ``egl``), falling back to ``osmesa`` (``gl.backend`` says which)."""
        import_mujoco()
        import importlib

        wanted = os.environ.get("MUJOCO_GL", "egl").lower()
        for backend in dict.fromkeys((wanted, "osmesa")):
            try:
                module = importlib.import_module(f"mujoco.{backend}")
                gl = module.GLContext(64, 64)
                gl.backend = backend
                return gl
            except Exception as exc:  # noqa: BLE001 - try the next backend
                error = exc
        raise RuntimeError(f"could not start MuJoCo rendering (MUJOCO_GL={wanted}, osmesa): {error}")


class _Pool(ThreadGL):
    """Per thread, an `MjrContext` per (frame size, assets)."""

    def context(self, model: Any, height: int, width: int, assets: Hashable) -> Any:
        """The bound `MjrContext` for models with these assets at this size (made from ``model`` once)."""
        mujoco = import_mujoco()
        self.make_current()
        key = (height, width, assets)
        if key not in self.contexts:
            self.contexts[key] = mujoco.MjrContext(model, mujoco.mjtFontScale.mjFONTSCALE_50.value)
        ctx = self.contexts[key]
        # One GL context serves every size: bind this size's offscreen framebuffer at every render,
        # or a render after another size's draws into that size's (smaller) buffer and reads back
        # pixels that were never drawn.
        mujoco.mjr_setBuffer(mujoco.mjtFramebuffer.mjFB_OFFSCREEN.value, ctx)
        return ctx


GLPool = _Pool()


class SceneRenderer:
    """Renders one compiled model's data from its named cameras at a fixed frame size.

    The model must declare ``<global offwidth offheight>`` at least the frame size, and every
    model rendered with the same ``assets`` key the same textures, meshes and skins in the same
    order (materials and colours are free: they are read at every render).
    """

    def __init__(self, model: Any, height: int, width: int, assets: Hashable) -> None:
        mujoco = import_mujoco()
        self.mujoco, self.model = mujoco, model
        self.height, self.width, self.assets = height, width, assets
        self.scene = mujoco.MjvScene(model, maxgeom=model.ngeom + 16)
        self.option = mujoco.MjvOption()
        self.camera = mujoco.MjvCamera()
        self.camera.type = mujoco.mjtCamera.mjCAMERA_FIXED
        self.rect = mujoco.MjrRect(0, 0, width, height)
        self.catmask = mujoco.mjtCatBit.mjCAT_ALL.value
        self.cameras = {mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_CAMERA, i): i for i in range(model.ncam)}

    def render(self, data: Any, camera: str) -> np.ndarray:
        """The picture from ``camera`` of ``data``'s current kinematics, a new ``(H, W, 3) uint8`` array.
        ``data`` must be current (``mj_forward`` or ``mj_kinematics`` after the last change)."""
        mujoco = self.mujoco
        ctx = GLPool.context(self.model, self.height, self.width, self.assets)
        self.camera.fixedcamid = self.cameras[camera]
        mujoco.mjv_updateScene(self.model, data, self.option, None, self.camera, self.catmask, self.scene)
        mujoco.mjr_render(self.rect, self.scene, ctx)
        out = np.empty((self.height, self.width, 3), dtype=np.uint8)
        mujoco.mjr_readPixels(out, None, self.rect, ctx)
        return np.ascontiguousarray(out[::-1])
