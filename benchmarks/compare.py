"""``python -m gymv.benchmarks compare RUN_A RUN_B``: paired difference of two runs over shared seeds.

Episodes pair up when they share id, env configuration, seed and episode index (the agent may
differ: that is the point). Prints B - A per id, domain, protocol and overall with a 95%
paired bootstrap interval, and writes ``--json`` when asked. Each argument is a run's output
directory or its ``episodes.jsonl``; ``--agent-a``/``--agent-b`` pick one agent from a file
that holds several.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from gymv.benchmarks.scoring import paired_difference
from gymv.benchmarks.store import EPISODES, IncompatibleResults, read_episodes


def load_run(path: str, agent: str | None) -> list[dict[str, Any]]:
    p = Path(path)
    if p.is_dir():
        p = p / EPISODES
    if not p.is_file():
        raise ValueError(f"no results at {path} (expected a run directory or its {EPISODES})")
    records, _ = read_episodes(p)
    if agent is not None:
        records = [r for r in records if r["agent"] == agent]
    agents = sorted({r["agent"] for r in records})
    if len(agents) > 1:
        raise ValueError(f"{p} holds episodes of several agents {agents}; pick one with --agent-a/--agent-b")
    if not records:
        raise ValueError(f"{p} holds no episodes" + (f" of agent {agent!r}" if agent else ""))
    return records


def format_table(diff: dict[str, Any]) -> str:
    head = f"{'':9} {'name':30} {'pairs':>5} {'A':>7} {'B':>7} {'B-A':>7} {'95% CI':>16}"
    lines = [head, "-" * len(head)]
    groups = [(lvl, n, g) for lvl in ("id", "domain", "protocol") for n, g in diff[f"by_{lvl}"].items()]
    if diff.get("overall"):
        groups.append(("overall", "all", diff["overall"]))
    for level, name, g in groups:
        lo, hi = g["diff_ci95"]
        lines.append(f"{level:9} {name[:30]:30} {g['episodes']:5d} {g['score_a']:7.1f} {g['score_b']:7.1f} "
                     f"{g['diff_mean']:+7.1f} {f'[{lo:+.1f}, {hi:+.1f}]':>16}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gymv-bench compare", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_a")
    parser.add_argument("run_b")
    parser.add_argument("--agent-a")
    parser.add_argument("--agent-b")
    parser.add_argument("--json", help="also write the comparison to this JSON file")
    args = parser.parse_args(argv)
    try:
        a, b = load_run(args.run_a, args.agent_a), load_run(args.run_b, args.agent_b)
        diff = paired_difference(a, b)
    except (ValueError, IncompatibleResults) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not diff["shared_episodes"]:
        print("error: the two runs share no episode (same id, config, seed and episode index)", file=sys.stderr)
        return 2
    print(f"A = {args.run_a} ({a[0]['agent']}), B = {args.run_b} ({b[0]['agent']}); "
          f"{diff['shared_episodes']} shared episodes, {diff['only_a']} only in A, {diff['only_b']} only in B\n")
    print(format_table(diff))
    if args.json:
        Path(args.json).write_text(json.dumps(diff, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
