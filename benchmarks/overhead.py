"""``python -m gymv.benchmarks overhead``: what the runner costs over raw stepping, and how workers scale.

Overhead: the same episodes (ids x seeds, random agent, registered budget) twice in this
process: a raw loop (``gym.make`` once per id, ``reset(seed)``, ``action_space.sample()``,
``obs, reward, ... = step(action)`` until the episode ends) and the full ``run`` command with one worker (episode
records, appends fsynced once a second, the final sort, summary with bootstrap, Markdown/CSV; plots off).
The two alternate ``--repeats`` times; each side's best (minimum) time is compared, on
both clocks: ``overhead = runner / raw - 1`` for CPU time of this process (robust to other
load on a shared machine) and for wall time.

Scaling: ``run`` with ``--workers 1`` and then ``--workers 2`` (process pool) over CPU-bound
ids, each into a fresh directory; throughput is episodes per second of the whole command.
The machine may be shared: the CPU count and load average are printed with the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import gymnasium as gym

import gymv_envs
from gymv.benchmarks import run as bench_run

OVERHEAD_IDS = ("GymV/Breakout-v1", "GymV/GridNav-v1", "GymV/MazePath-v1", "GymV/SlidingPuzzle-v1",
                "GymV/Sokoban-v1", "GymV/TicTacToe-v1")
SCALING_IDS = ("GymV/RaycastMaze-v1", "GymV/Breakout-v1", "GymV/SymbolRecall-v1", "GymV/Artillery-v1")


def raw_loop(ids: list[str], seeds: list[int]) -> tuple[float, float]:
    t0, c0 = time.perf_counter(), time.process_time()
    for env_id in ids:
        env = gym.make(env_id)
        for seed in seeds:
            env.action_space.seed(seed)
            obs, info = env.reset(seed=seed)
            while True:  # Gymnasium's loop: the observation lives until the next one, as in any agent
                obs, reward, term, trunc, info = env.step(env.action_space.sample())
                if term or trunc:
                    break
        env.close()
    return time.perf_counter() - t0, time.process_time() - c0


def runner(ids: list[str], seeds: list[int], workers: int, extra: tuple[str, ...] = ()) -> tuple[float, float]:
    with tempfile.TemporaryDirectory(prefix="gymv-overhead-") as tmp:
        argv = ["--agent", "random", "--seed-list", ",".join(map(str, seeds)), "--workers", str(workers),
                "--out", tmp, "--quiet", "--no-plots", *extra]
        for env_id in ids:
            argv += ["--ids", env_id]
        t0, c0 = time.perf_counter(), time.process_time()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            rc = bench_run.main(argv)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    if rc == 130:   # the run was interrupted (Ctrl-C): stop here too
        raise KeyboardInterrupt
    if rc != 0:
        raise RuntimeError(f"run {argv} exited {rc}")
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gymv-bench overhead", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ids", nargs="*", default=list(OVERHEAD_IDS), help="ids for the overhead check")
    parser.add_argument("--seeds", type=int, default=60, help="seeds per id for the overhead check (default 60)")
    parser.add_argument("--repeats", type=int, default=5, help="alternating repeats, medians compared (default 5)")
    parser.add_argument("--scaling-ids", nargs="*", default=list(SCALING_IDS), help="CPU-bound ids for scaling")
    parser.add_argument("--scaling-seeds", type=int, default=12, help="seeds per id for scaling (default 12)")
    parser.add_argument("--skip-scaling", action="store_true")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.repeats < 1 or args.scaling_seeds < 1 or not args.ids:
        parser.error("--seeds, --repeats and --scaling-seeds must be >= 1, and --ids must name at least one id")
    if not args.skip_scaling and not args.scaling_ids:
        parser.error("--scaling-ids must name at least one id (or give --skip-scaling)")
    for env_id in [*args.ids, *args.scaling_ids]:
        try:
            gymv_envs.describe(env_id)
        except ValueError as exc:
            parser.error(str(exc))
    seeds = list(range(args.seeds))
    raw_loop(args.ids, seeds[:1])  # warm caches (fonts, imports) for both sides
    raw_t, run_t = [], []
    for _ in range(args.repeats):
        raw_t.append(raw_loop(args.ids, seeds))
        run_t.append(runner(args.ids, seeds, workers=1))
    (raw_wall, raw_cpu), (run_wall, run_cpu) = (tuple(map(min, zip(*t))) for t in (raw_t, run_t))
    out: dict[str, Any] = {
        "cpus": os.cpu_count(), "loadavg_before": [round(x, 2) for x in os.getloadavg()],
        "overhead": {"ids": args.ids, "episodes": len(args.ids) * len(seeds), "repeats": args.repeats,
                     "raw_wall_s": [round(w, 4) for w, _ in raw_t], "raw_cpu_s": [round(c, 4) for _, c in raw_t],
                     "runner_wall_s": [round(w, 4) for w, _ in run_t], "runner_cpu_s": [round(c, 4) for _, c in run_t],
                     "overhead_cpu_pct": round(100 * (run_cpu / raw_cpu - 1), 2),
                     "overhead_wall_pct": round(100 * (run_wall / raw_wall - 1), 2)},
    }
    o = out["overhead"]
    print(f"runner overhead over raw stepping: {o['overhead_cpu_pct']:+.1f}% CPU time, {o['overhead_wall_pct']:+.1f}% "
          f"wall time (best of {args.repeats}: raw {raw_cpu:.3f} s CPU / {raw_wall:.3f} s wall, runner "
          f"{run_cpu:.3f} s CPU / {run_wall:.3f} s wall; {o['episodes']} episodes, random agent, 1 worker; "
          f"{1000 * (run_cpu - raw_cpu) / o['episodes']:+.2f} ms CPU per episode, fixed costs included)")
    if not args.skip_scaling:
        sseeds = list(range(args.scaling_seeds))
        one = runner(args.scaling_ids, sseeds, workers=1)[0]
        two = runner(args.scaling_ids, sseeds, workers=2)[0]
        n = len(args.scaling_ids) * len(sseeds)
        out["scaling"] = {"ids": args.scaling_ids, "episodes": n, "one_worker_s": round(one, 3),
                          "two_workers_s": round(two, 3), "speedup": round(one / two, 3)}
        out["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
        print(f"2 workers vs 1: {one / two:.2f}x ({n} episodes: {one:.2f} s vs {two:.2f} s wall; "
              f"{os.cpu_count()} CPUs, load average before {out['loadavg_before']}, after {out['loadavg_after']})")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
