"""Benchmarks over the registry (``python -m gymv.benchmarks`` or ``gymv-bench``).

- ``run``: an agent over registered ids, scored by the benchmark protocol, with resume,
  worker processes / threads / Ray, and reports (`gymv.benchmarks.run`);
- ``compare``: paired difference of two runs over shared seeds (`gymv.benchmarks.compare`);
- ``speed``: reset/s, step/s, render ms and peak RSS per id (`gymv.benchmarks.speed`);
- ``overhead``: runner cost over raw stepping and worker scaling (`gymv.benchmarks.overhead`).

Library use: `gymv.benchmarks.episode.EpisodeTask` + `run_task` run one episode;
`gymv.benchmarks.scoring.aggregate` / `paired_difference` summarise records.
"""
from gymv.benchmarks.scoring import aggregate, bootstrap_ci, episode_score, paired_difference

__all__ = ["aggregate", "bootstrap_ci", "episode_score", "paired_difference"]


if __name__ == "benchmarks":  # this folder imported by its path in a checkout, not as installed
    raise ImportError("GymV's benchmarks are installed as gymv.benchmarks: import gymv.benchmarks (pip install -e . in a checkout); "
                      "a bare 'benchmarks' is another package's name")
