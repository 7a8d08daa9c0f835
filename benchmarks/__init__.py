"""Benchmarks over the registry: episodes, scores and speed (``python -m benchmarks``)."""

from benchmarks.scoring import episode_score

__all__ = ["episode_score"]
