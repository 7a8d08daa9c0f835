"""Platform v1: one episode loop everywhere, one agent table, one extras table, domains from module
paths, and the newcomer paths that used to hang or stay silent (Ray, human play, missing extras)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import gymnasium as gym
import pytest

import gymv_envs
from gymv.agents import AGENTS, make_agent
from gymv.agents.sb3 import evaluate
from gymv.benchmarks import run as bench_run
from gymv.benchmarks.episode import EpisodeTask, run_task
from gymv.benchmarks.rollout import rollout
from gymv.wrappers import RewardClip
from gymv_envs.core import registry
from gymv_envs.core.spec import TaskSpec

ROOT = Path(__file__).resolve().parent.parent
CLIP = 'gymv.wrappers:RewardClip{"lo": 0.0, "hi": 0.5}'


def test_every_command_scores_the_env_return_through_one_loop():
    """The runner, the SB3 evaluation and a direct rollout give the same records under a reward wrapper."""
    env_id, seeds = "GymV/TicTacToe-v1", range(6)
    runner = [run_task(EpisodeTask(env_id, {"difficulty": 0}, s, agent="oracle", wrappers=(CLIP,))) for s in seeds]
    env = RewardClip(gym.make(env_id, difficulty=0), 0.0, 0.5)
    direct = [rollout(env, make_agent("oracle", env), s) for s in seeds]
    scored = evaluate(lambda e: make_agent("oracle", e), env_id, {"difficulty": 0}, [CLIP], episodes=6, seed=0)
    assert all(r["score"] == 100.0 and r["return"] == 1.0 and r["wrapped_return"] == 0.5 for r in runner)
    shared = ("env_id", "domain", "protocol", "seed", "return", "score", "success", "steps", "invalid_actions")
    assert [{k: r[k] for k in shared} for r in runner] == [{k: r[k] for k in shared} for r in direct]
    assert scored["score_mean"] == 100.0 and scored["success_rate"] == 1.0
    assert env.unwrapped.episode_return == 1.0  # the public accessor the loop reads


def test_vlm_command_prints_the_rollout_record(tmp_path):
    from tests.chat_server import ChatServer

    with ChatServer(lambda request: "Answer: B2") as server:
        out = subprocess.run([sys.executable, "-m", "gymv.agents.vlm", "--env", "GymV/TicTacToeBestMove-v1",
                              "--model", "m", "--base-url", server.base_url, "--episodes", "2", "--no-cache"],
                             capture_output=True, text=True, timeout=120, cwd=tmp_path,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["seed"] for r in records] == [0, 1]
    assert all({"score", "return", "parsed", "agent_stats", "steps"} <= set(r) for r in records)


def test_vlm_command_ctrl_c_keeps_the_finished_records(monkeypatch, capsys, tmp_path):
    """Ctrl-C in ``python -m gymv.agents.vlm`` ended in a traceback from inside the HTTP client."""
    from gymv.agents import vlm
    from gymv.benchmarks import rollout as rollout_module
    from tests.chat_server import ChatServer

    played = []

    def rollout_then_ctrl_c(env, agent, seed):
        if played:
            raise KeyboardInterrupt
        played.append(seed)
        return {"seed": seed}

    monkeypatch.setattr(rollout_module, "rollout", rollout_then_ctrl_c)
    with ChatServer(lambda request: "Answer: B2") as server:
        code = vlm.main(["--env", "GymV/TicTacToeBestMove-v1", "--model", "m", "--base-url", server.base_url,
                         "--episodes", "3", "--cache-dir", str(tmp_path / "cache")])
    assert code == 130
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"seed": 0}
    assert "interrupted after 1 of 3 episodes (their records are above); the model's replies so far are in the cache" \
        in captured.err


def test_one_table_of_agent_names():
    env = gym.make("GymV/TicTacToe-v1")
    for name in ("random", "oracle"):
        assert type(make_agent(name, env)).__name__ == AGENTS[name].rsplit(":", 1)[1]
    with pytest.raises(ValueError, match="random, oracle, oracle:<eps>, vlm, human, sb3:<checkpoint path>"):
        make_agent("gpt", env)
    assert make_agent("random", env, seed=5).space is env.action_space  # seed goes to agents that take one
    make_agent("oracle", env, seed=5)  # and is dropped for those that do not
    import numpy as np

    make_agent("oracle:0.5", env, seed=np.int64(3))
    make_agent("oracle:0.5", env, seed=None)   # unseeded (it raised a TypeError from numpy)
    for bad in ("x", -1, 1.5, True):   # Gymnasium's own "Seed must be a python integer", or True taken as 1
        for name in ("random", "oracle:0.5"):
            with pytest.raises(ValueError, match="valid values: an integer >= 0"):
                make_agent(name, env, seed=bad)


def test_domain_comes_from_the_module_path():
    cls = gymv_envs.task_spec("GymV/Sokoban-v1").entry_point
    assert TaskSpec(name="X", entry_point=cls, max_episode_steps=5).domain == "games"
    with pytest.raises(ValueError, match="'games' folder"):
        TaskSpec(name="X", entry_point=cls, max_episode_steps=5, domain="puzzles")

    class Outside(cls):
        pass

    Outside.__module__ = "mypackage.tasks"
    with pytest.raises(ValueError, match="pass domain"):
        TaskSpec(name="X", entry_point=Outside, max_episode_steps=5)
    assert TaskSpec(name="X", entry_point=Outside, max_episode_steps=5, domain="mine").domain == "mine"
    for env_id in gymv_envs.ids():
        spec = gymv_envs.task_spec(env_id)
        assert spec.entry_point.__module__.split(".")[2] == spec.domain


def test_unknown_extra_is_refused_at_registration():
    cls = type("NeedsMagic", (gymv_envs.task_spec("GymV/Sokoban-v1").entry_point,), {"extras": ("magic",)})
    with pytest.raises(ValueError, match="unknown extras.*valid extras: world3d"):
        registry.register_spec(TaskSpec(name="NeedsMagic", entry_point=cls, max_episode_steps=5, domain="x"))


def test_skipped_ids_are_named_with_the_install_command(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(registry.EXTRA_MODULES, "web", "module_that_does_not_exist_xyz")
    status = bench_run.main(["--agent", "random", "--ids", "GymV/WebShop*", "--ids", "GymV/TicTacToe-v1",
                             "--out", str(tmp_path), "--seeds", "1", "--workers", "1", "--quiet", "--no-plots",
                             "--no-baselines"])
    err = capsys.readouterr().err
    assert status == 0
    n = len(gymv_envs.ids("GymV/WebShop*"))
    assert n >= 2 and f"{n} matching ids skipped" in err and f"web ({n} ids)" in err and "pip install 'gymv[web]'" in err
    status = bench_run.main(["--agent", "random", "--ids", "GymV/WebShop*", "--out", str(tmp_path / "none")])
    assert status == 2 and "pip install 'gymv[web]'" in capsys.readouterr().err


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_ray_cluster_fails_fast_naming_the_address(tmp_path):
    pytest.importorskip("ray")
    port = _closed_port()
    t0 = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "gymv.benchmarks", "run", "--ids", "GymV/TicTacToe-v1",
                          "--executor", "ray", "--ray-address", f"127.0.0.1:{port}", "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert time.monotonic() - t0 < 30
    assert out.returncode == 2, out.stderr
    assert f"127.0.0.1:{port}" in out.stderr and "ray start --head" in out.stderr
    assert "Traceback" not in out.stderr


def test_human_play_without_a_display_says_so_at_once(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    t0 = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "gymv.agents.human", "GymV/Sokoban-v1"], capture_output=True,
                         text=True, timeout=60, env=env, cwd=tmp_path)
    assert time.monotonic() - t0 < 20
    assert out.returncode == 2 and "needs a display" in out.stderr and "xvfb-run" in out.stderr


def test_bare_folder_names_refuse_to_import():
    out = subprocess.run([sys.executable, "-c", "import agents"], capture_output=True, text=True, cwd=ROOT,
                         timeout=60)
    assert out.returncode != 0 and "import gymv.agents" in out.stderr


def test_cleanrl_seeding_does_not_replay_the_level():
    """``env.reset(seed=s); env.action_space.seed(s)`` (CleanRL) gave a random policy Mastermind's code on the
    first guess on every seed; now a policy seeded like that does no better than one seeded apart."""

    def successes(env_id: str, same: bool, seeds: range) -> int:
        env = gym.make(env_id)
        won = 0
        for s in seeds:
            env.reset(seed=s)
            env.action_space.seed(s if same else s + 10_000)
            done, info = False, {}
            while not done:
                _, _, term, trunc, info = env.step(env.action_space.sample())
                done = term or trunc
            won += info["success"]
        return won

    seeds = range(40)
    first_guess = 0
    env = gym.make("GymV/Mastermind-v1")
    for s in seeds:
        env.reset(seed=s)
        env.action_space.seed(s)
        first_guess += env.step(env.action_space.sample())[1] > 0 and env.unwrapped._success
    assert first_guess == 0
    for env_id in ("GymV/Mastermind-v1", "GymV/TicTacToe-v1", "GymV/GridNav-v1"):
        assert successes(env_id, True, seeds) <= successes(env_id, False, seeds) + 4, env_id


class _Snag(gymv_envs.core.MultiTurnEnv):
    """A stand-in physics world: 'push' moves, anything else is blocked; three blocked steps in a row
    are a deadlock, the next move a recovery (the info keys world3d reports)."""

    action_names = ("push", "wait")

    def _generate(self, rng):
        self.blocked = self.deadlocks = self.stuck_steps = self.recoveries = 0

    def _draw(self):
        import numpy as np

        return np.full((*self.obs_size, 3), 40 * self.blocked % 255, np.uint8)

    def _task_text(self):
        return "Push."

    def _apply(self, action):
        was_stuck = self.blocked >= 3
        self.blocked = 0 if action == 0 else self.blocked + 1
        if self.blocked == 3:
            self.deadlocks += 1
        if self.blocked >= 3:
            self.stuck_steps += 1
        if was_stuck and self.blocked == 0:
            self.recoveries += 1
        return gymv_envs.core.Outcome(terminated=self._elapsed >= 12, success=True)

    def _info(self, outcome):
        info = super()._info(outcome)
        info.update(stuck=self.blocked >= 3, deadlocks=self.deadlocks, stuck_steps=self.stuck_steps,
                    recoveries=self.recoveries)
        return info

    def oracle_action(self):
        return 0


class _Scripted:
    def __init__(self, plan, replies):
        self.plan, self.replies, self.i, self.last_reply = plan, replies, 0, ""

    def reset(self, instruction, info):
        self.i = 0

    def act(self, obs, info):
        self.last_reply = self.replies[self.i]
        self.i += 1
        return self.plan[self.i - 1]


def test_deadlocks_are_counted_per_episode_and_summarised():
    from gymv.benchmarks.scoring import aggregate

    plan = [1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0]  # stuck from step 3 to 4, recovered, stuck again from step 8
    replies = ["go"] * 3 + ["I am stuck here"] + ["go"] * 8
    record = rollout(_Snag(obs_size=(32, 32)), _Scripted(plan, replies), seed=0)
    assert (record["deadlocks"], record["stuck_steps"], record["recoveries"], record["deadlocks_noticed"]) == (2, 6, 2, 1)
    summary = aggregate([{**record, "config_key": "", "wall_s": 0.0}])
    overall = summary["overall"]
    assert overall["recovery_rate"] == 100.0 and overall["deadlocks_noticed_rate"] == 50.0
    assert overall["deadlocks_per_episode"] == 2.0


def test_validity_command_on_a_sample(tmp_path):
    """``gymv-bench validity`` passes a sample of default levels and fails a bar no id can meet."""
    from gymv.benchmarks import validity

    sample = ["GymV/MazePath-v1", "GymV/SlidingPuzzle-v1", "GymV/Sokoban-v1", "GymV/LifeBoard-v0"]
    args = [a for i in sample for a in ("--ids", i)] + ["--seeds", "10", "--mcq-seeds", "12", "--workers", "1",
                                                         "--quiet", "--out", str(tmp_path)]
    assert validity.main(args) == 0
    report = json.loads((tmp_path / "validity.json").read_text())
    assert {r["id"] for r in report["rows"]} == set(sample)
    assert all(r["oracle_success"] == 100.0 and r["random_success"] <= 20.0 for r in report["rows"])
    assert all(abs(r["mcq"]["random_letter"] - 25.0) < 1e-6 for r in report["rows"] if "mcq" in r)
    assert validity.main(["--ids", "GymV/Sokoban-v1", "--seeds", "3", "--workers", "1", "--quiet",
                          "--max-score", "-1"]) == 1


def test_validity_in_another_action_mode(tmp_path, capsys):
    """``--action-mode`` plays the ids that offer it in that mode, names the skipped ones, rejects an unknown mode."""
    from gymv.benchmarks import validity

    args = ["--ids", "GymV/Artillery-v1", "--ids", "GymV/Sokoban-v1", "--action-mode", "parametric", "--seeds", "3",
            "--oracle-seeds", "1", "--workers", "1", "--out", str(tmp_path)]
    validity.main(args)
    report = json.loads((tmp_path / "validity.json").read_text())
    assert [(r["id"], r["action_mode"]) for r in report["rows"]] == [("GymV/Artillery-v1", "parametric")]
    assert report["rows"][0]["oracle_success"] == 100.0 and "errors" not in report["rows"][0]
    assert "skipping 1 ids without action mode 'parametric': GymV/Sokoban-v1" in capsys.readouterr().err
    assert validity.main(["--ids", "GymV/Sokoban-v1", "--action-mode", "joystick", "--quiet"]) == 2
    assert "no chosen id offers --action-mode 'joystick'; valid: discrete" in capsys.readouterr().err


def test_a_human_window_without_a_display_says_so_at_once(monkeypatch):
    """render_mode='human' on a headless machine: SDL would fall back to a driver that shows nothing while
    each step still waits a frame's time for the viewer (1/8 s); it is refused at once, naming the fixes."""
    from gymv_envs import multiagent
    from gymv_envs.core.display import NoDisplayError

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(NoDisplayError, match="needs a display.*render_mode='rgb_array'.*SDL_VIDEODRIVER=dummy"):
        gym.make("GymV/Sokoban-v1", render_mode="human")
    with pytest.raises(NoDisplayError, match="ConnectFour.*needs a display"):
        multiagent.make("GymV/ConnectFour-v1", render_mode="human")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")   # no window, on purpose: trusted
    env = gym.make("GymV/Sokoban-v1", render_mode="human", obs_size=(48, 48))
    env.reset(seed=0)
    env.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasium_make_vec_runs_ids_in_both_modes(mode):
    """gym.make_vec, the Gymnasium 1.x way to batch envs: frames batched, episodes reset on their own,
    and the same levels as single envs with the same seeds."""
    import numpy as np

    vec = gym.make_vec("GymV/ShortestPath-v1", num_envs=2, vectorization_mode=mode, obs_size=(48, 48))
    try:
        obs, info = vec.reset(seed=[3, 4])
        assert obs.shape == (2, 48, 48, 3) and obs.dtype == np.uint8
        for k, seed in enumerate((3, 4)):
            single, _ = gym.make("GymV/ShortestPath-v1", obs_size=(48, 48)).reset(seed=seed)
            assert np.array_equal(obs[k], single)
        _, reward, terminated, truncated, info = vec.step(np.array(["Answer: 1", "Answer: 2"], dtype=object))
        assert (terminated | truncated).all() and reward.shape == (2,) and "feedback" in info
    finally:
        vec.close()
    vec = gym.make_vec("GymV/Sokoban-v1", num_envs=2, vectorization_mode=mode, obs_size=(48, 48))
    try:
        vec.reset(seed=0)
        vec.action_space.seed(0)
        for _ in range(5):
            obs, *_ = vec.step(vec.action_space.sample())
        assert obs.shape == (2, 48, 48, 3)
    finally:
        vec.close()
