"""``python -m gymv.benchmarks speed`` and ``overhead`` run and report what they promise (figures untimed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gymv.benchmarks", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "SDL_VIDEODRIVER": "dummy"})


def test_speed_reports_rates_render_time_and_peak_rss(tmp_path):
    proc = _bench("speed", "--pattern", "GymV/TicTacToe-v1", "--seconds", "0.05", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "speed.json").read_text())
    (row,) = data["rows"]
    for key in ("reset_per_s@default", "step_per_s@default", "step_per_s@84", "render_ms@default", "draw_ms@84"):
        assert row[key] > 0, key
    # Measured in a fresh interpreter: its own peak, at least the imports' peak, of a plausible size.
    assert 20 < row["base_rss_mb"] <= row["peak_rss_mb"] < 4096
    assert data["meta"]["isolated"] and data["summary"]["peak_rss_mb_max"][0][0] == "GymV/TicTacToe-v1"
    assert 0 < row["step_ms_median@default"] < 1000 / row["step_per_s@default"] * 10
    assert data["summary"]["step_ms_median_by_domain"]["games"]["median"] == round(row["step_ms_median@default"], 2)
    assert data["summary"]["reset_ms_median_by_domain"]["games"]["max"] == round(row["reset_ms_median@default"], 2)
    md = (tmp_path / "speed.md").read_text()
    assert "| GymV/TicTacToe-v1 | multi_turn |" in md and "peak RSS MB" in md
    proc = _bench("speed", "--pattern", "GymV/NoSuch*", "--out", str(tmp_path))
    assert proc.returncode == 2 and "no available id" in proc.stderr
    proc = _bench("speed", "--pattern", "GymV/TicTacToe-v1", "--seconds", "0", "--out", str(tmp_path))
    assert proc.returncode == 2 and "invalid --seconds 0.0; valid values: a number > 0" in proc.stderr


def test_speed_selects_by_domain_and_reports_the_cpu_median_at_84(tmp_path):
    from gymv.benchmarks import speed

    assert speed.main(["--pattern", "GymV/[FT]*", "--protocol", "multi_turn", "--domains", "gridworld,games",
                       "--seconds", "0.05", "--no-isolate", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "speed.json").read_text())
    ids = [r["id"] for r in data["rows"]]
    assert {r["domain"] for r in data["rows"]} == {"games"} and "GymV/FallingBlocks-v0" not in ids  # temporal
    assert "GymV/TicTacToe-v1" in ids and "GymV/FrozenLake-v1" in ids
    cpu = sorted(r["step_per_cpu_s@84"] for r in data["rows"])
    assert data["summary"]["multi_turn_step_per_cpu_s_84_median"] == round(
        (cpu[len(cpu) // 2] + cpu[(len(cpu) - 1) // 2]) / 2, 1)
    for bad in ("games,nosuch", ","):
        with pytest.raises(SystemExit):
            speed.main(["--domains", bad, "--out", str(tmp_path)])
    proc = _bench("speed", "--domains", "games,nosuch", "--out", str(tmp_path))
    assert proc.returncode == 2 and "unknown --domains nosuch" in proc.stderr and "gridworld" in proc.stderr


def test_speed_times_single_turn_ids_at_every_difficulty(tmp_path):
    proc = _bench("speed", "--pattern", "GymV/Maze*", "--protocol", "single_turn", "--seconds", "0.05", "--no-isolate",
                  "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "speed.json").read_text())
    assert data["rows"] and all(r["protocol"] == "single_turn" for r in data["rows"])
    for row in data["rows"]:
        rates = [row[f"step_per_s@d{lvl}"] for lvl in (0, 1, 2)]
        assert min(rates) > 0 and row["step_per_s@slowest_difficulty"] == min(rates)
    summary = data["summary"]
    assert summary["single_turn_slowest_difficulty"][0][1] == round(min(r["step_per_s@slowest_difficulty"]
                                                                        for r in data["rows"]), 1)
    assert summary["single_turn_ids_under_1000_at_some_difficulty"] == sum(
        r["step_per_s@slowest_difficulty"] < 1000 for r in data["rows"])
    for key, name in (("step_per_s@84", "single_turn_reset_step_per_s_84_median"),
                      ("step_per_cpu_s@default", "single_turn_reset_step_per_cpu_s_default_median")):
        values = sorted(r[key] for r in data["rows"])
        assert summary[name] == round((values[len(values) // 2] + values[(len(values) - 1) // 2]) / 2, 1), name


def test_overhead_command_measures_both_sides(tmp_path):
    target = tmp_path / "overhead.json"
    proc = _bench("overhead", "--ids", "GymV/TicTacToe-v1", "--seeds", "2", "--repeats", "1",
                  "--scaling-ids", "GymV/SlidingPuzzle-v1", "--scaling-seeds", "2", "--json", str(target))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(target.read_text())
    assert data["overhead"]["episodes"] == 2 and data["overhead"]["raw_cpu_s"][0] > 0 and "overhead_cpu_pct" in data["overhead"]
    assert data["scaling"]["speedup"] > 0 and "runner overhead" in proc.stdout


def test_web_steps_are_timed_with_browser_actions(monkeypatch):
    """Each timed web step is a click, double-click, scroll or type, so each takes a screenshot."""
    from gymv.benchmarks import speed
    from gymv_envs.domains.web._base import WebEnv

    kinds = []
    real_apply = WebEnv._apply

    def apply(self, action):
        kinds.append(action["kind"])
        return real_apply(self, action)

    monkeypatch.setattr(WebEnv, "_apply", apply)
    row = speed.measure("GymV/WebShopFindPrice-v1", (96, 128), 0.3)
    assert kinds and set(kinds) <= {0, 1, 2, 3}  # KINDS[:4]: click, double_click, scroll, type
    assert row["step_ms_median"] > 0 and row["draw_ms"] > 1  # draw_ms is a fresh screenshot, not the cached frame


def test_web_vector_throughput_is_measured_with_browser_actions(tmp_path, monkeypatch):
    """``--web-vector N`` times one WebVectorEnv: aggregate steps/s, batch step and reset times."""
    from gymv.benchmarks import speed
    from gymv_envs.domains.web._base import WebEnv

    kinds = []
    real_apply = WebEnv._apply

    def apply(self, action):
        kinds.append(int(action["kind"]))
        return real_apply(self, action)

    monkeypatch.setattr(WebEnv, "_apply", apply)
    assert speed.main(["--pattern", "GymV/WebShop*", "--web-vector", "3", "--threads", "2", "--seconds", "0.5",
                       "--sizes", "96x128", "--out", str(tmp_path)]) == 0
    rows = json.loads((tmp_path / "web_vector.json").read_text())["rows"]
    assert [r["obs_size"] for r in rows] == [[96, 128]]  # only the size asked for
    row = rows[0]
    assert row["num_envs"] == 3 and row["threads"] == 2 and len(row["ids"]) == 3
    assert row["steps"] >= 9 and row["step_per_s"] > 0 and row["step_per_cpu_s"] > 0 and row["reset_ms_median"] > 0
    assert kinds and set(kinds) <= {0, 1, 2, 3}
    with pytest.raises(SystemExit):
        speed.main(["--pattern", "GymV/Sokoban*", "--web-vector", "2", "--out", str(tmp_path)])


def test_single_turn_passes_play_fresh_seeds(monkeypatch):
    """The wall-clock and CPU passes of a single-turn id play disjoint seeds, none of them one that
    `measure` plays, so a cache of drawn pieces cannot serve a pass the levels an earlier one drew."""
    from gymv.benchmarks import speed

    seen: dict[bool, list[int]] = {}
    real_make = speed.gym.make

    def make(env_id, **kwargs):
        env = real_make(env_id, **kwargs)
        inner, reset = env.unwrapped, env.unwrapped.reset

        def recording_reset(*, seed=None, options=None):
            seen[pass_is_cpu].append(seed)
            return reset(seed=seed, options=options)
        inner.reset = recording_reset
        return env

    monkeypatch.setattr(speed.gym, "make", make)
    env_id = "GymV/TicTacToeBestMove-v1"
    for pass_is_cpu in (False, True):
        seen[pass_is_cpu] = []
        assert speed.single_turn_rate(env_id, 0, 0.02, cpu=pass_is_cpu) > 0
    wall, cpu = set(seen[False]), set(seen[True])
    assert len(wall) >= 3 and len(cpu) >= 3 and not wall & cpu
    assert min(wall | cpu) >= 10**6  # `measure` plays 0, 1, ... at the default difficulty


def test_multi_turn_cpu_rate_leaves_every_reset_out(monkeypatch):
    """A multi-turn id's ``step_per_cpu_s`` counts steps only: a reset that burns CPU (Kalah's takes about
    0.2 s) changes it no more than the measurement's own noise, the reset before the first step included."""
    from gymv.benchmarks import speed

    real_make = speed.gym.make
    burned: list[float] = []

    def make(env_id, **kwargs):
        env = real_make(env_id, **kwargs)
        inner, reset = env.unwrapped, env.unwrapped.reset

        def slow_reset(*, seed=None, options=None):
            c0 = time.process_time()
            while time.process_time() - c0 < 0.3:  # a reset costing far more CPU than the whole step pass
                pass
            burned.append(0.3)
            return reset(seed=seed, options=options)
        inner.reset = slow_reset
        return env

    monkeypatch.setattr(speed.gym, "make", make)
    row = speed.measure("GymV/FrozenLake-v1", (84, 84), 0.06)
    # counted, a 0.3 s reset would hold the CPU rate to a small fraction of the rate over the steps' own time
    # (a 0.06 s pass of steps: under a sixth of it); left out, the two are close (the loop's own work apart)
    assert row["step_per_cpu_s"] > 0.4 * row["step_per_s"], (row["step_per_cpu_s"], row["step_per_s"])
    assert len(burned) >= 2


def test_paired_speed_times_two_trees_in_turn(tmp_path):
    script = ROOT / "scripts" / "paired_speed.py"
    out = tmp_path / "paired.json"
    proc = subprocess.run([sys.executable, str(script), str(ROOT), str(ROOT), "--pattern", "GymV/FBITree*", "--pairs", "20",
                           "--passes", "1", "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    assert data["size"] == 84 and list(data["rows"]) == ["GymV/FBITree-v0"] and min(data["rows"]["GymV/FBITree-v0"]) > 0
    assert "median over 1 ids" in proc.stdout
    proc = subprocess.run([sys.executable, str(script), str(ROOT), str(ROOT), "--pattern", "GymV/FBITree*", "--pairs", "10",
                           "--passes", "1", "--difficulties", "0,2", "--out", str(out)], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert list(json.loads(out.read_text())["rows"]) == ["GymV/FBITree-v0@d0", "GymV/FBITree-v0@d2"]
    assert "median over 2 cells (id, difficulty)" in proc.stdout
    for bad, says in ((["--pattern", "GymV/NoSuch*"], "no single-turn id"), (["--size", "8"], "--size"),
                      (["--difficulties", "hard"], "--difficulties"), ([], "holds no gymv_envs")):
        tree = str(tmp_path) if says == "holds no gymv_envs" else str(ROOT)
        proc = subprocess.run([sys.executable, str(script), tree, str(ROOT), *bad], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and says in proc.stderr, (bad, proc.stderr)


def test_sizes_below_what_the_envs_accept_are_refused_up_front():
    """``--sizes 20`` passed the command's own check (16 and up) and then failed with a traceback in the env."""
    from gymv.benchmarks.speed import parse_sizes

    assert [label for label, _ in parse_sizes("32x48")] == ["default", "84", "32x48"]
    for bad in ("20", "16x64", "5000"):
        with pytest.raises(ValueError, match="sides must be 32 to 4096 pixels"):
            parse_sizes(bad)


def test_speed_reports_a_failing_id_and_keeps_what_it_timed_before_ctrl_c(tmp_path, monkeypatch, capsys):
    """speed wrote its reports only at the end: one id that failed ended the run with a traceback, and Ctrl-C
    lost every id already timed (tens of minutes for the whole suite). A failing id is now named (in the
    output and in meta.failed, exit 1) while the others are timed; Ctrl-C writes the ids timed so far."""
    from gymv.benchmarks import speed

    real = speed.measure_row
    args = ["--pattern", "GymV/[FT]*", "--protocol", "multi_turn", "--domains", "games", "--seconds", "0.02",
            "--sizes", "default", "--no-isolate"]
    selected = speed.gymv_envs.ids("GymV/[FT]*", domain="games", protocol="multi_turn", available_only=True)
    assert len(selected) >= 3

    def failing(env_id, *a, **k):
        if env_id == selected[1]:
            raise RuntimeError(f"measuring {env_id} failed:\nTraceback ...\nValueError: no level")
        return real(env_id, *a, **k)

    monkeypatch.setattr(speed, "measure_row", failing)
    assert speed.main([*args, "--out", str(tmp_path / "a")]) == 1
    data = json.loads((tmp_path / "a" / "speed.json").read_text())
    assert [r["id"] for r in data["rows"]] == selected[:1] + selected[2:]
    assert data["meta"]["failed"] == {selected[1]: "ValueError: no level"}
    err = capsys.readouterr().err
    assert f"{selected[1]} " in err and "FAILED: ValueError: no level" in err
    assert f"not timed, 1 of {len(selected)} ids (listed in speed.json's meta.failed): {selected[1]}" in err

    def interrupted(env_id, *a, **k):
        if env_id == selected[2]:
            raise KeyboardInterrupt
        return real(env_id, *a, **k)

    monkeypatch.setattr(speed, "measure_row", interrupted)
    assert speed.main([*args, "--out", str(tmp_path / "b")]) == 130
    data = json.loads((tmp_path / "b" / "speed.json").read_text())
    assert [r["id"] for r in data["rows"]] == selected[:2] and data["summary"]["ids"] == 2
    assert data["meta"]["interrupted"] and (data["meta"]["ids_timed"], data["meta"]["ids_selected"]) == (2, len(selected))
    assert f"the reports hold the 2 of {len(selected)} ids timed before Ctrl-C" in capsys.readouterr().err
    monkeypatch.setattr(speed, "measure_row", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt))
    assert speed.main([*args, "--out", str(tmp_path / "c")]) == 130
    assert not (tmp_path / "c" / "speed.json").exists()
    assert "interrupted before the first id was timed: nothing was written" in capsys.readouterr().err


def test_a_full_disk_is_a_line_naming_the_file_not_a_traceback(tmp_path):
    """Reports that could not be written (a full disk: here a real file-size limit, RLIMIT_FSIZE) ended any
    command with an OSError traceback; gymv-bench now names the file and the cause, and exits 1."""
    from tests.helpers import file_size_limit

    proc = subprocess.run([sys.executable, "-m", "gymv.benchmarks", "speed", "--pattern", "GymV/TicTacToe-v1",
                           "--seconds", "0.02", "--no-isolate", "--out", str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, preexec_fn=file_size_limit(2000),
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert f"gymv-bench speed: cannot write {tmp_path}/speed.json: File too large" in proc.stderr
    assert "GymV/TicTacToe-v1" in proc.stdout and not (tmp_path / "speed.json").exists()
