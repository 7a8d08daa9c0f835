"""PPO learning benchmark: train from pixels on a few ids for a CPU budget, score against random and oracle.

    python scripts/learning_benchmark.py --cpu-seconds 180 --out runs/learning_benchmark

For every id (default: GridNav, SlidingPuzzle and TicTacToe at difficulty 0, drawn at 84x84),
PPO (``gymv.agents.sb3.Trainer``, CnnPolicy, DummyVecEnv) trains until it has used
``--cpu-seconds`` of process CPU time (evaluations excluded; CPU time rather than wall time,
so a shared machine gives comparable figures). Every ``--eval-freq`` env steps the policy
plays ``--eval-episodes`` held-out seeds under the registered step budget, scored by the
benchmark's protocol (`gymv.benchmarks.scoring.episode_score`); random and oracle play the same
seeds. Writes ``results.json``, ``results.md`` and ``curves.png`` (matplotlib when installed,
else drawn with PIL).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_IDS = ("GymV/GridNav-v1:1", "GymV/SlidingPuzzle-v1", "GymV/TicTacToe-v1", "GymV/FrozenLake-v1",
               "GymV/Breakout-v1", "GymV/RaycastMaze-v1")
PPO_HPARAMS = {"n_steps": 128, "batch_size": 256, "n_epochs": 4, "learning_rate": 2.5e-4, "ent_coef": 0.01, "clip_range": 0.1}


def parse_id(spec: str, default_difficulty: int | None) -> tuple[str, int]:
    """``GymV/X-v1:2`` -> (id, 2); a bare id gets ``default_difficulty`` or the id's registered default."""
    import gymv_envs

    env_id, sep, level = spec.rpartition(":")
    if not sep or not level.isdigit():
        env_id, level = spec, ""
    if env_id not in gymv_envs.ids():
        raise SystemExit(f"unknown id {env_id!r}; see gymv_envs.ids()")
    if level:
        return env_id, int(level)
    if default_difficulty is not None:
        return env_id, default_difficulty
    desc = gymv_envs.describe(env_id)
    return env_id, int(desc["kwargs"].get("difficulty", desc["difficulties"][0]))


def run_one(spec: str, args: argparse.Namespace) -> dict[str, Any]:
    from gymv.agents import make_agent
    from gymv.agents.sb3 import SB3Agent, Trainer, evaluate

    env_id, difficulty = parse_id(spec, args.difficulty)
    trainer = Trainer(env_id, "ppo", steps=10**9, out=Path(args.out) / f"{env_id.split('/')[-1]}-d{difficulty}",
                      obs_size=args.obs_size, difficulty=difficulty, n_envs=args.n_envs, eval_freq=args.eval_freq,
                      eval_episodes=args.eval_episodes, seed=args.seed, hparams={**PPO_HPARAMS, **args.hparams},
                      deterministic=False, cpu_budget_s=args.cpu_seconds, frame_stack=args.frame_stack,
                      wrappers=args.wrappers, env_kwargs=args.env_kwargs, overwrite=True)   # a rerun replaces its runs
    curve = trainer.run()
    kw, wrappers = trainer.env_kwargs, trainer.wrappers
    final_episodes = args.final_episodes
    ckpt = trainer.out / "model.zip"
    baselines = {
        "random": evaluate(lambda env: make_agent("random", env), env_id, kw, wrappers, final_episodes),
        "oracle": evaluate(lambda env: make_agent("oracle", env), env_id, kw, wrappers, final_episodes),
        "ppo_sampled": evaluate(lambda env: SB3Agent(env, ckpt, deterministic=False), env_id, kw, wrappers, final_episodes),
        "ppo_deterministic": evaluate(lambda env: SB3Agent(env, ckpt), env_id, kw, wrappers, final_episodes),
    }
    best_ppo = max(baselines["ppo_sampled"]["success_rate"], baselines["ppo_deterministic"]["success_rate"])
    margin = 100.0 * (best_ppo - baselines["random"]["success_rate"])
    return {"env_id": env_id, "difficulty": difficulty, "frame_stack": trainer.frame_stack,
            "hparams": {**PPO_HPARAMS, **args.hparams}, "wrappers": list(args.wrappers), "success_margin": round(margin, 1),
            "passes": margin >= args.margin,
            "env_kwargs": {k: list(v) if isinstance(v, tuple) else v for k, v in kw.items()},
            "timesteps": curve[-1]["timesteps"], "train_cpu_s": curve[-1]["train_cpu_s"], "wall_s": curve[-1]["wall_s"],
            "curve": curve, "final": baselines, "checkpoint": str(ckpt)}


def draw_curves(results: list[dict[str, Any]], path: Path) -> None:
    """One panel per id: PPO's evaluation score against env steps, random and oracle as lines."""
    from PIL import Image, ImageDraw

    pw, ph, m = 420, 300, 46
    img = Image.new("RGB", (pw * len(results), ph), "white")
    d = ImageDraw.Draw(img)
    for i, r in enumerate(results):
        x0, x1, y0, y1 = i * pw + m, (i + 1) * pw - 14, 30, ph - m
        steps = max(1, max(p["timesteps"] for p in r["curve"]))
        def sx(t: float, x0: float = x0, x1: float = x1, steps: int = steps) -> float:
            return x0 + (x1 - x0) * t / steps

        def sy(s: float, y0: float = y0, y1: float = y1) -> float:
            return y1 - (y1 - y0) * s / 100.0

        d.rectangle([x0, y0, x1, y1], outline="black")
        for s in (0, 25, 50, 75, 100):
            d.line([x0 - 4, sy(s), x0, sy(s)], fill="black")
            d.text((x0 - 30, sy(s) - 6), f"{s:>3}", fill="black")
        for t in (0, steps // 2, steps):
            d.text((sx(t) - 14, y1 + 6), f"{t:,}", fill="black")
        d.text((x0, 8), f"{r['env_id']} ({r['train_cpu_s']:.0f} CPU-s)", fill="black")
        d.text(((x0 + x1) // 2 - 24, ph - 18), "env steps", fill="black")
        for name, colour in (("random", (150, 150, 150)), ("oracle", (40, 160, 60))):
            y = sy(r["final"][name]["score_mean"])
            for x in range(int(x0), int(x1), 12):
                d.line([x, y, min(x + 6, x1), y], fill=colour, width=2)
            d.text((x1 - 50 if name == "oracle" else x0 + 4, y - 14), name, fill=colour)
        pts = [(sx(p["timesteps"]), sy(p["score_mean"])) for p in r["curve"]]
        d.line(pts, fill=(30, 90, 200), width=3)
        for x, y in pts:
            d.ellipse([x - 3, y - 3, x + 3, y + 3], fill=(30, 90, 200))
        d.text((x0 + 6, y0 + 4), "PPO (sampled actions)", fill=(30, 90, 200))
    img.save(path)


def markdown(results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    lines = [f"PPO from pixels ({args.obs_size[0]}x{args.obs_size[1]}, CnnPolicy, {args.n_envs} envs, text_in_image), "
             f"{args.cpu_seconds:g} CPU seconds of training per id; success % and score (0-100) over "
             f"{args.final_episodes} held-out seeds; passes: PPO beats random by >= {args.margin:g} points of success.", "",
             "| id | difficulty | env steps | train CPU s | random | PPO sampled | PPO greedy | oracle | margin | passes |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    def cell(final: dict[str, Any], agent: str) -> str:
        return f"{100 * final[agent]['success_rate']:.0f}% / {final[agent]['score_mean']:.1f}"

    for r in results:
        f = r["final"]
        lines.append(f"| `{r['env_id']}` | {r['difficulty']} | {r['timesteps']:,} | {r['train_cpu_s']:.0f} | {cell(f, 'random')} | "
                     f"{cell(f, 'ppo_sampled')} | {cell(f, 'ppo_deterministic')} | {cell(f, 'oracle')} | "
                     f"{r['success_margin']:+.0f} | {'yes' if r['passes'] else 'no'} |")
    usual = {"obs_size", "difficulty", "text_in_image", "answer_format"}
    for r in results:  # what a run changed beyond the defaults, so that it can be run again
        extra = {k: v for k, v in r["env_kwargs"].items() if k not in usual}
        if extra or r.get("wrappers"):
            lines.append(f"\n`{r['env_id']}`: env kwargs {json.dumps(extra)}, training wrappers {r.get('wrappers') or []}.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ids", nargs="+", default=list(DEFAULT_IDS))
    parser.add_argument("--cpu-seconds", type=float, default=180.0, help="training CPU seconds per id")
    parser.add_argument("--difficulty", type=int, default=None, help="for ids given without :DIFFICULTY (default: the id's own)")
    parser.add_argument("--margin", type=float, default=20.0, help="points of success PPO must beat random by")
    parser.add_argument("--obs-size", type=int, nargs=2, default=[84, 84])
    parser.add_argument("--n-envs", type=int, default=8)
    parser.add_argument("--eval-freq", type=int, default=4096)
    parser.add_argument("--eval-episodes", type=int, default=10)
    parser.add_argument("--final-episodes", type=int, default=20)
    parser.add_argument("--frame-stack", type=int, default=None,
                        help="frames the policy sees (default: 4 for real-time ids, else 1; memory tasks need more)")
    parser.add_argument("--hparams", type=json.loads, default={},
                        help=f"JSON overriding PPO's kwargs (default {json.dumps(PPO_HPARAMS)})")
    parser.add_argument("--env-kwargs", type=json.loads, default={},
                        help="JSON of extra constructor kwargs, e.g. '{\"view\": \"agent\"}'")
    parser.add_argument("--wrappers", nargs="*", default=[],
                        help="training wrappers, as module:Class{json kwargs} (e.g. 'gymv.wrappers:ProgressShaping'); "
                             "evaluation scores the env's own return, so they change learning, not the scoring")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument("--out", default="runs/learning_benchmark")
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    results = []
    for spec in args.ids:
        results.append(run_one(spec, args))
        (out / "results.json").write_text(json.dumps(results, indent=1))  # kept if a later id fails
    draw_curves(results, out / "curves.png")
    table = markdown(results, args)
    (out / "results.md").write_text(table)
    print(table)
    print(f"wall time {time.perf_counter() - t0:.0f}s; wrote {out / 'results.json'}, {out / 'results.md'}, {out / 'curves.png'}")
    return 0 if all(r["passes"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
