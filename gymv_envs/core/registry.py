"""The registry: the single list of ids, and the two helpers that answer questions about it.

Every task module under ``gymv_envs.domains`` ends with ``SPECS = (TaskSpec(...), ...)``.
`register_all` imports those modules (they import optional dependencies lazily, so this is
cheap) and registers each spec with Gymnasium under a string entry point. Private helper modules
(``_name.py``) hold no specs and are not imported here: their task modules import them when needed.
"""

from __future__ import annotations

import fnmatch
import importlib
import importlib.util
import pkgutil
from typing import Any

import gymnasium as gym

from gymv_envs.core.spec import PROTOCOLS, TaskSpec

# The one table of optional dependency groups (the extras of pyproject.toml, where a test
# checks that they agree, minus ``test`` and ``all``) and the module that proves each one is
# installed.
EXTRA_MODULES = {
    "world3d": "mujoco",
    "robotics": "mujoco",
    "web": "playwright",
    "chess": "chess",
    "sb3": "stable_baselines3",
    "vlm": "json",  # the VLM agent speaks HTTP with the standard library only
    "ray": "ray",
    "vqa": "pyarrow",  # the Hugging Face parquet layout of exported question sets
    "scipy": "scipy",
    "graphs": "networkx",  # with scipy: the graph and geometry solvers of some ids
    "multiagent": "pettingzoo",  # gymv_envs.multiagent: two-player play of the board games
}

_TASKS: dict[str, TaskSpec] = {}


def extra_available(extra: str) -> bool:
    """Whether the optional dependency group ``extra`` is importable."""
    if extra not in EXTRA_MODULES:
        raise ValueError(f"unknown extra {extra!r}; valid extras: {', '.join(EXTRA_MODULES)}")
    return importlib.util.find_spec(EXTRA_MODULES[extra]) is not None


def require_extras(extras: tuple[str, ...], what: str) -> None:
    """Raise `gymnasium.error.DependencyNotInstalled` naming the first missing extra."""
    for extra in extras:
        if not extra_available(extra):
            raise gym.error.DependencyNotInstalled(
                f"{what} needs the '{extra}' extra ({EXTRA_MODULES[extra]} is not installed); "
                f"install it with: pip install 'gymv[{extra}]'"
            )


def register_spec(spec: TaskSpec) -> None:
    """Register one `TaskSpec` with Gymnasium (idempotent for the same spec)."""
    from gymv_envs.core.env import VisionEnv

    if not (isinstance(spec.entry_point, type) and issubclass(spec.entry_point, VisionEnv)):
        raise TypeError(f"{spec.name}: entry_point must be a VisionEnv subclass")
    if spec.id in _TASKS:
        if _TASKS[spec.id] == spec:
            return
        raise ValueError(f"{spec.id} is registered twice (names are unique across domains)")
    cls = spec.entry_point
    unknown = sorted(set(cls.extras) - set(EXTRA_MODULES))
    if unknown:
        raise ValueError(f"{spec.name}: unknown extras {unknown}; valid extras: {', '.join(EXTRA_MODULES)}")
    if spec.kwargs:  # (no arguments: nothing to check, and no signatures read for every id at import)
        cls.validate_kwargs(dict(spec.kwargs))
    _TASKS[spec.id] = spec
    gym.register(
        id=spec.id,
        entry_point=spec.entry_point_string,
        max_episode_steps=int(spec.max_episode_steps),
        kwargs=dict(spec.kwargs),
    )


def register_all(package: str = "gymv_envs.domains") -> None:
    """Import every task module under ``package`` (not the private ``_helpers``) and register its ``SPECS``."""
    root = importlib.import_module(package)
    for mod in sorted(pkgutil.walk_packages(root.__path__, prefix=package + "."), key=lambda m: m.name):
        if mod.ispkg or mod.name.rsplit(".", 1)[1].startswith("_"):
            continue
        module = importlib.import_module(mod.name)
        for spec in getattr(module, "SPECS", ()):
            register_spec(spec)


def _resolve(env_id: str) -> TaskSpec:
    if not isinstance(env_id, str):
        raise ValueError(f"invalid id {env_id!r}; valid values: an id string such as 'GymV/Sokoban-v1' (see gymv_envs.ids())")
    if env_id in _TASKS:
        return _TASKS[env_id]
    matches = [i for i in _TASKS if i.split("/", 1)[1].rsplit("-v", 1)[0] == env_id or i.endswith("/" + env_id)]
    if len(matches) == 1:
        return _TASKS[matches[0]]
    name = env_id.rsplit("/", 1)[-1].rsplit("-v", 1)[0].lower()   # another version of the same name comes first
    close = ([i for i in _TASKS if i.split("/", 1)[1].rsplit("-v", 1)[0].lower() == name]
             + [i for i in _TASKS if env_id.lower() in i.lower()])[:10]
    hint = f"; did you mean one of {close}?" if close else f"; {len(_TASKS)} ids are registered, see gymv_envs.ids()"
    raise ValueError(f"unknown GymV id {env_id!r}{hint}")


def task_spec(env_id: str) -> TaskSpec:
    """The `TaskSpec` of an id (full id, ``Name-vN`` or bare ``Name``)."""
    return _resolve(env_id)


def spec_of(env: gym.Env) -> TaskSpec | None:
    """The `TaskSpec` of a (possibly wrapped) env: from the id ``gym.make`` recorded, else from its class
    when exactly one id is registered for it; ``None`` for an env that is not a registered GymV task."""
    base = env.unwrapped
    env_id = base.spec.id if getattr(base, "spec", None) is not None else None
    if env_id in _TASKS:
        return _TASKS[env_id]
    same = [s for s in _TASKS.values() if s.entry_point is type(base)]
    return same[0] if len(same) == 1 else None


def describe(env_id: str) -> dict[str, Any]:
    """Everything the project knows about one id, as a plain dict."""
    spec = _resolve(env_id)
    cls = spec.entry_point
    doc = (cls.__doc__ or "").strip().splitlines()
    asked = spec.kwargs.get("question")  # an id made for one of its class's questions asks that one by default
    questions = sorted(cls.questions, key=lambda q: q != asked)
    return {
        "id": spec.id,
        "name": spec.name,
        "version": spec.version,
        "domain": spec.domain,
        "protocol": cls.protocol,
        "tags": list(spec.tags),
        "difficulties": list(cls.difficulties),
        "max_episode_steps": int(spec.max_episode_steps),
        "max_return": float(spec.max_return),
        "extras": list(cls.extras),
        "available": all(extra_available(e) for e in cls.extras),
        "action_modes": list(cls.action_modes),
        "answer_formats": list(cls.answer_formats),
        "instruction_levels": list(cls.instruction_levels),
        "questions": questions,
        "views": list(cls.views),
        "kwargs": dict(spec.kwargs),
        "default_obs_size": list(cls.default_obs_size),
        "entry_point": spec.entry_point_string,
        "summary": doc[0] if doc else "",
    }


def ids(
    pattern: str = "*",
    domain: str | None = None,
    protocol: str | None = None,
    tags: tuple[str, ...] | list[str] | str = (),
    available_only: bool = False,
) -> list[str]:
    """Sorted registered ids matching all the filters.

    ``pattern`` is a glob matched against the full id (``GymV/Soko*``) and against the bare
    name (``Soko*``). ``tags`` must all be present. Unknown ``domain``/``protocol`` raise
    `ValueError` naming the valid values.
    """
    if protocol is not None and protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}; valid: {', '.join(PROTOCOLS)}")
    if domain is not None:
        domains = sorted({s.domain for s in _TASKS.values()})
        if domain not in domains:
            raise ValueError(f"unknown domain {domain!r}; valid: {', '.join(domains)}")
    if not isinstance(pattern, str):
        raise ValueError(f"invalid pattern {pattern!r}; valid values: a glob string such as 'GymV/Soko*' or '*'")
    if not isinstance(tags, (str, tuple, list)) or not all(isinstance(t, str) for t in ([tags] if isinstance(tags, str) else tags)):
        raise ValueError(f"invalid tags {tags!r}; valid values: a tag string or a list of them (see gymv_envs.describe(id)['tags'])")
    wanted = (tags,) if isinstance(tags, str) else tuple(tags)
    out = []
    for env_id, spec in _TASKS.items():
        bare = env_id.split("/", 1)[1]
        if not (fnmatch.fnmatchcase(env_id, pattern) or fnmatch.fnmatchcase(bare, pattern)):
            continue
        if domain is not None and spec.domain != domain:
            continue
        if protocol is not None and spec.entry_point.protocol != protocol:
            continue
        if not set(wanted) <= set(spec.tags):
            continue
        if available_only and not all(extra_available(e) for e in spec.entry_point.extras):
            continue
        out.append(env_id)
    return sorted(out)


def unmatched_hint(patterns: list[str] | tuple[str, ...]) -> str:
    """For the patterns that match no registered id, what they might have meant (``"; 'GymV/Sokoban-v0' matches
    no id: did you mean one of ['GymV/Sokoban-v1']?"``), or ``""`` when each matches something."""
    notes = []
    for pattern in patterns:
        if ids(pattern):
            continue
        try:
            notes.append(f"{pattern!r} matches no id: did you mean {_resolve(pattern).id!r}?")
        except ValueError as exc:
            text = str(exc)
            notes.append(f"{pattern!r} matches no id" + (f": {text.split('; ', 1)[1]}" if "did you mean" in text else ""))
    return "; " + "; ".join(notes) if notes else ""


def domain_names() -> list[str]:
    """Sorted domain names that have at least one id."""
    return sorted({s.domain for s in _TASKS.values()})
