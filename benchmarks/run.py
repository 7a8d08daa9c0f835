"""``gymv-bench run`` (``python -m gymv.benchmarks run``): an agent over registered ids, scored by the protocol.

Single-turn episodes score 100 for a correct answer, else 0 (unreadable answers counted apart);
multi-turn episodes score ``100 * clip(return / max_return, 0, 1)`` over the env's own return;
task completion is ``success`` within the step budget.

Examples::

    gymv-bench run --agent random                    # every available id, seeds 0,1,2
    gymv-bench run --agent oracle --ids 'GymV/Maze*' --difficulty all --out results/oracle
    gymv-bench run --agent mypkg.bots:MyAgent --agent-kwargs '{"temperature": 0}'
    gymv-bench run --agent vlm --executor thread --workers 16 --protocol single_turn
    gymv-bench run --agent sb3:ckpt/ppo.zip --ids GymV/Sokoban-v1 --env-kwargs '{"obs_size": [84, 84]}'

Agent interface (what ``--agent`` needs; ``module:Class`` is called as ``Class(env, **kwargs)``)::

    reset(instruction: str, info: dict) -> None   # start of every episode
    act(observation, info: dict) -> action        # one action per step
    stats() -> dict                               # optional, read once at the end of an episode

The runner builds agents only through ``gymv.agents.make_agent(name, env, **kwargs)`` (``random``,
``oracle``, ``vlm``, ``sb3:<checkpoint>``, ``module:Class``), once per episode. When the
agent's constructor takes ``seed``, it gets one derived from (seed, episode index).
``stats()`` keys the runner understands: ``prompt_tokens``, ``completion_tokens``,
``total_tokens``, ``cost_usd`` (summed in the reports) and ``parse_failures`` (a single-turn
episode whose answer needed a fallback counts as unparsed); every key is kept in the record.
An ``act`` that raises ``gymv.agents.AgentUnavailable`` (the VLM agent's endpoint is down or refuses
the key) stops the run at once, naming why; any other exception fails that episode alone.
``--max-cost USD`` stops handing out episodes once the agent's episodes in ``--out`` have cost that
much (their stats' ``cost_usd``); those under way finish and are saved, the reports cover what was
played, and the exit status is 3.

Outputs in ``--out``: ``episodes.jsonl`` (one line per finished episode, appended, flushed and
fsynced as each ends; re-running the same command skips the episodes already there and redoes
a line a kill left truncated), ``meta.json`` (format version), ``summary.json``, ``results.md``,
``results.csv``, ``domains.png``, ``heatmap.png``, and ``trajectories/`` with
``--trajectories`` (``--frames`` adds the frames as ``.npz``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import gymv_envs
from gymv.agents.base import request_change_text
from gymv.benchmarks.episode import FORMAT_VERSION, EpisodeTask, load_wrapper
from gymv.benchmarks.executors import (
    AGENT_ERROR,
    EXECUTORS,
    SETUP_ERROR,
    ExecutorUnavailable,
    check_ray,
    execute,
)
from gymv.benchmarks.scoring import aggregate
from gymv.benchmarks.store import IncompatibleResults, ResultsFile, atomic_write, check_writable
from gymv_envs.core.registry import unmatched_hint

PIXELS_ONLY = "gymv.wrappers:PixelsOnly"
BASELINES = "baselines.jsonl"


class UsageError(Exception):
    """Bad input: reported with exit status 2 before any episode runs."""


def _json_arg(text: str, name: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{name} must be a JSON object: {exc}") from None
    if not isinstance(value, dict):
        raise UsageError(f"{name} must be a JSON object, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gymv-bench run", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sel = p.add_argument_group("which episodes")
    sel.add_argument("--ids", action="append", default=None, metavar="GLOB",
                     help="glob over ids, repeatable or comma-separated (default: every available id)")
    sel.add_argument("--domain", action="append", default=None, help="only this domain (repeatable)")
    sel.add_argument("--protocol", choices=("single_turn", "multi_turn"), help="only this protocol")
    sel.add_argument("--tag", action="append", default=[], help="only ids with this tag (repeatable, all must match)")
    sel.add_argument("--difficulty", default="default",
                     help="comma-separated levels, 'all' (every level of each id) or 'default' (the id's default)")
    sel.add_argument("--seeds", type=int, default=3, help="level seeds per id: seed-start .. seed-start+N-1 (default 3: mean@3)")
    sel.add_argument("--seed-start", type=int, default=0, help="first seed (default 0)")
    sel.add_argument("--seed-list", help="explicit comma-separated seeds (overrides --seeds/--seed-start)")
    sel.add_argument("--episodes", type=int, default=1, help="episodes per seed (repeats on one level; default 1)")
    env = p.add_argument_group("env configuration (passed to every id)")
    env.add_argument("--env-kwargs", default="{}", help="JSON constructor kwargs, e.g. '{\"obs_size\": [84, 84]}'; "
                     "\"difficulty\" and \"max_episode_steps\" there are --difficulty and --max-steps")
    env.add_argument("--obs-size", help="HxW, e.g. 84x84 (same as obs_size in --env-kwargs)")
    env.add_argument("--max-steps", type=int, help="step budget instead of the registered one")
    env.add_argument("--wrapper", action="append", default=[], metavar="module:Class[{json}]",
                     help="wrap every env (applied in order), e.g. 'gymv.wrappers:CameraViews{\"views\": [\"left\", \"front\", \"right\"]}'")
    env.add_argument("--no-feedback", dest="feedback", action="store_false",
                     help="pixel-only play: no feedback or state text from the env (gymv.wrappers:PixelsOnly, applied "
                          "first; the VLM agent gets feedback=false); the report records the mode")
    ag = p.add_argument_group("agent")
    ag.add_argument("--agent", default="random", help="random, oracle, vlm, sb3:<checkpoint> or module:Class")
    ag.add_argument("--agent-kwargs", default="{}", help="JSON kwargs for the agent's constructor")
    ag.add_argument("--max-cost", type=float, default=None, metavar="USD",
                    help="stop once the agent's episodes in --out have cost this much (the cost_usd of its stats; "
                         "episodes in flight finish); the same command with a higher cap goes on")
    ex = p.add_argument_group("execution and outputs")
    ex.add_argument("--executor", choices=EXECUTORS, default="process", help="process (default), thread or ray")
    ex.add_argument("--workers", type=int, default=None,
                    help="parallel episodes (default: CPU cores; ray: the cluster's CPUs)")
    ex.add_argument("--ray-address", default=None, help="Ray cluster address (default: RAY_ADDRESS or a local instance)")
    ex.add_argument("--out", default=None, help="output directory (default results/<agent>)")
    ex.add_argument("--trajectories", action="store_true", help="write a trajectory file per episode")
    ex.add_argument("--frames", action="store_true", help="with --trajectories: also store the frames (.npz)")
    ex.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    ex.add_argument("--no-baselines", dest="baselines", action="store_false",
                    help="skip the random and oracle episodes on the same levels (the report then has no "
                         "random, oracle or chance-normalised scores)")
    ex.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def _levels(spec: str, env_id: str) -> list[int]:
    desc = gymv_envs.describe(env_id)
    valid = desc["difficulties"]
    if spec == "default":
        return [int(desc["kwargs"].get("difficulty", valid[0]))]
    if spec == "all":
        return list(valid)
    try:
        levels = [int(x) for x in spec.split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"--difficulty must be 'default', 'all' or comma-separated integers, got {spec!r}") from None
    bad = [d for d in levels if d not in valid]
    if bad:
        raise UsageError(f"{env_id} has no difficulty {bad}; valid: {valid}")
    return levels


def matching_ids(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """(available ids, ids skipped because an extra is missing) that the selection flags match."""
    args.ids = split_globs(args.ids)
    try:
        chosen: set[str] = set()
        for pattern in args.ids or ["*"]:
            for domain in args.domain or [None]:
                chosen.update(gymv_envs.ids(pattern, domain=domain, protocol=args.protocol, tags=args.tag))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    available = sorted(i for i in chosen if gymv_envs.describe(i)["available"])
    skipped = sorted(chosen - set(available))
    if not available:
        hint = f"; {skipped_note(skipped)}" if skipped else (unmatched_hint(args.ids or []) or "; see gymv_envs.ids()")
        raise UsageError(f"no available id matches --ids {args.ids or ['*']} --domain {args.domain} "
                         f"--protocol {args.protocol} --tag {args.tag}{hint}")
    return available, skipped


def split_globs(values: list[str] | None) -> list[str] | None:
    """``--ids`` given as repeated flags, a comma-separated list, or both (an id has no comma)."""
    if values is None:
        return None
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def skipped_note(skipped: list[str]) -> str:
    """``74 ids skipped ... pip install 'gymv[world3d,web,chess]'``: what a missing extra costs and how to get it."""
    missing: dict[str, int] = {}
    for env_id in skipped:
        for extra in gymv_envs.describe(env_id)["extras"]:
            if not gymv_envs.extra_available(extra):
                missing[extra] = missing.get(extra, 0) + 1
    parts = ", ".join(f"{extra} ({n} ids)" for extra, n in sorted(missing.items(), key=lambda kv: -kv[1]))
    extras = ",".join(sorted(missing, key=lambda e: -missing[e]))
    return (f"{len(skipped)} matching ids skipped because their extras are not installed: {parts}; "
            f"install them with: pip install 'gymv[{extras}]'")


def build_tasks(args: argparse.Namespace) -> list[EpisodeTask]:
    env_kwargs = _json_arg(args.env_kwargs, "--env-kwargs")
    if args.obs_size:
        try:
            h, w = (int(v) for v in args.obs_size.lower().split("x"))
        except ValueError:
            raise UsageError(f"--obs-size must look like 84x84, got {args.obs_size!r}") from None
        given = env_kwargs.get("obs_size", [h, w])
        if (list(given) if isinstance(given, (list, tuple)) else given) != [h, w]:
            raise UsageError(f"give the frame size once: --obs-size {args.obs_size} and \"obs_size\": "
                             f"{env_kwargs['obs_size']!r} in --env-kwargs differ")
        env_kwargs["obs_size"] = [h, w]
    max_steps = args.max_steps
    if "max_episode_steps" in env_kwargs:   # as gym.make takes it: the same as --max-steps N
        given = env_kwargs.pop("max_episode_steps")
        if max_steps is not None:
            raise UsageError("give the step budget once: --max-steps or \"max_episode_steps\" in --env-kwargs, not both")
        if isinstance(given, bool) or not isinstance(given, int):
            raise UsageError(f"\"max_episode_steps\" in --env-kwargs must be an integer, got {given!r}")
        max_steps = given
    levels = args.difficulty
    if "difficulty" in env_kwargs:   # as gym.make takes it: the same as --difficulty N
        given = env_kwargs.pop("difficulty")
        if args.difficulty != "default":
            raise UsageError("give the difficulty once: --difficulty or \"difficulty\" in --env-kwargs, not both")
        if isinstance(given, bool) or not isinstance(given, int):
            raise UsageError(f"\"difficulty\" in --env-kwargs must be an integer, got {given!r}")
        levels = str(given)
    agent_kwargs = _json_arg(args.agent_kwargs, "--agent-kwargs")
    wrappers = list(args.wrapper)
    if not args.feedback:
        wrappers.insert(0, PIXELS_ONLY)
        if args.agent == "vlm":
            agent_kwargs.setdefault("feedback", False)
    if args.seed_list:
        try:
            seeds = [int(s) for s in args.seed_list.split(",") if s.strip()]
        except ValueError:
            raise UsageError(f"--seed-list must be comma-separated integers, got {args.seed_list!r}") from None
    else:
        seeds = list(range(args.seed_start, args.seed_start + args.seeds))
    if not seeds or min(seeds) < 0 or args.episodes < 1:
        raise UsageError("need at least one seed (>= 0) and --episodes >= 1")
    if max_steps is not None and max_steps < 1:
        raise UsageError("--max-steps must be >= 1")
    for spec in wrappers:
        try:
            load_wrapper(spec)
        except (ValueError, json.JSONDecodeError) as exc:
            raise UsageError(str(exc)) from None
    tasks = []
    available, skipped = matching_ids(args)
    if skipped:
        print(f"note: {skipped_note(skipped)}", file=sys.stderr, flush=True)
    for env_id in available:
        cls = gymv_envs.task_spec(env_id).entry_point
        try:
            cls.validate_kwargs(env_kwargs)
        except ValueError as exc:
            raise UsageError(f"{env_id}: {exc}") from None
        for level in _levels(levels, env_id):
            for seed in seeds:
                for episode in range(args.episodes):
                    tasks.append(EpisodeTask(
                        env_id=env_id, env_kwargs={**env_kwargs, "difficulty": level}, seed=seed, episode=episode,
                        agent=args.agent, agent_kwargs=agent_kwargs, max_steps=max_steps,
                        wrappers=tuple(wrappers), trajectory=args.trajectories, frames=args.frames))
    return tasks


def check_agent(task: EpisodeTask) -> None:
    """Build the agent once on the first id (and its env) so a bad name fails before any work."""
    from gymv.benchmarks.episode import build_agent, make_env

    try:
        env = make_env(task)
    except Exception as exc:  # noqa: BLE001 - any construction error is bad input here
        raise UsageError(f"cannot make {task.env_id} with {task.config_key}: {exc}") from None
    try:
        build_agent(task, env)
    except Exception as exc:  # noqa: BLE001
        raise UsageError(f"cannot build agent {task.agent!r}: {exc}") from None
    finally:
        env.close()


class Progress:
    """``[#####.....] 12/30 episodes  3.1 ep/s  ETA 0:06`` on stderr (a line every 5 s when not a TTY)."""

    def __init__(self, total: int, done: int, quiet: bool) -> None:
        self.total, self.done, self.quiet = total, done, quiet
        self.new = 0
        self.t0 = self.last = time.monotonic()
        self.tty = sys.stderr.isatty()

    def update(self, n: int = 1, final: bool = False) -> None:
        self.done += n
        self.new += n
        now = time.monotonic()
        if self.quiet or not (final or self.tty or now - self.last >= 5.0):
            return
        self.last = now
        rate = self.new / max(now - self.t0, 1e-9)
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        filled = int(30 * self.done / max(self.total, 1))
        line = (f"[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} episodes  {rate:.1f} ep/s  "
                f"ETA {int(left // 60)}:{int(left % 60):02d}")
        print(("\r" if self.tty else "") + line, end="\n" if final or not self.tty else "", file=sys.stderr, flush=True)


AT_MAX_COST = 3   # the exit status of a run stopped at --max-cost (its reports are written)


def spent_usd(records: Any) -> tuple[float, bool]:
    """The summed ``cost_usd`` of the records' agent stats, and whether every record that has stats was priced
    (``cost_known``; an agent without stats, such as random, costs nothing)."""
    stats = [r["agent_stats"] for r in records if isinstance(r.get("agent_stats"), dict)]
    return (sum(float(st.get("cost_usd", 0.0)) for st in stats),
            all(st.get("cost_known", True) for st in stats))


def _over_budget(spent: float, priced: bool, cap: float, out: Path) -> int | None:
    """An exit status, with its message, when ``--max-cost`` is reached or cannot be kept; else None."""
    if not priced:
        print(f"\nerror: --max-cost cannot be kept: the agent's model has no price, so its cost reads 0 (give it one: "
              "--agent-kwargs '{\"prices\": {\"<model>\": [in, out]}}', USD per million tokens, or $GYMV_PRICES); "
              f"the finished episodes are saved in {out}", file=sys.stderr, flush=True)
        return 2
    if spent >= cap:
        print(f"\nstopped: the agent's episodes in {out} have cost ${spent:.4f}, at or over --max-cost ${cap:g}; no "
              "more are started (those under way finish and are saved), the reports cover the finished ones, and the "
              "same command with a higher --max-cost plays the rest", file=sys.stderr, flush=True)
        return AT_MAX_COST
    return None


def _play(todo: list[EpisodeTask], store: ResultsFile, done: dict[str, dict[str, Any]],
          errors: list[tuple[EpisodeTask, str]], progress: Progress, args: argparse.Namespace, out: Path,
          workers: int, trajectories: bool = True) -> int | None:
    """Run ``todo``, appending each finished episode to ``store`` and ``done``; an exit status when the
    run must stop (interrupted, executor unavailable, ``--max-cost`` reached), else ``None``."""
    cap = args.max_cost if trajectories else None   # (the baselines' random and oracle cost nothing)
    budget_status = None
    if cap is not None and todo:
        spent, priced = spent_usd(done.values())
        budget_status = _over_budget(spent, priced, cap, out)
        if budget_status is not None:
            return budget_status

    def handed_out():   # the episodes handed to the workers: none more once --max-cost is reached
        for task in todo:
            if budget_status is not None:
                return
            yield task

    results = execute(handed_out(), args.executor, workers, args.ray_address)
    in_workers, told = args.executor == "ray" or (args.executor == "process" and workers > 1), set()
    try:
        for task, record, error in results:
            if error is not None:
                if error.startswith(AGENT_ERROR):   # every other episode would fail alike, after its retries
                    results.close()   # cancels the episodes not started, waits for those in flight
                    print(f"\nerror: the run cannot go on ({task.env_id} seed={task.seed} episode={task.episode}): "
                          f"{error[len(AGENT_ERROR):]}\nthe finished episodes are saved in {store.path}; once that is "
                          "fixed, the same command again plays the rest", file=sys.stderr, flush=True)
                    return 1
                if error.startswith(SETUP_ERROR):   # said once per id and configuration: the rest fail alike
                    if not any(e.startswith(SETUP_ERROR) and (t.env_id, t.config_key) == (task.env_id, task.config_key)
                               for t, e in errors):
                        print(f"\n{error}", file=sys.stderr, flush=True)
                else:
                    print(f"\nepisode failed: {task.env_id} seed={task.seed} episode={task.episode} agent={task.agent}"
                          f"\n{error}", file=sys.stderr, flush=True)
                errors.append((task, error))
                continue
            if trajectories:
                _write_trajectory(out, task, record)
            store.append(record)
            done[task.key] = record
            if in_workers:
                _tell_request_changes(record, told)
            progress.update()
            if cap is not None and budget_status is None:   # those already handed out finish and are saved
                cost, known = spent_usd([record])
                spent, priced = spent + cost, priced and known
                budget_status = _over_budget(spent, priced, cap, out)
    except KeyboardInterrupt:
        print(f"\ninterrupted: the finished episodes are saved in {store.path}; run the same command again to "
              "finish", file=sys.stderr)
        return 130
    except ExecutorUnavailable as exc:
        print(f"\nerror: {exc}; the finished episodes are saved in {store.path}", file=sys.stderr)
        return 2
    progress.update(0, final=True)
    return budget_status


def _tell_request_changes(record: dict[str, Any], told: set[tuple[str, str]]) -> None:
    """Tell, once per run, each request field that the record's agent, played in a worker process, found its model
    refusing (its stats' request_changes): the workers leave that to the runner (`gymv.agents.base.TELL_NOTES`)
    instead of each telling its own copy."""
    stats = record.get("agent_stats")
    changes = stats.get("request_changes") if isinstance(stats, dict) else None
    if isinstance(changes, dict):
        model = str(stats.get("model"))
        for field, change in changes.items():
            if (model, str(field)) not in told:
                told.add((model, str(field)))
                print(f"\nnote: {request_change_text(model, str(field), str(change))}", file=sys.stderr, flush=True)


def baseline_task(task: EpisodeTask, agent: str) -> EpisodeTask:
    """The episode ``agent`` (random or oracle) plays to give ``task`` its baseline: the same id, env
    configuration, step budget, seed and episode index, no agent-side wrappers."""
    return dataclasses.replace(task, agent=agent, agent_kwargs={}, wrappers=(), trajectory=False, frames=False)


def _baselines(tasks: list[EpisodeTask], done: dict[str, dict[str, Any]], base_store: ResultsFile,
               errors: list[tuple[EpisodeTask, str]], args: argparse.Namespace, out: Path, workers: int,
               meta: dict[str, Any]) -> tuple[int | None, dict[str, dict[str, Any]]]:
    """Play (or read back from ``baselines.jsonl``) the random and oracle episodes of every task;
    returns an exit status when the run must stop (else ``None``) and every baseline record by key."""
    records, _ = base_store.open({**meta, "baselines_of": args.agent}, lock=False)
    try:
        have = {r["key"]: r for r in records}
        have.update(done)  # a run of the random (or oracle) agent is its own baseline
        wanted = {b.key: b for t in tasks for b in (baseline_task(t, "random"), baseline_task(t, "oracle"))}
        todo = [b for k, b in wanted.items() if k not in have]
        if not todo:
            return None, have
        print(f"baselines: {len(todo)} random and oracle episodes on the same levels (in {base_store.path}; "
              "--no-baselines skips them)", file=sys.stderr, flush=True)
        progress = Progress(len(wanted), len(wanted) - len(todo), args.quiet)
        return _play(todo, base_store, have, errors, progress, args, out, workers, trajectories=False), have
    finally:
        base_store.close()


def attach_baselines(episodes: list[dict[str, Any]], tasks: dict[str, EpisodeTask],
                     pool: dict[str, dict[str, Any]]) -> None:
    """Give each episode record the ``random_score`` and ``oracle_score`` of its level (in place)."""
    for ep in episodes:
        task = tasks.get(ep["key"])
        if task is None:
            continue
        for agent in ("random", "oracle"):
            base = pool.get(baseline_task(task, agent).key)
            if base is not None:
                ep[f"{agent}_score"] = float(base["score"])


def write_reports(out: Path, episodes: list[dict[str, Any]], title: str, plots: bool,
                  mode: dict[str, Any] | None = None) -> dict[str, Any]:
    from gymv.benchmarks import report

    summary = aggregate(episodes)
    if mode is not None:
        summary["mode"] = mode
    atomic_write(out / "summary.json", json.dumps(summary, indent=2, sort_keys=True) + "\n", durable=False)
    atomic_write(out / "results.md", report.markdown_table(summary, title), durable=False)
    atomic_write(out / "results.csv", report.csv_table(summary), durable=False)
    if plots and episodes:
        report.save_png(report.domain_bars(summary, title), out / "domains.png")
        report.save_png(report.id_heatmap(episodes, title), out / "heatmap.png")
    return summary


def _write_trajectory(out: Path, task: EpisodeTask, record: dict[str, Any]) -> None:
    traj = record.pop("_trajectory", None)
    frames = record.pop("_frames", None)
    if traj is None:
        return
    folder = out / "trajectories"
    folder.mkdir(exist_ok=True)
    atomic_write(folder / f"{task.file_stem()}.json", json.dumps(traj, indent=1) + "\n")
    if frames is not None:
        import io

        import numpy as np

        buf = io.BytesIO()
        np.savez_compressed(buf, frames=frames)
        atomic_write(folder / f"{task.file_stem()}.npz", buf.getvalue())


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.workers is not None and args.workers < 1:
        parser.error(f"invalid --workers {args.workers}; valid values: an integer >= 1 (leave it out for the CPU cores, "
                     "or with ray the cluster's CPUs)")
    if args.max_cost is not None and not args.max_cost > 0:
        parser.error(f"invalid --max-cost {args.max_cost:g}; valid values: a number of USD > 0")
    try:
        tasks = build_tasks(args)
        if args.executor == "ray":
            try:
                check_ray(args.ray_address)
            except ExecutorUnavailable as exc:
                raise UsageError(str(exc)) from None
        check_agent(tasks[0])
        out = Path(args.out or os.path.join("results", args.agent.replace(":", "_").replace("/", "_")))
        store = ResultsFile(out)
        try:
            store.check()
        except IncompatibleResults as exc:
            raise UsageError(str(exc)) from None
        try:
            check_writable(out)
        except OSError as exc:
            raise UsageError(f"cannot write to --out {out}: {exc}") from None
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    workers = args.workers if args.workers is not None else (0 if args.executor == "ray" else os.cpu_count() or 1)

    try:
        return _play_and_report(args, argv, tasks, store, out, workers)
    except OSError as exc:   # a full disk or a folder taken away mid-run: what is saved stays, and says where
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"\nerror: cannot write to {out}{where}: {exc.strerror or exc}; the episodes finished before it are kept in "
              f"{store.path} (a line cut short is dropped when the run goes on); free some space or mend the folder, "
              "then the same command again plays the rest and writes the reports", file=sys.stderr)
        return 2


def _play_and_report(args: argparse.Namespace, argv: list[str] | None, tasks: list[EpisodeTask], store: ResultsFile,
                     out: Path, workers: int) -> int:
    """`main` once its arguments hold: play what ``--out`` lacks, then score and write the reports."""
    meta = {"agent": args.agent, "argv": list(argv if argv is not None else sys.argv[1:]), "feedback": bool(args.feedback)}
    try:
        records, dropped = store.open(meta)
    except IncompatibleResults as exc:
        store.close()
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if dropped:
        print(f"note: dropped a truncated last line ({dropped} bytes) left by an interrupted run; "
              "that episode runs again", file=sys.stderr)
    order = {t.key: i for i, t in enumerate(tasks)}
    done = {r["key"]: r for r in records if r["key"] in order}
    todo = [t for t in tasks if t.key not in done]
    ids = sorted({t.env_id for t in tasks})
    print(f"{len(tasks)} episodes over {len(ids)} ids, agent={args.agent}: {len(done)} already in {store.path}, "
          f"{len(todo)} to run ({args.executor}, {workers or 'auto'} workers)", file=sys.stderr, flush=True)
    progress = Progress(len(tasks), len(done), args.quiet)
    errors: list[tuple[EpisodeTask, str]] = []
    pool: dict[str, dict[str, Any]] = {}
    try:
        status = _play(todo, store, done, errors, progress, args, out, workers)
        capped = status == AT_MAX_COST   # a deliberate end: the finished episodes are scored and reported
        if capped:
            status = None
        if status is None and args.baselines:
            played = [t for t in tasks if t.key in done] if capped else tasks
            status, pool = _baselines(played, done, ResultsFile(out, name=BASELINES), errors, args, out, workers, meta)
        if status is None:
            store.rewrite_sorted(order)
    finally:
        store.close()
    if status is not None:
        return status
    episodes = [done[t.key] for t in tasks if t.key in done]
    if args.baselines:
        attach_baselines(episodes, {t.key: t for t in tasks}, pool)
    mode = "pixels only (no feedback or state text)" if not args.feedback else "with feedback"
    title = f"agent={args.agent}, {len(ids)} ids, {mode}"
    summary = write_reports(out, episodes, title, plots=not args.no_plots,
                            mode={"feedback": bool(args.feedback), "baselines": bool(args.baselines)})
    from gymv.benchmarks.report import text_table

    print(text_table(summary))
    overall = summary.get("overall") or {}
    if overall:
        lo, hi = overall["score_ci95"]
        k = overall["k"] if isinstance(overall["k"], int) else f"k (k={min(overall['k'])}-{max(overall['k'])})"
        base = ""
        if overall.get("random_score") is not None:
            norm = overall.get("normalized_score")
            base = (f"; on the same levels random {overall['random_score']:.1f}, oracle {overall['oracle_score']:.1f}, "
                    f"chance-normalised {'-' if norm is None else format(norm, '.1f')}")
        print(f"\n{len(ids)} ids, agent={args.agent}, mean@{k} score: {overall['score_mean']:.1f} "
              f"(95% CI {lo:.1f}-{hi:.1f}), completion {overall['completion']:.1f}%{base}")
    print(f"wrote {out}/ (episodes.jsonl, summary.json, results.md, results.csv"
          f"{'' if args.no_plots else ', domains.png, heatmap.png'})")
    setup = [t for t, e in errors if e.startswith(SETUP_ERROR)]
    if setup:
        bad_ids = sorted({t.env_id for t in setup})
        print(f"error: {len(setup)} episodes of {len(bad_ids)} id{'s' * (len(bad_ids) != 1)} could not start: the env or a wrapper refused the "
              f"configuration (said above), so running again will not help; leave those ids out (--ids) or change "
              f"the arguments: {', '.join(bad_ids[:10])}{' ...' if len(bad_ids) > 10 else ''}", file=sys.stderr)
    if len(errors) > len(setup):
        print(f"error: {len(errors) - len(setup)} episodes failed and were not saved; run the same command again to "
              "retry them", file=sys.stderr)
    if errors:
        return 1
    if capped:
        print(f"stopped at --max-cost ${args.max_cost:g}: {len(episodes)} of {len(tasks)} episodes played (the reports "
              "cover those); the same command with a higher --max-cost plays the rest", file=sys.stderr)
        return AT_MAX_COST
    return 0


__all__ = ["FORMAT_VERSION", "main"]

if __name__ == "__main__":
    sys.exit(main())
