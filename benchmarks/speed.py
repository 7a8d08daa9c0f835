"""Speed benchmark: reset/s, step/s, render ms and peak RSS per id, at the default size and 84x84.

``python -m gymv.benchmarks speed [--pattern GLOB] [--protocol P] [--domains D1,D2] [--seconds S] [--sizes default,84,...] [--out DIR] [--no-isolate]``

Each id is measured in a fresh subprocess (``--one ID``), so ``peak_rss_mb`` is that id's own
peak resident memory (the interpreter and ``import gymv_envs`` included; ``base_rss_mb`` is
the peak right after the imports, before the env is made, so the difference is the env's
share). ``--no-isolate`` measures every id in this process, faster, but then RSS is a running
peak and is reported as such (``peak_rss_mb_running``).

Measured on ``env.unwrapped`` (the env's own cost, no wrappers) in this one process, with
actions pre-sampled from the action space (seeded). Multi-turn: step/s excludes resets,
which are timed separately; ``step_per_cpu_s`` is the same count per CPU-second of the process (all
its threads, software GL included): a per-core figure that other load on the machine barely
changes (single-turn ids also get ``step_per_cpu_s@dN`` at every difficulty). Single-turn: one episode is one reset plus one step answered by
the oracle, so the rate reported is reset+step pairs per second. ``render_ms`` times ``env.render()`` (a copy of the current frame, what a
user calls); ``draw_ms`` times a full redraw of the frame (``env.unwrapped._draw()``; for web ids a new
screenshot). Web ids step with browser actions only (click, double-click, scroll, type).

``--web-vector N [--threads T]`` times instead one `WebVectorEnv` of N web envs (the ids the
pattern matches, in turn) over T worker threads sharing one Chromium each: aggregate env steps
per second of wall time and per CPU-second (this process and its Chromium children), the median
batch step, and the median single-env reset, with the autoresets of ended episodes counted in.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium as gym

import gymv_envs
from gymv.benchmarks.store import add_overwrite_arg, check_out_arg, write_reports
from gymv_envs.core.allocator import allocator_state
from gymv_envs.core.env import MAX_OBS_SIDE, VisionEnv
from gymv_envs.core.registry import unmatched_hint

BROWSER_KINDS = ("click", "double_click", "scroll", "type")


def _redraw(env: Any) -> None:
    if isinstance(getattr(env, "_dirty", None), bool):
        env._dirty = True  # web envs keep the last screenshot until the page changes (arcade ids keep boxes)
    env._draw()


def _rate(fn, seconds: float, min_calls: int = 3) -> float:
    calls, t0 = 0, time.perf_counter()
    while True:
        fn()
        calls += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds and calls >= min_calls:
            return calls / elapsed


def _durations(fn, seconds: float, min_calls: int = 3) -> list[float]:
    """Seconds each call of ``fn`` took, calling it for about ``seconds`` (at least ``min_calls``)."""
    out: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(out) < min_calls:
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def single_turn_rate(env_id: str, difficulty: int, seconds: float, cpu: bool = False) -> float:
    """Reset+step pairs per second (answered by the oracle) at one difficulty, default size; with
    ``cpu``, pairs per CPU-second of this process (a figure other load barely changes).

    Each pass plays its own seeds (the wall-clock pass from 1,000,000, the CPU pass from 2,000,000;
    `measure` plays 0, 1, ...), so no pass replays levels an earlier one left in a cache of drawn
    pieces: a user's fresh seeds would not find them there either."""
    env = gym.make(env_id, difficulty=difficulty).unwrapped
    seed = iter(range((2 if cpu else 1) * 10**6, 10**9))
    env.reset(seed=next(seed))

    def episode() -> None:
        env.reset(seed=next(seed))
        env.step(env.oracle_action())
    if cpu:
        calls, c0 = 0, time.process_time()
        while calls < 3 or time.process_time() - c0 < seconds:
            episode()
            calls += 1
        rate = calls / max(time.process_time() - c0, 1e-9)
    else:
        rate = _rate(episode, seconds)
    env.close()
    return rate


def measure(env_id: str, obs_size: tuple[int, int] | None, seconds: float) -> dict[str, float]:
    kwargs = {} if obs_size is None else {"obs_size": obs_size}
    env = gym.make(env_id, **kwargs).unwrapped
    env.action_space.seed(0)
    actions = [env.action_space.sample() for _ in range(512)]
    if isinstance(env.action_space, gym.spaces.Dict) and "kind" in env.action_space.spaces:
        # Web ids: time actions that reach the browser (a screenshot follows each). Kinds drawn
        # uniformly would make half the steps key/back/answer/done, mostly invalid or ending the
        # episode with no new screenshot, and the median would sit between the two groups.
        for j, a in enumerate(actions):
            a["kind"] = BROWSER_KINDS[j % len(BROWSER_KINDS)]
    seed = iter(range(10**9))
    env.reset(seed=next(seed))  # the first reset (browser start, caches) is not counted
    resets = _durations(lambda: env.reset(seed=next(seed)), seconds / 3)
    out: dict[str, float] = {"reset_per_s": len(resets) / sum(resets),
                             "reset_ms_median": 1000 * statistics.median(resets)}
    i = 0
    cpu0 = time.process_time()
    if env.protocol == "single_turn":
        def episode() -> None:  # answered by the oracle, so every step reads and judges an answer
            env.reset(seed=next(seed))
            env.step(env.oracle_action())
        calls, t0 = 0, time.perf_counter()
        while True:
            episode()
            calls += 1
            if time.perf_counter() - t0 >= seconds and calls >= 3:
                break
        out["step_per_s"] = calls / (time.perf_counter() - t0)
        out["step_per_cpu_s"] = calls / max(time.process_time() - cpu0, 1e-9)
    else:
        times: list[float] = []
        c0 = time.process_time()
        env.reset(seed=next(seed))
        reset_cpu = time.process_time() - c0  # (every reset's CPU time is left out, the first one too)
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline or len(times) < 3:
            t0 = time.perf_counter()
            _, _, term, trunc, _ = env.step(actions[i % len(actions)])
            times.append(time.perf_counter() - t0)
            i += 1
            if term or trunc or len(times) % 500 == 0:
                c0 = time.process_time()
                env.reset(seed=next(seed))
                reset_cpu += time.process_time() - c0
        out["step_per_s"] = len(times) / sum(times)
        out["step_ms_median"] = 1000 * statistics.median(times)
        # steps per CPU-second of this process (every thread: software GL included), resets left out:
        # the per-core figure, which other load on the machine barely changes
        out["step_per_cpu_s"] = len(times) / max(time.process_time() - cpu0 - reset_cpu, 1e-9)
    out["render_ms"] = 1000 / _rate(env.render, seconds / 4)
    out["draw_ms"] = 1000 / _rate(lambda: _redraw(env), seconds / 4)
    env.close()
    return out


def _children_cpu_s() -> float:
    """CPU seconds used so far by this process's live descendants (Playwright's driver and the
    browsers), read from ``/proc``; 0.0 where there is no ``/proc``."""
    procs: dict[int, tuple[int, float]] = {}
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    try:
        names = os.listdir("/proc")
    except OSError:
        return 0.0
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as fh:
                fields = fh.read().rpartition(")")[2].split()
        except OSError:
            continue
        procs[int(name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)  # ppid, utime + stime
    kids: dict[int, list[int]] = {}
    for pid, (ppid, _) in procs.items():
        kids.setdefault(ppid, []).append(pid)
    total, todo = 0.0, list(kids.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        total += procs[pid][1]
        todo += kids.get(pid, [])
    return total


def web_vector_rate(env_ids: list[str], num_envs: int, threads: int, seconds: float,
                    obs_size: tuple[int, int] | None = None) -> dict[str, Any]:
    """Aggregate throughput of one `WebVectorEnv` stepping N envs with browser actions."""
    import numpy as np

    from gymv_envs.domains.web import WebVectorEnv
    from gymv_envs.domains.web._grammar import KINDS

    ids = [env_ids[i % len(env_ids)] for i in range(num_envs)]
    kwargs = {} if obs_size is None else {"obs_size": obs_size}
    t_make = time.perf_counter()
    envs = WebVectorEnv(ids, threads=threads, **kwargs)
    make_s = time.perf_counter() - t_make
    try:
        envs.reset(seed=0)
        single = envs.envs[0].unwrapped
        seeds = iter(range(1, 10**9))
        # Playwright's sync API is bound to the thread that started it: reset env 0 on its own worker
        resets = _durations(lambda: envs._pool(0).submit(single.reset, seed=next(seeds)).result(), seconds / 4)
        envs.action_space.seed(0)
        browser = [KINDS.index(k) for k in BROWSER_KINDS]  # as `measure`: actions that reach the browser
        batches: list[float] = []
        c0, k0 = time.process_time(), _children_cpu_s()
        deadline = time.perf_counter() + seconds
        j = 0
        while time.perf_counter() < deadline or len(batches) < 3:
            action = envs.action_space.sample()
            action["kind"] = np.array([browser[(j + i) % len(browser)] for i in range(num_envs)])
            j += 1
            t0 = time.perf_counter()
            envs.step(action)
            batches.append(time.perf_counter() - t0)
        cpu = time.process_time() - c0 + _children_cpu_s() - k0
    finally:
        envs.close()
    steps = num_envs * len(batches)
    return {"ids": sorted(set(ids)), "num_envs": num_envs, "threads": threads, "obs_size": list(single.obs_size),
            "make_s": round(make_s, 2), "steps": steps, "step_per_s": round(steps / sum(batches), 1),
            "step_per_cpu_s": round(steps / max(cpu, 1e-9), 1),
            "batch_step_ms_median": round(1000 * statistics.median(batches), 1),
            "reset_ms_median": round(1000 * statistics.median(resets), 1)}


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def parse_sizes(text: str) -> list[tuple[str, tuple[int, int] | None]]:
    """``"default,84,128x96"`` -> labelled sizes (N alone is N x N; ``default`` is the id's own size)."""
    out: list[tuple[str, tuple[int, int] | None]] = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        if part == "default":
            out.append(("default", None))
            continue
        try:
            h, w = (int(v) for v in part.split("x")) if "x" in part else (int(part), int(part))
        except ValueError:
            raise ValueError(f"invalid size {part!r} in --sizes; valid: 'default', N (N x N) or HxW, comma-separated") from None
        low = min(VisionEnv.min_obs_size)   # what every id accepts (16 passed here, then failed in the env)
        if not (low <= h <= MAX_OBS_SIDE and low <= w <= MAX_OBS_SIDE):
            raise ValueError(f"invalid size {part!r} in --sizes; sides must be {low} to {MAX_OBS_SIDE} pixels")
        out.append((part, (h, w)))
    for need in ("default", "84"):  # the summary's figures
        if need not in [label for label, _ in out]:
            out.insert(0 if need == "default" else 1, (need, None if need == "default" else (84, 84)))
    return out


def measure_row(env_id: str, seconds: float, sizes: str = "default,84") -> dict[str, Any]:
    """Every figure of one id (in this process), at each of ``sizes`` (see `parse_sizes`)."""
    d = gymv_envs.describe(env_id)
    row: dict[str, Any] = {"id": env_id, "protocol": d["protocol"], "domain": d["domain"]}
    for label, size in parse_sizes(sizes):
        for k, v in measure(env_id, size, seconds).items():
            row[f"{k}@{label}"] = round(v, 3)
    if d["protocol"] == "single_turn":  # every difficulty, at the default size
        rates = {f"step_per_s@d{lvl}": round(single_turn_rate(env_id, lvl, seconds / 2), 3) for lvl in d["difficulties"]}
        cpu = {f"step_per_cpu_s@d{lvl}": round(single_turn_rate(env_id, lvl, seconds / 2, cpu=True), 3) for lvl in d["difficulties"]}
        row.update(rates, **cpu, **{"step_per_s@slowest_difficulty": min(rates.values()),
                                    "step_per_cpu_s@slowest_difficulty": min(cpu.values())})
    return row


def measure_isolated(env_id: str, seconds: float, sizes: str = "default,84") -> dict[str, Any]:
    """`measure_row` in a fresh interpreter, with its peak RSS."""
    out = subprocess.run([sys.executable, "-m", "gymv.benchmarks.speed", "--one", env_id, "--seconds", str(seconds),
                          "--sizes", sizes],
                         capture_output=True, text=True, timeout=600 + 40 * seconds)
    if out.returncode != 0:
        raise RuntimeError(f"measuring {env_id} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gymv-bench speed", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pattern", default="*", help="glob over ids (default: all available)")
    parser.add_argument("--protocol", choices=("single_turn", "multi_turn"), help="only ids of this protocol")
    parser.add_argument("--domains", help="only ids of these domains, comma-separated (e.g. games,gridworld)")
    parser.add_argument("--seconds", type=float, default=0.5, help="time per measurement (default 0.5)")
    parser.add_argument("--out", default="results/speed", help="output directory (default results/speed)")
    parser.add_argument("--no-isolate", action="store_true", help="measure every id in this process (RSS is then a running peak)")
    parser.add_argument("--sizes", default="default,84",
                        help="observation sizes to time, comma-separated: 'default', N (N x N) or HxW "
                             "(default 'default,84'; e.g. 'default,84,128,512' for the robotics figures)")
    parser.add_argument("--web-vector", type=int, metavar="N",
                        help="time one WebVectorEnv of N web envs (the matched web ids, in turn) instead")
    parser.add_argument("--threads", type=int, default=2, help="worker threads of --web-vector (default 2)")
    add_overwrite_arg(parser)
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: measure one id, print its JSON row
    args = parser.parse_args(argv)
    try:
        parse_sizes(args.sizes)
    except ValueError as exc:
        parser.error(str(exc))
    if not args.seconds > 0:
        parser.error(f"invalid --seconds {args.seconds}; valid values: a number > 0")
    if args.one:
        base = _peak_rss_mb()
        row = measure_row(args.one, args.seconds, args.sizes)
        row.update(base_rss_mb=round(base, 1), peak_rss_mb=round(_peak_rss_mb(), 1))
        print(json.dumps(row))
        return 0
    domains = None
    if args.domains is not None:
        domains = {d.strip() for d in args.domains.split(",") if d.strip()}
        unknown = sorted(domains - set(gymv_envs.domain_names()))
        if unknown or not domains:
            parser.error(f"unknown --domains {', '.join(unknown) or repr(args.domains)}; valid: "
                         f"{', '.join(gymv_envs.domain_names())}")
    selected = [i for i in gymv_envs.ids(args.pattern, available_only=True)
                if (args.protocol is None or gymv_envs.describe(i)["protocol"] == args.protocol)
                and (domains is None or gymv_envs.describe(i)["domain"] in domains)]
    if not selected:
        parser.error(f"no available id matches {args.pattern!r}"
                     + (f" in the domains {args.domains}" if domains else "")
                     + (f" with protocol {args.protocol}" if args.protocol else "") + unmatched_hint([args.pattern]))
    reports = ("web_vector.json",) if args.web_vector is not None else ("speed.json", "speed.md")
    check_out_arg(parser, args.out, reports=reports, overwrite=args.overwrite)   # before the timing
    if args.web_vector is not None:
        return _main_web_vector(args, parser, selected)
    out_dir = Path(args.out)
    rows: list[dict[str, Any]] = []
    failed: dict[str, str] = {}   # an id that could not be timed is reported, and the others still are
    interrupted = False
    try:
        for env_id in selected:
            try:
                rows.append(_measure_and_print(env_id, args))
            except Exception as exc:   # noqa: BLE001 - any env's failure, named in the report
                failed[env_id] = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
                print(f"{env_id:34} FAILED: {failed[env_id]}", file=sys.stderr, flush=True)
    except KeyboardInterrupt:   # Ctrl-C: keep the ids already timed (a full run takes tens of minutes)
        interrupted = True
    if not rows:
        print(("interrupted before the first id was timed" if interrupted else "no id could be timed")
              + ": nothing was written", file=sys.stderr)
        return 130 if interrupted else 1
    summary = summarize(rows)
    meta = {"python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
            "loadavg": [round(x, 2) for x in os.getloadavg()], "isolated": not args.no_isolate,
            "seconds": args.seconds, "allocator": allocator_state()}
    if interrupted:
        meta.update(interrupted=True, ids_timed=len(rows), ids_selected=len(selected))
    if failed:
        meta["failed"] = failed
    write_reports(out_dir, {"speed.json": json.dumps({"meta": meta, "summary": summary, "rows": rows}, indent=2),
                            "speed.md": to_markdown(rows, summary)})
    print("\n" + json.dumps(summary, indent=2))
    print(f"wrote {out_dir / 'speed.json'} and {out_dir / 'speed.md'}")
    if interrupted:
        print(f"interrupted: the reports hold the {len(rows)} of {len(selected)} ids timed before Ctrl-C", file=sys.stderr)
        return 130
    if failed:
        print(f"not timed, {len(failed)} of {len(selected)} ids (listed in speed.json's meta.failed): {', '.join(failed)}",
              file=sys.stderr)
        return 1
    return 0


def _measure_and_print(env_id: str, args: argparse.Namespace) -> dict[str, Any]:
    """One id's row (in its own process unless ``--no-isolate``), printed as a line."""
    if args.no_isolate:
        row = measure_row(env_id, args.seconds, args.sizes)
        row["peak_rss_mb_running"] = round(_peak_rss_mb(), 1)
    else:
        row = measure_isolated(env_id, args.seconds, args.sizes)
    rss = row.get("peak_rss_mb", row.get("peak_rss_mb_running"))
    extra = "".join(f"  step/s@{label} {row[f'step_per_s@{label}']:7.0f} (per CPU-s {row[f'step_per_cpu_s@{label}']:7.0f})"
                    for label, _ in parse_sizes(args.sizes) if label not in ("default", "84"))
    print(f"{env_id:34} step/s@default {row['step_per_s@default']:9.0f}  step/s@84 {row['step_per_s@84']:9.0f}  "
          f"reset/s@default {row['reset_per_s@default']:8.0f}  draw ms {row['draw_ms@default']:7.2f}  "
          f"peak RSS {rss:6.0f} MB{extra}", flush=True)
    return row


def _main_web_vector(args: argparse.Namespace, parser: argparse.ArgumentParser, selected: list[str]) -> int:
    web = [i for i in selected if gymv_envs.describe(i)["domain"] == "web"]
    if not web:
        parser.error(f"--web-vector needs web ids; {args.pattern!r} matches none (try --pattern 'GymV/Web*')")
    if args.web_vector < 1 or args.threads < 1:
        parser.error(f"invalid --web-vector {args.web_vector} / --threads {args.threads}; valid values: integers >= 1")
    listed = {part.strip() for part in args.sizes.split(",")}
    sizes = [(label, size) for label, size in parse_sizes(args.sizes) if label in listed]  # only the sizes asked for
    rows = [web_vector_rate(web, args.web_vector, args.threads, args.seconds, size) for _, size in sizes]
    out_dir = Path(args.out)
    for row in rows:
        print(f"WebVectorEnv {row['num_envs']} envs / {row['threads']} threads at {row['obs_size'][1]}x{row['obs_size'][0]}: "
              f"{row['step_per_s']:.1f} steps/s ({row['step_per_cpu_s']:.1f} per CPU-s, browsers included), batch step "
              f"{row['batch_step_ms_median']:.0f} ms, reset {row['reset_ms_median']:.0f} ms", flush=True)
    meta = {"cpus": os.cpu_count(), "loadavg": [round(x, 2) for x in os.getloadavg()], "seconds": args.seconds,
            "allocator": allocator_state()}
    write_reports(out_dir, {"web_vector.json": json.dumps({"meta": meta, "rows": rows}, indent=2)})
    print(f"wrote {out_dir / 'web_vector.json'}")
    return 0


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    multi = [r for r in rows if r["protocol"] == "multi_turn"]
    single = [r for r in rows if r["protocol"] == "single_turn"]
    med = lambda xs, nd=1: round(statistics.median(xs), nd) if xs else None  # noqa: E731
    slowest = sorted(rows, key=lambda r: r["step_per_s@default"])[:5]
    rss = [r.get("peak_rss_mb", r.get("peak_rss_mb_running")) for r in rows]
    heaviest = sorted(rows, key=lambda r: -r.get("peak_rss_mb", r.get("peak_rss_mb_running", 0)))[:3]
    return {
        "ids": len(rows),
        "multi_turn_step_per_s_84_median": med([r["step_per_s@84"] for r in multi]),
        # steps per CPU-second of each id's process at 84x84, resets left out: the figure other load barely changes
        "multi_turn_step_per_cpu_s_84_median": med([r["step_per_cpu_s@84"] for r in multi]),
        "multi_turn_step_per_s_default_median": med([r["step_per_s@default"] for r in multi]),
        "single_turn_reset_step_per_s_default_median": med([r["step_per_s@default"] for r in single]),
        "single_turn_reset_step_per_cpu_s_default_median": med([r["step_per_cpu_s@default"] for r in single]),
        # at 84x84 (the size RL code trains at), where the sizes measured include it
        "single_turn_reset_step_per_s_84_median": med([r["step_per_s@84"] for r in single if "step_per_s@84" in r]),
        "single_turn_reset_step_per_cpu_s_84_median":
            med([r["step_per_cpu_s@84"] for r in single if "step_per_cpu_s@84" in r]),
        # the slowest difficulty of each single-turn id: the "no id under 1,000/s at any difficulty" bar
        "single_turn_slowest_difficulty": [(r["id"], round(r["step_per_s@slowest_difficulty"], 1)) for r in
                                           sorted(single, key=lambda r: r["step_per_s@slowest_difficulty"])[:10]],
        "single_turn_ids_under_1000_at_some_difficulty": sum(r["step_per_s@slowest_difficulty"] < 1000 for r in single),
        "single_turn_ids_under_1000_per_cpu_s_at_some_difficulty":
            sum(r.get("step_per_cpu_s@slowest_difficulty", 1e9) < 1000 for r in single),
        "single_turn_slowest_difficulty_per_cpu_s_median":
            med([r["step_per_cpu_s@slowest_difficulty"] for r in single if "step_per_cpu_s@slowest_difficulty" in r]),
        "slowest_default": [(r["id"], round(r["step_per_s@default"], 1)) for r in slowest],
        "render_ms_default_median": med([r["render_ms@default"] for r in rows], 3),
        "draw_ms_default_median": med([r["draw_ms@default"] for r in rows], 3),
        "peak_rss_mb_median": med(rss),
        "peak_rss_mb_max": [(r["id"], r.get("peak_rss_mb", r.get("peak_rss_mb_running"))) for r in heaviest],
        # per domain, over its ids: the median of each id's median step / reset time (default size)
        "step_ms_median_by_domain": _by_domain(multi, "step_ms_median@default"),
        "reset_ms_median_by_domain": _by_domain(rows, "reset_ms_median@default"),
    }


def _by_domain(rows: list[dict[str, Any]], key: str) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for domain in sorted({r["domain"] for r in rows}):
        values = [r[key] for r in rows if r["domain"] == domain and key in r]
        if values:
            out[domain] = {"median": round(statistics.median(values), 2), "max": round(max(values), 2)}
    return out


def to_markdown(rows: list[dict[str, Any]], summary: dict[str, Any]) -> str:
    lines = ["| id | protocol | step/s (default) | step/s (84x84) | step/s (d0 / d1 / d2) | step ms median | reset/s (default) "
             "| reset ms median | render ms | draw ms | peak RSS MB |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        rss = r.get("peak_rss_mb", r.get("peak_rss_mb_running"))
        step_ms = f"{r['step_ms_median@default']:.2f}" if "step_ms_median@default" in r else "-"
        levels = sorted(k for k in r if k.startswith("step_per_s@d") and k[12:].isdigit())
        by_level = " / ".join(f"{r[k]:.0f}" for k in levels) if levels else "-"
        lines.append(f"| {r['id']} | {r['protocol']} | {r['step_per_s@default']:.0f} | {r['step_per_s@84']:.0f} | {by_level} | {step_ms} | "
                     f"{r['reset_per_s@default']:.0f} | {r['reset_ms_median@default']:.2f} | {r['render_ms@default']:.3f} | "
                     f"{r['draw_ms@default']:.3f} | {rss:.0f} |")
    lines += ["", "Summary:", "", "```json", json.dumps(summary, indent=2), "```", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
