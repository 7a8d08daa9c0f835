"""``gymv-bench judge-audit``: how well does the web judge agree with the exact rubric?

    gymv-bench judge-audit --model my-vlm --base-url http://127.0.0.1:8000/v1
    gymv-bench judge-audit --ids 'GymV/WebShop*' --seeds 3 --policies oracle,noisy --out results/

For each web id and seed, recorded policies (the oracle, a random policy, a noisy oracle that
takes random actions and gives a wrong answer half the time) play one episode; the judge
(`gymv_envs.domains.web._judge.WebJudge`, any OpenAI-compatible endpoint) reads the keypoint
screenshots and the final answer, and its verdict is compared with the rubric's (success is the
positive class): precision, recall and accuracy per id and overall. The table goes to stdout
(and ``--out`` as judge_audit.json and judge_audit.md); the exit status is 0 when the audit ran.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
from typing import Any

import gymv_envs
from gymv.agents.base import AgentUnavailable
from gymv.benchmarks.run import split_globs
from gymv.benchmarks.store import add_overwrite_arg, check_out_arg, write_reports

REPORTS = ("judge_audit.json", "judge_audit.md")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gymv-bench judge-audit", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ids", action="append", default=None, metavar="GLOB", help="glob over web ids (repeatable or comma-separated; default: 'GymV/Web*')")
    p.add_argument("--seeds", type=int, default=2, help="levels per id (default 2)")
    p.add_argument("--policies", default="oracle,random,noisy", help="comma-separated: oracle, random, noisy")
    p.add_argument("--difficulty", type=int, default=None, help="difficulty (default: each id's)")
    p.add_argument("--max-steps", type=int, default=40, help="steps per episode before 'done' (default 40)")
    p.add_argument("--model", default=None, help="judge model (default $GYMV_JUDGE_MODEL)")
    p.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint (default $GYMV_JUDGE_BASE_URL)")
    p.add_argument("--api-key-env", default="OPENAI_API_KEY", help="environment variable holding the API key")
    p.add_argument("--max-frames", type=int, default=6, help="screenshots per judgement (default 6)")
    p.add_argument("--no-ground", action="store_true", help="turn off the grounding check of answers against seen pages")
    p.add_argument("--out", default=None, help="also write judge_audit.json and judge_audit.md here")
    add_overwrite_arg(p)
    return p


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}"


def table(report: dict[str, Any]) -> str:
    lines = ["| id | episodes | TP | FP | FN | TN | precision % | recall % | accuracy % |", "|---|---|---|---|---|---|---|---|---|"]
    for env_id, s in report["per_id"].items():
        lines.append(f"| {env_id} | {s['episodes']} | {s['tp']} | {s['fp']} | {s['fn']} | {s['tn']} | "
                     f"{_fmt(s['precision'])} | {_fmt(s['recall'])} | {_fmt(s['accuracy'])} |")
    o = report["overall"]
    lines.append(f"| **all** | {o['episodes']} | {o['tp']} | {o['fp']} | {o['fn']} | {o['tn']} | "
                 f"{_fmt(o['precision'])} | {_fmt(o['recall'])} | {_fmt(o['accuracy'])} |")
    for p, s in report["per_policy"].items():
        lines.append(f"| policy {p} | {s['episodes']} | {s['tp']} | {s['fp']} | {s['fn']} | {s['tn']} | "
                     f"{_fmt(s['precision'])} | {_fmt(s['recall'])} | {_fmt(s['accuracy'])} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from gymv_envs.domains.web._judge import POLICIES, audit

    for flag, value in (("--seeds", args.seeds), ("--max-steps", args.max_steps)):
        if value < 1:
            parser.error(f"invalid {flag} {value}; valid values: an integer >= 1")
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    if not policies:
        parser.error(f"invalid --policies {args.policies!r}; valid values: a comma-separated list of {', '.join(POLICIES)}")
    # before the judge is asked: its (possibly paid) verdicts are not lost to a bad folder, nor an earlier audit to them
    check_out_arg(parser, args.out, reports=REPORTS, overwrite=args.overwrite)

    web = gymv_envs.ids(domain="web")
    globs = split_globs(args.ids) or ["GymV/Web*"]
    ids = [i for i in web if any(fnmatch.fnmatch(i, g) for g in globs)]
    if not ids:
        print(f"error: no web id matches {globs}", file=sys.stderr)
        return 2
    if not gymv_envs.extra_available("web"):
        print("error: the web tasks need the web extra: pip install 'gymv[web]'", file=sys.stderr)
        return 2
    judge_kwargs = {"model": args.model, "base_url": args.base_url, "api_key_env": args.api_key_env,
                    "max_frames": args.max_frames, "ground": not args.no_ground}
    try:
        report = audit(ids, range(args.seeds), judge_kwargs, policies=policies,
                       difficulty=args.difficulty, max_steps=args.max_steps)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except AgentUnavailable as exc:   # the judge's endpoint is down, refuses the key, ...: a line, not a traceback
        print(f"error: the judge cannot be asked: {exc}", file=sys.stderr)
        return 1
    text = table(report)
    print(text)
    if args.out:
        write_reports(args.out, dict(zip(REPORTS, (json.dumps(report, indent=2, default=str), text + "\n"))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
