"""`WebVectorEnv`: N web envs over shared browsers, as one Gymnasium `VectorEnv`.

    >>> from gymv_envs.domains.web import WebVectorEnv                     # doctest: +SKIP
    >>> envs = WebVectorEnv("GymV/WebShopFindPrice-v1", num_envs=8, threads=2, obs_size=(768, 1024))
    >>> obs, infos = envs.reset(seed=0)                                  # (8, 768, 1024, 3)
    >>> obs, rew, term, trunc, infos = envs.step(envs.action_space.sample())

The envs are spread over ``threads`` worker threads. Each worker thread owns one Playwright
driver and one Chromium (``shared_browser=True``: every env of that thread opens its own
browser context in it, and the browser runs several renderer processes), and steps its envs
one after another while the other workers do the same: a screenshot waits on the browser, not
on Python, so the workers overlap. Each env keeps its own loopback server and its own registered
step budget (``TimeLimit``). Autoreset follows Gymnasium's default (``NEXT_STEP``): the step after
an episode ends resets that env and returns its first observation with reward 0. ``env_ids``
may be one id or a list of N ids (a mixed batch); the action and observation spaces must agree.
"""

from __future__ import annotations

import concurrent.futures as cf
import copy
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array, iterate


class WebVectorEnv(VectorEnv):
    """N web envs stepped by ``threads`` workers over one shared Chromium per worker."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, env_ids: str | Sequence[str], num_envs: int | None = None, threads: int = 2, **kwargs: Any) -> None:
        ids = [env_ids] * int(num_envs or 1) if isinstance(env_ids, str) else list(env_ids)
        if num_envs is not None and len(ids) != num_envs:
            raise ValueError(f"num_envs={num_envs} but {len(ids)} ids given")
        if not ids:
            raise ValueError("WebVectorEnv needs at least one env")
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"invalid threads={threads!r}; valid values: an integer >= 1")
        self.num_envs = len(ids)
        self.threads = min(threads, self.num_envs)
        self._pools = [cf.ThreadPoolExecutor(1, thread_name_prefix=f"gymv-web-{k}") for k in range(self.threads)]
        kwargs = {**kwargs, "shared_browser": True}
        futures = [self._pool(i).submit(gym.make, env_id, **kwargs) for i, env_id in enumerate(ids)]
        self.envs = [f.result() for f in futures]
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        for e in self.envs[1:]:
            if e.observation_space != self.single_observation_space or e.action_space != self.single_action_space:
                raise ValueError("every env of a WebVectorEnv needs the same observation and action spaces (same obs_size)")
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._obs = create_empty_array(self.single_observation_space, self.num_envs)
        self._needs_reset = np.zeros(self.num_envs, dtype=bool)
        self.spec = None

    def _pool(self, i: int) -> cf.ThreadPoolExecutor:
        return self._pools[i % self.threads]

    def _each(self, fn: Any, args: Sequence[Any]) -> list[Any]:
        """``fn(i, env, arg)`` for every env, each on its worker; results in env order."""
        by_worker: dict[int, list[int]] = {}
        for i in range(self.num_envs):
            by_worker.setdefault(i % self.threads, []).append(i)

        def run(worker: list[int]) -> list[tuple[int, Any]]:
            return [(i, fn(i, self.envs[i], args[i])) for i in worker]

        futures = [self._pools[k].submit(run, members) for k, members in by_worker.items()]
        out: list[Any] = [None] * self.num_envs
        for f in futures:
            for i, r in f.result():
                out[i] = r
        return out

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        seeds = [None if seed is None else seed + i for i in range(self.num_envs)] if not isinstance(seed, (list, tuple)) else list(seed)
        batch = self._new_batch()

        def one(i: int, env: gym.Env, s: int | None) -> tuple:
            return self._keep(batch, i, env.reset(seed=s, options=options))

        results = self._each(one, seeds)
        self._needs_reset[:] = False
        infos: dict[str, Any] = {}
        for i, (_, info) in enumerate(results):
            infos = self._add_info(infos, info, i)
        return self._batched(batch, results), infos

    # Box observations (screenshots) are written by each worker straight into a fresh batch array,
    # in parallel and without the main thread's concatenate-then-copy of N frames; the array is new
    # every call, so a returned batch is never overwritten later. Dict observations are concatenated.
    def _new_batch(self) -> np.ndarray | None:
        space = self.single_observation_space
        return np.empty((self.num_envs, *space.shape), space.dtype) if isinstance(space, gym.spaces.Box) else None

    @staticmethod
    def _keep(batch: np.ndarray | None, i: int, result: tuple) -> tuple:
        if batch is None:
            return result
        batch[i] = result[0]
        return (None, *result[1:])

    def _batched(self, batch: np.ndarray | None, results: list[tuple]) -> Any:
        if batch is not None:
            return batch
        self._obs = concatenate(self.single_observation_space, [r[0] for r in results], self._obs)
        return copy.deepcopy(self._obs)

    def step(self, actions: Any):
        acts = list(iterate(self.action_space, actions))

        batch = self._new_batch()

        def one(i: int, env: gym.Env, action: Any) -> tuple:
            if self._needs_reset[i]:
                obs, info = env.reset()
                return self._keep(batch, i, (obs, 0.0, False, False, info))
            return self._keep(batch, i, env.step(action))

        results = self._each(one, acts)
        rewards = np.array([r[1] for r in results], dtype=np.float64)
        terms = np.array([r[2] for r in results], dtype=bool)
        truncs = np.array([r[3] for r in results], dtype=bool)
        self._needs_reset = terms | truncs
        infos: dict[str, Any] = {}
        for i, r in enumerate(results):
            infos = self._add_info(infos, r[4], i)
        return self._batched(batch, results), rewards, terms, truncs, infos

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple:
        def one(i: int, env: gym.Env, _: Any) -> Any:
            attr = getattr(env.unwrapped, name)
            return attr(*args, **kwargs) if callable(attr) else attr

        return tuple(self._each(one, [None] * self.num_envs))

    def close_extras(self, **kwargs: Any) -> None:
        if getattr(self, "envs", None):
            self._each(lambda i, env, _: env.close(), [None] * self.num_envs)
            self.envs = []
        for p in getattr(self, "_pools", []):
            p.shutdown(wait=True)
        self._pools = []
