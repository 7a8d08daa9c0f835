"""`VisionEnv`, the base of every GymV task, and its two protocol bases.

The base owns everything that is not particular to a task: argument checks, spaces,
reset/step bookkeeping, the info keys, the VLM protocol (``instruction``, ``action_prompt``,
``parse_action``), rendering plumbing (copies, human window, views) and pickling. A task
implements a handful of hooks:

``_configure()``         derive sizes etc. from the constructor arguments (optional)
``_generate(rng)``       build a new level from the generator (all randomness here)
``_draw()``              the current frame, ``(H, W, 3) uint8`` at ``self.obs_size``
``_task_text()``         the task and its rules, for a model that only sees the image
multi-turn: ``_apply(action) -> Outcome``, ``oracle_action()``, ``action_names`` or
``action_fields``; single-turn: ``_solve``, ``_parse_answer``, ``_check``, ``_format``,
``_near_misses`` (see `SingleTurnEnv`).
"""

from __future__ import annotations

import inspect
import string
import sys
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gymv_envs.core import captions, parsing
from gymv_envs.core.canvas import GridPainter
from gymv_envs.core.display import check_display
from gymv_envs.core.registry import require_extras
from gymv_envs.core.rng import level_generator

RENDER_MODES = ("rgb_array", "human")
ANSWER_FORMATS = ("open", "mcq")
INSTRUCTION_LEVELS = ("goal", "step", "visual")
TEXT_CHARSET = string.printable
#: The characters a state text may use (``info["state_text"]``, the observations of `StateText`): printable
#: ASCII, accented Latin letters and Latin-1 signs (U+00A0-U+024F, with × and ÷), typographic punctuation and
#: spaces, and the symbols tasks and web pages write (minus, logical and/or, card suits, stars, arrows). The
#: conformance suite checks every id's state text against it.
STATE_TEXT_CHARSET = TEXT_CHARSET + "".join(map(chr, range(0xA0, 0x250))) + (
    "\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u2022\u202f\u203a\u20ac"  # – — ‘ ’ “ ” … • (narrow space) › €
    "\u2190\u2192\u2212\u2227\u2228\u25b2\u25be\u2605\u2606\u2660\u2663\u2665\u2666")  # ← → − ∧ ∨ ▲ ▾ ★ ☆ ♠ ♣ ♥ ♦
MAX_OBS_SIDE = 4096


@dataclass
class Outcome:
    """What one valid step did, as reported by a task's ``_apply``."""

    reward: float = 0.0
    terminated: bool = False
    success: bool = False
    invalid: bool = False
    feedback: str = ""


def check_number(name: str, value: Any, lo: float, hi: float, unit: str = "") -> float:
    """``value`` as a float if it is a finite real number in [lo, hi], else a `ValueError` naming the range."""
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    if not ok or not np.isfinite(value) or not lo <= value <= hi:
        raise ValueError(f"invalid {name}={value!r}; valid values: {lo:g} to {hi:g}{unit}")
    return float(value)


def check_choice(name: str, value: Any, valid: tuple) -> Any:
    """``value`` if it is one of ``valid``, else a `ValueError` naming the valid values."""
    if isinstance(value, bool) or value not in valid:
        raise ValueError(f"invalid {name}={value!r}; valid values: {', '.join(map(repr, valid))}")
    return value


class VisionEnv(gym.Env):
    """Base class of every GymV environment (see the module docstring for the hooks)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": 8}
    protocol: ClassVar[str] = "multi_turn"
    difficulties: ClassVar[tuple[int, ...]] = (0, 1, 2)
    default_obs_size: ClassVar[tuple[int, int]] = (512, 512)
    min_obs_size: ClassVar[tuple[int, int]] = (32, 32)
    action_modes: ClassVar[tuple[str, ...]] = ("discrete",)
    answer_formats: ClassVar[tuple[str, ...]] = ()
    instruction_levels: ClassVar[tuple[str, ...]] = ()
    # The values of a task's ``question`` constructor argument, its default first (tasks that ask
    # one question leave it empty); `describe` lists them, the constructor checks them and sets
    # ``self.question`` (None where there are none) before ``_configure``.
    questions: ClassVar[tuple[str, ...]] = ()
    views: ClassVar[tuple[str, ...]] = ("front",)
    extras: ClassVar[tuple[str, ...]] = ()
    # Attributes that are rebuilt on demand and left out of pickles (windows, caches).
    transient_attrs: ClassVar[tuple[str, ...]] = ("_painter", "_window", "_clock")
    # Discrete ids with hundreds of action names (cell x move) read only the last ``reply_tail``
    # characters of a reply: matching every name over a megabyte costs seconds, and the prompt
    # asks for the action on the last line.
    reply_tail: ClassVar[int | None] = None
    # Whether ``oracle_action`` is cheap enough (well under a millisecond or so) to be called thousands of
    # times from copies of the env, as the offline VQA export does to prove wrong options worse.
    fast_oracle: ClassVar[bool] = True

    action_names: tuple[str, ...] = ()
    # Box actions: (name, low, high, description) per field.
    action_fields: tuple[tuple[str, float, float, str], ...] = ()

    def __init__(
        self,
        difficulty: int = 0,
        obs_size: tuple[int, int] | list[int] | None = None,
        render_mode: str | None = "rgb_array",
        action_mode: str | None = None,
        instruction_level: str | None = None,
        question: str | None = None,
        text_in_image: bool = False,
        **unknown: Any,
    ) -> None:
        if unknown:
            raise ValueError(
                f"{type(self).__name__} got unknown argument(s) {sorted(unknown)}; "
                f"valid arguments: {', '.join(self.accepted_kwargs())}"
            )
        require_extras(self.extras, type(self).__name__)
        self.difficulty = check_choice("difficulty", difficulty, self.difficulties)
        self.frame_size = self._check_obs_size(self.default_obs_size if obs_size is None else obs_size)
        if not isinstance(text_in_image, (bool, np.bool_)):
            raise ValueError(f"invalid text_in_image={text_in_image!r}; valid values: True, False")
        self.text_in_image = bool(text_in_image)
        # What the env draws itself: the whole frame, or what the caption strip and options panel leave.
        self.obs_size = self._picture_size()
        self.render_mode = check_choice("render_mode", render_mode, (*RENDER_MODES, None))
        if self.render_mode == "human":
            check_display(f"render_mode='human' (a window for {type(self).__name__})",
                          "for frames as arrays use render_mode='rgb_array', or set SDL_VIDEODRIVER=dummy to open no window")
        # Only None means "unset": a falsy value ([], "", 0) is checked like any other, not read as the default.
        if action_mode is not None and not self.action_modes:
            raise ValueError(f"{type(self).__name__} has one way to act (its action space); leave action_mode unset")
        self.action_mode = (
            check_choice("action_mode", self.action_modes[0] if action_mode is None else action_mode, self.action_modes)
            if self.action_modes else None
        )
        if instruction_level is not None and not self.instruction_levels:
            raise ValueError(f"{type(self).__name__} has no instruction levels; leave instruction_level unset")
        self.instruction_level = (
            check_choice("instruction_level", self.instruction_levels[0] if instruction_level is None else instruction_level,
                         self.instruction_levels)
            if self.instruction_levels else None
        )
        if question is not None and not self.questions:
            raise ValueError(f"{type(self).__name__} asks one question; leave question unset")
        self.question = (
            check_choice("question", self.questions[0] if question is None else question, self.questions)
            if self.questions else None
        )
        self._configure()
        h, w = self.frame_size
        self.observation_space = spaces.Box(0, 255, (h, w, 3), np.uint8)
        self.action_space = self._make_action_space()
        self._started = False
        self._return = 0.0
        self._frame: np.ndarray | None = None
        self._painter: GridPainter | None = None
        self._window = None
        self._clock = None

    # ----------------------------------------------------------------- construction
    @classmethod
    def accepted_kwargs(cls) -> list[str]:
        """Names of every constructor argument this class accepts."""
        names: list[str] = []
        for klass in cls.__mro__:
            init = klass.__dict__.get("__init__")
            if init is None or klass is gym.Env or klass is object:
                continue
            for p in inspect.signature(init).parameters.values():
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != "self" and p.name not in names:
                    names.append(p.name)
        return names

    @classmethod
    def validate_kwargs(cls, kwargs: dict[str, Any]) -> None:
        bad = sorted(set(kwargs) - set(cls.accepted_kwargs()))
        if bad:
            raise ValueError(f"{cls.__name__} got unknown argument(s) {bad}; valid arguments: {', '.join(cls.accepted_kwargs())}")

    def _check_obs_size(self, obs_size: Any) -> tuple[int, int]:
        lo_h, lo_w = self.min_obs_size
        ok = (
            isinstance(obs_size, (tuple, list)) and len(obs_size) == 2
            and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in obs_size)
            and lo_h <= obs_size[0] <= MAX_OBS_SIDE and lo_w <= obs_size[1] <= MAX_OBS_SIDE
        )
        if not ok:
            raise ValueError(
                f"invalid obs_size={obs_size!r}; expected (height, width) integers with "
                f"{lo_h} <= height <= {MAX_OBS_SIDE} and {lo_w} <= width <= {MAX_OBS_SIDE}"
            )
        return int(obs_size[0]), int(obs_size[1])

    def _configure(self) -> None:
        """Hook: derive task settings from the constructor arguments."""

    # ----------------------------------------------------------------- text in the image
    @classmethod
    def has_caption(cls) -> bool:
        """Whether the task's instruction tells something the picture does not (it overrides `_caption`)."""
        return cls._caption is not VisionEnv._caption

    def _caption(self) -> list[captions.CaptionPart] | None:
        """Hook: what the instruction adds to the picture, for ``text_in_image=True`` (see `core.captions`):
        strings and ``(shape, colour)`` icons, e.g. ``["Goal:", ("heart", "cyan"), "cyan heart"]``.
        Tasks whose instruction is the same for every level leave it alone."""
        return None

    def _panel_options(self) -> list[str] | None:
        """The lettered options shown below the picture (single-turn ``mcq`` with ``text_in_image``)."""
        return None

    def _panel_rows(self) -> int:
        return 0

    def _picture_size(self) -> tuple[int, int]:
        H, W = self.frame_size
        if not self.text_in_image:
            return H, W
        top = captions.caption_height(H) if self.has_caption() else 0
        rows = self._panel_rows()
        bottom = captions.panel_height(H, rows) if rows else 0
        inner = (H - top - bottom, W)
        if inner[0] < self.min_obs_size[0]:
            need = self.min_obs_size[0] + top + bottom
            raise ValueError(f"invalid obs_size={self.frame_size!r} with text_in_image=True: the picture would be "
                             f"{inner[0]} px high; use a height of at least {need}")
        return inner

    def _full_frame(self, picture: np.ndarray) -> np.ndarray:
        """The observation around the env's own picture: as it is, or with the caption and options."""
        if not self.text_in_image:
            return picture
        parts = (self._caption() or []) if self.has_caption() else None
        return captions.compose(picture, self.frame_size, parts, self._panel_options(), parsing.LETTERS)

    def _make_action_space(self) -> spaces.Space:
        if self.action_fields:
            low = np.array([f[1] for f in self.action_fields], dtype=np.float32)
            high = np.array([f[2] for f in self.action_fields], dtype=np.float32)
            return spaces.Box(low, high, dtype=np.float32)
        if not self.action_names:
            raise TypeError(f"{type(self).__name__} must define action_names or action_fields")
        return spaces.Discrete(len(self.action_names))

    # ----------------------------------------------------------------- task hooks
    def _generate(self, rng: np.random.Generator) -> None:
        raise NotImplementedError

    def _draw(self) -> np.ndarray:
        raise NotImplementedError

    def _task_text(self) -> str:
        raise NotImplementedError

    def _apply(self, action: Any) -> Outcome:
        raise NotImplementedError

    def oracle_action(self) -> Any:
        """An action that leads to success from the current state (planner or solver)."""
        raise NotImplementedError

    def _progress(self) -> float:
        return 1.0 if self._success else 0.0

    @property
    def episode_return(self) -> float:
        """The return of the episode so far: the sum of this env's own rewards since ``reset``.

        This is what the benchmark scores (``100 * clip(return / max_return, 0, 1)``): wrappers
        that clip or shape rewards change what an agent sees, not this.
        """
        return float(self._return)

    def _answer(self) -> Any:
        """Ground truth revealed in ``info["answer"]`` once the episode has terminated."""
        return None

    def _state_text(self) -> str | None:
        return None

    # ----------------------------------------------------------------- gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is None:
            super().reset(seed=seed)
        else:  # the level's own stream, apart from an action space seeded alike
            if not (isinstance(seed, int) and 0 <= seed):  # what Gymnasium's seeding checks
                super().reset(seed=seed)  # raises its error
            # Gymnasium's reset would build its own generator from the seed only for us to replace it.
            self._np_random, self._np_random_seed = level_generator(seed), seed
        if options:
            raise ValueError(f"{type(self).__name__}.reset takes no options; got {sorted(options)}")
        self._elapsed = 0
        self._terminated = False
        self._success = False
        self._return = 0.0
        self._generate(self.np_random)
        self._after_generate()
        obs = self._observe()
        info = self._info(Outcome())
        info["instruction"] = self.instruction
        if self.render_mode == "human":
            self.render()
        self._started = True
        return obs, info

    def _after_generate(self) -> None:
        """Hook for protocol bases (multiple-choice options)."""

    def step(self, action: Any):
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before step()")
        self._elapsed += 1
        if self._terminated:
            outcome = Outcome(terminated=True, invalid=True, feedback="the episode is over; call reset()")
        else:
            coerced = self._coerce(action)
            if coerced is None:
                outcome = Outcome(invalid=True, feedback=f"invalid action {self._short(action)}; {self.action_prompt}")
            else:
                outcome = self._apply(coerced)
        if outcome.invalid and not self._terminated:
            outcome.reward = 0.0
        if outcome.success:
            self._success = True
        self._terminated = self._terminated or outcome.terminated
        self._return += float(outcome.reward)
        obs = self._observe()
        info = self._info(outcome)
        if self.render_mode == "human":
            self.render()
        return obs, float(outcome.reward), bool(self._terminated), False, info

    @staticmethod
    def _short(action: Any) -> str:
        text = repr(action)
        return text if len(text) <= 60 else text[:57] + "..."

    def _coerce(self, action: Any) -> Any:
        """The action in canonical form if it belongs to the action space, else ``None``."""
        space = self.action_space
        try:
            if isinstance(space, spaces.Discrete):
                if type(action) is int or isinstance(action, np.integer):  # what agents pass: 0.3 us, not 3
                    a, start = int(action), int(space.start)
                    return a if start <= a < start + int(space.n) else None
                if isinstance(action, (bool, np.bool_)) or isinstance(action, (str, bytes)):
                    return None
                a = np.asarray(action)
                if a.size != 1 or not np.issubdtype(a.dtype, np.integer):
                    return None
                a = int(a.reshape(()))
                return a if space.contains(a) else None
            if isinstance(space, spaces.Box):
                a = np.asarray(action, dtype=np.float32)
                if a.shape != space.shape or not np.all(np.isfinite(a)):
                    return None
                return np.clip(a, space.low, space.high)
            if isinstance(space, spaces.Text):
                return action if isinstance(action, str) and len(action) <= space.max_length else None
            return action if space.contains(action) else None
        except (TypeError, ValueError, OverflowError):
            return None

    def _observe(self) -> np.ndarray:
        frame = self._full_frame(self._draw())
        self._frame = frame
        return frame.copy() if frame.dtype == np.uint8 else np.array(frame, dtype=np.uint8)

    def _info(self, outcome: Outcome) -> dict[str, Any]:
        p = self._progress()  # clipped to [0, 1] (NaN and -0.0 read 0.0), without min/max calls: this runs every step
        info: dict[str, Any] = {
            "success": bool(self._success),
            "progress": float(p) if 0.0 < p <= 1.0 else 1.0 if p > 1.0 else 0.0,
            "invalid_action": bool(outcome.invalid),
            "feedback": outcome.feedback,
            "steps": self._elapsed,
        }
        if self._terminated:
            answer = self._answer()
            if answer is not None:
                info["answer"] = answer
        state = self._current_state_text()
        if state is not None:
            info["state_text"] = state
        return info

    def _current_state_text(self) -> str | None:
        return self._state_text()

    # ----------------------------------------------------------------- rendering
    def render(self) -> np.ndarray | None:
        if self._frame is None:
            return None
        if self.render_mode == "human":
            self._show(self._frame)
            return None
        return np.array(self._frame, copy=True)

    def render_view(self, name: str) -> np.ndarray:
        """The frame seen from camera view ``name`` (tasks with cameras add left/right by `_view`)."""
        if name not in self.views:
            raise ValueError(f"{type(self).__name__} does not offer view {name!r}; supported views: {', '.join(self.views)}")
        if self._frame is None or not self._started:
            raise gym.error.ResetNeeded("call reset() before render_view()")
        if name == "front":
            return np.array(self._frame, copy=True)
        return np.array(self._full_frame(self._view(name)), dtype=np.uint8, copy=True)

    def _view(self, name: str) -> np.ndarray:
        """Hook of tasks with cameras: the picture from view ``name`` (other than ``front``) at ``obs_size``."""
        raise NotImplementedError

    def _show(self, frame: np.ndarray) -> None:
        import os

        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        if self._window is None:
            pygame.display.init()  # display only: no audio device is opened
            self._window = pygame.display.set_mode((frame.shape[1], frame.shape[0]))
            pygame.display.set_caption(type(self).__name__)
            self._clock = pygame.time.Clock()
        surface = pygame.surfarray.make_surface(np.transpose(frame, (1, 0, 2)))
        self._window.blit(surface, (0, 0))
        pygame.event.pump()
        pygame.display.flip()
        self._clock.tick(self.metadata["render_fps"])

    def close(self) -> None:
        if self._window is not None:
            import pygame

            pygame.display.quit()
            self._window = None
            self._clock = None

    def grid_painter(
        self, rows: int, cols: int, tile: Callable[[Hashable, int, int], np.ndarray] | None, header: int = 0, **kwargs: Any
    ) -> GridPainter:
        """A `GridPainter` for this env's obs_size, kept across steps and rebuilt when the board changes size."""
        p = self._painter
        if p is None or (p.rows, p.cols, p.header) != (rows, cols, header):
            p = GridPainter(self.obs_size, rows, cols, tile, header=header, **kwargs)
            self._painter = p
        return p

    # ----------------------------------------------------------------- pickling
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        for name in self.transient_attrs:
            if name in state:
                state[name] = None
        return state

    # ----------------------------------------------------------------- VLM protocol
    @property
    def instruction(self) -> str:
        """The task, its rules and the action grammar, for a model that only sees the image."""
        return f"{self._task_text().strip()}\n\n{self.action_prompt}"

    @property
    def action_prompt(self) -> str:
        """The action grammar, generated from the action space."""
        space = self.action_space
        if isinstance(space, spaces.Box) and self.action_fields:
            fields = "\n".join(f"- {n}: a number from {lo:g} to {hi:g}; {doc}" for n, lo, hi, doc in self.action_fields)
            example = ", ".join(f"{n}={(lo + hi) / 2:g}" for n, lo, hi, _ in self.action_fields)
            return f"Each turn, reply with one action given as {len(self.action_fields)} values:\n{fields}\nEnd your reply with a line like `Action: {example}`."
        if isinstance(space, spaces.Discrete) and self.action_names:
            names = ", ".join(self.action_names)
            return f"Each turn, reply with exactly one action from: {names}.\nEnd your reply with a line like `Action: {self.action_names[0]}`."
        raise NotImplementedError

    def format_action(self, action: Any) -> str:
        """The action as a model would say it: ``parse_action(format_action(a))`` acts like ``a``."""
        if self.action_fields and isinstance(self.action_space, spaces.Box):
            return ", ".join(f"{f[0]}={float(v):.6g}" for f, v in zip(self.action_fields, np.asarray(action).ravel()))
        if self.action_names:
            return self.action_names[int(action)]
        return str(action)

    def parse_action(self, text: str) -> Any:
        """The action a free-form reply asks for, or ``None`` when it cannot be read. Never raises."""
        try:
            if not isinstance(text, str):
                return None
            if self.action_fields and isinstance(self.action_space, spaces.Box):
                sp = self.action_space
                return parsing.parse_numbers(text, [f[0] for f in self.action_fields], sp.low, sp.high)
            if self.action_names:
                if self.reply_tail is not None and len(text) > self.reply_tail:
                    text = text[-self.reply_tail:]
                return parsing.parse_choice(text, self.action_names)
            return None
        except Exception:  # noqa: BLE001 - the contract: never raises
            return None


class MultiTurnEnv(VisionEnv):
    """Base of multi-turn tasks: implement ``_generate``, ``_apply``, ``_draw``, ``_task_text``,
    ``oracle_action`` and either ``action_names`` (Discrete) or ``action_fields`` (Box)."""

    protocol: ClassVar[str] = "multi_turn"


def _holders(frame: np.ndarray) -> int:
    """``sys.getrefcount`` of ``frame`` as a function holding it in a local name sees it through this call."""
    return sys.getrefcount(frame)


def _holders_alone() -> int:
    """What `_holders` reads for an array that only the calling function's local name holds, calibrated in the
    same call pattern; 0 (nothing reads alone) where a second holder would not read more."""
    a = np.empty(1)
    alone = _holders(a)
    held = [a]
    return alone if _holders(held[0]) > alone else 0


_ALONE = _holders_alone()


def _own_frame(frame: np.ndarray) -> bool:
    """Whether ``frame`` is a writable uint8 array with memory of its own (no view of another array)."""
    return type(frame) is np.ndarray and frame.base is None and frame.dtype == np.uint8 and frame.flags.writeable


class SingleTurnEnv(VisionEnv):
    """Base of single-turn tasks: one image, one answer.

    ``answer_format="open"`` gives a `Text` action checked by the task's verifier (any valid
    answer scores); ``"mcq"`` gives ``Discrete(num_options)`` over lettered options: the
    solver's answer and hard negatives from ``_near_misses``, each verified to be wrong.

    Hooks: ``_solve() -> answer`` (the oracle's solver), ``_parse_answer(text) -> answer | None``,
    ``_check(answer) -> bool`` (judged by the rules), ``_format(answer) -> str``,
    ``_near_misses(rng) -> list[answer]`` and the class attribute ``answer_hint``.
    """

    protocol: ClassVar[str] = "single_turn"
    answer_formats: ClassVar[tuple[str, ...]] = ANSWER_FORMATS
    action_modes: ClassVar[tuple[str, ...]] = ()
    answer_hint: ClassVar[str] = "the answer"
    max_answer_length: ClassVar[int] = 2048
    _state_cache: tuple[str | None] | None = None
    _formatted: tuple[Any, str] | None = None  # (the solution, its text): the oracle's and info's answer, made once
    _spare = False  # whether ``_frame`` is the env's own copy, for the next observation to take

    def __init__(self, answer_format: str = "open", num_options: int = 4, **kwargs: Any) -> None:
        self.answer_format = check_choice("answer_format", answer_format, self.answer_formats)
        if isinstance(num_options, bool) or not isinstance(num_options, (int, np.integer)) or not 2 <= num_options <= len(parsing.LETTERS):
            raise ValueError(f"invalid num_options={num_options!r}; valid values: 2 to {len(parsing.LETTERS)}")
        self.num_options = int(num_options)
        super().__init__(**kwargs)

    # hooks
    def _solve(self) -> Any:
        raise NotImplementedError

    def _parse_answer(self, text: str) -> Any:
        raise NotImplementedError

    def _check(self, answer: Any) -> bool:
        raise NotImplementedError

    def _format(self, answer: Any) -> str:
        return str(answer)

    def _near_misses(self, rng: np.random.Generator) -> list[Any]:
        raise NotImplementedError

    # machinery
    def _observe(self) -> np.ndarray:
        # One level, one picture: the frame is drawn once, at reset (``_after_generate`` clears it). Two
        # observations need two arrays, not three: the drawn array itself goes out at reset when nothing else
        # holds it (the env keeps a copy), and the answering step hands that copy out instead of copying it
        # again; a later render() or observation draws the picture again. Otherwise each is a copy.
        frame = self._frame
        if frame is None:
            frame = self._full_frame(self._draw())
            # handed out where nothing else holds it (no task cache, attribute or view of it)
            if self.render_mode != "human" and _own_frame(frame) and _holders(frame) <= _ALONE:
                self._frame, self._spare = frame.copy(), True
                return frame
            self._frame, self._spare = frame, False
        elif self._spare:
            self._frame = None
            return frame
        return np.array(frame, dtype=np.uint8, copy=True)

    def _keep_frame(self) -> None:
        """Draw the level's picture again where the last observation took the env's copy of it."""
        if self._frame is None and self._started:
            self._frame, self._spare = self._full_frame(self._draw()), False

    def render(self) -> np.ndarray | None:
        self._keep_frame()
        return super().render()

    def render_view(self, name: str) -> np.ndarray:
        self._keep_frame()
        return super().render_view(name)

    def _panel_rows(self) -> int:
        return self.num_options if self.answer_format == "mcq" else 0

    def _panel_options(self) -> list[str] | None:
        return list(self.options) if self.answer_format == "mcq" else None

    def _make_action_space(self) -> spaces.Space:
        if self.answer_format == "mcq":
            return spaces.Discrete(self.num_options)
        return spaces.Text(max_length=self.max_answer_length, min_length=0, charset=TEXT_CHARSET)

    def _current_state_text(self) -> str | None:
        # a single-turn level does not change when it is answered: its state text is made once
        if self._state_cache is None:
            self._state_cache = (self._state_text(),)
        return self._state_cache[0]

    def _new_level(self) -> None:
        """Forget what was made once for the last level: its picture, state text and answer text (a protocol
        base that replaces `_after_generate` calls this first)."""
        self._frame = None
        self._state_cache = None
        self._formatted = None

    def _after_generate(self) -> None:
        self._new_level()
        self._solution = self._solve()
        self.options: list[str] = []
        self._correct_index = -1
        if self.answer_format != "mcq":
            return
        correct = self._format(self._solution)
        wrong: list[str] = []
        for cand in self._near_misses(self.np_random):
            text = self._format(cand)
            if text != correct and text not in wrong and not self._check(cand):
                wrong.append(text)
            if len(wrong) == self.num_options - 1:
                break
        if len(wrong) < self.num_options - 1:
            raise RuntimeError(f"{type(self).__name__}: only {len(wrong)} distinct wrong options for seed level")
        self._correct_index = int(self.np_random.integers(self.num_options))
        wrong.insert(self._correct_index, correct)
        self.options = wrong

    def _apply(self, action: Any) -> Outcome:
        if self.answer_format == "mcq":
            ok = action == self._correct_index
            letter = parsing.LETTERS[action]
            return Outcome(reward=float(ok), terminated=True, success=ok, feedback=f"answered {letter}: {'correct' if ok else 'wrong'}")
        answer = self._read(action)
        if answer is None:
            return Outcome(invalid=True, feedback=f"could not read an answer; expected {self.answer_hint}")
        ok = bool(self._check(answer))
        return Outcome(reward=float(ok), terminated=True, success=ok, feedback="correct" if ok else "wrong")

    def _read(self, text: str) -> Any:
        answer = self._try_parse(text)
        if answer is not None:  # the bare reply reads: the candidates are not needed
            return answer
        for cand in parsing.candidates(text):
            answer = self._try_parse(cand)
            if answer is not None:
                return answer
        return None

    def _try_parse(self, text: str) -> Any:
        try:
            return self._parse_answer(text)
        except Exception:  # noqa: BLE001 - a task parser error is an unreadable answer
            return None

    def _solution_text(self) -> str:
        """``_format(self._solution)``, made once per level (a grid's text can take tens of us): the oracle's
        action and the answer in info both read it. A task that sets ``_solution`` again gets its new text."""
        made = self._formatted
        if made is None or made[0] is not self._solution:
            made = self._formatted = (self._solution, self._format(self._solution))
        return made[1]

    def _answer(self) -> Any:
        if self.answer_format == "mcq":
            return f"{parsing.LETTERS[self._correct_index]}) {self.options[self._correct_index]}"
        return self._solution_text()

    def oracle_action(self) -> Any:
        if self.answer_format == "mcq":
            return self._correct_index
        return self._solution_text()

    @property
    def action_prompt(self) -> str:
        if self.answer_format == "mcq":
            letters = parsing.LETTERS[: self.num_options]
            opts = "\n".join(f"{letters[i]}) {o}" for i, o in enumerate(self.options))
            return (f"Options:\n{opts}\n\nReply with the letter of the one correct option "
                    f"({', '.join(letters)}). End your reply with a line like `Answer: {letters[0]}`.")
        return f"Give {self.answer_hint}. End your reply with a line like `Answer: <your answer>`."

    def format_action(self, action: Any) -> str:
        if self.answer_format == "mcq":
            return parsing.LETTERS[int(action)]
        return str(action)

    def parse_action(self, text: str) -> Any:
        try:
            if not isinstance(text, str):
                return None
            if self.answer_format == "mcq":
                return parsing.parse_letter(text, self.options)
            answer = self._read(text)
            if answer is None:
                return None
            out = self._format(answer)
            return out if len(out) <= self.max_answer_length else None
        except Exception:  # noqa: BLE001
            return None

