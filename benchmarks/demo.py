"""A demo loop: a built-in agent over every available id, printing per-id results."""

from __future__ import annotations

import argparse
import statistics
import sys

import gymnasium as gym

import gymv_envs
from gymv.benchmarks.episode import run_episode
from gymv_envs.core.registry import unmatched_hint


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gymv-bench demo", description=__doc__)
    parser.add_argument("--agent", default="oracle", help="random, oracle or module:Class (default: oracle)")
    parser.add_argument("--pattern", default="*", help="glob over ids, e.g. 'GymV/Maze*'")
    parser.add_argument("--seeds", type=int, default=3, help="episodes per id, seeds 0..N-1 (default 3)")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error("--seeds must be >= 1")
    selected = gymv_envs.ids(args.pattern, available_only=True)
    if not selected:
        parser.error(f"no available id matches {args.pattern!r}{unmatched_hint([args.pattern]) or '; see gymv_envs.ids()'}")
    from gymv.agents import make_agent

    probe = gym.make(selected[0])
    try:
        make_agent(args.agent, probe)   # a bad agent name: said before any episode
    except (ValueError, TypeError) as exc:
        parser.error(str(exc))
    finally:
        probe.close()
    print(f"{'id':34} {'domain':11} {'protocol':11} {'score':>6} {'success':>8} {'steps':>6} {'ms/step':>8}")
    scores = []
    for env_id in selected:
        eps = [run_episode(env_id, args.agent, seed) for seed in range(args.seeds)]
        score = statistics.mean(e["score"] for e in eps)
        scores.append(score)
        steps = sum(e["steps"] for e in eps)
        ms = 1000 * sum(e["wall_s"] for e in eps) / steps
        print(f"{env_id:34} {eps[0]['domain']:11} {eps[0]['protocol']:11} {score:6.1f} "
              f"{sum(e['success'] for e in eps) / len(eps):8.0%} {steps / len(eps):6.1f} {ms:8.2f}", flush=True)
    print(f"\n{len(selected)} ids, agent={args.agent}, mean@{args.seeds} score over ids: {statistics.mean(scores):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
