"""``python -m gymv.benchmarks run`` / ``compare`` end to end through the CLI, on a few fast ids."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from gymv.agents.base import RandomAgent
from gymv.benchmarks.episode import FORMAT_VERSION

ROOT = Path(__file__).resolve().parent.parent
IDS = ("GymV/MazePath-v1", "GymV/SlidingPuzzle-v1", "GymV/TicTacToe-v1")
TIMINGS = ("wall_s",)


def bench(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}
    return subprocess.run([sys.executable, "-m", "gymv.benchmarks", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def id_args(ids=IDS) -> list[str]:
    return [a for i in ids for a in ("--ids", i)]


def episodes(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]


def without_timings(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in TIMINGS} for r in records]


def strip_wall(obj):
    if isinstance(obj, dict):
        return {k: strip_wall(v) for k, v in obj.items() if not k.startswith("wall_s")}
    return obj


class SlowRandomAgent(RandomAgent):
    """A random agent that thinks for 30 ms per step (so a test can kill a run mid-way)."""

    def act(self, observation, info):
        time.sleep(0.03)
        return super().act(observation, info)


@pytest.fixture(scope="module")
def oracle_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("oracle")
    proc = bench("run", "--agent", "oracle", *id_args(), "--difficulty", "all", "--seeds", "2", "--out", str(out),
                 "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    return out, proc


@pytest.fixture(scope="module")
def random_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("random")
    proc = bench("run", "--agent", "random", *id_args(), "--difficulty", "all", "--seeds", "8", "--out", str(out),
                 "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    return out, proc


def test_oracle_scores_100_everywhere(oracle_run):
    out, proc = oracle_run
    eps = episodes(out)
    assert len(eps) == len(IDS) * 3 * 2
    assert {(e["env_id"], e["difficulty"]) for e in eps} == {(i, d) for i in IDS for d in (0, 1, 2)}
    assert all(e["score"] == 100.0 and e["success"] and e["v"] == FORMAT_VERSION for e in eps)
    summary = json.loads((out / "summary.json").read_text())
    for level in ("by_id", "by_domain", "by_protocol"):
        for name, g in summary[level].items():
            assert g["score_mean"] == 100.0 and g["completion"] == 100.0 and g["score_ci95"] == [100.0, 100.0], name
    assert summary["by_protocol"]["single_turn"]["parse_rate"] == 100.0
    assert summary["overall"]["k"] == 2 and "mean@2" in proc.stdout
    csv_lines = (out / "results.csv").read_text().splitlines()
    assert csv_lines[0].startswith("level,name,") and len(csv_lines) == 1 + 3 + 2 + 2 + 1
    assert "| overall | all |" in (out / "results.md").read_text()
    for png in ("domains.png", "heatmap.png"):
        with Image.open(out / png) as img:
            assert img.format == "PNG" and min(img.size) > 100
            pixels = np.asarray(img.convert("RGB")).reshape(-1, 3)
            assert len(np.unique(pixels, axis=0)) > 10  # something was drawn


def test_random_scores_lower_and_unparseable_answers_count_apart(random_run):
    out, _ = random_run
    summary = json.loads((out / "summary.json").read_text())
    assert summary["overall"]["score_mean"] < 60.0
    # Random text is not a maze path: every single-turn answer is unreadable, counted apart.
    maze = summary["by_id"]["GymV/MazePath-v1"]
    assert maze["parse_rate"] == 0.0 and maze["score_mean"] == 0.0 and maze["invalid_rate"] == 1.0
    assert maze["accuracy_parsed"] is None


def test_single_and_multi_turn_scoring_with_a_clipped_loss(random_run):
    eps = episodes(random_run[0])
    for e in eps:
        if e["protocol"] == "single_turn":
            assert e["score"] == (100.0 if e["success"] else 0.0)
            assert e["parsed"] is e["terminated"]
        else:
            assert e["score"] == pytest.approx(100 * min(1.0, max(0.0, e["return"] / e["max_return"])))
            assert 0.0 <= e["score"] <= 100.0
    losses = [e for e in eps if e["env_id"] == "GymV/TicTacToe-v1" and e["return"] < 0]
    assert losses, "random play should lose some tic-tac-toe games (return -1)"
    assert all(e["score"] == 0.0 and not e["success"] for e in losses)


def test_mcq_answers_are_parsed_and_scored(tmp_path):
    proc = bench("run", "--agent", "random", "--ids", "GymV/MazePath-v1", "--seeds", "12", "--out", str(tmp_path),
                 "--env-kwargs", '{"answer_format": "mcq"}', "--workers", "1", "--no-plots")
    assert proc.returncode == 0, proc.stderr
    eps = episodes(tmp_path)
    assert all(e["parsed"] for e in eps)
    assert 0 < sum(e["success"] for e in eps) < len(eps)  # 1 in 4 by chance
    assert json.loads(eps[0]["config_key"])["env_kwargs"] == {"answer_format": "mcq", "difficulty": 0}


def test_one_and_two_workers_give_identical_results(tmp_path, random_run):
    runs = {}
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        proc = bench("run", "--agent", "random", *id_args(), "--seeds", "4", "--out", str(out),
                     "--workers", str(workers), "--no-plots")
        assert proc.returncode == 0, proc.stderr
        runs[workers] = out
    assert without_timings(episodes(runs[1])) == without_timings(episodes(runs[2]))
    s1, s2 = (strip_wall(json.loads((o / "summary.json").read_text())) for o in runs.values())
    assert s1 == s2
    assert (runs[1] / "results.csv").read_text().count("\n") == (runs[2] / "results.csv").read_text().count("\n")


def test_thread_executor_gives_the_same_results(tmp_path):
    outs = []
    for executor in ("process", "thread"):
        out = tmp_path / executor
        proc = bench("run", "--agent", "random", "--ids", "GymV/TicTacToe-v1", "--ids", "GymV/SlidingPuzzle-v1",
                     "--seeds", "3", "--out", str(out), "--executor", executor, "--workers", "2", "--no-plots")
        assert proc.returncode == 0, proc.stderr
        outs.append(without_timings(episodes(out)))
    assert outs[0] == outs[1]


def test_rerun_skips_finished_episodes(oracle_run, tmp_path):
    out = tmp_path / "again"
    args = ("run", "--agent", "oracle", "--ids", "GymV/TicTacToe-v1", "--seeds", "2", "--out", str(out), "--no-plots")
    assert bench(*args).returncode == 0
    before = (out / "episodes.jsonl").read_bytes()
    proc = bench(*args)
    assert proc.returncode == 0 and "2 already in" in proc.stderr and "0 to run" in proc.stderr
    assert (out / "episodes.jsonl").read_bytes() == before
    # A wider command reuses the finished episodes and runs only the new ones.
    proc = bench("run", "--agent", "oracle", "--ids", "GymV/TicTacToe-v1", "--seeds", "3", "--out", str(out),
                 "--no-plots")
    assert proc.returncode == 0 and "2 already in" in proc.stderr and "1 to run" in proc.stderr
    assert len(episodes(out)) == 3


def _processes_mentioning(text: str) -> list[int]:
    found = []
    for proc_dir in Path("/proc").glob("[0-9]*"):
        try:
            if text.encode() in (proc_dir / "cmdline").read_bytes():
                found.append(int(proc_dir.name))
        except OSError:
            pass
    return found


def test_resume_after_sigkill_and_sigint(tmp_path):
    out = tmp_path / "killed"
    args = ["run", "--agent", "tests.test_benchmarks_run:SlowRandomAgent", "--ids", "GymV/SymbolRecall-v1",
            "--seeds", "12", "--out", str(out), "--workers", "2", "--no-plots"]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    log = out.parent / "killed.log"
    with open(log, "w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "gymv.benchmarks", *args], cwd=ROOT, env=env, stdout=err, stderr=err)
        path = out / "episodes.jsonl"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (path.exists() and path.read_bytes().count(b"\n") >= 3):
            time.sleep(0.05)
        proc.kill()  # SIGKILL mid-run
        proc.wait(timeout=30)
    assert proc.returncode == -9
    deadline = time.monotonic() + 10  # the killed runner's worker processes leave too
    while time.monotonic() < deadline and _processes_mentioning(str(out)):
        time.sleep(0.2)
    assert not _processes_mentioning(str(out))
    kept = path.read_bytes()
    assert 3 <= kept.count(b"\n") < 12
    # A kill inside write() would leave a torn last line: simulate one on top of the real kill.
    torn = kept.splitlines(keepends=True)[0][:57]
    path.write_bytes(kept + torn)
    proc = bench(*args)
    assert proc.returncode == 0, proc.stderr
    assert "truncated last line" in proc.stderr
    n_kept = kept.count(b"\n")
    assert f"{n_kept} already in" in proc.stderr
    final = episodes(out)
    assert len(final) == 12 and len({e["key"] for e in final}) == 12
    finished_before = [json.loads(line) for line in kept.splitlines()]
    assert all(r in final for r in finished_before)  # nothing finished was lost or changed
    # SIGINT: the run stops cleanly (exit 130), keeps what finished, and the next run completes it.
    out2 = tmp_path / "interrupted"
    args2 = [a if a != str(out) else str(out2) for a in args]
    # SIGINT at its default action in the child: a shell without job control (`cmd &` in a script,
    # as CI runners do) starts its background jobs with SIGINT ignored, and children inherit that.
    proc = subprocess.Popen([sys.executable, "-m", "gymv.benchmarks", *args2], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    path2 = out2 / "episodes.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (path2.exists() and path2.read_bytes().count(b"\n") >= 2):
        time.sleep(0.05)
    proc.send_signal(2)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "interrupted" in err
    assert all(json.loads(line) for line in path2.read_text().splitlines())
    proc = bench(*args2)
    assert proc.returncode == 0 and without_timings(episodes(out2)) == without_timings(final)


def test_trajectories_with_frames(tmp_path):
    proc = bench("run", "--agent", "oracle", "--ids", "GymV/SlidingPuzzle-v1", "--seeds", "1", "--out", str(tmp_path),
                 "--trajectories", "--frames", "--obs-size", "48x48", "--no-plots")
    assert proc.returncode == 0, proc.stderr
    (traj,) = (tmp_path / "trajectories").glob("*.json")
    data = json.loads(traj.read_text())
    ep = episodes(tmp_path)[0]
    assert len(data["steps"]) == ep["steps"] and data["steps"][-1]["terminated"] and data["final_info"]["success"]
    frames = np.load(traj.with_suffix(".npz"))["frames"]
    assert frames.shape == (ep["steps"] + 1, 48, 48, 3) and frames.dtype == np.uint8


WRAPPER = 'gymnasium.wrappers:ClipReward{"min_reward": 0.0, "max_reward": 0.5}'


def test_budget_and_wrappers_pass_through_and_the_task_return_is_scored(tmp_path):
    # difficulty 0 (a win in one against a random opponent): random play wins some of the 8 games
    proc = bench("run", "--agent", "random", "--ids", "GymV/TicTacToe-v1", "--difficulty", "0", "--seeds", "8",
                 "--out", str(tmp_path), "--max-steps", "3", "--wrapper", WRAPPER,
                 "--workers", "1", "--no-plots")
    assert proc.returncode == 0, proc.stderr
    eps = episodes(tmp_path)
    assert all(e["steps"] <= 3 for e in eps) and any(e["truncated"] for e in eps)
    assert json.loads(eps[0]["config_key"])["wrappers"] == [WRAPPER]
    # The wrapper halves a win's reward as the agent sees it; the score follows the task's return.
    wins = [e for e in eps if e["return"] > 0]
    assert wins and all(e["score"] == 100.0 and e["wrapped_return"] == 0.5 for e in wins)
    proc = bench("run", "--ids", "GymV/TicTacToe-v1", "--out", str(tmp_path / "x"), "--wrapper", "nowhere:Nothing")
    assert proc.returncode == 2 and "cannot load wrapper" in proc.stderr


def test_compare_two_runs(oracle_run, random_run, tmp_path):
    target = tmp_path / "diff.json"
    proc = bench("compare", str(random_run[0]), str(oracle_run[0]), "--json", str(target))
    assert proc.returncode == 0, proc.stderr
    diff = json.loads(target.read_text())
    assert diff["shared_episodes"] == len(IDS) * 3 * 2  # the oracle ran seeds 0, 1; random ran 0..7
    rand = {(e["env_id"], e["config_key"], e["seed"]): e["score"] for e in episodes(random_run[0])}
    shared = [100.0 - rand[(e["env_id"], e["config_key"], e["seed"])] for e in episodes(oracle_run[0])]
    assert diff["overall"]["diff_mean"] == pytest.approx(sum(shared) / len(shared), abs=1e-4)
    lo, hi = diff["overall"]["diff_ci95"]
    assert 0 < lo <= diff["overall"]["diff_mean"] <= hi <= 100
    assert "overall" in proc.stdout and "B-A" in proc.stdout


def test_vlm_agent_through_the_runner_reports_usage_and_parse_failures(tmp_path):
    """``--agent vlm`` against a real loopback chat server, with the thread executor."""
    from gymv.benchmarks.cli import main
    from tests.chat_server import ChatServer

    results = {}
    for reply in ("Let me look.\nAnswer: A", "no idea"):
        out = tmp_path / str(len(results))
        with ChatServer(lambda request, reply=reply: reply) as server:
            kwargs = json.dumps({"base_url": server.base_url, "model": "test-model", "cache": False,
                                 "on_parse_failure": "first"})
            rc = main(["run", "--agent", "vlm", "--agent-kwargs", kwargs, "--ids", "GymV/MazePath-v1", "--seeds", "4",
                       "--env-kwargs", '{"answer_format": "mcq", "obs_size": [64, 64]}', "--executor", "thread",
                       "--workers", "2", "--out", str(out), "--no-plots", "--quiet"])
            assert rc == 0 and len(server.requests) == 4
        results[reply] = (episodes(out), json.loads((out / "summary.json").read_text())["overall"])
    eps, overall = results["Let me look.\nAnswer: A"]
    assert all(e["parsed"] and e["agent_stats"]["total_tokens"] > 0 for e in eps)
    assert overall["parse_rate"] == 100.0 and overall["usage_total"]["total_tokens"] > 0
    eps, overall = results["no idea"]
    # The agent fell back to an option after an unreadable reply: answered, but counted as unparsed.
    assert all(e["terminated"] and not e["parsed"] for e in eps)
    assert overall["parse_rate"] == 0.0 and overall["accuracy_parsed"] is None


def test_an_agent_that_cannot_play_on_stops_the_run_and_keeps_what_it_finished(tmp_path, capsys, monkeypatch):
    """A VLM endpoint that went down or refused the key failed every remaining episode alike, each after its
    retries (about 15 s) with a traceback: hours of a suite run for nothing. The runner now stops at the first
    `AgentUnavailable`, says why once, keeps the finished episodes, and the same command plays the rest."""
    from gymv.benchmarks.cli import main
    from tests.chat_server import ChatServer

    def command(server):   # the endpoint from OPENAI_BASE_URL: the same command line for both servers
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        kwargs = json.dumps({"model": "test-model", "cache": False, "backoff": 0.01})
        return ["run", "--agent", "vlm", "--agent-kwargs", kwargs, "--ids", "GymV/MazePath-v1", "--seeds", "6",
                "--env-kwargs", '{"answer_format": "mcq", "obs_size": [64, 64]}', "--workers", "1",
                "--out", str(tmp_path), "--no-plots", "--quiet", "--no-baselines"]

    def key_revoked_after_two(request):
        if len(server.requests) == 2:
            server.fail(401, times=100, message="Incorrect API key provided")
        return "Answer: A"

    with ChatServer(key_revoked_after_two) as server:
        assert main(command(server)) == 1
        assert server.attempts == 3   # the third episode's request, and no other
    err = capsys.readouterr().err
    assert "error: the run cannot go on (GymV/MazePath-v1 seed=2 episode=0)" in err and "HTTP 401" in err
    assert "Traceback" not in err and "the same command again plays the rest" in err
    assert sorted(e["seed"] for e in episodes(tmp_path)) == [0, 1]
    with ChatServer(lambda request: "Answer: A") as server:
        assert main(command(server)) == 0 and len(server.requests) == 4
    assert sorted(e["seed"] for e in episodes(tmp_path)) == list(range(6))


# ------------------------------------------------------------------ bad input
def test_bad_input_fails_before_any_work(tmp_path):
    out = tmp_path / "none"
    cases = {
        "unknown agent": (["--agent", "no_such_agent"], "unknown agent"),
        "unloadable agent": (["--agent", "tests.nothing_here:Agent"], "cannot build agent"),
        "no matching id": (["--ids", "GymV/NoSuchTask*"], "no available id matches"),
        "a retired version": (["--ids", "GymV/TicTacToe-v0"], "did you mean one of ['GymV/TicTacToe-v1']"),
        "bad env kwargs": (["--env-kwargs", '{"answer_format": "mcq"}'], "unknown argument"),
        "bad difficulty": (["--difficulty", "7"], "no difficulty"),
        "bad json": (["--agent-kwargs", "{oops"], "JSON"),
        "bad difficulty in env kwargs": (["--env-kwargs", '{"difficulty": 7}'], "no difficulty [7]"),
        "difficulty twice": (["--env-kwargs", '{"difficulty": 2}', "--difficulty", "1"], "give the difficulty once"),
        "budget twice": (["--env-kwargs", '{"max_episode_steps": 5}', "--max-steps", "3"], "give the step budget once"),
        "size twice": (["--env-kwargs", '{"obs_size": [64, 64]}', "--obs-size", "32x32"], "give the frame size once"),
    }
    for name, (extra, message) in cases.items():
        base = ["run", "--ids", "GymV/TicTacToe-v1", "--out", str(out)]
        if extra[0] == "--ids":
            base = ["run", "--out", str(out)]
        proc = bench(*base, *extra)
        assert proc.returncode == 2, name
        assert message in proc.stderr, (name, proc.stderr)
        assert not out.exists(), name  # nothing was written
    blocker = tmp_path / "a_file"
    blocker.write_text("keep me")
    proc = bench("run", "--ids", "GymV/TicTacToe-v1", "--out", str(blocker / "sub"))
    assert proc.returncode == 2 and "cannot write to --out" in proc.stderr
    assert blocker.read_text() == "keep me"
    # A second run into a directory that a running one holds is refused.
    import fcntl

    busy = tmp_path / "busy"
    busy.mkdir()
    with open(busy / ".lock", "a") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        proc = bench("run", "--ids", "GymV/TicTacToe-v1", "--out", str(busy))
    assert proc.returncode == 2 and "another run is writing" in proc.stderr
    assert not (busy / "episodes.jsonl").exists()
    proc = bench("frobnicate")
    assert proc.returncode == 2 and "unknown command" in proc.stderr
    import gymv_envs

    proc = bench("--version")
    assert proc.returncode == 0 and proc.stdout.startswith(f"gymv-bench {gymv_envs.__version__} (gymnasium ")


def test_gym_make_arguments_in_env_kwargs_are_used(tmp_path):
    """"difficulty" and "max_episode_steps" in --env-kwargs, as gym.make takes them, mean --difficulty and
    --max-steps (the difficulty was silently replaced by the id's default)."""
    out = tmp_path / "kw"
    proc = bench("run", "--agent", "random", "--ids", "GymV/SlidingPuzzle-v1", "--seeds", "2", "--no-baselines",
                 "--no-plots", "--out", str(out), "--env-kwargs", '{"difficulty": 2, "max_episode_steps": 4}')
    assert proc.returncode == 0, proc.stderr
    assert [(r["difficulty"], r["steps"] <= 4) for r in episodes(out)] == [(2, True)] * 2


def test_a_configuration_an_id_refuses_is_said_once_and_not_retried(tmp_path):
    """A wrapper that does not apply to one of the ids: its error once, no traceback, the other id's
    episodes saved, and no advice to run again (it would fail the same way)."""
    out = tmp_path / "setup"
    proc = bench("run", "--agent", "random", "--ids", "GymV/GridNav-v1", "--ids", "GymV/MazePath-v1", "--seeds", "3",
                 "--no-baselines", "--no-plots", "--out", str(out), "--wrapper", 'gymv.wrappers:InstructionLevel{"level": "visual"}')
    assert proc.returncode == 1
    assert proc.stderr.count("setup error: cannot make GymV/MazePath-v1") == 1, proc.stderr
    assert "MazePath has no instruction levels" in proc.stderr and "Traceback" not in proc.stderr
    assert "3 episodes of 1 id could not start" in proc.stderr and "run the same command again" not in proc.stderr
    assert {r["env_id"] for r in episodes(out)} == {"GymV/GridNav-v1"} and len(episodes(out)) == 3


@pytest.mark.parametrize("kind", ["old line", "meta", "damaged middle"])
def test_incompatible_results_are_refused_and_kept(tmp_path, kind):
    out = tmp_path / kind.replace(" ", "_")
    out.mkdir()
    good = bench("run", "--agent", "oracle", "--ids", "GymV/TicTacToe-v1", "--seeds", "2", "--out", str(out),
                 "--no-plots")
    assert good.returncode == 0
    path = out / "episodes.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    if kind == "old line":
        path.write_text(json.dumps({"v": 0, "env_id": "GymV/TicTacToe-v1"}) + "\n" + "".join(lines))
    elif kind == "meta":
        (out / "meta.json").write_text(json.dumps({"format_version": FORMAT_VERSION + 1}))
    else:
        path.write_text(lines[0] + "{not json\n" + lines[1])
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    proc = bench("run", "--agent", "oracle", "--ids", "GymV/TicTacToe-v1", "--seeds", "3", "--out", str(out))
    assert proc.returncode == 2, proc.stdout
    assert "nothing was changed" in proc.stderr and str(out) in proc.stderr
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_the_other_commands_refuse_bad_arguments_before_any_work(tmp_path, capsys):
    """validity, run --workers, demo and overhead: each bad argument named at once (an --out that is a file lost validity's
    table after every episode; demo --agent nope, overhead --seeds 0 and --repeats 0 ended in tracebacks)."""
    from gymv.benchmarks import demo, overhead, run, validity

    a_file = tmp_path / "a_file"
    a_file.write_text("")
    cases = [
        (validity.main, ["--ids", "GymV/TicTacToe-v1", "--out", str(a_file)], "cannot write to --out"),
        (validity.main, ["--ids", "GymV/TicTacToe-v1", "--max-success", "150"], "invalid --max-success 150"),
        (validity.main, ["--ids", "GymV/TicTacToe-v1", "--workers", "0"], "invalid --workers 0"),
        (run.main, ["--ids", "GymV/TicTacToe-v1", "--workers", "0", "--out", str(tmp_path / "r")], "invalid --workers 0"),
        (demo.main, ["--pattern", "GymV/TicTacToe-v1", "--agent", "nope"], "unknown agent 'nope'"),
        (overhead.main, ["--ids", "GymV/TicTacToe-v1", "--seeds", "0", "--skip-scaling"], "must be >= 1"),
        (overhead.main, ["--ids", "GymV/TicTacToe-v1", "--repeats", "0", "--skip-scaling"], "must be >= 1"),
        (overhead.main, ["--ids", "GymV/Nope-v1", "--skip-scaling"], "unknown GymV id 'GymV/Nope-v1'"),
    ]
    for main, argv, message in cases:
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2 and message in capsys.readouterr().err, argv


def test_ids_may_be_comma_separated_as_well_as_repeated():
    from gymv.benchmarks import run

    args = run.build_parser().parse_args(["--ids", "GymV/TicTacToe-v1, GymV/Nim-v1", "--ids", "GymV/Sokoban-v1"])
    available, skipped = run.matching_ids(args)   # the comma list matched nothing before
    assert available == ["GymV/Nim-v1", "GymV/Sokoban-v1", "GymV/TicTacToe-v1"] and skipped == []


def test_ctrl_c_in_any_command_is_a_line_not_a_traceback(monkeypatch, capsys):
    """export-vqa, speed, demo and validity ended a Ctrl-C with a KeyboardInterrupt traceback, overhead with a
    RuntimeError; gymv-bench now says which command was interrupted, what it left, and exits 130."""
    from gymv.benchmarks import cli, overhead, run, speed

    def interrupted(argv=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(speed, "main", interrupted)
    assert cli.main(["speed"]) == 130
    assert capsys.readouterr().err.strip() == "gymv-bench speed: interrupted; nothing was written"
    monkeypatch.setattr(run, "main", lambda argv=None: 130)   # what an interrupted run returns
    with pytest.raises(KeyboardInterrupt):
        overhead.runner(["GymV/TicTacToe-v1"], [0], 1)


REPORTING = [   # (command, its arguments, the reports an earlier run left in --out)
    ("speed", ["--pattern", "GymV/TicTacToe-v1", "--seconds", "0.02", "--no-isolate"], ["speed.json", "speed.md"]),
    ("validity", ["--ids", "GymV/TicTacToe-v1", "--seeds", "2", "--oracle-seeds", "1", "--workers", "1"],
     ["validity.json", "validity.md"]),
    ("judge_audit", ["--ids", "GymV/WebShop*"], ["judge_audit.md"]),
    ("vqa.evaluate", ["--set", "no-such-set"], ["answers.jsonl", "results.md"]),
    ("vqa.agreement", [], ["set/manifest.json"]),
    ("vqa.export", ["--per-domain", "1"], ["manifest.json", "questions.jsonl"]),
]


@pytest.mark.parametrize("command,args,held", REPORTING, ids=[c for c, _, _ in REPORTING])
def test_no_command_silently_replaces_an_earlier_runs_reports(command, args, held, tmp_path, capsys):
    """speed, validity, judge-audit, eval-vqa, agreement and export-vqa wrote their reports over those an
    earlier run left in the same --out, without a word: timings, or a VLM's paid answers, were lost to a
    repeated command line. Each now refuses before any work, naming what --out holds and --overwrite, and
    changes nothing (sb3 train already did so)."""
    import importlib

    main = importlib.import_module(f"gymv.benchmarks.{command}").main
    out = tmp_path / "out"
    for name in held:
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(f"an earlier run's {name}\n")
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    with pytest.raises(SystemExit) as exc:
        main([*args, "--out", str(out)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    named = "an exported set (manifest.json)" if command == "vqa.export" else held[0].split("/")[0]
    assert f"--out {out} already holds {named}" in err and "pass --overwrite to replace" in err, err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("command,args,held", REPORTING[:2], ids=[c for c, _, _ in REPORTING[:2]])
def test_overwrite_replaces_an_earlier_runs_reports(command, args, held, tmp_path):
    import importlib

    main = importlib.import_module(f"gymv.benchmarks.{command}").main
    out = tmp_path / "out"
    out.mkdir()
    for name in held:
        (out / name).write_text("an earlier run's report\n")
    assert main([*args, "--out", str(out), "--overwrite"]) == 0
    data = json.loads((out / held[0]).read_text())
    assert data["rows"][0]["id"] == "GymV/TicTacToe-v1"
    assert "TicTacToe" in (out / held[1]).read_text()
    assert not list(out.glob(".*.json*")) and not list(out.glob(".*.md*"))   # no temporary file left


def test_a_full_disk_mid_run_keeps_the_saved_episodes_and_says_what_to_do(tmp_path):
    """A disk that filled during a run ended it with an OSError traceback from deep in the store (the sorted
    rewrite or the reports). Under a real file-size limit (RLIMIT_FSIZE: writes past it fail as a full disk's
    do), the run now says it cannot write, where the saved episodes are and what to do, exits 2, and the same
    command on a roomier disk plays only the rest."""
    from tests.helpers import file_size_limit

    args = ["-m", "gymv.benchmarks", "run", "--agent", "random", "--ids", "GymV/Maze*", "--seeds", "4",
            "--out", str(tmp_path), "--workers", "1", "--no-baselines", "--no-plots", "--quiet"]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                          preexec_fn=file_size_limit(6000))
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert f"error: cannot write to {tmp_path}" in proc.stderr and "File too large" in proc.stderr
    assert "Traceback" not in proc.stderr and "the same command again plays the rest" in proc.stderr
    saved = (tmp_path / "episodes.jsonl").read_bytes()
    assert 0 < saved.count(b"\n") < 12 and not (tmp_path / "summary.json").exists()
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert len(episodes(tmp_path)) == 12 and (tmp_path / "summary.json").exists()
    complete = saved.count(b"\n")   # a line the limit cut short is dropped and its episode played again
    assert f"{complete} already in" in proc.stderr and f"{12 - complete} to run" in proc.stderr


def test_max_cost_stops_a_paid_run_and_reports_what_it_played(tmp_path, capsys, monkeypatch):
    """``--max-cost USD``: once the agent's episodes in --out have cost that much (the VLM agent's priced
    cost_usd), no more start; those under way finish and are saved; the reports cover the finished ones and the
    exit status is 3. The same command spends nothing more; a higher cap plays the rest. An unpriced model
    cannot keep a cap and stops at its first episode."""
    from gymv.benchmarks.cli import main
    from tests.chat_server import ChatServer

    def command(cap, prices=True):   # each request: 100 prompt tokens at $10,000 per million = $1
        kwargs = {"model": "test-model", "cache": False, **({"prices": {"test-model": [10000, 0]}} if prices else {})}
        return ["run", "--agent", "vlm", "--agent-kwargs", json.dumps(kwargs), "--ids", "GymV/MazePath-v1", "--seeds", "6",
                "--env-kwargs", '{"answer_format": "mcq", "obs_size": [64, 64]}', "--workers", "1", "--max-cost", cap,
                "--out", str(tmp_path), "--no-plots", "--quiet", "--no-baselines"]

    with ChatServer(lambda request: "Answer: A") as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        assert main(command("2.5")) == 3 and len(server.requests) == 3
        assert "at or over --max-cost $2.5" in capsys.readouterr().err
        summary = json.loads((tmp_path / "summary.json").read_text())
        assert summary["overall"]["episodes"] == 3 and len(episodes(tmp_path)) == 3
        assert main(command("2.5")) == 3 and len(server.requests) == 3   # nothing more spent
        assert main(command("100")) == 0 and len(server.requests) == 6
        assert sorted(e["seed"] for e in episodes(tmp_path)) == list(range(6))
        with pytest.raises(SystemExit):
            main(command("0"))
    assert "invalid --max-cost 0; valid values: a number of USD > 0" in capsys.readouterr().err
    other = tmp_path / "unpriced"
    with ChatServer(lambda request: "Answer: A") as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        args = command("5", prices=False)
        args[args.index(str(tmp_path))] = str(other)
        assert main(args) == 2 and len(server.requests) == 1
    assert "--max-cost cannot be kept: the agent's model has no price" in capsys.readouterr().err


def test_a_field_the_model_refuses_is_told_once_per_run_with_worker_processes(tmp_path, monkeypatch):
    """Each worker process learned on its own that the model refuses a request field, and each told it: the note
    came once per worker. The workers now leave it to the runner, which tells it once, from the records."""
    from tests.chat_server import ChatServer
    from tests.test_agents_vlm import reasoning_model

    with ChatServer(lambda request: "Answer: A", refuse=reasoning_model) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        proc = bench("run", "--agent", "vlm", "--agent-kwargs", '{"model": "test-model", "cache": false}', "--ids",
                     "GymV/MazePath-v1", "--seeds", "8", "--env-kwargs", '{"answer_format": "mcq", "obs_size": [64, 64]}',
                     "--workers", "2", "--out", str(tmp_path), "--no-plots", "--quiet", "--no-baselines")
        assert proc.returncode == 0, proc.stderr
        assert len(server.refused) >= 6   # three fields, learned by each of the two workers
    for field in ("max_tokens", "temperature", "seed"):
        assert proc.stderr.count(f"refuses {field}") == 1, proc.stderr
    assert all(set(e["agent_stats"]["request_changes"]) == {"max_tokens", "temperature", "seed"} for e in episodes(tmp_path))
