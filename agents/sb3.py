"""Train stable-baselines3 agents from pixels on GymV ids, and play their checkpoints.

Command line::

    python -m gymv.agents.sb3 train --env GymV/GridNav-v1 --algo ppo --steps 50000 [--out runs/sb3/x]
    python -m gymv.agents.sb3 eval --checkpoint runs/sb3/x/model.zip --episodes 10

The RL stack: the env drawn natively at ``obs_size`` (84x84 by default, no resizing),
single-turn ids in their ``mcq`` format (a ``Discrete`` action), then ``gymv.wrappers.for_sb3``
(registered step budget, rewards clipped to [-1, 1], frame stacking on the channel axis for
real-time ids, tag ``real-time``, or ``--frame-stack``; Box actions rescaled to [-1, 1]),
SB3's ``make_vec_env`` (a ``Monitor`` per env) on ``DummyVecEnv`` (``--subproc`` for
``SubprocVecEnv``) and SB3's own channel transpose for the CNN: ``CnnPolicy``. ``Dict``
observations (camera views from a wrapper, ``--wrapper module:Class``) skip ``for_sb3``, are
stacked by SB3's ``VecFrameStack`` and use ``MultiInputPolicy``. `SB3Agent` replays the same
stacking and action scaling on the plain env the benchmark runner gives it.

Training evaluates the policy every ``--eval-freq`` steps on held-out seeds under the
registered step budget and scores it by the benchmark's protocol
(`gymv.benchmarks.scoring.episode_score`); the curve goes to ``curve.json`` and the best and the
last models are saved (into an ``--out`` that holds no model yet, unless ``--overwrite``; Ctrl-C saves the
policy trained so far). A checkpoint is ``model.zip`` plus ``model.gymv.json`` (the id, the
env kwargs, the wrappers, the frame stack and the spaces), so `SB3Agent` (``sb3:<path>`` in
`gymv.agents.make_agent`) can refuse an env with other observations with a clear message.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gymv.wrappers import load_wrapper
from gymv_envs.core.jsonable import jsonable

ALGOS = ("ppo", "dqn", "a2c")
DEFAULT_OBS_SIZE = (84, 84)
EVAL_SEED = 10_000  # evaluation levels: seeds EVAL_SEED, EVAL_SEED + 1, ...
# Defaults sized for short CPU runs; --hparams overrides any of them.
HPARAMS: dict[str, dict[str, Any]] = {
    "ppo": {"n_steps": 128, "batch_size": 128, "n_epochs": 4, "learning_rate": 2.5e-4, "ent_coef": 0.01, "clip_range": 0.1},
    "a2c": {"n_steps": 5, "learning_rate": 7e-4, "ent_coef": 0.01},
    "dqn": {"buffer_size": 20_000, "learning_starts": 1_000, "train_freq": 4, "target_update_interval": 1_000,
            "exploration_fraction": 0.2, "exploration_final_eps": 0.05, "learning_rate": 1e-4},
}


# ----------------------------------------------------------------------------- the env stack
def make_env(env_id: str, env_kwargs: dict[str, Any], wrappers: Sequence[str] = ()) -> gym.Env:
    """``gym.make`` (registered budget included) and the wrappers, in a fresh process too."""
    import gymv_envs  # noqa: F401 - registers the ids in SubprocVecEnv workers

    env = gym.make(env_id, **env_kwargs)
    for spec in wrappers:
        cls, kwargs = load_wrapper(spec)
        env = cls(env, **kwargs)
    return env


def make_train_env(env_id: str, env_kwargs: dict[str, Any], wrappers: Sequence[str] = (), frame_stack: int = 1) -> gym.Env:
    """The training env: `make_env`, then ``gymv.wrappers.for_sb3`` (frame stacking with reset padding,
    rewards clipped to [-1, 1], Box actions rescaled to [-1, 1]) when the frames are RGB images."""
    from gymv.wrappers import for_sb3

    env = make_env(env_id, env_kwargs, wrappers)
    return for_sb3(env, obs_size=None, frame_stack=frame_stack, text_in_image=bool(env_kwargs.get("text_in_image", True)))


def uses_for_sb3(env: gym.Env) -> bool:
    """Whether the training stack is ``gymv.wrappers.for_sb3`` (RGB Box frames) or SB3's VecFrameStack (Dict views)."""
    obs = env.observation_space
    return isinstance(obs, spaces.Box) and obs.dtype == np.uint8 and len(obs.shape) == 3 and obs.shape[2] == 3


def train_env_kwargs(env_id: str, obs_size: Sequence[int] = DEFAULT_OBS_SIZE, difficulty: int | None = None,
                     extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The constructor kwargs the RL stack uses: native ``obs_size``; the instruction's task information
    drawn into the frames (``text_in_image``); ``mcq`` for single-turn ids. ``difficulty`` (default 0) may
    come in ``extra`` instead, as gym.make takes it, but not differently in both."""
    import gymv_envs

    desc = gymv_envs.describe(env_id)
    extra = dict(extra or {})
    if difficulty is not None and "difficulty" in extra and extra["difficulty"] != difficulty:
        raise ValueError(f"give the difficulty once: difficulty={difficulty} (--difficulty) and "
                         f"{extra['difficulty']!r} in env_kwargs (--env-kwargs) differ")
    kwargs = {"obs_size": tuple(int(v) for v in obs_size), "difficulty": 0 if difficulty is None else difficulty,
              "text_in_image": True, **extra}
    if desc["protocol"] == "single_turn":
        if kwargs.setdefault("answer_format", "mcq") != "mcq":
            raise ValueError(f"{env_id} is single-turn: SB3 trains it only with answer_format='mcq' (a Discrete action)")
    return kwargs


def algo_arguments(algo: str) -> list[str]:
    """The keyword arguments of an algorithm's constructor that ``hparams`` may set (not the policy, env, seed,
    device or verbosity, which the trainer sets)."""
    import inspect

    import stable_baselines3

    cls = getattr(stable_baselines3, algo.upper())
    fixed = {"self", "policy", "env", "seed", "device", "verbose", "_init_setup_model"}
    return sorted(p for p in inspect.signature(cls.__init__).parameters if p not in fixed)


def default_frame_stack(env_id: str) -> int:
    import gymv_envs

    return 4 if "real-time" in gymv_envs.describe(env_id)["tags"] else 1


def check_spaces(env: gym.Env, algo: str, env_id: str) -> str:
    """The policy name for this env and algorithm, or a ValueError saying what cannot work."""
    act = env.action_space
    if not isinstance(act, (spaces.Discrete, spaces.Box)):
        raise ValueError(f"{env_id} has a {type(act).__name__} action space; SB3 trains Discrete or Box actions "
                         "(single-turn ids: answer_format='mcq')")
    if algo == "dqn" and not isinstance(act, spaces.Discrete):
        raise ValueError(f"DQN needs a Discrete action space; {env_id} has {act}; use --algo ppo or a2c")
    obs = env.observation_space
    parts = obs.spaces.items() if isinstance(obs, spaces.Dict) else [("", obs)]
    for key, part in parts:   # what SB3's policies take (a Text one failed deep inside SB3's VecEnv)
        if not isinstance(part, (spaces.Box, spaces.Discrete, spaces.MultiDiscrete, spaces.MultiBinary)):
            where = f"observation key {key!r}" if key else "observation"
            raise ValueError(f"{env_id}'s {where} is a {type(part).__name__} space, which SB3 cannot take (valid: Box, "
                             "Discrete, MultiDiscrete, MultiBinary, or a flat Dict of them); leave out the wrapper that "
                             "adds it (e.g. StateText)")
    if isinstance(obs, spaces.Dict):
        return "MultiInputPolicy"
    if isinstance(obs, spaces.Box) and obs.dtype == np.uint8 and len(obs.shape) == 3:
        if min(obs.shape[:2]) < 36:
            raise ValueError(f"obs_size {obs.shape[:2]} is too small for SB3's NatureCNN; use at least 36x36 (84x84 recommended)")
        return "CnnPolicy"
    return "MlpPolicy"


def space_summary(space: spaces.Space) -> Any:
    """A JSON description of a space, compared when a checkpoint is loaded."""
    if isinstance(space, spaces.Dict):
        return {k: space_summary(v) for k, v in space.spaces.items()}
    if isinstance(space, spaces.Discrete):
        return {"type": "Discrete", "n": int(space.n)}
    if isinstance(space, spaces.Box):
        return {"type": "Box", "shape": list(space.shape), "dtype": str(space.dtype)}
    return {"type": type(space).__name__}


# ----------------------------------------------------------------------------- the agent
class FrameStack:
    """The agent-side twin of the training stack's frame stacking: newest frame last on the
    channel axis, padded at reset with zeros (SB3's ``VecFrameStack``) or with the reset frame
    (``padding="reset"``, ``wrappers.FrameHistory`` in ``for_sb3``)."""

    def __init__(self, k: int, padding: str = "zeros") -> None:
        self.k, self.padding, self.stack = k, padding, None

    def __call__(self, obs: Any, first: bool) -> Any:
        if self.k == 1:
            return obs
        if isinstance(obs, dict):
            if first or not isinstance(self.stack, dict):
                self.stack = {key: FrameStack(self.k, self.padding) for key in obs}
            return {key: self.stack[key](value, first) for key, value in obs.items()}
        obs = np.asarray(obs)
        c = obs.shape[-1]
        if first or self.stack is None:
            self.stack = (np.concatenate([obs] * self.k, axis=-1) if self.padding == "reset"
                          else np.zeros((*obs.shape[:-1], c * self.k), obs.dtype))
        else:
            self.stack = np.roll(self.stack, -c, axis=-1)
        self.stack[..., -c:] = obs
        return self.stack.copy()


def checkpoint_paths(path: str | Path) -> tuple[Path, Path]:
    """``(model.zip, model.gymv.json)`` for a checkpoint path (the zip, its stem, or its folder)."""
    p = Path(path)
    if p.is_dir():
        p = p / "model.zip"
    if p.suffix != ".zip":
        p = p.with_name(p.name + ".zip")
    return p, p.with_suffix(".gymv.json")


def checkpoint_env_kwargs(path: str | Path) -> dict[str, Any]:
    """The env kwargs and wrappers a checkpoint expects: ``{"env_id", "env_kwargs", "wrappers"}``."""
    zip_path, meta_path = checkpoint_paths(path)
    if not meta_path.exists():
        raise ValueError(f"no SB3 checkpoint at {zip_path} (or its {meta_path.name} is missing); "
                         "train one with: python -m gymv.agents.sb3 train --env GymV/<id> --out <folder>")
    meta = json.loads(meta_path.read_text())
    return {"env_id": meta["env_id"], "env_kwargs": meta["env_kwargs"], "wrappers": meta["wrappers"]}


class SB3Agent:
    """Plays an SB3 checkpoint (``sb3:<path>``); the env must give the observations it was trained on."""

    def __init__(self, env: gym.Env, checkpoint: str | Path | None = None, *, model: Any = None,
                 meta: dict[str, Any] | None = None, deterministic: bool = True, allow_other_env: bool = False) -> None:
        if model is None:
            if not checkpoint:
                raise ValueError("SB3Agent needs a checkpoint: use the agent name sb3:<path to model.zip>")
            zip_path, meta_path = checkpoint_paths(checkpoint)
            if not zip_path.exists():
                raise ValueError(f"no SB3 checkpoint at {zip_path}; train one with: python -m gymv.agents.sb3 train --env GymV/<id> --out <folder>")
            if not meta_path.exists():
                raise ValueError(f"{meta_path} is missing: it records the env a checkpoint was trained on; "
                                 "checkpoints written by `python -m gymv.agents.sb3 train` have it")
            meta = json.loads(meta_path.read_text())
        if meta is None:
            raise ValueError("SB3Agent(model=...) also needs meta=... (the contents of a model.gymv.json)")
        self.meta, self.deterministic = meta, deterministic
        where = f"checkpoint {checkpoint}" if checkpoint else "the model"
        spec_id = env.spec.id if env.spec is not None else None
        if spec_id and spec_id != meta["env_id"] and not allow_other_env:
            raise ValueError(f"{where} was trained on {meta['env_id']}, not {spec_id}; "
                             "pass allow_other_env=True to play it on another id anyway")
        fix = (f"make the env as gym.make({meta['env_id']!r}, **{meta['env_kwargs']!r})"
               + (f" wrapped in {meta['wrappers']}" if meta["wrappers"] else "")
               + " (benchmark runner: the same env kwargs and wrappers)")
        trained_text = bool(meta["env_kwargs"].get("text_in_image", False))
        if bool(getattr(env.unwrapped, "text_in_image", False)) != trained_text:
            raise ValueError(f"{where} was trained with text_in_image={trained_text} (the instruction drawn into the "
                             f"frames or not) but this env has the opposite; {fix}")
        got_obs, got_act = space_summary(env.observation_space), space_summary(env.action_space)
        if got_obs != meta["observation_space"]:
            raise ValueError(f"{where} expects observations {meta['observation_space']} but this env gives {got_obs}; {fix}")
        if got_act != meta["action_space"]:
            raise ValueError(f"{where} expects actions {meta['action_space']} but this env has {got_act}; {fix}")
        if model is None:
            from stable_baselines3 import A2C, DQN, PPO

            cls = {"ppo": PPO, "dqn": DQN, "a2c": A2C}[meta["algo"]]
            model = cls.load(str(zip_path), device="cpu")
        self.model = model
        self.discrete = isinstance(env.action_space, spaces.Discrete)
        self.scale = None
        if meta.get("stack") == "gymv.wrappers.for_sb3" and isinstance(env.action_space, spaces.Box):
            self.scale = (env.action_space.low, env.action_space.high)  # the model acts in [-1, 1]
        padding = "reset" if meta.get("stack") == "gymv.wrappers.for_sb3" else "zeros"
        self._stack = FrameStack(int(meta.get("frame_stack", 1)), padding)
        self._first = True

    def reset(self, instruction: str, info: dict[str, Any]) -> None:
        self._first = True

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        obs = self._stack(observation, self._first)
        self._first = False
        action, _ = self.model.predict(obs, deterministic=self.deterministic)
        if self.discrete:
            return int(np.asarray(action).reshape(()))
        action = np.clip(np.asarray(action, dtype=np.float32), -1.0, 1.0)
        if self.scale is not None:
            low, high = self.scale
            action = low + (action + 1.0) * 0.5 * (high - low)
        return action.astype(np.float32)


# ----------------------------------------------------------------------------- evaluation
def evaluate(agent_factory: Any, env_id: str, env_kwargs: dict[str, Any], wrappers: Sequence[str] = (),
             episodes: int = 5, seed: int = EVAL_SEED) -> dict[str, Any]:
    """Mean benchmark score of ``agent_factory(env)`` over seeds ``seed..seed+episodes-1``, played by
    the one episode loop (`gymv.benchmarks.rollout.rollout`), so it scores as the benchmark does."""
    from gymv.benchmarks.rollout import rollout

    env = make_env(env_id, env_kwargs, wrappers)
    agent = agent_factory(env)
    try:
        records = [rollout(env, agent, seed + k) for k in range(episodes)]
    finally:
        env.close()
    scores = [r["score"] for r in records]
    return {"score_mean": float(np.mean(scores)), "score_std": float(np.std(scores)),
            "success_rate": float(np.mean([r["success"] for r in records])),
            "steps_mean": float(np.mean([r["steps"] for r in records])), "episodes": episodes}


def _callback_class() -> type:
    from stable_baselines3.common.callbacks import BaseCallback

    class ScoreEval(BaseCallback):
        """Every ``eval_freq`` env steps: benchmark score on held-out seeds; saves last and best."""

        def __init__(self, trainer: Trainer) -> None:
            super().__init__()
            self.trainer, self.next_eval = trainer, trainer.eval_freq

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next_eval:
                self.next_eval += self.trainer.eval_freq
                self.trainer.record_eval(self.model, self.num_timesteps)
            return not self.trainer.over_budget()

    return ScoreEval


class Trainer:
    """One training run; `run` returns the curve. See the module docstring."""

    def __init__(self, env_id: str, algo: str = "ppo", steps: int = 50_000, out: str | Path | None = None,
                 obs_size: Sequence[int] = DEFAULT_OBS_SIZE, difficulty: int | None = None, n_envs: int = 4,
                 frame_stack: int | None = None, eval_freq: int = 10_000, eval_episodes: int = 5, seed: int = 0,
                 env_kwargs: dict[str, Any] | None = None, wrappers: Sequence[str] = (),
                 hparams: dict[str, Any] | None = None, subproc: bool = False, deterministic: bool = True,
                 cpu_budget_s: float | None = None, verbose: int = 0, overwrite: bool = False) -> None:
        import gymv_envs

        if env_id not in gymv_envs.ids():
            raise ValueError(f"unknown id {env_id!r}; see gymv_envs.ids() for the registered ones")
        if algo not in ALGOS:
            raise ValueError(f"invalid algo {algo!r}; valid: {', '.join(ALGOS)}")
        if gymv_envs.describe(env_id)["protocol"] == "single_turn" and frame_stack not in (None, 1):
            raise ValueError("single-turn ids show one image; leave frame_stack at 1")
        for name, value, low in (("steps", steps, 0), ("n_envs", n_envs, 1), ("eval_freq", eval_freq, 1),
                                 ("eval_episodes", eval_episodes, 1), ("seed", seed, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"invalid {name}={value!r}; valid values: an integer >= {low}")
        if cpu_budget_s is not None and not (isinstance(cpu_budget_s, (int, float)) and cpu_budget_s > 0):
            raise ValueError(f"invalid cpu_budget_s={cpu_budget_s!r}; valid values: None or seconds > 0")
        unknown = sorted(set(hparams or {}) - set(algo_arguments(algo)))
        if unknown:
            raise ValueError(f"{algo.upper()} takes no hyperparameter {', '.join(unknown)}; valid: {', '.join(algo_arguments(algo))}")
        self.env_id, self.algo, self.steps, self.seed = env_id, algo, int(steps), int(seed)
        self.out = Path(out or f"runs/sb3/{env_id.split('/')[-1]}-{algo}-s{seed}")
        if (self.out / "model.zip").exists() and not overwrite:   # its first evaluation would replace model and best
            try:
                had = json.loads((self.out / "model.gymv.json").read_text())
                what = f" ({had['env_id']}, {int(had['timesteps']):,} steps)"
            except (OSError, ValueError, KeyError, TypeError):
                what = ""
            raise ValueError(f"{self.out} already holds a trained model{what}: choose another --out, or pass --overwrite "
                             "(overwrite=True) to replace it")
        self.env_kwargs = train_env_kwargs(env_id, obs_size, difficulty, env_kwargs)
        self.wrappers = tuple(wrappers)
        self.frame_stack = default_frame_stack(env_id) if frame_stack is None else int(frame_stack)
        self.n_envs, self.subproc, self.verbose, self.deterministic = int(n_envs), subproc, verbose, deterministic
        self.eval_freq, self.eval_episodes = eval_freq, eval_episodes
        self.hparams = {**HPARAMS[algo], **(hparams or {})}
        if algo == "dqn":
            self.hparams["learning_starts"] = min(self.hparams["learning_starts"], max(1, self.steps // 10))
            self.hparams["buffer_size"] = min(self.hparams["buffer_size"], max(1_000, self.steps))
        if algo == "ppo":
            self.hparams["batch_size"] = min(self.hparams["batch_size"], self.hparams["n_steps"] * self.n_envs)
        probe = make_env(env_id, self.env_kwargs, self.wrappers)
        try:
            self.policy = check_spaces(probe, algo, env_id)
            self.stack = "gymv.wrappers.for_sb3" if uses_for_sb3(probe) else "VecFrameStack"
            self.meta = {"env_id": env_id, "algo": algo, "env_kwargs": jsonable(self.env_kwargs),
                         "wrappers": list(self.wrappers), "frame_stack": self.frame_stack, "stack": self.stack,
                         "policy": self.policy,
                         "observation_space": space_summary(probe.observation_space),
                         "action_space": space_summary(probe.action_space), "seed": self.seed, "hparams": self.hparams}
        finally:
            probe.close()
        self.curve: list[dict[str, Any]] = []
        self.best = -1.0
        self.cpu_budget_s = cpu_budget_s
        self.t0, self.cpu0, self.eval_cpu = time.perf_counter(), time.process_time(), 0.0

    def train_cpu_s(self) -> float:
        """CPU seconds this process spent training (evaluations excluded), the unit of ``cpu_budget_s``."""
        return time.process_time() - self.cpu0 - self.eval_cpu

    def over_budget(self) -> bool:
        return self.cpu_budget_s is not None and self.train_cpu_s() >= self.cpu_budget_s

    def vec_env(self) -> Any:
        from stable_baselines3.common.env_util import make_vec_env
        from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecFrameStack

        cls = SubprocVecEnv if self.subproc else DummyVecEnv
        if self.stack == "gymv.wrappers.for_sb3":
            factory = functools.partial(make_train_env, self.env_id, self.env_kwargs, self.wrappers, self.frame_stack)
            return make_vec_env(factory, n_envs=self.n_envs, seed=self.seed, vec_env_cls=cls)
        factory = functools.partial(make_env, self.env_id, self.env_kwargs, self.wrappers)
        venv = make_vec_env(factory, n_envs=self.n_envs, seed=self.seed, vec_env_cls=cls)
        return VecFrameStack(venv, self.frame_stack) if self.frame_stack > 1 else venv

    def save(self, model: Any, name: str, timesteps: int) -> Path:
        zip_path, meta_path = checkpoint_paths(self.out / f"{name}.zip")
        model.save(str(zip_path))
        meta_path.write_text(json.dumps({**self.meta, "timesteps": int(timesteps)}, indent=1))
        return zip_path

    def record_eval(self, model: Any, timesteps: int) -> dict[str, Any]:
        cpu = time.process_time()
        result = evaluate(lambda env: SB3Agent(env, model=model, meta=self.meta, deterministic=self.deterministic),
                          self.env_id, self.env_kwargs, self.wrappers, self.eval_episodes)
        self.eval_cpu += time.process_time() - cpu
        point = {"timesteps": int(timesteps), "train_cpu_s": round(self.train_cpu_s(), 2),
                 "wall_s": round(time.perf_counter() - self.t0, 2), **result}
        self.curve.append(point)
        self.save(model, "model", timesteps)
        if result["score_mean"] > self.best:
            self.best = result["score_mean"]
            self.save(model, "best", timesteps)
        (self.out / "curve.json").write_text(json.dumps(self.curve, indent=1))
        if self.verbose >= 0:
            print(f"[{self.env_id} {self.algo}] steps {timesteps:>8}  score {result['score_mean']:6.1f}  "
                  f"success {result['success_rate']:.2f}  ({point['wall_s']:.0f}s)", flush=True)
        return point

    def run(self) -> list[dict[str, Any]]:
        from stable_baselines3 import A2C, DQN, PPO

        self.out.mkdir(parents=True, exist_ok=True)
        self.t0, self.cpu0, self.eval_cpu = time.perf_counter(), time.process_time(), 0.0
        self.interrupted_at: int | None = None
        cls = {"ppo": PPO, "dqn": DQN, "a2c": A2C}[self.algo]
        venv = self.vec_env()
        try:
            model = cls(self.policy, venv, seed=self.seed, device="cpu", verbose=max(0, self.verbose), **self.hparams)
            self.record_eval(model, 0)
            try:
                model.learn(total_timesteps=self.steps, callback=_callback_class()(self))
            except KeyboardInterrupt:   # keep the policy trained so far (no evaluation: the user asked to stop)
                self.interrupted_at = int(model.num_timesteps)
                self.save(model, "model", model.num_timesteps)
                raise
            if not self.curve or self.curve[-1]["timesteps"] != model.num_timesteps:
                self.record_eval(model, model.num_timesteps)
        finally:
            try:
                venv.close()
            except (OSError, EOFError):   # Ctrl-C reached the whole process group: --subproc workers are gone
                if self.interrupted_at is None:
                    raise
        return self.curve


# ----------------------------------------------------------------------------- command line
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gymv.agents.sb3", description="Train or evaluate SB3 agents on GymV ids.")
    sub = parser.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("train", help="train from pixels; writes model.zip, best.zip and curve.json")
    tr.add_argument("--env", required=True, help="a GymV id, e.g. GymV/GridNav-v1")
    tr.add_argument("--algo", choices=ALGOS, default="ppo")
    tr.add_argument("--steps", type=int, default=50_000)
    tr.add_argument("--out", default=None, help="output folder (default runs/sb3/<Name>-<algo>-s<seed>)")
    tr.add_argument("--difficulty", type=int, default=None, help="default 0 (or difficulty in --env-kwargs)")
    tr.add_argument("--obs-size", type=int, nargs=2, default=list(DEFAULT_OBS_SIZE), metavar=("H", "W"))
    tr.add_argument("--n-envs", type=int, default=4)
    tr.add_argument("--frame-stack", type=int, default=None, help="default: 4 for real-time ids, else 1")
    tr.add_argument("--eval-freq", type=int, default=10_000, help="env steps between evaluations")
    tr.add_argument("--eval-episodes", type=int, default=5)
    tr.add_argument("--seed", type=int, default=0)
    tr.add_argument("--env-kwargs", type=json.loads, default={}, help='JSON, e.g. \'{"action_mode": "joystick"}\'')
    tr.add_argument("--wrapper", action="append", default=[], help="module:Class applied after gym.make (repeatable)")
    tr.add_argument("--hparams", type=json.loads, default={}, help="JSON overriding the algorithm's kwargs")
    tr.add_argument("--subproc", action="store_true", help="SubprocVecEnv instead of DummyVecEnv")
    tr.add_argument("--threads", type=int, default=None, help="torch CPU threads")
    tr.add_argument("--cpu-budget", type=float, default=None, help="stop after this many CPU seconds of training")
    tr.add_argument("--stochastic", action="store_true", help="evaluate with sampled actions (default: deterministic)")
    tr.add_argument("--overwrite", action="store_true", help="replace the model, best model and curve already in --out")
    ev = sub.add_parser("eval", help="score a checkpoint by the benchmark's protocol, next to random and oracle")
    ev.add_argument("--checkpoint", required=True)
    ev.add_argument("--episodes", type=int, default=10)
    ev.add_argument("--seed", type=int, default=EVAL_SEED)
    ev.add_argument("--baselines", action="store_true", help="also score the random and oracle agents")
    ev.add_argument("--stochastic", action="store_true", help="sampled actions (default: deterministic)")
    args = parser.parse_args(argv)
    try:
        if args.command == "train":
            if args.threads is not None and args.threads < 1:
                raise ValueError(f"invalid --threads {args.threads}; valid values: an integer >= 1")
            if args.threads:
                import torch

                torch.set_num_threads(args.threads)
            trainer = Trainer(args.env, args.algo, args.steps, args.out, args.obs_size, args.difficulty, args.n_envs,
                              args.frame_stack, args.eval_freq, args.eval_episodes, args.seed, args.env_kwargs,
                              args.wrapper, args.hparams, args.subproc, not args.stochastic, args.cpu_budget,
                              overwrite=args.overwrite)
            try:
                curve = trainer.run()
            except KeyboardInterrupt:
                at = getattr(trainer, "interrupted_at", None)   # None: stopped before training began
                print(f"interrupted{f' at {at:,} steps' if at is not None else ''}: {trainer.out / 'model.zip'} holds the "
                      f"policy trained so far; best.zip and curve.json hold the evaluations up to then", file=sys.stderr)
                return 130
            print(json.dumps({"checkpoint": str(trainer.out / "model.zip"), "best": str(trainer.out / "best.zip"),
                              "final": curve[-1]}))
            return 0
        where = checkpoint_env_kwargs(args.checkpoint)
        agents = {"sb3": lambda env: SB3Agent(env, args.checkpoint, deterministic=not args.stochastic)}
        if args.baselines:
            from gymv.agents import make_agent

            agents.update(random=lambda env: make_agent("random", env), oracle=lambda env: make_agent("oracle", env))
        if args.episodes < 1 or args.seed < 0:
            raise ValueError(f"invalid --episodes {args.episodes} / --seed {args.seed}; valid values: --episodes >= 1, "
                             "--seed >= 0 (the first level's seed)")
        for name, factory in agents.items():
            try:
                result = evaluate(factory, where["env_id"], where["env_kwargs"], where["wrappers"], args.episodes, args.seed)
            except KeyboardInterrupt:
                print(f"interrupted while scoring {name}: the agents scored before are above", file=sys.stderr)
                return 130
            print(json.dumps({"agent": name, "env_id": where["env_id"], **result}))
        return 0
    except (ValueError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
