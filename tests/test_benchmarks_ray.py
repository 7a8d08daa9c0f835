"""``run --executor ray`` on a local Ray instance gives the same episodes as the local executor."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from gymv.benchmarks.cli import main as bench

ray = pytest.importorskip("ray", reason="the 'ray' extra is not installed")
ARGS = ["run", "--agent", "random", "--ids", "GymV/TicTacToe-v1", "--ids", "GymV/MazePath-v1",
        "--ids", "GymV/SlidingPuzzle-v1", "--seeds", "3", "--no-plots", "--quiet"]


def _episodes(out):
    return [{k: v for k, v in json.loads(line).items() if k != "wall_s"}
            for line in (out / "episodes.jsonl").read_text().splitlines()]


def test_ray_executor_matches_local(tmp_path):
    local, remote = tmp_path / "local", tmp_path / "ray"
    with contextlib.redirect_stdout(io.StringIO()):
        assert bench([*ARGS, "--out", str(local), "--workers", "1"]) == 0
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        with contextlib.redirect_stdout(io.StringIO()) as printed:
            assert bench([*ARGS, "--out", str(remote), "--executor", "ray"]) == 0
        assert ray.is_initialized()  # the runner leaves an instance it did not start running
    finally:
        ray.shutdown()
    assert "mean@3" in printed.getvalue()
    assert _episodes(remote) == _episodes(local)
    assert len(_episodes(remote)) == 9
