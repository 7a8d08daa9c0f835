"""The two recommended stacks: `for_sb3` (RL from pixels) and `for_vlm` (VLM zero-shot).

Each builds, in a fixed order, the wrappers a user of that kind needs, from Gymnasium's own
(resize, gray-scale, action rescaling, frame stacking) and this package's.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from os import PathLike

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.wrappers import GrayscaleObservation, RescaleAction, TransformObservation

from gymv.wrappers._base_env import rebuild_base, vision_base
from gymv.wrappers.camera_views import CameraViews, is_rgb_space, resize
from gymv.wrappers.frame_history import FrameHistory, check_count
from gymv.wrappers.instruction_level import InstructionLevel
from gymv.wrappers.pixels_only import PixelsOnly
from gymv.wrappers.record_episode import RecordEpisode
from gymv.wrappers.reward_clip import RewardClip
from gymv.wrappers.step_budget import StepBudget
from gymv.wrappers.text_actions import TextActions


def _remake(cls: type, env: gym.Env, kwargs: dict) -> gym.Env:
    return cls(env, **kwargs)


class _PickleByArgs:
    """Mixin for Gymnasium wrappers that hold closures (so do not pickle) and no state: pickled as
    their inner env plus their recorded constructor arguments, and rebuilt from them."""

    def __reduce__(self):
        return _remake, (type(self), self.env, self._saved_kwargs)


class _RescaleAction(_PickleByArgs, RescaleAction):
    """Gymnasium's `RescaleAction`, picklable."""


class _GrayscaleObservation(_PickleByArgs, GrayscaleObservation):
    """Gymnasium's `GrayscaleObservation`, picklable."""


def _made(env: gym.Env | str, what: str, **make_kwargs) -> gym.Env:
    if isinstance(env, str):
        import gymv_envs  # noqa: F401 - registers the ids

        return gym.make(env, **{k: v for k, v in make_kwargs.items() if v is not None})
    vision_base(env, what)
    return env


def for_sb3(
    env: gym.Env | str,
    *,
    obs_size: tuple[int, int] | None = (84, 84),
    grayscale: bool = False,
    frame_stack: int = 4,
    max_steps: int | None = None,
    reward_clip: tuple[float, float] | None = (-1.0, 1.0),
    normalize_actions: bool = True,
    text_in_image: bool = True,
) -> gym.Env:
    """The "RL with SB3" stack: a single env ready for ``PPO("CnnPolicy", ...)`` and vector envs.

    A policy from pixels sees only the image, so the env draws what its instruction adds (the goal,
    the question, the lettered options) into the frame: ``text_in_image=True`` (given an env made
    without it, the env is rebuilt with it).

    Order: `StepBudget` -> `RewardClip` -> a resize with Gymnasium's ``TransformObservation``
    (bilinear, PIL; only when the frame is not already ``obs_size``: given an id, the env is made
    natively at ``obs_size``; Gymnasium's ``ResizeObservation`` would need OpenCV) ->
    ``GrayscaleObservation`` (optional, keeps a channel axis) -> `FrameHistory` with
    ``output="channels"`` (``(H, W, C * frame_stack)``, as SB3's ``VecFrameStack``) ->
    ``RescaleAction`` to ``[-1, 1]`` for Box actions.

    Args:
        env: a GymV env or an id (made at ``obs_size``).
        obs_size: (height, width) of the frames, or ``None`` to keep the env's.
        grayscale: convert frames to one gray channel.
        frame_stack: frames per observation (1: no stacking).
        max_steps: step budget (``None``: the id's registered budget).
        reward_clip: ``(lo, hi)`` for `RewardClip`, or ``None`` for raw rewards.
        normalize_actions: rescale Box actions to ``[-1, 1]``.
        text_in_image: draw the instruction's task information into the frames.

    Example:
        >>> import gymv_envs
        >>> from gymv.wrappers import for_sb3
        >>> env = for_sb3("GymV/Sokoban-v1", obs_size=(48, 48), frame_stack=2)
        >>> env.observation_space.shape, env.action_space
        ((48, 48, 6), Discrete(4))
        >>> for_sb3("GymV/MazePath-v1")
        Traceback (most recent call last):
        ...
        TypeError: for_sb3 needs Discrete or Box actions; MazePath has Text actions (single-turn ids give Discrete answers with answer_format='mcq')
    """
    frame_stack = check_count("frame_stack", frame_stack)
    env = _made(env, "for_sb3", obs_size=obs_size, text_in_image=text_in_image)
    if vision_base(env, "for_sb3").text_in_image != bool(text_in_image):
        env = rebuild_base(env, "for_sb3", text_in_image=bool(text_in_image))
    if not isinstance(env.action_space, (spaces.Discrete, spaces.Box)):
        hint = " (single-turn ids give Discrete answers with answer_format='mcq')" if isinstance(
            env.action_space, spaces.Text) else ""
        raise TypeError(f"for_sb3 needs Discrete or Box actions; {type(env.unwrapped).__name__} has "
                        f"{type(env.action_space).__name__} actions{hint}")
    env = StepBudget(env, max_steps)
    if reward_clip is not None:
        env = RewardClip(env, *reward_clip)
    if obs_size is not None and tuple(env.observation_space.shape[:2]) != tuple(obs_size):
        # Gymnasium's TransformObservation with a PIL resize (its ResizeObservation needs OpenCV)
        h, w = obs_size
        space = gym.spaces.Box(0, 255, (h, w, *env.observation_space.shape[2:]), np.uint8)
        env = TransformObservation(env, functools.partial(resize, size=(h, w)), space)
    if grayscale:
        env = _GrayscaleObservation(env, keep_dim=True)
    if frame_stack > 1:
        env = FrameHistory(env, frame_stack, output="channels")
    if normalize_actions and isinstance(env.action_space, spaces.Box):
        shape = env.action_space.shape
        env = _RescaleAction(env, np.full(shape, -1, np.float32), np.full(shape, 1, np.float32))
    return env


def for_vlm(
    env: gym.Env | str,
    *,
    views: Sequence[str] = ("front",),
    history: int = 1,
    layout: str = "tiled",
    on_unparseable: str = "noop",
    max_steps: int | None = None,
    instruction_level: str | None = None,
    record: str | PathLike | None = None,
    resolution: tuple[int, int] | Mapping[str, tuple[int, int]] | None = None,
    fov: float | None = None,
    pitch: float | None = None,
    obs_size: tuple[int, int] | None = None,
    feedback: bool = True,
) -> gym.Env:
    """The "VLM zero-shot" stack: step with the model's reply, observe one image (or a few).

    Order: `InstructionLevel` (when given) -> `StepBudget` -> `PixelsOnly` (when ``feedback`` is
    False) -> `RecordEpisode` (when ``record``
    names a folder) -> `CameraViews` (when ``views`` is more than ``("front",)``; one tiled,
    labelled image by default) -> `FrameHistory` with ``output="sequence"`` (when
    ``history > 1``: a tuple of the last frames, oldest first) -> `TextActions`.

    The prompt for each turn is ``env.unwrapped.instruction`` (also ``info["instruction"]`` at
    reset) plus ``info["feedback"]``; ``env.step(reply)`` takes the raw reply.

    Args:
        env: a GymV env or an id (made at ``obs_size``, default the env's own).
        views: camera views (see `CameraViews`); ``("front",)`` is the plain frame.
        history: how many recent observations to show (1: only the current one).
        layout: ``"tiled"`` (one image) or ``"dict"`` for several views.
        on_unparseable: ``"noop"``, ``"repeat"`` or ``"terminate"`` (see `TextActions`).
        max_steps: step budget (``None``: the id's registered budget).
        instruction_level: ``"goal"``, ``"step"`` or ``"visual"`` where the env has levels.
        record: a folder to record episodes to (GIF + replayable JSON), or ``None``.
        resolution, fov, pitch: passed to `CameraViews`.
        obs_size: frame size when ``env`` is an id.
        feedback: ``False`` is pixel-only play: no ``info["feedback"]`` or ``state_text`` from the
            env (`PixelsOnly`); the instruction and the action grammar stay.

    Example:
        >>> import gymv_envs
        >>> from gymv.wrappers import for_vlm
        >>> env = for_vlm("GymV/RaycastMaze-v1", views=("left", "front", "right"), history=2, obs_size=(48, 48))
        >>> frames, info = env.reset(seed=0)
        >>> len(frames), frames[-1].shape
        (2, (60, 148, 3))
        >>> _, _, _, _, info = env.step("Action: turn_left")
        >>> info["parsed"], info["steps_left"]
        (True, 299)
    """
    history = check_count("history", history)
    env = _made(env, "for_vlm", obs_size=obs_size)
    if instruction_level is not None:
        env = InstructionLevel(env, instruction_level)
    env = StepBudget(env, max_steps)
    if not feedback:
        env = PixelsOnly(env)
    if record is not None:
        env = RecordEpisode(env, record)
    if tuple(views) != ("front",):
        if not is_rgb_space(env.observation_space):
            raise TypeError(f"views need RGB frame observations; got {env.observation_space}")
        env = CameraViews(env, views, layout=layout, resolution=resolution, fov=fov, pitch=pitch)
    elif fov is not None or pitch is not None or resolution is not None:
        env = CameraViews(env, ("front",), layout="dict" if layout == "dict" else "tiled", resolution=resolution,
                          fov=fov, pitch=pitch, labels=False)
    if history > 1:
        env = FrameHistory(env, history, output="sequence")
    return TextActions(env, on_unparseable)
