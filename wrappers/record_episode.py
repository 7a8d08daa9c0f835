"""`RecordEpisode`: write each episode as a captioned GIF/MP4 plus a JSON that replays it exactly."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from PIL import Image

from gymv.wrappers._base_env import constructor_kwargs, registered_id, vision_base
from gymv_envs.core import parsing
from gymv_envs.core.canvas import INK, draw_text, fit_text_size, new_frame
from gymv_envs.core.jsonable import jsonable

FORMATS = ("gif", "mp4")
CAPTION_BG = (245, 245, 240)


def _mp4_available() -> bool:
    has_imageio = importlib.util.find_spec("imageio") is not None
    return has_imageio and any(importlib.util.find_spec(m) is not None for m in ("imageio_ffmpeg", "av"))


def _from_json(value: Any, space: gym.Space) -> Any:
    """An action read back from JSON, in the form the action space uses."""
    if value is None:
        return None
    if isinstance(space, spaces.Box):
        return np.asarray(value, dtype=space.dtype)
    if isinstance(space, spaces.Discrete) and isinstance(value, int):
        return np.int64(value)
    if isinstance(space, spaces.Dict) and isinstance(value, dict):
        return {k: _from_json(v, space[k]) if k in space.spaces else v for k, v in value.items()}
    return value


def frame_digest(frame: np.ndarray) -> str:
    """SHA-256 of a frame's shape and pixels: equal digests mean identical frames."""
    return hashlib.sha256(repr(frame.shape).encode() + np.ascontiguousarray(frame).tobytes()).hexdigest()


def action_text(env: gym.Env, action: Any) -> str:
    """A short human-readable form of an env action (the caption under a recorded frame)."""
    base = env.unwrapped
    space = base.action_space
    if action is None:
        return "(unreadable action)"
    try:
        if isinstance(space, spaces.Discrete) and np.ndim(action) == 0 and not isinstance(action, str):
            a = int(action)
            if getattr(base, "action_names", ()) and 0 <= a < len(base.action_names):
                return base.action_names[a]
            if getattr(base, "answer_format", None) == "mcq" and 0 <= a < len(parsing.LETTERS):
                return f"answer {parsing.LETTERS[a]}"
            return str(a)
        if isinstance(space, spaces.Box) and getattr(base, "action_fields", ()):
            values = np.asarray(action, dtype=float).ravel()
            return ", ".join(f"{f[0]}={v:.3g}" for f, v in zip(base.action_fields, values))
    except (TypeError, ValueError):
        pass
    text = " ".join(str(action).split())
    return text if len(text) <= 80 else text[:77] + "..."


class RecordEpisode(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Record each episode as a GIF (or MP4) with the action drawn under each frame, plus a JSON
    of the env id, its arguments, the seed and the actions, from which `replay` rebuilds the
    episode frame for frame.

    Frames are the env's own rendered frames (``env.unwrapped.render()``, so the env needs
    ``render_mode="rgb_array"``, the default), whatever the wrappers around it do; actions are
    those this wrapper passes down, so put it below `TextActions` (the recommended stacks do).
    Each episode is reset with an explicit seed, drawn by the wrapper (from the first seed it was
    given) when the caller passes none, so every recorded episode can be replayed. The JSON holds
    each frame's SHA-256 and `replay` checks them. An episode is written when it ends, or at the
    next ``reset``/``close`` if it was cut short. GIFs use pillow; MP4 needs imageio with
    imageio-ffmpeg or PyAV. Frames are kept in memory until the episode is written.

    Args:
        env: a GymV env (or a stack over one).
        folder: where to write ``<name_prefix>-<episode>.gif|mp4`` and ``.json``; created if needed.
        format: ``"gif"`` (default) or ``"mp4"``.
        fps: frames per second of the video (default 4).
        name_prefix: start of the file names (default ``"episode"``).
        captions: draw the action under each frame (default True).

    Example:
        >>> import gymnasium as gym, tempfile
        >>> import gymv_envs
        >>> from gymv.wrappers import RecordEpisode, replay
        >>> folder = tempfile.mkdtemp()
        >>> env = RecordEpisode(gym.make("GymV/SlidingPuzzle-v1", obs_size=(48, 48)), folder)
        >>> _ = env.reset(seed=3)
        >>> for _ in range(3):
        ...     _ = env.step(env.unwrapped.oracle_action())
        >>> env.close()
        >>> [p.name for p in env.written]
        ['episode-0000.json']
        >>> len(replay(env.written[0]))  # raises if a replayed frame differs
        4
    """

    def __init__(self, env: gym.Env, folder: str | os.PathLike, format: str = "gif", fps: float = 4,
                 name_prefix: str = "episode", captions: bool = True) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, folder=folder, format=format, fps=fps,
                                                 name_prefix=name_prefix, captions=captions)
        base = vision_base(env, "RecordEpisode")   # first: Gymnasium before 1.4 only asserts
        gym.Wrapper.__init__(self, env)
        if format not in FORMATS:
            raise ValueError(f"invalid format={format!r}; valid values: {', '.join(map(repr, FORMATS))}")
        if format == "mp4" and not _mp4_available():
            raise ValueError("format='mp4' needs imageio with imageio-ffmpeg or av (pip install imageio[ffmpeg]); "
                             "valid values here: 'gif'")
        if isinstance(fps, bool) or not isinstance(fps, (int, float, np.integer, np.floating)) or not 0 < fps <= 240:
            raise ValueError(f"invalid fps={fps!r}; valid values: a number in (0, 240]")
        if not isinstance(name_prefix, str) or not name_prefix or os.sep in name_prefix:
            raise ValueError(f"invalid name_prefix={name_prefix!r}; valid values: a non-empty file name without '{os.sep}'")
        if base.render_mode != "rgb_array":
            raise ValueError(f"RecordEpisode records rendered frames: make the env with render_mode='rgb_array' "
                             f"(got {base.render_mode!r})")
        self.folder = self._writable_folder(folder)
        self.format, self.fps, self.name_prefix, self.captions = format, float(fps), name_prefix, bool(captions)
        self.env_id = registered_id(base)
        self.env_kwargs = jsonable(constructor_kwargs(base))
        try:
            json.dumps(self.env_kwargs)
        except TypeError as err:
            raise TypeError(f"RecordEpisode writes the env's arguments as JSON; they are not serialisable: {err}") from None
        self.entry_point = f"{type(base).__module__}:{type(base).__qualname__}"
        self.written: list[Path] = []
        self._episode = 0
        self._seeds: np.random.Generator | None = None
        self._log: dict[str, Any] | None = None
        self._frames: list[np.ndarray] = []

    @staticmethod
    def _writable_folder(folder: Any) -> Path:
        if not isinstance(folder, (str, os.PathLike)):
            raise TypeError(f"folder must be a path (str or os.PathLike); got {type(folder).__name__}")
        path = Path(folder)
        try:
            path.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=path, prefix=".write-test-"):
                pass
        except OSError as err:
            raise ValueError(f"cannot write recordings to {str(path)!r} ({err.strerror or err}); "
                             "valid values: a folder that exists or can be created, and is writable") from None
        return path

    # ---------------------------------------------------------------- recording
    def _capture(self, caption: str) -> None:
        frame = self.env.unwrapped.render()
        self._log["frame_sha256"].append(frame_digest(frame))
        self._frames.append(self._captioned(frame, caption) if self.captions else frame)

    @staticmethod
    def _captioned(frame: np.ndarray, caption: str) -> np.ndarray:
        h, w = frame.shape[:2]
        strip = max(14, h // 8)
        out = new_frame(h + strip, w, CAPTION_BG)
        out[:h] = frame
        size = fit_text_size(caption, max(4, w - 6), strip - 3)
        draw_text(out, caption, (3, h + strip / 2), size, INK, anchor="lm")
        return out

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._write()
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        elif self._seeds is None:
            self._seeds = np.random.default_rng()
        episode_seed = int(seed) if seed is not None else int(self._seeds.integers(2**31 - 1))
        obs, info = self.env.reset(seed=episode_seed, options=options)
        self._log = {"env_id": self.env_id, "entry_point": self.entry_point, "kwargs": self.env_kwargs,
                     "seed": episode_seed, "options": jsonable(options), "actions": [], "rewards": [],
                     "frame_sha256": [], "terminated": False, "truncated": False, "success": False}
        self._frames = []
        self._capture("reset")
        return obs, info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        if self._log is not None:
            self._log["actions"].append(jsonable(action))
            self._log["rewards"].append(float(reward))
            self._log.update(terminated=bool(terminated), truncated=bool(truncated), success=bool(info.get("success")))
            self._capture(f"{len(self._log['actions'])}: {action_text(self.env, action)}")
            if terminated or truncated:
                self._write()
        return obs, reward, terminated, truncated, info

    def _write(self) -> None:
        if self._log is None:
            return
        stem = self.folder / f"{self.name_prefix}-{self._episode:04d}"
        video = stem.with_suffix("." + self.format)
        self._log["video"] = video.name
        self._log["fps"] = self.fps
        if self.format == "gif":
            images = [Image.fromarray(f) for f in self._frames]
            images[0].save(video, save_all=True, append_images=images[1:], duration=int(round(1000 / self.fps)), loop=0)
        else:
            imageio = importlib.import_module("imageio")
            imageio.mimwrite(video, self._frames, fps=self.fps)
        path = stem.with_suffix(".json")
        path.write_text(json.dumps(self._log, indent=1))
        self.written.append(path)
        self._episode += 1
        self._log, self._frames = None, []

    def close(self) -> None:
        self._write()
        super().close()


def replay(path: str | os.PathLike, check: bool = True) -> list[np.ndarray]:
    """Rebuild a recorded episode from its JSON and return its frames (the env's own frames).

    The env is made again from the recorded id (or entry point) and arguments, reset with the
    recorded seed and stepped with the recorded actions. With ``check=True`` (default) every
    frame's SHA-256 is compared with the recording and a mismatch raises `RuntimeError` naming
    the first differing step, so a replay that returns proves the episode is frame-identical.
    """
    try:
        log = json.loads(Path(path).read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path} is not a RecordEpisode recording (not JSON: {exc}); it may be truncated") from None
    missing = [k for k in ("kwargs", "seed", "actions", "frame_sha256") if not isinstance(log, dict) or k not in log]
    if missing or not (log.get("env_id") or log.get("entry_point")):
        raise ValueError(f"{path} is not a RecordEpisode recording (missing {', '.join(missing) or 'env_id'})")
    if log.get("env_id"):
        import gymv_envs  # noqa: F401 - registers the ids

        env = gym.make(log["env_id"], max_episode_steps=-1, disable_env_checker=True, **log["kwargs"])
    else:
        module, name = log["entry_point"].split(":")
        env = getattr(importlib.import_module(module), name)(**log["kwargs"])
    try:
        env.reset(seed=log["seed"], options=log.get("options"))
        frames = [env.unwrapped.render()]
        for action in log["actions"]:
            env.step(_from_json(action, env.unwrapped.action_space))
            frames.append(env.unwrapped.render())
    finally:
        env.close()
    if check:
        if len(frames) != len(log["frame_sha256"]):
            raise RuntimeError(f"replay made {len(frames)} frames; the recording has {len(log['frame_sha256'])}")
        for i, (frame, digest) in enumerate(zip(frames, log["frame_sha256"])):
            if frame_digest(frame) != digest:
                raise RuntimeError(f"replay diverged at frame {i} (after {i} actions) of {path}")
    return frames
