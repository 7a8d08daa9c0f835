"""Count the machine instructions of reset+step pairs: a speed A/B that a noisy machine cannot blur.

    python scripts/instructions.py GymV/ArcMove-v0 GymV/Renzoku-v0 --difficulties 0,1,2
    python scripts/instructions.py GymV/ArcMove-v0 --trees /work/wt/base,.   # old tree vs new one
    python scripts/instructions.py GymV/Pipes-v1 --steps 2000 --trees /work/wt/base,.  # multi-turn steps

On a shared virtual machine, time per pair (``gymv-bench speed``) drifts by a quarter from one
minute to the next, which hides a 5% gain. Valgrind's callgrind counts the instructions the CPU
runs instead; the count repeats to about 0.1%. Each (tree, id, difficulty) runs in its own process
under ``valgrind --tool=callgrind --instr-atstart=no``: the process imports GymV and plays ``--warmup``
levels uninstrumented (seeds from 10,000; default 20, as the timing scripts warm up, so the bounded
caches of pure functions that an id fills on its first levels are not counted), then turns counting
on (``callgrind_control -i on``) for ``--pairs`` oracle reset+step pairs on seeds 0, 1, ... and
reports instructions per pair in thousands (kIr).

``--size S`` counts pairs at S x S instead of the id's default size.

``--steps N`` counts multi-turn steps instead, as ``gymv-bench speed`` times them: at 84x84 (``--size``),
the id's default difficulty, random actions sampled from the action space seeded with 0 (512 of
them, in turn), ``--warmup`` uncounted steps first (200 by default here); counting is off during every
reset, so the figure is instructions per step, resets left out.

Instructions are not time: a large ``memcpy`` counts one instruction per byte here (valgrind runs
``rep movsb`` byte by byte), so copies of frames weigh more than they cost. Use it to compare two
versions of the same code, and `gymv-bench speed` for the figures you report. Needs ``valgrind``
(Debian: ``apt-get install valgrind``); it is a developer tool, not part of the package.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def _inner(env_id: str, difficulty: int, pairs: int, warmup: int, size: int) -> None:
    import gymnasium as gym

    import gymv_envs  # noqa: F401 - registers the ids

    env = gym.make(env_id, difficulty=difficulty, **({"obs_size": (size, size)} if size else {}))
    oracle = env.unwrapped.oracle_action
    for seed in range(10_000, 10_000 + warmup):
        env.reset(seed=seed)
        env.step(oracle())
    me = str(os.getpid())
    subprocess.run(["callgrind_control", "-i", "on", me], capture_output=True, check=True)
    for seed in range(pairs):
        env.reset(seed=seed)
        env.step(oracle())
    subprocess.run(["callgrind_control", "-i", "off", me], capture_output=True, check=True)


def _inner_steps(env_id: str, steps: int, warmup: int, size: int) -> None:
    import gymnasium as gym

    import gymv_envs  # noqa: F401 - registers the ids

    env = gym.make(env_id, obs_size=(size, size)).unwrapped
    env.action_space.seed(0)
    actions = [env.action_space.sample() for _ in range(512)]
    me = str(os.getpid())

    def counting(on: bool) -> None:
        subprocess.run(["callgrind_control", "-i", "on" if on else "off", me], capture_output=True, check=True)

    seed = 0
    env.reset(seed=seed)
    for i in range(warmup + steps):
        if i == warmup:
            counting(True)
        _, _, term, trunc, _ = env.step(actions[i % len(actions)])
        if term or trunc:
            if i >= warmup:
                counting(False)
            seed += 1
            env.reset(seed=seed)
            if i >= warmup:
                counting(True)
    counting(False)


def count(tree: str, env_id: str, difficulty: int, pairs: int, warmup: int = 20, steps: int = 0,
          size: int = 0) -> float:
    """Thousands of instructions per reset+step pair of ``env_id`` at ``difficulty`` in ``tree`` (at ``size`` x
    ``size``, 0: the id's default size); with ``steps``, per multi-turn step of ``steps`` random ones at ``size`` x
    ``size`` (84 where 0; resets left out)."""
    inner = (["--inner-steps", env_id, str(steps), str(warmup), str(size or 84)] if steps
             else ["--inner", env_id, str(difficulty), str(pairs), str(warmup), str(size)])
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={tmp}/out",
               sys.executable, os.path.abspath(__file__), *inner]
        env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
        run = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        tail = "\n".join(run.stderr.strip().splitlines()[-5:])
        raise SystemExit(f"instructions: {env_id} d{difficulty} in {tree} failed (exit {run.returncode}):\n{tail}")
    return int(found.group(1)) / (steps or pairs) / 1000


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--inner"]:
        _inner(argv[1], int(argv[2]), int(argv[3]), int(argv[4]), int(argv[5]))
        return 0
    if argv[:1] == ["--inner-steps"]:
        _inner_steps(argv[1], int(argv[2]), int(argv[3]), int(argv[4]))
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog="See the module docstring.")
    p.add_argument("ids", nargs="+", help="registered ids, such as GymV/ArcMove-v0")
    p.add_argument("--difficulties", default="0,1,2", help="comma-separated (default 0,1,2)")
    p.add_argument("--pairs", type=int, default=50, help="counted reset+step pairs (default 50)")
    p.add_argument("--warmup", type=int, default=None,
                   help="uncounted levels played first (default 20); with --steps, uncounted steps (default 200)")
    p.add_argument("--steps", type=int, default=0, help="count this many random multi-turn steps instead of pairs")
    p.add_argument("--size", type=int, default=0,
                   help="the obs_size side (default: the id's default size for pairs, 84 with --steps)")
    p.add_argument("--trees", default=".", help="comma-separated source trees to compare (default: .)")
    args = p.parse_args(argv)
    for tool in ("valgrind", "callgrind_control"):
        if shutil.which(tool) is None:
            p.error(f"{tool} is not installed (Debian: apt-get install valgrind)")
    try:
        diffs = [int(d) for d in args.difficulties.split(",")]
    except ValueError:
        p.error(f"--difficulties takes integers separated by commas, got {args.difficulties!r}")
    trees = args.trees.split(",")
    for tree in trees:
        if not os.path.isdir(os.path.join(tree, "gymv_envs")):
            p.error(f"--trees: {tree!r} holds no gymv_envs/ folder")
    if args.pairs < 1:
        p.error("--pairs must be at least 1")
    if args.warmup is None:
        args.warmup = 200 if args.steps else 20
    if args.steps < 0:
        p.error("--steps must be at least 1 (or left out, to count single-turn pairs)")
    if args.size < 0 or 0 < args.size < 16:
        p.error(f"--size must be a side of at least 16 pixels (or 0 for the default), got {args.size}")
    if args.warmup < 1:
        p.error("--warmup must be at least 1 (the first level fills the caches every id has)")
    sys.path.insert(0, os.path.abspath(trees[-1]))  # the ids of the last tree (the new one), not an installed copy's
    import gymnasium as gym

    import gymv_envs  # noqa: F401 - registers the ids

    unknown = [i for i in args.ids if i not in gym.registry]
    if unknown:
        p.error(f"not registered in {trees[-1]}: {', '.join(unknown)} (the README catalogue lists every registered id)")
    unit = "kIr/step" if args.steps else "kIr/pair"
    print("id | difficulty | " + " | ".join(f"{unit} {t}" for t in trees) + (" | change" if len(trees) > 1 else ""))
    for env_id in args.ids:
        for d in (["default"] if args.steps else diffs):
            counts = [count(t, env_id, d, args.pairs, args.warmup, args.steps, args.size) for t in trees]
            change = f" | {100 * (counts[-1] / counts[0] - 1):+.1f}%" if len(trees) > 1 else ""
            print(f"{env_id} | {d} | " + " | ".join(f"{c:,.0f}" for c in counts) + change, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
