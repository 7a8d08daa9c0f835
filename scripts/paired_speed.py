"""Time two source trees side by side: single-turn reset+step pairs per CPU-second, id by id, in turn.

    python scripts/paired_speed.py OLD_TREE NEW_TREE --size 84 --out paired.json
    python scripts/paired_speed.py /work/wt/base . --pattern 'GymV/Tents*' --size 0   # 0: each id's default size

A shared virtual machine drifts by a fifth within an hour, so two full `gymv-bench speed` runs taken at
different times compare the machine as much as the code. Here one worker process per tree stays up and
the ids are timed in turn (old, new; then new, old for the next id), so both trees see the same minutes.
Each figure is the best of ``--passes`` passes of ``--pairs`` fresh seeds after 20 warm-up pairs, at each
id's default difficulty (``--difficulties 0,1,2``: at each of those its class has, one row per id and difficulty,
keyed ``ID@dN``), answered by the oracle, in CPU time (``time.process_time``). Prints one line per
id and the medians; ``--out`` writes every row as JSON. `scripts/instructions.py` counts instructions instead,
which repeats exactly; use this for the figures that include memory traffic (frame copies at 512x512).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import statistics
import subprocess
import sys

_WORKER = r'''
import sys, time
import gymnasium as gym
import gymv_envs  # noqa: F401
size, n, passes = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
for line in sys.stdin:
    env_id, difficulty = line.split()
    kwargs = {} if difficulty == "default" else {"difficulty": int(difficulty)}
    env = gym.make(env_id, **kwargs, **({"obs_size": (size, size)} if size else {})).unwrapped
    seed = 5 * 10**6
    for _ in range(20):
        env.reset(seed=seed); env.step(env.oracle_action()); seed += 1
    best = 0.0
    for _ in range(passes):
        c0 = time.process_time()
        for _ in range(n):
            env.reset(seed=seed); env.step(env.oracle_action()); seed += 1
        best = max(best, n / max(time.process_time() - c0, 1e-9))
    env.close()
    print(f"{best:.1f}", flush=True)
'''


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog="See the module docstring.")
    p.add_argument("old", help="the source tree to compare against (a folder holding gymv_envs/)")
    p.add_argument("new", help="the source tree to time against it")
    p.add_argument("--size", type=int, default=84, help="obs_size side, 0 for each id's default size (default 84)")
    p.add_argument("--pattern", default="GymV/*", help="glob over single-turn ids (default: all)")
    p.add_argument("--pairs", type=int, default=300, help="pairs a pass (default 300)")
    p.add_argument("--passes", type=int, default=3, help="passes per id and tree, the best kept (default 3)")
    p.add_argument("--difficulties", default="default",
                   help="comma-separated difficulties to time each id at (default: the id's default one)")
    p.add_argument("--out", help="write the rows as JSON here")
    args = p.parse_args(argv)
    for tree in (args.old, args.new):
        if not os.path.isdir(os.path.join(tree, "gymv_envs")):
            p.error(f"{tree!r} holds no gymv_envs/ folder")
    if args.size < 0 or 0 < args.size < 32 or args.pairs < 1 or args.passes < 1:
        p.error("--size must be 0 or at least 32, --pairs and --passes at least 1")
    levels = args.difficulties.split(",")
    if levels != ["default"] and not all(d.isdigit() for d in levels):
        p.error(f"--difficulties must be 'default' or whole numbers like 0,1,2, not {args.difficulties!r}")
    sys.path.insert(0, os.path.abspath(args.new))
    import gymnasium as gym

    import gymv_envs

    ids = sorted(i for i in gym.registry if fnmatch.fnmatch(i, args.pattern) and i.startswith("GymV/")
                 and gymv_envs.describe(i)["protocol"] == "single_turn")
    if not ids:
        p.error(f"no single-turn id matches {args.pattern!r}")
    cells = [(i, "default") for i in ids] if levels == ["default"] else [
        (i, d) for i in ids for d in levels if int(d) in gymv_envs.task_spec(i).entry_point.difficulties]
    workers = [subprocess.Popen([sys.executable, "-c", _WORKER, str(args.size), str(args.pairs), str(args.passes)],
                                cwd=tree, env=dict(os.environ, PYTHONPATH=os.path.abspath(tree)),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for tree in (args.old, args.new)]
    rows: dict[str, list[float]] = {}
    try:
        for k, (env_id, difficulty) in enumerate(cells):
            key = env_id if difficulty == "default" else f"{env_id}@d{difficulty}"
            rates = [0.0, 0.0]
            for w in ((0, 1) if k % 2 == 0 else (1, 0)):  # which tree goes first alternates
                workers[w].stdin.write(f"{env_id} {difficulty}\n")
                workers[w].stdin.flush()
                line = workers[w].stdout.readline()
                if not line:
                    raise SystemExit(f"paired_speed: the worker of {(args.old, args.new)[w]} stopped at {key}")
                rates[w] = float(line)
            rows[key] = rates
            print(f"{key} | {rates[0]:,.0f} | {rates[1]:,.0f} | {rates[1] / rates[0] - 1:+.1%}", flush=True)
    finally:
        for w in workers:
            w.stdin.close()
            w.wait()
    old, new = (statistics.median(r[i] for r in rows.values()) for i in (0, 1))
    what = "ids" if levels == ["default"] else "cells (id, difficulty)"
    print(f"median over {len(rows)} {what}: {old:,.0f} -> {new:,.0f} pairs per CPU-second")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"trees": [args.old, args.new], "size": args.size, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
