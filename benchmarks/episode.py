"""One benchmark episode: a task description in, a JSON-able record out.

An `EpisodeTask` names everything that decides an episode's result: the id, the env
configuration (constructor kwargs including ``difficulty``, the step budget, wrappers), the
level seed, the episode index (repeats on one level) and the agent (name and kwargs). Its
`key` is the identity used for resume and for pairing runs. `run_task` is a plain module
function of a picklable task, so the same code runs inline, in worker processes, in threads
and as a Ray task; workers reuse one env per configuration (``reset(seed=...)`` makes the
level a pure function of the seed), and build a fresh agent for every episode.

The agent seed is derived from (seed, episode index), never from the worker, so results do
not depend on the worker count or the executor.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import inspect
import json
import threading
import time
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

import gymv_envs
from agents import make_agent
from benchmarks.scoring import episode_score

FORMAT_VERSION = 1
AGENT_SEED_STRIDE = 100_003


def canonical(obj: Any) -> str:
    """Compact, key-sorted JSON: the canonical text of a configuration."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class EpisodeTask:
    env_id: str
    env_kwargs: dict[str, Any]
    seed: int
    episode: int = 0
    agent: str = "random"
    agent_kwargs: dict[str, Any] = field(default_factory=dict)
    max_steps: int | None = None
    wrappers: tuple[str, ...] = ()
    trajectory: bool = False
    frames: bool = False

    @functools.cached_property
    def config_key(self) -> str:
        return canonical({"env_kwargs": self.env_kwargs, "max_steps": self.max_steps, "wrappers": list(self.wrappers)})

    @functools.cached_property
    def key(self) -> str:
        """Identity of the episode: id, env config, seed, episode index, agent spec."""
        return canonical([self.env_id, json.loads(self.config_key), self.seed, self.episode,
                          self.agent, self.agent_kwargs])

    @property
    def agent_seed(self) -> int:
        return self.seed + AGENT_SEED_STRIDE * self.episode

    def file_stem(self) -> str:
        name = self.env_id.split("/")[-1]
        digest = hashlib.sha1(self.key.encode()).hexdigest()[:12]
        return f"{name}-s{self.seed}-e{self.episode}-{digest}"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# ------------------------------------------------------------------ agents
def _agent_factory(name: str) -> Any:
    """The class `agents.make_agent` builds for ``name`` when it can be seen from here, else ``None``.

    Only used to decide whether to pass ``seed=``; `agents.make_agent` still builds the agent.
    """
    import agents

    if name in getattr(agents, "BUILTIN", {}):
        return agents.BUILTIN[name]
    target = getattr(agents, "LAZY", {}).get(name)
    if target is None:
        target = "agents.sb3:SB3Agent" if name.startswith("sb3:") else name
    module, sep, cls = target.partition(":")
    if not sep:
        return None
    try:
        if importlib.util.find_spec(module) is None:
            return None
        return getattr(importlib.import_module(module), cls)
    except (ImportError, AttributeError, ValueError):
        return None


@functools.lru_cache(maxsize=64)
def _takes_seed_by_name(name: str) -> bool:
    return _takes_seed(_agent_factory(name))


def _takes_seed(factory: Any) -> bool:
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False
    return "seed" in params


def build_agent(task: EpisodeTask, env: gym.Env) -> Any:
    """`agents.make_agent` with the task's kwargs, plus ``seed=`` when the agent accepts one."""
    kwargs = dict(task.agent_kwargs)
    if "seed" not in kwargs and _takes_seed_by_name(task.agent):
        kwargs["seed"] = task.agent_seed
    return make_agent(task.agent, env, **kwargs)


# ------------------------------------------------------------------ envs
def load_wrapper(spec: str) -> tuple[Any, dict[str, Any]]:
    """``module:Class`` or ``module:Class{"json": "kwargs"}`` -> (class, kwargs)."""
    path, brace, rest = spec.partition("{")
    kwargs = json.loads(brace + rest) if brace else {}
    module, sep, name = path.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"invalid wrapper {spec!r}; expected module:Class or module:Class{{json kwargs}}")
    try:
        return getattr(importlib.import_module(module), name), kwargs
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load wrapper {spec!r}: {exc}") from None


def make_env(task: EpisodeTask) -> gym.Env:
    """``gym.make`` with the task's kwargs and budget, then its wrappers in order."""
    extra = {} if task.max_steps is None else {"max_episode_steps": int(task.max_steps)}
    env = gym.make(task.env_id, **task.env_kwargs, **extra)
    for spec in task.wrappers:
        cls, kwargs = load_wrapper(spec)
        env = cls(env, **kwargs)
    return env


_local = threading.local()
ENV_CACHE_SIZE = 4


def _cached_env(task: EpisodeTask) -> gym.Env:
    cache: OrderedDict[tuple[str, str], gym.Env] | None = getattr(_local, "envs", None)
    if cache is None:
        cache = _local.envs = OrderedDict()
    ident = (task.env_id, task.config_key)
    env = cache.get(ident)
    if env is None:
        env = cache[ident] = make_env(task)
        while len(cache) > ENV_CACHE_SIZE:
            cache.popitem(last=False)[1].close()
    cache.move_to_end(ident)
    return env


def close_cached_envs() -> None:
    for env in getattr(_local, "envs", {}).values():
        env.close()
    _local.envs = OrderedDict()


# ------------------------------------------------------------------ one episode
@functools.cache
def keep_freed_frames() -> bool:
    """Once per process: let glibc keep freed frame-sized blocks instead of returning them to the OS.

    Every step returns a fresh frame (768 KB at 512x512). Between episodes the records and JSON
    of the runner break up the heap, so glibc's default thresholds (adaptive mmap threshold,
    128 KB trim) gave the next frame fresh pages: 44-88 thousand page faults per 360 episodes
    of the overhead benchmark (raw stepping: under 4 thousand), 7-19% more CPU time. Fixed
    thresholds (blocks under 16 MB from the heap, at most 64 MB of free heap kept) bring them
    under 5 thousand. False where ``mallopt`` is missing (not glibc).
    """
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3  # glibc's malloc.h
    return bool(mallopt(m_mmap_threshold, 16 << 20)) and bool(mallopt(m_trim_threshold, 64 << 20))


@functools.lru_cache(maxsize=1024)
def _describe(env_id: str) -> dict[str, Any]:
    return gymv_envs.describe(env_id)


def _jsonable(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def run_task(task: EpisodeTask | dict[str, Any]) -> dict[str, Any]:
    """Run one episode under the step budget and return its record (see the module docstring)."""
    if isinstance(task, dict):
        task = EpisodeTask(**{**task, "wrappers": tuple(task.get("wrappers", ()))})
    keep_freed_frames()
    desc = _describe(task.env_id)
    env = _cached_env(task)
    bot = build_agent(task, env)
    steps_log: list[dict[str, Any]] = []
    frames: list[np.ndarray] = []
    t0 = time.perf_counter()
    obs, info = env.reset(seed=task.seed)
    bot.reset(info["instruction"], info)
    if task.frames:
        frames.append(obs)
    total, steps, invalid = 0.0, 0, 0
    terminated = truncated = False
    while not (terminated or truncated):
        action = bot.act(obs, info)
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        steps += 1
        invalid += bool(info["invalid_action"])
        if task.trajectory:
            steps_log.append({"action": _jsonable(action), "reward": float(reward), "terminated": bool(terminated),
                              "truncated": bool(truncated), "invalid_action": bool(info["invalid_action"]),
                              "progress": float(info["progress"]), "feedback": info.get("feedback", "")})
            if task.frames:
                frames.append(obs)
    wall = time.perf_counter() - t0
    # The protocol scores the task's own return: reward wrappers (clipping, shaping) change
    # what the agent sees, not the score. VisionEnv keeps its episodic return in ``_return``.
    env_return = float(getattr(env.unwrapped, "_return", total))
    stats = bot.stats() if callable(getattr(bot, "stats", None)) else None
    success = bool(info["success"])
    protocol = desc["protocol"]
    record: dict[str, Any] = {
        "v": FORMAT_VERSION,
        "key": task.key,
        "env_id": task.env_id,
        "domain": desc["domain"],
        "protocol": protocol,
        "difficulty": task.env_kwargs.get("difficulty"),
        "config_key": task.config_key,
        "seed": task.seed,
        "episode": task.episode,
        "agent": task.agent,
        "agent_kwargs": task.agent_kwargs,
        "return": round(env_return, 9),
        "max_return": desc["max_return"],
        "score": episode_score(protocol, env_return, desc["max_return"], success),
        "success": success,
        "progress": float(info["progress"]),
        "steps": steps,
        "invalid_actions": invalid,
        "invalid_rate": invalid / steps if steps else 0.0,
        "terminated": bool(terminated),
        "truncated": bool(truncated),
    }
    if abs(total - env_return) > 1e-9:
        record["wrapped_return"] = round(float(total), 9)
    if protocol == "single_turn":
        # An answer counts as read when the env accepted one (it terminates the episode) and
        # the agent did not have to fall back after failing to parse its own reply.
        record["parsed"] = bool(terminated) and not (stats or {}).get("parse_failures", 0)
    if stats is not None:
        record["agent_stats"] = _jsonable(stats)
    record["wall_s"] = round(wall, 6)
    if task.trajectory:
        record["_trajectory"] = {"key": task.key, "instruction": getattr(env.unwrapped, "instruction", ""),
                                 "steps": steps_log, "final_info": _jsonable(
                                     {k: v for k, v in info.items() if k != "state_text"})}
        if task.frames:
            record["_frames"] = np.stack(frames)
    return record


def run_episode(env_id: str, agent: str, seed: int, env_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
    """One episode under the registered budget (the simple entry point the demo uses)."""
    return run_task(EpisodeTask(env_id=env_id, env_kwargs=dict(env_kwargs or {}), seed=seed, agent=agent))
