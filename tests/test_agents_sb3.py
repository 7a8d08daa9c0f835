"""Short SB3 training runs and the load-and-evaluate round trip (``sb3:<path>``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
torch = pytest.importorskip("torch")
torch.set_num_threads(1)  # small nets: one thread is fastest, and kind to a shared CPU

import gymv_envs  # noqa: E402,F401 - registers the ids
from gymv.agents import make_agent  # noqa: E402
from gymv.agents.sb3 import FrameStack, SB3Agent, Trainer, checkpoint_env_kwargs, main  # noqa: E402
from gymv.benchmarks.episode import EpisodeTask, run_task  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TINY = {"ppo": {"n_steps": 64, "n_epochs": 1, "batch_size": 64}, "a2c": {}, "dqn": {"learning_starts": 32}}


class TwoViews(gym.ObservationWrapper):
    """A Dict observation of the current and the previous frame (camera views from a wrapper)."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.observation_space = gym.spaces.Dict({"front": env.observation_space, "previous": env.observation_space})
        self._last = None

    def reset(self, **kwargs):
        self._last = None
        return super().reset(**kwargs)

    def observation(self, obs):
        prev = obs if self._last is None else self._last
        self._last = obs
        return {"front": obs, "previous": prev}


def train(tmp_path, env_id, algo="ppo", steps=128, eval_episodes=2, **kw):
    trainer = Trainer(env_id, algo, steps, tmp_path / "run", n_envs=2, eval_freq=64, eval_episodes=eval_episodes,
                      hparams=TINY[algo], verbose=-1, **kw)
    return trainer, trainer.run()


def test_ppo_train_then_load_and_evaluate_through_the_runner(tmp_path):
    trainer, curve = train(tmp_path, "GymV/TicTacToe-v1", obs_size=(48, 48))
    assert [p["timesteps"] for p in curve] == [0, 64, 128]
    assert all(0.0 <= p["score_mean"] <= 100.0 and p["episodes"] == 2 for p in curve)
    assert json.loads((tmp_path / "run" / "curve.json").read_text()) == curve
    for name in ("model", "best"):
        assert (tmp_path / "run" / f"{name}.zip").exists() and (tmp_path / "run" / f"{name}.gymv.json").exists()
    where = checkpoint_env_kwargs(tmp_path / "run")
    assert where["env_kwargs"] == {"obs_size": [48, 48], "difficulty": 0, "text_in_image": True}
    assert where["env_id"] == "GymV/TicTacToe-v1"

    task = EpisodeTask(env_id="GymV/TicTacToe-v1", env_kwargs={"obs_size": (48, 48), "difficulty": 0,
                                                               "text_in_image": True}, seed=5,
                       agent=f"sb3:{tmp_path / 'run' / 'model.zip'}", max_steps=10)
    records = [run_task(task) for _ in range(2)]
    assert records[0]["steps"] > 0 and 0.0 <= records[0]["score"] <= 100.0
    assert records[0]["return"] == records[1]["return"] and records[0]["steps"] == records[1]["steps"]  # deterministic

    env = gym.make("GymV/TicTacToe-v1", obs_size=(48, 48), text_in_image=True)
    obs, info = env.reset(seed=0)
    agent = make_agent(f"sb3:{tmp_path / 'run'}", env)
    agent.reset(info["instruction"], info)
    assert env.action_space.contains(agent.act(obs, info))


def test_a_checkpoint_refuses_other_observations_with_a_clear_message(tmp_path):
    train(tmp_path, "GymV/GridNav-v1", steps=64, eval_episodes=1, obs_size=(48, 48))
    ckpt = tmp_path / "run" / "model.zip"
    with pytest.raises(ValueError, match=r"expects observations.*\[48, 48, 3\].*\[84, 84, 3\].*obs_size"):
        SB3Agent(gym.make("GymV/GridNav-v1", obs_size=(84, 84), text_in_image=True), ckpt)
    with pytest.raises(ValueError, match=r"trained with text_in_image=True.*text_in_image"):
        SB3Agent(gym.make("GymV/GridNav-v1", obs_size=(48, 48)), ckpt)
    with pytest.raises(ValueError, match="trained on GymV/GridNav-v1, not GymV/Sokoban-v1"):
        SB3Agent(gym.make("GymV/Sokoban-v1", obs_size=(48, 48)), ckpt)
    with pytest.raises(ValueError, match="expects actions"):
        SB3Agent(gym.make("GymV/GridNav-v1", obs_size=(48, 48), action_mode="joystick", text_in_image=True), ckpt)
    with pytest.raises(ValueError, match="no SB3 checkpoint.*agents.sb3 train"):
        make_agent(f"sb3:{tmp_path / 'missing.zip'}", gym.make("GymV/GridNav-v1"))


@pytest.mark.parametrize("env_id,algo,kw", [
    ("GymV/MazePath-v1", "a2c", {}),  # single-turn, mcq: Discrete(4)
    ("GymV/TicTacToe-v1", "dqn", {}),
    ("GymV/Artillery-v1", "ppo", {}),  # Box action
])
def test_other_protocols_and_action_spaces(tmp_path, env_id, algo, kw):
    trainer, curve = train(tmp_path, env_id, algo, obs_size=(64, 64), **kw)  # mcq options drawn: 64 px is the least
    assert curve[-1]["timesteps"] >= 128 and trainer.stack == "gymv.wrappers.for_sb3"
    env = gym.make(env_id, **checkpoint_env_kwargs(tmp_path / "run")["env_kwargs"])
    obs, info = env.reset(seed=1)
    agent = make_agent(f"sb3:{tmp_path / 'run'}", env)
    agent.reset(info["instruction"], info)
    action = agent.act(obs, info)
    assert env.action_space.contains(action)
    if isinstance(env.action_space, gym.spaces.Box):  # the model acts in [-1, 1]; the agent maps it back
        raw, _ = agent.model.predict(obs, deterministic=True)
        low, high = env.action_space.low, env.action_space.high
        assert np.allclose(action, low + (np.clip(raw, -1, 1) + 1) / 2 * (high - low), atol=1e-5)


def test_dict_views_use_multi_input_policy_and_frame_stacking(tmp_path):
    wrapper = "tests.test_agents_sb3:TwoViews"
    trainer, curve = train(tmp_path, "GymV/TicTacToe-v1", obs_size=(48, 48), wrappers=[wrapper], frame_stack=2)
    assert trainer.policy == "MultiInputPolicy" and trainer.stack == "VecFrameStack" and len(curve) == 3
    env = TwoViews(gym.make("GymV/TicTacToe-v1", obs_size=(48, 48), text_in_image=True))
    obs, info = env.reset(seed=0)
    agent = make_agent(f"sb3:{tmp_path / 'run'}", env)
    agent.reset(info["instruction"], info)
    assert env.action_space.contains(agent.act(obs, info))
    with pytest.raises(ValueError, match="expects observations"):
        make_agent(f"sb3:{tmp_path / 'run'}", gym.make("GymV/TicTacToe-v1", obs_size=(48, 48), text_in_image=True))


def test_agent_frame_stack_matches_the_training_stacks():
    from stable_baselines3.common.vec_env import DummyVecEnv, VecFrameStack

    from gymv.wrappers import for_sb3

    venv = VecFrameStack(DummyVecEnv([lambda: gym.make("GymV/Breakout-v1", obs_size=(48, 48))]), 4)
    venv.seed(3)
    wrapped = for_sb3(gym.make("GymV/Breakout-v1", obs_size=(48, 48)), obs_size=None, frame_stack=4)
    env = gym.make("GymV/Breakout-v1", obs_size=(48, 48))
    zeros, reset = FrameStack(4), FrameStack(4, "reset")
    obs, _ = env.reset(seed=3)
    theirs, _ = wrapped.reset(seed=3)
    assert np.array_equal(zeros(obs, True), venv.reset()[0]) and np.array_equal(reset(obs, True), theirs)
    for action in [1, 2, 2, 0, 1, 1]:
        stacked, *_ = venv.step(np.array([action]))
        theirs, *_ = wrapped.step(action)
        obs, *_ = env.step(action)
        assert np.array_equal(zeros(obs, False), stacked[0]) and np.array_equal(reset(obs, False), theirs)
    assert stacked[0].shape == (48, 48, 12) and stacked[0][..., :3].any()


def test_command_line_train_and_errors(tmp_path, capsys):
    out = subprocess.run([sys.executable, "-m", "gymv.agents.sb3", "train", "--help"], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0 and "--algo {ppo,dqn,a2c}" in out.stdout and "--cpu-budget" in out.stdout
    assert main(["train", "--env", "GymV/SlidingPuzzle-v1", "--steps", "64", "--n-envs", "1", "--eval-freq", "64",
                 "--eval-episodes", "1", "--obs-size", "48", "48", "--hparams", '{"n_steps": 64, "n_epochs": 1, "batch_size": 32}',
                 "--out", str(tmp_path / "cli")]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["final"]["timesteps"] == 64
    assert main(["eval", "--checkpoint", str(tmp_path / "cli"), "--episodes", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["agent"] == "sb3"
    assert main(["train", "--env", "GymV/Artillery-v1", "--algo", "dqn"]) == 2
    assert "DQN needs a Discrete action space" in capsys.readouterr().err
    assert main(["train", "--env", "GymV/MazePath-v1", "--env-kwargs", '{"answer_format": "open"}']) == 2
    assert "answer_format='mcq'" in capsys.readouterr().err
    assert main(["eval", "--checkpoint", str(tmp_path / "nothing")]) == 2
    assert "no SB3 checkpoint" in capsys.readouterr().err
    for bad, message in ((["--n-envs", "0"], "invalid n_envs=0; valid values: an integer >= 1"),  # was an IndexError
                         (["--eval-freq", "0"], "invalid eval_freq=0"),   # was an evaluation after every step
                         (["--hparams", '{"lr": 0.1}'], "PPO takes no hyperparameter lr; valid: batch_size, clip_range"),
                         (["--threads", "0"], "invalid --threads 0"),
                         (["--difficulty", "2", "--env-kwargs", '{"difficulty": 1}'], "give the difficulty once"),
                         (["--seed", "-3"], "invalid seed=-3"),   # was Gymnasium's error from the first reset
                         # a Text observation failed inside SB3's VecEnv ("'NoneType' object is not iterable")
                         (["--wrapper", "gymv.wrappers:StateText"], "Text space, which SB3 cannot take")):
        assert main(["train", "--env", "GymV/SlidingPuzzle-v1", *bad]) == 2, bad
        assert message in capsys.readouterr().err
    assert main(["eval", "--checkpoint", str(tmp_path / "cli"), "--seed", "-3"]) == 2
    assert "--seed >= 0" in capsys.readouterr().err
    # training again into a folder with a model replaced that model and best.zip at its first evaluation
    before = (tmp_path / "cli" / "best.zip").read_bytes()
    again = ["train", "--env", "GymV/SlidingPuzzle-v1", "--steps", "0", "--n-envs", "1", "--obs-size", "48", "48",
             "--eval-episodes", "1", "--out", str(tmp_path / "cli")]
    assert main(again) == 2
    assert "already holds a trained model (GymV/SlidingPuzzle-v1, 64 steps): choose another --out" in capsys.readouterr().err
    assert (tmp_path / "cli" / "best.zip").read_bytes() == before
    assert main([*again, "--overwrite"]) == 0


def test_ctrl_c_keeps_the_policy_trained_so_far(tmp_path, capsys, monkeypatch):
    """Ctrl-C during training used to end in a KeyboardInterrupt traceback, model.zip holding the last evaluation's
    policy (up to --eval-freq steps behind); with --subproc, the workers' broken pipes hid even that. Now the policy
    at the moment of the interrupt is saved, the command says where, and exits 130."""
    steps = {"n": 0}

    def over_budget(self):   # asked after every env step: a Ctrl-C arrives at step 101
        steps["n"] += 1
        if steps["n"] > 100:
            raise KeyboardInterrupt
        return False

    monkeypatch.setattr(Trainer, "over_budget", over_budget)
    out = tmp_path / "run"
    code = main(["train", "--env", "GymV/SlidingPuzzle-v1", "--steps", "100000", "--n-envs", "1", "--eval-freq", "64",
                 "--eval-episodes", "1", "--obs-size", "48", "48", "--out", str(out),
                 "--hparams", '{"n_steps": 32, "n_epochs": 1, "batch_size": 32}'])
    assert code == 130
    assert "interrupted at 10" in capsys.readouterr().err
    saved = json.loads((out / "model.gymv.json").read_text())["timesteps"]
    assert saved > json.loads((out / "curve.json").read_text())[-1]["timesteps"]   # newer than the last evaluation
    assert main(["eval", "--checkpoint", str(out / "model.zip"), "--episodes", "1"]) == 0
    capsys.readouterr()
    import gymv.agents.sb3 as sb3

    scored = []

    def evaluate_then_ctrl_c(*args, **kwargs):   # Ctrl-C while eval --baselines scores its second agent
        if scored:
            raise KeyboardInterrupt
        scored.append(1)
        return {"score_mean": 0.0}

    monkeypatch.setattr(sb3, "evaluate", evaluate_then_ctrl_c)
    assert main(["eval", "--checkpoint", str(out / "model.zip"), "--episodes", "1", "--baselines"]) == 130
    captured = capsys.readouterr()
    assert json.loads(captured.out)["agent"] == "sb3" and "interrupted while scoring random" in captured.err
