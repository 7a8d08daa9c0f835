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
from collections.abc import Iterable, Iterator
from typing import Any

from gymv.agents import base as agents_base
from gymv.benchmarks.episode import EnvSetupError, EpisodeTask, close_cached_envs, run_task

EXECUTORS = ("process", "thread", "ray")
Result = tuple[EpisodeTask, "dict[str, Any] | None", "str | None"]
SETUP_ERROR = "setup error: "   # how an error text starts when the episode's env could not be made (`EnvSetupError`)
AGENT_ERROR = "agent unavailable: "   # ... when the agent cannot play on (`AgentUnavailable`): the run stops


def _safe_run(task: EpisodeTask) -> tuple[dict[str, Any] | None, str | None]:
    try:
        return run_task(task), None
    except EnvSetupError as exc:  # bad configuration: its message, no traceback
        return None, f"{SETUP_ERROR}{exc}"
    except agents_base.AgentUnavailable as exc:  # the endpoint is down, refuses the key, ...: its message, no traceback
        return None, f"{AGENT_ERROR}{exc}"
    except Exception:  # noqa: BLE001 - reported per episode; the run goes on
        return None, traceback.format_exc(limit=8)


def run_inline(tasks: Iterable[EpisodeTask]) -> Iterator[Result]:
    try:
        for task in tasks:
            record, error = _safe_run(task)
            yield task, record, error
    finally:
        close_cached_envs()


def _run_pool(pool: cf.Executor, tasks: Iterable[EpisodeTask], workers: int) -> Iterator[Result]:
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


def _worker_start(parent: int) -> None:
    """Worker initializer: leave when the runner dies (e.g. SIGKILL), instead of lingering; leave the agents'
    notes to the runner, which tells each once from the episode records (`gymv.agents.base.TELL_NOTES`)."""
    agents_base.TELL_NOTES = False

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="gymv-parent-watch", daemon=True).start()


def run_processes(tasks: Iterable[EpisodeTask], workers: int) -> Iterator[Result]:
    if workers <= 1:
        yield from run_inline(tasks)
        return
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method),
                                  initializer=_worker_start, initargs=(os.getpid(),))
    yield from _run_pool(pool, tasks, workers)


def run_threads(tasks: Iterable[EpisodeTask], workers: int) -> Iterator[Result]:
    pool = cf.ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="gymv-episode")
    yield from _run_pool(pool, tasks, max(1, workers))


class ExecutorUnavailable(RuntimeError):
    """The chosen executor cannot run here; the message says what to install or start."""


RAY_PROBE_TIMEOUT_S = 5.0


def check_ray(address: str | None = None, timeout: float = RAY_PROBE_TIMEOUT_S) -> None:
    """Fail fast, with what to do, where ``--executor ray`` could not run: the extra is missing, or
    ``address`` (else ``RAY_ADDRESS``) names a ``host:port`` or ``ray://host:port`` where nothing
    listens. Ray itself retries an unreachable cluster for minutes before raising a bare
    ``ConnectionError``; a TCP probe of the port answers in at most ``timeout`` seconds."""
    import importlib.util
    import socket

    if importlib.util.find_spec("ray") is None:
        raise ExecutorUnavailable("--executor ray needs the 'ray' extra: pip install 'gymv[ray]'")
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address in (None, "auto", "local"):
        return
    hostport = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise ExecutorUnavailable(f"invalid Ray address {address!r}; expected host:port (e.g. 10.0.0.5:6379), "
                                  "ray://host:port for Ray Client, or auto")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        reason = "timed out" if isinstance(exc, TimeoutError) else (exc.strerror or type(exc).__name__)
        client = address.startswith("ray://")
        start = (f"ray start --head --port={port}" if not client
                 else "ray start --head (Ray Client listens on port 10001 by default)")
        raise ExecutorUnavailable(
            f"cannot reach a Ray cluster at {address} ({reason}). Start a head node on that machine with "
            f"`{start}` and pass its address to --ray-address, or leave --ray-address (and RAY_ADDRESS) unset "
            "to run on a Ray instance started on this machine") from None


def run_ray(tasks: Iterable[EpisodeTask], workers: int, address: str | None = None) -> Iterator[Result]:
    check_ray(address)
    import ray

    started = False
    if not ray.is_initialized():
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except Exception as exc:  # noqa: BLE001 - Ray raises ConnectionError, RuntimeError, ...
            where = f"at {address}" if address else "on this machine"
            raise ExecutorUnavailable(f"could not start or join a Ray cluster {where}: {type(exc).__name__}: "
                                      f"{str(exc).splitlines()[0] if str(exc) else ''}") from None
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


def execute(tasks: Iterable[EpisodeTask], executor: str = "process", workers: int = 1,
            ray_address: str | None = None) -> Iterator[Result]:
    """Run ``tasks`` on ``executor`` with ``workers`` in parallel; yields results as they finish."""
    if executor == "process":
        return run_processes(tasks, workers)
    if executor == "thread":
        return run_threads(tasks, workers)
    if executor == "ray":
        return run_ray(tasks, workers, ray_address)
    raise ValueError(f"unknown executor {executor!r}; valid: {', '.join(EXECUTORS)}")
