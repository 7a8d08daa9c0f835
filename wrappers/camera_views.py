"""`CameraViews`: observations from several camera views, as a Dict or one labelled tiled image."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from PIL import Image

from gymv.wrappers._base_env import rebuild_base, vision_base
from gymv_envs.core.canvas import INK, draw_text, fill, fit_text_size, new_frame

LAYOUTS = ("dict", "tiled")
WRAPPER_VIEWS = ("front", "previous")  # front: the observation; previous: the one before it
GAP, GAP_COLOUR, LABEL_BG = 2, (60, 60, 66), (235, 235, 228)


def is_rgb_space(space: gym.Space) -> bool:
    """Whether ``space`` holds (H, W, 3) uint8 frames."""
    return isinstance(space, spaces.Box) and space.dtype == np.uint8 and len(space.shape) == 3 and space.shape[2] == 3


def resize(frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``frame`` at ``size`` (height, width): a copy when the size already matches, else PIL bilinear."""
    if frame.shape[:2] == tuple(size):
        return np.array(frame, dtype=np.uint8, copy=True)
    return np.asarray(Image.fromarray(frame).resize((size[1], size[0]), Image.BILINEAR), dtype=np.uint8)


def _check_size(name: str, size: Any) -> tuple[int, int]:
    ok = (isinstance(size, (tuple, list)) and len(size) == 2
          and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and 8 <= v <= 4096 for v in size))
    if not ok:
        raise ValueError(f"invalid resolution for {name}: {size!r}; valid values: (height, width) ints from 8 to 4096")
    return int(size[0]), int(size[1])


class CameraViews(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """Observe several camera views at once, as a `Dict` or one tiled image with labelled panels.

    Views: ``"front"`` is the observation itself, ``"previous"`` the observation before it (at
    reset, the reset frame again, as Gymnasium's frame stacking pads), and any other name is
    rendered by the env's ``render_view(name)`` (e.g. ``"left"`` and ``"right"``, the peripheral
    cameras of RaycastMaze and the 3D worlds). Views the env does not offer raise `ValueError`
    naming the views it does offer.

    ``layout="dict"`` gives a `Dict` of ``(h, w, 3)`` uint8 frames (SB3's ``MultiInputPolicy``
    trains on it); ``layout="tiled"`` gives one image, the panels side by side in the order of
    ``views`` under a strip with each view's name (for VLMs that take one image).

    ``resolution`` sets each view's (height, width): one size for every view or a mapping per
    view; views default to the observation's size, and a view whose size differs from what the
    env renders is resized (bilinear). ``fov`` (degrees) and ``pitch`` set the env's camera where
    it has one, i.e. where the env takes ``fov``/``pitch`` constructor arguments: the env is
    rebuilt with them (before any episode), so they apply to all its views; an env without a
    camera raises `ValueError`.

    Args:
        env: a GymV env whose observation is an RGB frame.
        views: names of the views, in order (default ``("front", "left", "right")``).
        layout: ``"dict"`` or ``"tiled"``.
        resolution: ``None``, ``(h, w)`` or ``{view: (h, w)}``.
        fov: horizontal field of view in degrees, for envs with a camera.
        pitch: camera pitch, for envs with a camera (in the env's units).
        labels: draw the view names over the panels of a tiled image (default True).

    Example:
        >>> import gymnasium as gym
        >>> import gymv_envs
        >>> from gymv.wrappers import CameraViews
        >>> env = CameraViews(gym.make("GymV/RaycastMaze-v1", obs_size=(48, 64)), views=("left", "front", "right"))
        >>> obs, _ = env.reset(seed=0)
        >>> sorted(obs), obs["left"].shape
        (['front', 'left', 'right'], (48, 64, 3))
        >>> tiled = CameraViews(gym.make("GymV/RaycastMaze-v1", obs_size=(48, 64)), views=("front", "previous"),
        ...                     layout="tiled", fov=90)
        >>> tiled.reset(seed=0)[0].shape, tiled.unwrapped.fov
        ((60, 130, 3), 90.0)
        >>> CameraViews(gym.make("GymV/Sokoban-v1"), views=("front", "left"))
        Traceback (most recent call last):
        ...
        ValueError: Sokoban does not offer view 'left'; supported views: 'front', 'previous'
    """

    def __init__(
        self,
        env: gym.Env,
        views: Sequence[str] = ("front", "left", "right"),
        layout: str = "dict",
        resolution: tuple[int, int] | Mapping[str, tuple[int, int]] | None = None,
        fov: float | None = None,
        pitch: float | None = None,
        labels: bool = True,
    ) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, views=views, layout=layout, resolution=resolution,
                                                 fov=fov, pitch=pitch, labels=labels)
        base = vision_base(env, "CameraViews")
        name = type(base).__name__
        if isinstance(views, str) or not isinstance(views, Sequence) or not views:
            raise TypeError(f"views must be a non-empty sequence of view names, e.g. ('front', 'left'); got {views!r}")
        offered = (*WRAPPER_VIEWS, *(v for v in base.views if v not in WRAPPER_VIEWS))
        for view in views:
            if view not in offered:
                raise ValueError(f"{name} does not offer view {view!r}; supported views: {', '.join(map(repr, offered))}")
        if len(set(views)) != len(views):
            raise ValueError(f"views must not repeat a name; got {tuple(views)}")
        if layout not in LAYOUTS:
            raise ValueError(f"invalid layout={layout!r}; valid values: {', '.join(map(repr, LAYOUTS))}")
        camera = {k: v for k, v in (("fov", fov), ("pitch", pitch)) if v is not None}
        if camera:
            accepted = type(base).accepted_kwargs()
            missing = [k for k in camera if k not in accepted]
            if missing:
                raise ValueError(f"{name} has no camera setting {', '.join(missing)}: fov and pitch apply to envs "
                                 "that take them as constructor arguments (envs with a camera, e.g. RaycastMaze)")
            env = rebuild_base(env, "CameraViews", **camera)
        gym.ObservationWrapper.__init__(self, env)
        if not is_rgb_space(env.observation_space):
            raise TypeError(f"CameraViews needs (H, W, 3) uint8 frames as observations; got {env.observation_space}")
        frame_size = tuple(env.observation_space.shape[:2])
        sizes = {v: frame_size for v in views}
        if isinstance(resolution, Mapping):
            for view, size in resolution.items():
                if view not in sizes:
                    raise ValueError(f"resolution names view {view!r}, which is not among views {tuple(views)}")
                sizes[view] = _check_size(view, size)
        elif resolution is not None:
            size = _check_size("every view", resolution)
            sizes = {v: size for v in views}
        self.views, self.layout, self.sizes = tuple(views), layout, sizes
        self._previous: np.ndarray | None = None
        if layout == "dict":
            self.observation_space = spaces.Dict({v: spaces.Box(0, 255, (*sizes[v], 3), np.uint8) for v in self.views})
        else:
            self._template, self._boxes = self._layout(bool(labels))
            self.observation_space = spaces.Box(0, 255, self._template.shape, np.uint8)

    def _layout(self, labels: bool) -> tuple[np.ndarray, list[tuple[int, int]]]:
        """The tiled image's background with the labels drawn, and each panel's top-left corner."""
        height = max(h for h, _ in self.sizes.values())
        strip = max(12, round(0.1 * height)) if labels else 0
        width = sum(w for _, w in self.sizes.values()) + GAP * (len(self.views) - 1)
        template = new_frame(strip + height, width, GAP_COLOUR)
        boxes, x = [], 0
        for view in self.views:
            h, w = self.sizes[view]
            if labels:
                fill(template[:strip, x: x + w], LABEL_BG)
                size = fit_text_size(view, max(4, w - 4), strip - 2, bold=True)
                draw_text(template, view, (x + w / 2, strip / 2), size, INK, bold=True)
            boxes.append((strip, x))
            x += w + GAP
        return template, boxes

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._previous = None
        return super().reset(seed=seed, options=options)

    def observation(self, observation: np.ndarray) -> dict[str, np.ndarray] | np.ndarray:
        previous = observation if self._previous is None else self._previous
        self._previous = np.array(observation, copy=True)
        base = self.env.unwrapped
        frames = {}
        for view in self.views:
            frame = observation if view == "front" else previous if view == "previous" else base.render_view(view)
            frames[view] = resize(frame, self.sizes[view])
        if self.layout == "dict":
            return frames
        out = self._template.copy()
        for view, (y, x) in zip(self.views, self._boxes):
            h, w = self.sizes[view]
            out[y: y + h, x: x + w] = frames[view]
        return out
