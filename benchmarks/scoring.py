"""The scoring protocol: per-episode scores and their aggregates.

Per episode (`episode_score`): single-turn answers score 100 when correct, else 0 (an answer
the env could not read scores 0 and is counted apart, see ``parsed``); multi-turn episodes
score ``100 * clip(return / max_return, 0, 1)``; task completion is 1 when ``success`` came
within the step budget.

Aggregates (`aggregate`) are computed per id, per domain, per protocol and overall from the
episode records that `gymv.benchmarks.episode` writes. Every group reports the mean score, its
sample standard deviation, ``best@k`` and a 95% percentile bootstrap interval of the mean.
A *task* is one id in one configuration (e.g. one difficulty); its k episodes are its seeds
(times ``--episodes`` repeats). ``best@k`` is the mean over tasks of each task's best episode
score; the bootstrap resamples episodes within each task (strata keep their weight) and is
seeded, so the interval is deterministic. `paired_difference`
compares two runs over the episodes they share (same id, config, seed and episode index).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 0
CONFIDENCE = 0.95
# Agent stats summed over episodes when an agent reports them (see benchmarks/README in run.py).
USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens", "cost_usd")


def episode_score(protocol: str, episode_return: float, max_return: float, success: bool) -> float:
    """Single-turn: 100 for a correct answer, else 0. Multi-turn: 100 * clip(R / max_return, 0, 1).

    >>> episode_score("multi_turn", -3.0, 1.0, False)
    0.0
    >>> episode_score("multi_turn", 0.5, 2.0, False)
    25.0
    >>> episode_score("single_turn", 1.0, 1.0, True)
    100.0
    """
    if protocol == "single_turn":
        return 100.0 if success else 0.0
    if protocol == "multi_turn":
        if not max_return > 0:
            raise ValueError(f"max_return must be > 0 to normalise a multi-turn return; got {max_return!r}")
        return 100.0 * min(1.0, max(0.0, episode_return / max_return))
    raise ValueError(f"unknown protocol {protocol!r}; valid: single_turn, multi_turn")


def bootstrap_ci(
    groups: Sequence[Sequence[float]],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    confidence: float = CONFIDENCE,
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of all values, resampling within each group.

    Groups are strata (the episodes of one id): each resample draws every group's values with
    replacement, keeping its size, so every id keeps its weight. Deterministic for a given
    ``seed``. A single value (or all values equal) gives a zero-width interval.

    >>> bootstrap_ci([[0.0, 100.0]] * 1, resamples=4000)
    (0.0, 100.0)
    >>> bootstrap_ci([[7.0, 7.0, 7.0]])
    (7.0, 7.0)
    """
    arrays = [np.asarray(g, dtype=np.float64) for g in groups if len(g)]
    if not arrays:
        return (math.nan, math.nan)
    n = sum(a.size for a in arrays)
    rng = np.random.default_rng(seed)
    totals = np.zeros(resamples)
    for a in arrays:
        totals += a[rng.integers(0, a.size, size=(resamples, a.size))].sum(axis=1)
    means = totals / n
    alpha = (1.0 - confidence) / 2
    lo, hi = np.quantile(means, [alpha, 1.0 - alpha])
    return (round(float(lo), 6), round(float(hi), 6))


def _std(values: Sequence[float]) -> float:
    return float(np.std(values, ddof=1)) if len(values) > 1 else 0.0


def _mean(values: Iterable[float]) -> float | None:
    vals = list(values)
    return round(float(np.mean(vals)), 6) if vals else None


def summarize_group(episodes: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """All the metrics of one group of episode records (one id, domain, protocol, or all)."""
    by_task: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for ep in episodes:
        by_task[(ep["env_id"], ep.get("config_key", ""))].append(ep)
    scores = [float(ep["score"]) for ep in episodes]
    per_id_scores = [[float(e["score"]) for e in eps] for eps in by_task.values()]
    lo, hi = bootstrap_ci(per_id_scores)
    ks = sorted({len(v) for v in per_id_scores})
    out: dict[str, Any] = {
        "ids": len({task[0] for task in by_task}),
        "tasks": len(by_task),
        "episodes": len(episodes),
        "k": ks[0] if len(ks) == 1 else ks,
        "score_mean": _mean(scores),
        "score_std": round(_std(scores), 6),
        "score_ci95": [lo, hi],
        "best_at_k": _mean(max(v) for v in per_id_scores),
        "completion": _mean(100.0 * bool(ep["success"]) for ep in episodes),
        "progress": _mean(float(ep["progress"]) for ep in episodes),
        "invalid_rate": _mean(float(ep["invalid_rate"]) for ep in episodes),
        "steps_mean": _mean(float(ep["steps"]) for ep in episodes),
        "wall_s_mean": _mean(float(ep["wall_s"]) for ep in episodes),
        "wall_s_total": round(sum(float(ep["wall_s"]) for ep in episodes), 6),
    }
    out.update(baseline_metrics(episodes, out["score_mean"]))
    replies = [ep["agent_stats"] for ep in episodes
               if isinstance(ep.get("agent_stats"), dict) and isinstance(ep["agent_stats"].get("actions"), (int, float))]
    if replies:
        actions = sum(float(st["actions"]) for st in replies)
        failures = sum(float(st.get("parse_failures", 0)) for st in replies)
        # Model replies the env could not read, apart from invalid actions (read, but not legal).
        out["unparsed_reply_rate"] = round(100.0 * failures / actions, 6) if actions else None
    stuck = [ep for ep in episodes if "deadlocks" in ep]
    if stuck:
        deadlocks = sum(int(ep["deadlocks"]) for ep in stuck)
        out["deadlocks"] = deadlocks
        out["deadlocks_per_episode"] = _mean(float(ep["deadlocks"]) for ep in stuck)
        out["stuck_steps_mean"] = _mean(float(ep["stuck_steps"]) for ep in stuck)
        out["recovery_rate"] = round(100.0 * sum(int(ep["recoveries"]) for ep in stuck) / deadlocks, 6) if deadlocks else None
        out["deadlocks_noticed_rate"] = (round(100.0 * sum(int(ep.get("deadlocks_noticed", 0)) for ep in stuck)
                                               / deadlocks, 6) if deadlocks else None)
    single = [ep for ep in episodes if ep["protocol"] == "single_turn"]
    if single:
        parsed = [ep for ep in single if ep["parsed"]]
        out["parse_rate"] = _mean(100.0 * bool(ep["parsed"]) for ep in single)
        out["accuracy_parsed"] = _mean(float(ep["score"]) for ep in parsed)
    usage: dict[str, float] = {}
    for ep in episodes:
        for key, value in (ep.get("agent_stats") or {}).items():
            if key in USAGE_KEYS and isinstance(value, (int, float)):
                usage[key] = usage.get(key, 0.0) + float(value)
    if usage:
        out["usage_total"] = {k: round(v, 6) for k, v in sorted(usage.items())}
    return out


def normalized_score(score: float | None, random: float | None, oracle: float | None) -> float | None:
    """The chance-normalised score ``100 * (score - random) / (oracle - random)`` clipped to [0, 100];
    ``None`` when a term is missing or the oracle does no better than random.

    >>> normalized_score(50.0, 25.0, 100.0)
    33.333333
    >>> normalized_score(10.0, 25.0, 100.0), normalized_score(50.0, 60.0, 60.0)
    (0.0, None)
    """
    if score is None or random is None or oracle is None or not oracle > random:
        return None
    return round(min(100.0, max(0.0, 100.0 * (score - random) / (oracle - random))), 6)


def baseline_metrics(episodes: Sequence[dict[str, Any]], score_mean: float | None) -> dict[str, Any]:
    """``random_score``, ``oracle_score`` (means over the group's levels, as the run gave them) and
    ``normalized_score`` (`normalized_score` of the three means), when the records carry baselines."""
    with_base = [ep for ep in episodes if "random_score" in ep and "oracle_score" in ep]
    if not with_base or len(with_base) != len(episodes):
        return {}
    random = _mean(float(ep["random_score"]) for ep in episodes)
    oracle = _mean(float(ep["oracle_score"]) for ep in episodes)
    return {"random_score": random, "oracle_score": oracle,
            "normalized_score": normalized_score(score_mean, random, oracle)}


GROUPINGS: dict[str, Callable[[dict[str, Any]], str]] = {
    "id": lambda ep: ep["env_id"],
    "domain": lambda ep: ep["domain"],
    "protocol": lambda ep: ep["protocol"],
}


def aggregate(episodes: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``{"by_id": {...}, "by_domain": {...}, "by_protocol": {...}, "overall": {...}}``."""
    out: dict[str, Any] = {}
    for level, key in GROUPINGS.items():
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for ep in episodes:
            groups[key(ep)].append(ep)
        out[f"by_{level}"] = {name: summarize_group(groups[name]) for name in sorted(groups)}
    out["overall"] = summarize_group(episodes) if episodes else {}
    return out


def pair_key(ep: dict[str, Any]) -> tuple:
    """What makes two episodes of different runs comparable: same id, config, seed, index."""
    return (ep["env_id"], ep["config_key"], int(ep["seed"]), int(ep["episode"]))


def paired_difference(run_a: Sequence[dict[str, Any]], run_b: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Score of B minus score of A over their shared episodes, per id, domain, protocol, overall.

    Each group reports the shared episode count, both means, the mean difference and a 95%
    paired bootstrap interval of it (resampling the paired differences within each id).
    """
    index_a = {}
    for ep in run_a:
        if pair_key(ep) in index_a:
            raise ValueError(f"run A holds two episodes for {pair_key(ep)}; compare runs of one agent each")
        index_a[pair_key(ep)] = ep
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    seen: set[tuple] = set()
    for ep in run_b:
        k = pair_key(ep)
        if k in seen:
            raise ValueError(f"run B holds two episodes for {k}; compare runs of one agent each")
        seen.add(k)
        if k in index_a:
            pairs.append((index_a[k], ep))

    def group(items: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
        by_id: dict[tuple[str, str], list[float]] = defaultdict(list)
        for a, b in items:
            by_id[(a["env_id"], a["config_key"])].append(float(b["score"]) - float(a["score"]))
        diffs = [d for v in by_id.values() for d in v]
        lo, hi = bootstrap_ci(list(by_id.values()))
        return {
            "episodes": len(items),
            "score_a": _mean(float(a["score"]) for a, _ in items),
            "score_b": _mean(float(b["score"]) for _, b in items),
            "diff_mean": _mean(diffs),
            "diff_ci95": [lo, hi],
        }

    out: dict[str, Any] = {"shared_episodes": len(pairs), "only_a": len(index_a) - len(pairs),
                           "only_b": len(seen) - len(pairs)}
    for level, key in GROUPINGS.items():
        groups: dict[str, list] = defaultdict(list)
        for a, b in pairs:
            groups[key(a)].append((a, b))
        out[f"by_{level}"] = {name: group(groups[name]) for name in sorted(groups)}
    out["overall"] = group(pairs) if pairs else {}
    return out
