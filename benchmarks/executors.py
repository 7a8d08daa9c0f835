"""Where episodes run: inline, worker processes, threads, or a Ray cluster.

Every executor takes the same list of `EpisodeTask` and yields ``(task, record, error)`` as
episodes finish (``error`` is a traceback text when the episode raised, else ``None``). At
most ``2 * workers`` episodes are in flight, so an interrupted run loses only those. Seeds
belong to the task, never to the worker, so every executor and worker count gives the same
records (apart from wall times).

- ``process`` (default): ``workers`` local processes (``workers=1`` runs inline, no pool);
- ``thread``: ``workers`` threads in this process, for agents that wait on the network;
- ``ray``: one Ray task per episode (``num_cpus=1`` each) on the cluster that
  ``ray.init(address=...)`` joins, or on the Ray instance this process already started.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import sys
import threading
import time
import traceback
from collections.abc import Iterator, Sequence
from typing import Any

from benchmarks.episode import EpisodeTask, close_cached_envs, run_task

EXECUTORS = ("process", "thread", "ray")
Result = tuple[EpisodeTask, "dict[str, Any] | None", "str | None"]


def _safe_run(task: EpisodeTask) -> tuple[dict[str, Any] | None, str | None]:
    try:
        return run_task(task), None
    except Exception:  # noqa: BLE001 - reported per episode; the run goes on
        return None, traceback.format_exc(limit=8)


def run_inline(tasks: Sequence[EpisodeTask]) -> Iterator[Result]:
    try:
        for task in tasks:
            record, error = _safe_run(task)
            yield task, record, error
    finally:
        close_cached_envs()


def _run_pool(pool: cf.Executor, tasks: Sequence[EpisodeTask], workers: int) -> Iterator[Result]:
    pending = iter(tasks)
    running: dict[cf.Future, EpisodeTask] = {}
    try:
        while True:
            while len(running) < 2 * workers:
                task = next(pending, None)
                if task is None:
                    break
                running[pool.submit(_safe_run, task)] = task
            if not running:
                return
            done, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
            for fut in done:
                task = running.pop(fut)
                try:
                    record, error = fut.result()
                except Exception:  # noqa: BLE001 - a worker died (e.g. killed): report the episode
                    record, error = None, traceback.format_exc(limit=4)
                yield task, record, error
    finally:
        for fut in running:
            fut.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def _exit_with_parent(parent: int) -> None:
    """Worker initializer: leave when the runner dies (e.g. SIGKILL), instead of lingering."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="gymv-parent-watch", daemon=True).start()


def run_processes(tasks: Sequence[EpisodeTask], workers: int) -> Iterator[Result]:
    if workers <= 1:
        yield from run_inline(tasks)
        return
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method),
                                  initializer=_exit_with_parent, initargs=(os.getpid(),))
    yield from _run_pool(pool, tasks, workers)


def run_threads(tasks: Sequence[EpisodeTask], workers: int) -> Iterator[Result]:
    pool = cf.ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="gymv-episode")
    yield from _run_pool(pool, tasks, max(1, workers))


def run_ray(tasks: Sequence[EpisodeTask], workers: int, address: str | None = None) -> Iterator[Result]:
    try:
        import ray
    except ImportError:
        raise RuntimeError("--executor ray needs the 'ray' extra: pip install 'gymv[ray]'") from None
    started = False
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        if workers <= 0:  # as many episodes in flight as the cluster has CPUs
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(num_cpus=1, max_retries=0)(_safe_run)
        pending = iter(tasks)
        running: dict[Any, EpisodeTask] = {}
        while True:
            while len(running) < 2 * workers:
                task = next(pending, None)
                if task is None:
                    break
                running[remote.remote(task)] = task
            if not running:
                return
            done, _ = ray.wait(list(running), num_returns=1)
            for ref in done:
                task = running.pop(ref)
                try:
                    record, error = ray.get(ref)
                except Exception:  # noqa: BLE001 - a Ray worker died: report the episode
                    record, error = None, traceback.format_exc(limit=4)
                yield task, record, error
    finally:
        if started:
            ray.shutdown()


def execute(tasks: Sequence[EpisodeTask], executor: str = "process", workers: int = 1,
            ray_address: str | None = None) -> Iterator[Result]:
    """Run ``tasks`` on ``executor`` with ``workers`` in parallel; yields results as they finish."""
    if executor == "process":
        return run_processes(tasks, workers)
    if executor == "thread":
        return run_threads(tasks, workers)
    if executor == "ray":
        return run_ray(tasks, workers, ray_address)
    raise ValueError(f"unknown executor {executor!r}; valid: {', '.join(EXECUTORS)}")
