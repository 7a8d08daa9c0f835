"""One benchmark episode: a task description in, a JSON-able record out.

An `EpisodeTask` names everything that decides an episode's result: the id, the env
configuration (constructor kwargs including ``difficulty``, the step budget, wrappers), the
level seed, the episode index (repeats on one level) and the agent (name and kwargs). Its
`key` is the identity used for resume and for pairing runs. `run_task` is a plain module
function of a picklable task, so the same code runs inline, in worker processes, in threads
and as a Ray task; workers reuse one env per configuration (``reset(seed=...)`` makes the
level a pure function of the seed), and build a fresh agent for every episode, which the one
episode loop, `gymv.benchmarks.rollout.rollout`, plays.

The agent seed is derived from (seed, episode index), never from the worker, so results do
not depend on the worker count or the executor.
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from typing import Any

import gymnasium as gym

from gymv.agents import make_agent
from gymv.benchmarks.rollout import rollout
from gymv.wrappers import load_wrapper

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
def build_agent(task: EpisodeTask, env: gym.Env) -> Any:
    """`gymv.agents.make_agent` with the task's kwargs and its agent seed (for agents that take one)."""
    return make_agent(task.agent, env, seed=task.agent_seed, **task.agent_kwargs)


# ------------------------------------------------------------------ envs
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


class EnvSetupError(Exception):
    """The env (or a wrapper) refused the episode's configuration: every episode of that id and
    configuration would fail the same way, so running again does not help."""


def _cached_env(task: EpisodeTask) -> gym.Env:
    cache: OrderedDict[tuple[str, str], gym.Env] | None = getattr(_local, "envs", None)
    if cache is None:
        cache = _local.envs = OrderedDict()
    ident = (task.env_id, task.config_key)
    env = cache.get(ident)
    if env is None:
        try:
            env = make_env(task)
        except (ValueError, TypeError, gym.error.Error) as exc:   # bad input: the message names what is valid
            raise EnvSetupError(f"cannot make {task.env_id} with {task.config_key}: {exc}") from None
        cache[ident] = env
        while len(cache) > ENV_CACHE_SIZE:
            cache.popitem(last=False)[1].close()
    cache.move_to_end(ident)
    return env


def close_cached_envs() -> None:
    for env in getattr(_local, "envs", {}).values():
        env.close()
    _local.envs = OrderedDict()


# ------------------------------------------------------------------ one episode
def run_task(task: EpisodeTask | dict[str, Any]) -> dict[str, Any]:
    """Run one episode under the step budget and return its record (see the module docstring)."""
    if isinstance(task, dict):
        task = EpisodeTask(**{**task, "wrappers": tuple(task.get("wrappers", ()))})
    env = _cached_env(task)
    bot = build_agent(task, env)
    played = rollout(env, bot, task.seed, trajectory=task.trajectory, frames=task.frames)
    record: dict[str, Any] = {
        "v": FORMAT_VERSION,
        "key": task.key,
        "env_id": task.env_id,
        "domain": played["domain"],
        "protocol": played["protocol"],
        "difficulty": task.env_kwargs.get("difficulty"),
        "config_key": task.config_key,
        "seed": task.seed,
        "episode": task.episode,
        "agent": task.agent,
        "agent_kwargs": task.agent_kwargs,
    }
    record.update((k, v) for k, v in played.items() if k not in record and k != "_trajectory")
    if "_trajectory" in played:
        record["_trajectory"] = {"key": task.key, **played["_trajectory"]}
    return record


def run_episode(env_id: str, agent: str, seed: int, env_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
    """One episode under the registered budget (the simple entry point the demo uses)."""
    return run_task(EpisodeTask(env_id=env_id, env_kwargs=dict(env_kwargs or {}), seed=seed, agent=agent))
