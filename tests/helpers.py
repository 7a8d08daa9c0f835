"""Helpers for the tests: building envs and running the oracle."""

from __future__ import annotations

import importlib.util
import os

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs

# Ids of the browser, 3D and physics domains cost up to a few CPU-minutes each in the conformance
# suite, which would take the suite far past its 20-minute budget on 2 cores. By default it checks,
# of such domains, one id per task module (3D worlds and robotics: every task family) or a single
# id (web: every id shares one base and the catalogue engine, and a browser env is the dearest);
# GYMV_SAMPLE_SPLITS=1 checks one web id per split (adds a held-out site), GYMV_FULL_CONFORMANCE=1
# every id. The domains' own test files play every id's oracle.
SAMPLED_DOMAINS = {"web": "one", "world3d": "module", "robotics": "module"}
# The conformance oracle test plays ten seeds per difficulty; an id of those domains plays four (its oracle
# episodes are browser actions or physics steps: 2-6 s each), all ten with GYMV_FULL_CONFORMANCE=1. So does
# ChessGame, whose oracle searches deeper than the engine it plays on every move (about 5 s a game at d2, 54 s
# of the last fresh-clone run for its ten d2 seeds).
ORACLE_SEEDS, SAMPLED_ORACLE_SEEDS = range(10), range(4)
SAMPLED_ORACLE_NAMES = {"ChessGame"}


def oracle_seeds(env_id: str) -> range:
    """The seeds the conformance suite's oracle test plays for ``env_id`` at each difficulty."""
    spec = gymv_envs.task_spec(env_id)
    if os.environ.get("GYMV_FULL_CONFORMANCE") == "1" or (
            spec.domain not in SAMPLED_DOMAINS and spec.name not in SAMPLED_ORACLE_NAMES):
        return ORACLE_SEEDS
    return SAMPLED_ORACLE_SEEDS


def load_script(name: str):
    """``scripts/<name>.py`` of this checkout, imported as a module (the scripts folder is no package)."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", f"{name}.py")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def all_ids() -> list[str]:
    ids = gymv_envs.ids()
    if os.environ.get("GYMV_FULL_CONFORMANCE") == "1":
        return ids
    per_split = os.environ.get("GYMV_SAMPLE_SPLITS") == "1"
    seen: set[tuple[str, str, tuple[str, ...]]] = set()
    out = []
    for env_id in ids:
        spec = gymv_envs.task_spec(env_id)
        how = SAMPLED_DOMAINS.get(spec.domain)
        if how is not None:
            module = spec.entry_point.__module__ if how == "module" else ""
            splits = tuple(t for t in spec.tags if t.startswith("split:")) if how == "module" or per_split else ()
            key = (spec.domain, module, splits)
            if key in seen:
                continue
            seen.add(key)
        out.append(env_id)
    return out


def id_params(ids: list[str]) -> list:
    """pytest params over ids, skipping (with the reason) those whose extra is missing."""
    out = []
    for env_id in ids:
        d = gymv_envs.describe(env_id)
        marks = () if d["available"] else (pytest.mark.skip(reason=f"needs extras {d['extras']}"),)
        out.append(pytest.param(env_id, id=env_id.removeprefix("GymV/"), marks=marks))
    return out


def variants(env_id: str) -> list[dict]:
    """Constructor kwargs worth covering for an id: each answer format and action mode."""
    d = gymv_envs.describe(env_id)
    out = [{}]
    out += [{"answer_format": f} for f in d["answer_formats"][1:]]
    out += [{"action_mode": m} for m in d["action_modes"][1:]]
    return out


# Oracles do not look at pixels, so oracle runs render small frames: the suite stays fast
# for worlds whose frames are expensive (3D, web). Pixels are checked by the other tests.
ORACLE_OBS_SIZE = (48, 48)


def oracle_episode(env: gym.Env, seed: int) -> tuple[bool, int, float, list[dict]]:
    """Follow the oracle from reset(seed) until the episode ends (the budget truncates)."""
    _, info = env.reset(seed=seed)
    infos, total, steps = [info], 0.0, 0
    while True:
        _, reward, terminated, truncated, info = env.step(env.unwrapped.oracle_action())
        infos.append(info)
        total += reward
        steps += 1
        if terminated or truncated:
            return bool(info["success"]), steps, total, infos


def run_oracle(env_id: str, seed: int, **kwargs) -> tuple[bool, int, float, list[dict]]:
    """One oracle episode in a fresh env under the registered budget."""
    kwargs.setdefault("obs_size", ORACLE_OBS_SIZE)
    env = gym.make(env_id, **kwargs)
    try:
        return oracle_episode(env, seed)
    finally:
        env.close()


def invalid_action(space: gym.Space):
    """An action outside the space that a careless agent could send."""
    if isinstance(space, gym.spaces.Discrete):
        return int(space.start + space.n)
    if isinstance(space, gym.spaces.Box):
        return np.full(space.shape, np.nan, dtype=np.float32)
    if isinstance(space, gym.spaces.Text):
        return "\x00\x01 ?? not an answer ??"
    return None


def file_size_limit(nbytes: int):
    """A subprocess ``preexec_fn`` under which a write past ``nbytes`` fails as on a full disk (RLIMIT_FSIZE:
    ``OSError`` EFBIG, with SIGXFSZ ignored so the write fails instead of killing the process)."""
    import resource
    import signal

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (nbytes, nbytes))

    return limit
