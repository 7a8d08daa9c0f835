"""Helpers shared by the wrappers: the GymV env under a stack, and rebuilding it with new arguments.

Camera settings and instruction levels are constructor arguments of GymV envs (a level is a pure
function of ``(config, seed)``), so a wrapper that changes one rebuilds the innermost env with
the same arguments plus the change, and puts it back under the wrappers already around it.
Rebuilding (rather than setting attributes on a live env) keeps every setting checked by the
env's own ``__init__`` and every derived value consistent, whatever the task derives from it.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from typing import Any

import gymnasium as gym

from gymv_envs.core.env import VisionEnv


def check_env_arg(env: Any, wrapper: str) -> None:
    """`TypeError` naming the wrapper and what was given, unless ``env`` is a `gymnasium.Env`."""
    if not isinstance(env, gym.Env):
        raise TypeError(f"{wrapper} wraps a gymnasium.Env; got {type(env).__name__}")


def vision_base(env: gym.Env, wrapper: str) -> VisionEnv:
    """The GymV env at the bottom of ``env``'s stack, or `TypeError` naming what was given."""
    check_env_arg(env, wrapper)
    base = env.unwrapped
    if not isinstance(base, VisionEnv):
        raise TypeError(f"{wrapper} needs a GymV env (a gymv_envs VisionEnv); got {type(base).__name__}")
    return base


def registered_id(base: VisionEnv) -> str | None:
    """The id the env was made from (``gym.make`` records it), or ``None``."""
    return base.spec.id if base.spec is not None else None


def constructor_kwargs(base: VisionEnv) -> dict[str, Any]:
    """The arguments the env was built with: ``gym.make`` records them in the spec; an env built
    directly falls back to its attributes named like its constructor arguments."""
    if base.spec is not None:
        return dict(base.spec.kwargs)
    return {name: getattr(base, name) for name in type(base).accepted_kwargs() if hasattr(base, name)}


def rebuild_base(env: gym.Env, wrapper: str, **overrides: Any) -> gym.Env:
    """Rebuild the GymV env under ``env`` with ``overrides`` and return the stack with it in place.

    The new env is not reset; the stack's next ``reset`` generates its level. Bad values raise the
    env's own `ValueError`, before any episode starts.
    """
    base = vision_base(env, wrapper)
    kwargs = {**constructor_kwargs(base), **overrides}
    new = type(base)(**kwargs)
    if base.spec is not None:
        new.spec = dataclasses.replace(base.spec, kwargs=kwargs)
    base.close()
    if env is base:
        return new
    inner = env
    while isinstance(inner.env, gym.Wrapper):
        inner = inner.env
    inner.env = new
    return env


def load_wrapper(spec: str) -> tuple[type, dict[str, Any]]:
    """``module:Class`` or ``module:Class{"json": "kwargs"}`` (how command lines name a wrapper) -> (class, kwargs).

    >>> load_wrapper('gymv.wrappers:StepBudget{"max_steps": 5}')
    (<class 'gymv.wrappers.step_budget.StepBudget'>, {'max_steps': 5})
    """
    path, brace, rest = spec.partition("{")
    module, sep, name = path.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"invalid wrapper {spec!r}; expected module:Class or module:Class{{json kwargs}}, "
                         "e.g. 'gymv.wrappers:CameraViews{\"views\": [\"left\", \"front\", \"right\"]}'")
    try:
        kwargs = json.loads(brace + rest) if brace else {}
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid wrapper {spec!r}: the kwargs after the class are not JSON ({exc})") from None
    if not isinstance(kwargs, dict):
        raise ValueError(f"invalid wrapper {spec!r}: the kwargs after the class must be a JSON object")
    try:
        return getattr(importlib.import_module(module), name), kwargs
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load wrapper {spec!r}: {exc}") from None
