"""Fingerprint every id's levels, answers and frames, to prove a refactor changed none of them.

    python scripts/level_hashes.py --out before.jsonl              # on the old commit
    python scripts/level_hashes.py --out after.jsonl               # on the new one
    python scripts/level_hashes.py --compare before.jsonl after.jsonl

One line per (id, variant, difficulty, seed, frame size): a SHA-256 over the reset frame, the
instruction, the state text, the MCQ options, then up to ``--steps`` oracle steps (the action
as the env formats it, reward, termination, info and frame) and ``--random-steps`` steps of a
seeded random policy from a second reset (so rule paths the oracle never takes are covered).
Frames are hashed at the id's default size and at 96x128 (web and world3d: 96x128 only, they
are costly to draw large). ``--compare`` prints every key whose fingerprint differs or that
exists on one side only, and exits 1 if there is any.

``--in-turn``: one env per (id, variant, difficulty, size) plays all the seeds one after another
instead of a fresh env per seed. The keys and, for a correct env, the fingerprints are the same as
without it, so comparing a fresh-env file with an in-turn one shows where something an env keeps
(a cache of drawn pieces, a layout worked out once) carries one level into the next.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SMALL = (96, 128)
COSTLY_DOMAINS = ("web", "world3d")


def _update(h: Any, value: Any) -> None:
    import numpy as np

    if isinstance(value, np.ndarray):
        h.update(str(value.shape).encode() + str(value.dtype).encode())
        h.update(np.ascontiguousarray(value).tobytes())
    else:
        h.update(json.dumps(value, sort_keys=True, default=repr).encode())
    h.update(b"|")


def _info_view(info: dict[str, Any]) -> dict[str, Any]:
    return {k: info.get(k) for k in ("success", "progress", "invalid_action", "feedback", "answer", "state_text")}


def fingerprint(env_id: str, kwargs: dict[str, Any], seed: int, steps: int, random_steps: int,
                env: Any = None) -> str:
    """The case's fingerprint, played on ``env`` (left open) where given, else on a fresh env of its own."""
    import gymnasium as gym

    own = env is None
    if own:
        env = gym.make(env_id, **kwargs)
    base = env.unwrapped
    h = hashlib.sha256()
    try:
        obs, info = env.reset(seed=seed)
        _update(h, obs)
        _update(h, info.get("instruction"))
        _update(h, _info_view(info))
        _update(h, list(getattr(base, "options", []) or []))
        for _ in range(steps):
            action = base.oracle_action()
            _update(h, base.format_action(action))
            obs, reward, term, trunc, info = env.step(action)
            _update(h, [float(reward), bool(term), bool(trunc)])
            _update(h, _info_view(info))
            _update(h, obs)
            if term or trunc:
                break
        obs, info = env.reset(seed=seed)
        env.action_space.seed(seed + 12345)
        for _ in range(random_steps):
            action = env.action_space.sample()
            obs, reward, term, trunc, info = env.step(action)
            _update(h, [float(reward), bool(term), bool(trunc)])
            _update(h, _info_view(info))
            _update(h, obs)
            if term or trunc:
                break
    finally:
        if own:
            env.close()
    return h.hexdigest()


def cases(pattern: str, seeds: list[int], domains: set[str] | None = None) -> list[tuple[str, dict[str, Any], int]]:
    import gymv_envs

    out = []
    for env_id in gymv_envs.ids(available_only=True):
        if not fnmatch.fnmatchcase(env_id, pattern):
            continue
        d = gymv_envs.describe(env_id)
        if domains is not None and d["domain"] not in domains:
            continue
        variants = [{}] + [{"answer_format": f} for f in d["answer_formats"][1:]] + \
                   [{"action_mode": m} for m in d["action_modes"][1:]]
        sizes = [SMALL] if d["domain"] in COSTLY_DOMAINS else [None, SMALL]
        for variant in variants:
            for difficulty in d["difficulties"]:
                for size in sizes:
                    kw = {**variant, "difficulty": difficulty}
                    if size is not None:
                        kw["obs_size"] = size
                    for seed in seeds:
                        out.append((env_id, kw, seed))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", help="write fingerprints here (JSON lines)")
    p.add_argument("--pattern", default="GymV/*", help="glob over ids")
    p.add_argument("--domains", help="comma-separated domains to fingerprint (default: all)")
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--steps", type=int, default=40, help="oracle steps hashed per case")
    p.add_argument("--random-steps", type=int, default=12, help="random steps hashed per case")
    p.add_argument("--in-turn", action="store_true",
                   help="one env per id, variant, difficulty and size plays every seed in turn")
    p.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = p.parse_args(argv)
    if args.compare:
        a, b = ({json.loads(line)["key"]: json.loads(line)["hash"] for line in Path(f).read_text().splitlines()}
                for f in args.compare)
        bad = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
        for k in bad:
            print(f"{'differs' if k in a and k in b else 'only in ' + ('before' if k in a else 'after')}: {k}")
        print(f"{len(a.keys() & b.keys())} shared cases, {len(bad)} differ or are missing")
        return 1 if bad else 0
    if not args.out:
        p.error("--out or --compare is required")
    seeds = [int(s) for s in args.seeds.split(",")]
    todo = cases(args.pattern, seeds, set(args.domains.split(",")) if args.domains else None)
    envs: dict[str, Any] = {}  # with --in-turn: the env of the case's id and arguments, kept for its next seed
    try:
        with open(args.out, "w") as fh:
            for i, (env_id, kw, seed) in enumerate(todo):
                key = json.dumps([env_id, kw, seed], sort_keys=True)
                env = None
                if args.in_turn:
                    import gymnasium as gym

                    made = json.dumps([env_id, kw], sort_keys=True)
                    if made not in envs:
                        for old_env in envs.values():  # (the cases of one env come together: one open at a time)
                            old_env.close()
                        envs = {made: gym.make(env_id, **kw)}
                    env = envs[made]
                digest = fingerprint(env_id, kw, seed, args.steps, args.random_steps, env)
                fh.write(json.dumps({"key": key, "hash": digest}) + "\n")
                if i % 200 == 0:
                    print(f"{i}/{len(todo)} {env_id}", file=sys.stderr, flush=True)
    finally:
        for env in envs.values():
            env.close()
    print(f"wrote {len(todo)} fingerprints to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
