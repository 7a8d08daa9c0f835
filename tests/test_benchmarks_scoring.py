"""Scoring and aggregation of benchmarks.scoring on known data (no envs involved)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gymv.benchmarks.scoring import aggregate, bootstrap_ci, episode_score, paired_difference


def _ep(env_id, seed, score, protocol="multi_turn", domain="games", success=None, parsed=True, cfg="c0"):
    ep = {"env_id": env_id, "config_key": cfg, "seed": seed, "episode": 0, "domain": domain, "protocol": protocol,
          "score": score, "success": score == 100.0 if success is None else success, "progress": score / 100,
          "invalid_rate": 0.0, "steps": 5, "wall_s": 0.01, "agent": "x"}
    if protocol == "single_turn":
        ep["parsed"] = parsed
    return ep


def test_episode_score_protocols():
    assert episode_score("multi_turn", -1.0, 1.0, False) == 0.0  # a loss is clipped to zero
    assert episode_score("multi_turn", 3.0, 2.0, True) == 100.0
    assert episode_score("multi_turn", 0.5, 2.0, False) == 25.0
    assert episode_score("single_turn", 1.0, 1.0, True) == 100.0
    assert episode_score("single_turn", 0.0, 1.0, False) == 0.0
    with pytest.raises(ValueError, match="single_turn, multi_turn"):
        episode_score("chat", 1.0, 1.0, True)


def test_bootstrap_degenerate_cases():
    assert bootstrap_ci([[42.0]]) == (42.0, 42.0)
    assert bootstrap_ci([[5.0] * 7, [5.0] * 3]) == (5.0, 5.0)
    assert bootstrap_ci([[0.0, 100.0]], resamples=4000) == (0.0, 100.0)
    assert all(math.isnan(v) for v in bootstrap_ci([]))


def test_bootstrap_matches_normal_theory_and_is_deterministic():
    # 400 Bernoulli(0.5) scores of 0/100: the mean's 95% interval is 50 +- 1.96 * 50 / 20 = 50 +- 4.9.
    values = [0.0, 100.0] * 200
    lo, hi = bootstrap_ci([values])
    assert lo == pytest.approx(45.1, abs=1.0) and hi == pytest.approx(54.9, abs=1.0)
    assert bootstrap_ci([values]) == (lo, hi)  # seeded: same data, same interval
    # The seed is what makes it deterministic: another seed gives another (close) interval.
    cont = list(np.random.default_rng(3).normal(50.0, 10.0, size=100))
    assert bootstrap_ci([cont], seed=0) == bootstrap_ci([cont], seed=0) != bootstrap_ci([cont], seed=1)


def test_bootstrap_is_stratified_by_task():
    # Two tasks that always score 0 and 100: every resample keeps both, so the mean is exactly 50.
    assert bootstrap_ci([[0.0] * 5, [100.0] * 5]) == (50.0, 50.0)
    # Unstratified (one pool) the same values do vary.
    lo, hi = bootstrap_ci([[0.0] * 5 + [100.0] * 5])
    assert lo < 50.0 < hi


def test_aggregate_levels_and_metrics():
    eps = [_ep("A", s, v) for s, v in enumerate([0.0, 50.0, 100.0])]
    eps += [_ep("B", s, v, domain="puzzles") for s, v in enumerate([0.0, 0.0, 30.0])]
    eps += [_ep("Q", s, v, protocol="single_turn", domain="puzzles", parsed=p)
            for s, (v, p) in enumerate([(100.0, True), (0.0, False), (0.0, True)])]
    agg = aggregate(eps)
    assert set(agg) == {"by_id", "by_domain", "by_protocol", "overall"}
    a = agg["by_id"]["A"]
    assert (a["score_mean"], a["score_std"], a["best_at_k"], a["k"]) == (50.0, 50.0, 100.0, 3)
    assert a["completion"] == pytest.approx(100 / 3, abs=1e-4)
    assert agg["by_domain"]["puzzles"]["best_at_k"] == pytest.approx((30.0 + 100.0) / 2)
    q = agg["by_protocol"]["single_turn"]
    assert q["parse_rate"] == pytest.approx(200 / 3, abs=1e-4) and q["accuracy_parsed"] == 50.0
    assert "parse_rate" not in agg["by_protocol"]["multi_turn"]
    overall = agg["overall"]
    assert overall["episodes"] == 9 and overall["ids"] == 3
    assert overall["score_mean"] == pytest.approx(np.mean([e["score"] for e in eps]), abs=1e-5)
    lo, hi = overall["score_ci95"]
    assert lo <= overall["score_mean"] <= hi


def test_usage_is_summed_when_agents_report_it():
    eps = [_ep("A", 0, 0.0), _ep("A", 1, 100.0)]
    eps[0]["agent_stats"] = {"total_tokens": 120, "cost_usd": 0.5, "model": "m"}
    eps[1]["agent_stats"] = {"total_tokens": 80, "cost_usd": 0.25}
    assert aggregate(eps)["overall"]["usage_total"] == {"cost_usd": 0.75, "total_tokens": 200.0}
    assert "usage_total" not in aggregate([_ep("A", 0, 0.0)])["overall"]


def test_paired_difference_over_shared_seeds():
    a = [_ep("A", s, v) for s, v in enumerate([0.0, 50.0, 100.0, 20.0])]
    b = [_ep("A", s, v) for s, v in enumerate([100.0, 50.0, 100.0])] + [_ep("A", 9, 0.0)]
    d = paired_difference(a, b)
    assert (d["shared_episodes"], d["only_a"], d["only_b"]) == (3, 1, 1)
    o = d["overall"]
    assert o["score_a"] == 50.0 and o["score_b"] == pytest.approx(250 / 3, abs=1e-4)
    assert o["diff_mean"] == pytest.approx(100 / 3, abs=1e-4)
    lo, hi = o["diff_ci95"]
    assert lo == 0.0 and hi == 100.0  # differences (100, 0, 0): the bootstrap range spans both ends
    # Pairs never cross configurations: another difficulty of the same id and seed is not shared.
    c = [_ep("A", 0, 100.0, cfg="c1")]
    assert paired_difference(a, c)["shared_episodes"] == 0
    with pytest.raises(ValueError, match="two episodes"):
        paired_difference(a + a[:1], b)
