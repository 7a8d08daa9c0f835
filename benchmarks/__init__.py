"""Benchmarks over the registry (``python -m benchmarks`` or ``gymv-bench``).

- ``run``: an agent over registered ids, scored by DESIGN.md section 5, with resume,
  worker processes / threads / Ray, and reports (`benchmarks.run`);
- ``compare``: paired difference of two runs over shared seeds (`benchmarks.compare`);
- ``speed``: reset/s, step/s, render ms and peak RSS per id (`benchmarks.speed`);
- ``overhead``: runner cost over raw stepping and worker scaling (`benchmarks.overhead`).

Library use: `benchmarks.episode.EpisodeTask` + `run_task` run one episode;
`benchmarks.scoring.aggregate` / `paired_difference` summarise records.
"""

from benchmarks.scoring import aggregate, bootstrap_ci, episode_score, paired_difference

__all__ = ["aggregate", "bootstrap_ci", "episode_score", "paired_difference"]
