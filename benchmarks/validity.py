"""``gymv-bench validity``: does chance do badly on every id? Random and oracle scores per id and level.

    gymv-bench validity                          # every available id, its default difficulty
    gymv-bench validity --ids 'GymV/Grid*' --difficulty all --seeds 20
    gymv-bench validity --domain world3d --action-mode parametric

For each id and difficulty: a uniform random policy (actions from the action space, seeded apart
from the level) plays ``--seeds`` levels and the oracle ``--oracle-seeds`` of them, under the
registered step budget; both are scored by the benchmark protocol. Single-turn ids are also
checked in their ``mcq`` format over ``--mcq-seeds`` levels: every letter is tried on every
level, so the random-letter score is exact (``100 * correct letters / k``, 100/k when exactly
one option is right) and the constant-letter scores show whether letters are balanced.

A default level (the difficulty ``gym.make(id)`` gives) fails when random play succeeds on more
than ``--max-success`` percent of its levels (world3d and robotics: ``--max-success-3d``), when
its random score exceeds ``--max-score``, when the oracle fails a level, or when the MCQ
random-letter score is off chance by more than ``--mcq-tolerance`` points.

``--action-mode`` plays every chosen id that offers that action mode in it (``parametric``: the
random policy samples the `Box`) and skips, naming them, the ids that do not; by default each id
plays in its own default mode. The table goes to
stdout (and ``--out`` as JSON and Markdown); the exit status is 1 when any default level fails.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import gymv_envs
from gymv.benchmarks.episode import EpisodeTask
from gymv.benchmarks.executors import execute
from gymv.benchmarks.run import split_globs
from gymv.benchmarks.store import add_overwrite_arg, check_out_arg, write_reports
from gymv_envs.core.registry import unmatched_hint

REPORTS = ("validity.json", "validity.md")
STRICT_DOMAINS = ("world3d", "robotics")  # worlds where a random walk is a real threat: tighter bound


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gymv-bench validity", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ids", action="append", default=None, metavar="GLOB", help="glob over ids (repeatable or comma-separated)")
    p.add_argument("--domain", action="append", default=None, help="only this domain (repeatable)")
    p.add_argument("--difficulty", default="default", help="'default' (the id's), 'all', or comma-separated levels")
    p.add_argument("--seeds", type=int, default=20, help="levels the random policy plays per id and level (default 20)")
    p.add_argument("--oracle-seeds", type=int, default=3, help="levels the oracle plays (default 3)")
    p.add_argument("--mcq-seeds", type=int, default=40, help="levels of the single-turn MCQ check (default 40)")
    p.add_argument("--max-success", type=float, default=20.0, help="random success %% allowed (default 20)")
    p.add_argument("--max-success-3d", type=float, default=10.0,
                   help=f"random success %% allowed in {', '.join(STRICT_DOMAINS)} (default 10)")
    p.add_argument("--max-score", type=float, default=20.0, help="random score allowed on the 0-100 scale (default 20)")
    p.add_argument("--mcq-tolerance", type=float, default=5.0, help="MCQ random-letter score: chance +- this (default 5)")
    p.add_argument("--action-mode", default=None,
                   help="play in this action mode (e.g. parametric); ids without it are skipped (default: each id's own)")
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: CPU cores)")
    p.add_argument("--out", default=None, help="also write validity.json and validity.md here")
    add_overwrite_arg(p)
    p.add_argument("--quiet", action="store_true")
    return p


def _levels(spec: str, desc: dict[str, Any]) -> list[int]:
    valid = desc["difficulties"]
    default = int(desc["kwargs"].get("difficulty", valid[0]))
    if spec == "default":
        return [default]
    if spec == "all":
        return list(valid)
    try:
        levels = [int(x) for x in spec.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"--difficulty must be 'default', 'all' or comma-separated integers, got {spec!r}") from None
    bad = [d for d in levels if d not in valid]
    if bad:
        raise ValueError(f"{desc['id']} has no difficulty {bad}; valid: {valid}")
    return levels


def mcq_chance(env_id: str, difficulty: int, seeds: int) -> dict[str, Any]:
    """Exact random-letter score and constant-letter scores of an id's MCQ format over ``seeds`` levels."""
    import gymnasium as gym

    env = gym.make(env_id, difficulty=difficulty, answer_format="mcq", obs_size=(64, 64)).unwrapped
    k = int(env.action_space.n)
    per_letter = [0.0] * k
    exact = 0.0
    try:
        for seed in range(seeds):
            right = []
            for letter in range(k):
                env.reset(seed=seed)
                right.append(env.step(letter)[1] == 1.0)
            exact += sum(right) / k
            for letter, ok in enumerate(right):
                per_letter[letter] += ok
    finally:
        env.close()
    return {"options": k, "chance": round(100.0 / k, 3), "random_letter": round(100.0 * exact / seeds, 3),
            "constant_letters": [round(100.0 * c / seeds, 1) for c in per_letter]}


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    args.ids = split_globs(args.ids)
    chosen: set[str] = set()
    for pattern in args.ids or ["*"]:
        for domain in args.domain or [None]:
            chosen.update(gymv_envs.ids(pattern, domain=domain, available_only=True))
    if not chosen:
        raise ValueError(f"no available id matches --ids {args.ids or ['*']} --domain {args.domain}"
                         f"{unmatched_hint(args.ids or [])}")
    mode = args.action_mode
    if mode is not None:
        modes = {i: gymv_envs.describe(i)["action_modes"] for i in chosen}
        offered = sorted({m for ms in modes.values() for m in ms})
        if mode not in offered:
            raise ValueError(f"no chosen id offers --action-mode {mode!r}; valid: {', '.join(offered)}")
        skipped = sorted(i for i, ms in modes.items() if mode not in ms)
        if skipped and not args.quiet:
            print(f"skipping {len(skipped)} ids without action mode {mode!r}: {', '.join(skipped)}", file=sys.stderr)
        chosen -= set(skipped)
    rows: dict[tuple[str, int], dict[str, Any]] = {}
    tasks: list[EpisodeTask] = []
    for env_id in sorted(chosen):
        desc = gymv_envs.describe(env_id)
        default = int(desc["kwargs"].get("difficulty", desc["difficulties"][0]))
        for level in _levels(args.difficulty, desc):
            rows[(env_id, level)] = {"id": env_id, "domain": desc["domain"], "protocol": desc["protocol"],
                                     "difficulty": level, "default": level == default, "random": [], "oracle": []}
            kwargs: dict[str, Any] = {"difficulty": level}
            if mode is not None:
                rows[(env_id, level)]["action_mode"] = kwargs["action_mode"] = mode
            tasks += [EpisodeTask(env_id, kwargs, seed, agent="random") for seed in range(args.seeds)]
            tasks += [EpisodeTask(env_id, kwargs, seed, agent="oracle") for seed in range(args.oracle_seeds)]
    workers = args.workers or os.cpu_count() or 1
    done = 0
    for task, record, error in execute(tasks, "process", workers):
        row = rows[(task.env_id, task.env_kwargs["difficulty"])]
        if error is not None:
            row.setdefault("errors", []).append(f"{task.agent} seed {task.seed}: {error.strip().splitlines()[-1]}")
            continue
        row[task.agent].append((bool(record["success"]), float(record["score"])))
        done += 1
        if not args.quiet and done % 200 == 0:
            print(f"{done}/{len(tasks)} episodes", file=sys.stderr, flush=True)
    out = []
    for (env_id, level), row in sorted(rows.items()):
        rnd, orc = row.pop("random"), row.pop("oracle")
        row["random_success"] = round(100.0 * sum(s for s, _ in rnd) / len(rnd), 1) if rnd else None
        row["random_score"] = round(sum(v for _, v in rnd) / len(rnd), 1) if rnd else None
        row["oracle_success"] = round(100.0 * sum(s for s, _ in orc) / len(orc), 1) if orc else None
        row["oracle_score"] = round(sum(v for _, v in orc) / len(orc), 1) if orc else None
        row["levels"] = {"random": len(rnd), "oracle": len(orc)}
        if row["protocol"] == "single_turn" and "mcq" in gymv_envs.describe(env_id)["answer_formats"]:
            row["mcq"] = mcq_chance(env_id, level, args.mcq_seeds)
        row["problems"] = problems(row, args)
        out.append(row)
    return out


def problems(row: dict[str, Any], args: argparse.Namespace) -> list[str]:
    """Why a level fails the validity bar (empty when it passes)."""
    bad = list(row.get("errors", []))
    limit = args.max_success_3d if row["domain"] in STRICT_DOMAINS else args.max_success
    if row["random_success"] is not None and row["random_success"] > limit:
        bad.append(f"random succeeds on {row['random_success']:.0f}% of levels (at most {limit:g}%)")
    if row["random_score"] is not None and row["random_score"] > args.max_score:
        bad.append(f"random scores {row['random_score']:.1f} (at most {args.max_score:g})")
    if row["oracle_success"] is not None and row["oracle_success"] < 100.0:
        bad.append(f"the oracle succeeds on only {row['oracle_success']:.0f}% of levels")
    mcq = row.get("mcq")
    if mcq and abs(mcq["random_letter"] - mcq["chance"]) > args.mcq_tolerance:
        bad.append(f"MCQ random letter scores {mcq['random_letter']:.1f} (chance {mcq['chance']:.1f})")
    return bad


def _fmt(v: Any) -> str:
    return "-" if v is None else f"{v:.1f}"


def table(rows: list[dict[str, Any]]) -> str:
    head = (f"{'id':40} {'d':>2} {'def':>3} {'rand succ%':>10} {'rand score':>10} {'orac succ%':>10} "
            f"{'orac score':>10} {'mcq rand':>8}  verdict")
    lines = [head, "-" * len(head)]
    for r in rows:
        mcq = r.get("mcq", {}).get("random_letter")
        verdict = "ok" if not r["problems"] else ("FAIL: " if r["default"] else "(not default) ") + "; ".join(r["problems"])
        lines.append(f"{r['id'][:40]:40} {r['difficulty']:>2} {'*' if r['default'] else '':>3} "
                     f"{_fmt(r['random_success']):>10} {_fmt(r['random_score']):>10} {_fmt(r['oracle_success']):>10} "
                     f"{_fmt(r['oracle_score']):>10} {_fmt(mcq):>8}  {verdict}")
    return "\n".join(lines)


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    defaults = [r for r in rows if r["default"]]
    multi = [r for r in defaults if r["protocol"] == "multi_turn"]
    mcq = [r["mcq"]["random_letter"] for r in defaults if r.get("mcq")]
    mean = lambda xs: round(sum(xs) / len(xs), 1) if xs else None  # noqa: E731
    return {"ids": len({r["id"] for r in rows}), "default_levels": len(defaults),
            "default_levels_failing": sorted(r["id"] for r in defaults if r["problems"]),
            "multi_turn_random_success_mean": mean([r["random_success"] for r in multi]),
            "multi_turn_random_success_max": max((r["random_success"] for r in multi), default=None),
            "multi_turn_random_score_mean": mean([r["random_score"] for r in multi]),
            "mcq_random_letter_mean": mean(mcq)}


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.oracle_seeds < 0 or args.mcq_seeds < 1:
        parser.error("--seeds and --mcq-seeds must be >= 1, --oracle-seeds >= 0")
    for flag, value in (("--max-success", args.max_success), ("--max-success-3d", args.max_success_3d),
                        ("--max-score", args.max_score)):
        if not value <= 100:   # a bar below 0 fails every level, on purpose; above 100 it would pass every one
            parser.error(f"invalid {flag} {value:g}; valid values: up to 100 (percent, or points of the 0-100 score)")
    if not 0 <= args.mcq_tolerance <= 100:
        parser.error(f"invalid --mcq-tolerance {args.mcq_tolerance:g}; valid values: 0 to 100 points")
    if args.workers is not None and args.workers < 1:
        parser.error(f"invalid --workers {args.workers}; valid values: an integer >= 1 (default: CPU cores)")
    check_out_arg(parser, args.out, reports=REPORTS, overwrite=args.overwrite)   # before any work: what it finds is not lost
    try:
        rows = run(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    text = table(rows)
    if args.action_mode:
        text = f"action mode: {args.action_mode} (ids without it skipped)\n" + text
    totals = summary(rows)
    print(text)
    print("\n" + json.dumps(totals, indent=2))
    if args.out:
        write_reports(args.out, dict(zip(REPORTS, (json.dumps({"summary": totals, "rows": rows}, indent=2) + "\n",
                                                    "```\n" + text + "\n```\n"))))
    failing = totals["default_levels_failing"]
    if failing:
        print(f"\n{len(failing)} default levels fail the validity bar: {', '.join(failing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
