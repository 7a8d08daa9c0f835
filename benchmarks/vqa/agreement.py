"""``gymv-bench agreement``: does offline question accuracy rank agents the way online play does?

    gymv-bench agreement --per-domain 40
    gymv-bench agreement --set vqa-set --vlm '{"model": "my-model", "base_url": "http://127.0.0.1:8000/v1"}'

AgentVQA reports Spearman's rho = 0.895 between its spatial-planning questions and an online
benchmark. Here a ladder of agents of known quality, the oracle taking a random action with
probability eps (``oracle:<eps>``, eps in ``--eps``), plus any VLM given, is scored twice on
matched material: online, by the benchmark protocol on the levels the questions were frozen from
(each question's id, difficulty and seed; single-turn ids in their ``mcq`` format), and offline,
by answering the questions (the offline twin of ``oracle:<eps>`` answers right, or with
probability eps a random letter; the VLM answers through `gymv.benchmarks.vqa.evaluate`). The
report gives, per AgentVQA domain and overall, each agent's online score and offline accuracy
and Spearman's rho between the two over the ladder.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from gymv.benchmarks.episode import EpisodeTask
from gymv.benchmarks.executors import execute
from gymv.benchmarks.store import add_overwrite_arg, check_out_arg, write_reports
from gymv.benchmarks.vqa import evaluate as offline
from gymv.benchmarks.vqa.export import build, records, write

DEFAULT_EPS = (0.0, 0.25, 0.5, 0.75, 1.0)


def ranks(values: list[float]) -> np.ndarray:
    """Ranks from 1, ties sharing their average rank."""
    x = np.asarray(values, dtype=float)
    order = np.argsort(x, kind="mergesort")
    r = np.empty(len(x))
    r[order] = np.arange(1, len(x) + 1)
    for v in np.unique(x):
        tie = x == v
        r[tie] = r[tie].mean()
    return r


def spearman(a: list[float], b: list[float]) -> float | None:
    """Spearman's rank correlation of two equally long lists (``None`` when either is constant).

    >>> spearman([1, 2, 3, 4], [10, 20, 30, 40]), spearman([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    """
    if len(a) != len(b) or len(a) < 2:
        raise ValueError("spearman needs two lists of the same length, at least 2")
    ra, rb = ranks(a), ranks(b)
    if ra.std() == 0 or rb.std() == 0:
        return None
    return round(float(np.corrcoef(ra, rb)[0, 1]), 6)


def online_tasks(recs: list[dict[str, Any]], agent: str, agent_kwargs: dict[str, Any]) -> list[EpisodeTask]:
    """One benchmark episode per distinct level the questions come from."""
    import gymv_envs

    seen, out = set(), []
    for r in recs:
        key = (r["env_id"], r["difficulty"], r["seed"])
        if key in seen:
            continue
        seen.add(key)
        kwargs: dict[str, Any] = {"difficulty": r["difficulty"]}
        if gymv_envs.describe(r["env_id"])["protocol"] == "single_turn":
            kwargs["answer_format"] = "mcq"
        out.append(EpisodeTask(r["env_id"], kwargs, r["seed"], agent=agent, agent_kwargs=agent_kwargs))
    return out


def run(recs: list[dict[str, Any]], root: Path, eps_values: tuple[float, ...], vlm: dict[str, Any] | None,
        workers: int, seed: int = 0) -> dict[str, Any]:
    domain_of = {(r["env_id"], r["difficulty"], r["seed"]): r["agentvqa_domain"] for r in recs}
    ladder: list[tuple[str, str, dict[str, Any], Any]] = [
        (f"oracle:{e:g}", f"oracle:{e:g}", {}, offline.OracleLetter(e, seed)) for e in eps_values]
    if vlm:
        ladder.append(("vlm", "vlm", dict(vlm), offline.VLMAnswerer(**vlm)))
    agents: dict[str, dict[str, Any]] = {}
    for label, online_agent, kwargs, answerer in ladder:
        scores: dict[str, list[float]] = {}
        for task, record, error in execute(online_tasks(recs, online_agent, kwargs), "process" if not vlm else "thread",
                                           workers):
            if error is not None:
                raise RuntimeError(f"online episode {task.env_id} seed {task.seed} failed:\n{error}")
            dom = domain_of[(task.env_id, task.env_kwargs["difficulty"], task.seed)]
            scores.setdefault(dom, []).append(float(record["score"]))
            scores.setdefault("all", []).append(float(record["score"]))
        rows = offline.ask_all(answerer, recs, root, workers if vlm else 1)
        acc: dict[str, float] = {}
        for dom in sorted({r["agentvqa_domain"] for r in recs}) + ["all"]:
            group = [r for r in rows if dom == "all" or r["agentvqa_domain"] == dom]
            acc[dom] = offline.group_metrics(group)["accuracy_all"]
        agents[label] = {"online": {d: round(float(np.mean(v)), 3) for d, v in scores.items()}, "offline": acc}
    out: dict[str, Any] = {"agents": agents, "rho": {}}
    for dom in sorted({r["agentvqa_domain"] for r in recs}) + ["all"]:
        labels = [a for a in agents if dom in agents[a]["online"]]
        if len(labels) >= 2:
            out["rho"][dom] = spearman([agents[a]["online"][dom] for a in labels],
                                       [agents[a]["offline"][dom] for a in labels])
    return out


def table(result: dict[str, Any]) -> str:
    doms = list(result["rho"])
    lines = ["| agent | " + " | ".join(f"{d} online / offline" for d in doms) + " |",
             "| --- |" + " ---: |" * len(doms)]
    for label, a in result["agents"].items():
        cells = [f"{a['online'].get(d, float('nan')):.1f} / {a['offline'].get(d, float('nan')):.1f}" for d in doms]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    rho = ["-" if result["rho"][d] is None else f"{result['rho'][d]:.3f}" for d in doms]
    lines.append("| Spearman rho | " + " | ".join(rho) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="gymv-bench agreement", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--set", dest="set_dir", default=None, help="an exported set (default: build one in --out)")
    p.add_argument("--per-domain", type=int, default=40, help="questions per domain when building a set (default 40)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eps", default=",".join(f"{e:g}" for e in DEFAULT_EPS), help="the ladder's eps values")
    p.add_argument("--vlm", default=None, help="JSON kwargs of a VLM agent to add to the ladder")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", default="results/agreement", help="folder for the set (if built) and agreement.json")
    add_overwrite_arg(p)
    args = p.parse_args(argv)
    if args.per_domain < 1 or args.workers < 1:
        p.error(f"invalid --per-domain {args.per_domain} / --workers {args.workers}; valid values: integers >= 1")
    reports = ("agreement.json",) + (() if args.set_dir else ("set",))
    check_out_arg(p, args.out, reports=reports, overwrite=args.overwrite)   # before any work: nothing found is lost
    try:
        try:
            eps = tuple(float(x) for x in args.eps.split(",") if x.strip())
        except ValueError:
            eps = ()
        if not eps or any(not 0 <= e <= 1 for e in eps):
            raise ValueError(f"invalid --eps {args.eps!r}; valid values: comma-separated numbers from 0 to 1")
        vlm = json.loads(args.vlm) if args.vlm else None
        out = Path(args.out)
        if args.set_dir:
            recs, root = offline.load_set(args.set_dir)
        else:
            questions = build(args.per_domain, args.seed, workers=args.workers)
            write(out / "set", questions, {"per_domain": args.per_domain, "seed": args.seed}, parquet=False)
            recs, root = records(questions)[0], out / "set"
        result = run(recs, root, eps, vlm, args.workers, args.seed)
    except (ValueError, json.JSONDecodeError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    write_reports(out, {"agreement.json": json.dumps(result, indent=2, sort_keys=True) + "\n"})
    print(table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
