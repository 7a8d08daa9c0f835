"""The results directory: ``episodes.jsonl`` plus ``meta.json``, safe against kills.

Each finished episode is one JSON line, appended with a single unbuffered ``write`` of the
whole line, so a run killed at any moment (SIGINT, SIGKILL) leaves every earlier line intact
and at most a truncated last line (a written line is in the OS page cache once ``write``
returns, so process death cannot lose it). The file is also fsynced at most once a second
and on close, so a power loss or OS crash loses at most the last second of episodes (fsync
per line costs up to tens of ms on a busy disk, which would be most of a fast episode). `ResultsFile.open`
finds such a line (no trailing newline, or not JSON), rewrites the file without it through
a temporary file and an atomic rename, and the episode is run again.

Every line carries the format version ``"v"``, and ``meta.json`` records it too; a file
written by another version stops the run with `IncompatibleResults` before any work, and
nothing is deleted.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from gymv.benchmarks.episode import FORMAT_VERSION

EPISODES = "episodes.jsonl"
META = "meta.json"


class IncompatibleResults(RuntimeError):
    """The results directory was written by an incompatible format version, or is damaged."""


def check_writable(out_dir: Path) -> None:
    """Create ``out_dir`` if needed and prove a file can be written there (raises `OSError`)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    fd, probe = tempfile.mkstemp(prefix=".write-probe-", dir=out_dir)
    os.close(fd)
    os.unlink(probe)


def check_out_arg(parser: Any, out: str | os.PathLike[str] | None, flag: str = "--out",
                  reports: tuple[str, ...] = (), overwrite: bool = False) -> None:
    """`check_writable` for a command's output folder, before any work: a folder that cannot be
    written ends the command through ``parser.error`` (exit 2, naming the folder and why), so
    finished work (episodes, paid model calls) is never lost to it at the end. ``None`` passes.

    ``reports`` names what the command will write there: when the folder already holds any of
    them (an earlier run's), the command ends the same way unless ``overwrite`` (its
    ``--overwrite`` flag), so an earlier run's figures or paid answers are never silently replaced."""
    if out is None or out == "":
        return
    held = [name for name in reports if (Path(out) / name).exists()]
    if held and not overwrite:
        parser.error(f"{flag} {out} already holds {', '.join(held)} from an earlier run; choose another {flag}, "
                     "or pass --overwrite to replace them (nothing was changed)")
    try:
        check_writable(Path(out))
    except OSError as exc:
        parser.error(f"cannot write to {flag} {out}: {exc.strerror or exc}")


def add_overwrite_arg(parser: Any, what: str = "the reports an earlier run left in --out") -> None:
    """The ``--overwrite`` flag of a command that writes into an ``--out`` folder: it replaces ``what``."""
    parser.add_argument("--overwrite", action="store_true", help=f"replace {what} (default: refuse, changing nothing)")


def write_reports(out: str | os.PathLike[str], files: dict[str, str]) -> None:
    """Write a command's report files into ``out`` (created if needed), each through `atomic_write`:
    a reader, or a command killed while writing, never leaves a half-written report."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        atomic_write(folder / name, text, durable=False)


def atomic_write(path: Path, data: str | bytes, durable: bool = True) -> None:
    """Write ``data`` to ``path`` through a temporary file and ``os.replace``.

    A reader never sees a half-written file, whatever kills the process. ``durable`` also
    fsyncs before the rename (about 7 ms here), so the file survives a power loss or OS crash;
    the reports pass ``False``: they are rebuilt from ``episodes.jsonl`` by re-running.
    """
    raw = data.encode() if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.filename is None:   # a failed write names the file it was for
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise


def read_episodes(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The complete records of an episodes file and the byte length of a truncated tail (0 if none).

    Raises `IncompatibleResults` for a record of another format version or a damaged line
    that is not the last one.
    """
    raw = path.read_bytes() if path.exists() else b""
    lines = raw.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline
    records: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines) and not tail:
                # A damaged last line (e.g. a torn write that did reach its newline).
                return records, len(line) + 1
            raise IncompatibleResults(f"{path}: line {number} is not JSON; the file is damaged "
                                      f"(fix or move it away; nothing was changed)") from None
        version = rec.get("v") if isinstance(rec, dict) else None
        if version != FORMAT_VERSION:
            raise IncompatibleResults(
                f"{path}: line {number} has format version {version!r}, this runner writes "
                f"version {FORMAT_VERSION}; use another --out directory (nothing was changed)")
        records.append(rec)
    return records, len(tail)


class ResultsFile:
    """Append-only episode log of one output directory (``name``: ``episodes.jsonl``, or
    ``baselines.jsonl`` for the random and oracle episodes a run is compared with)."""

    def __init__(self, out_dir: Path, fsync_interval: float = 1.0, name: str = EPISODES) -> None:
        self.dir = Path(out_dir)
        self.fsync_interval = fsync_interval
        self._synced = 0.0
        self.path = self.dir / name
        self.meta_path = self.dir / META
        self._f = None
        self._lock = None

    def check(self) -> tuple[list[dict[str, Any]], int]:
        """Read without changing anything: (records, truncated tail bytes). Raises `IncompatibleResults`."""
        if self.meta_path.exists():
            try:
                meta = json.loads(self.meta_path.read_text())
            except (json.JSONDecodeError, OSError) as exc:
                raise IncompatibleResults(f"{self.meta_path}: unreadable ({exc}); nothing was changed") from None
            if meta.get("format_version") != FORMAT_VERSION:
                raise IncompatibleResults(
                    f"{self.meta_path}: results of format version {meta.get('format_version')!r}, this runner "
                    f"writes version {FORMAT_VERSION}; use another --out directory (nothing was changed)")
        return read_episodes(self.path)

    def lock(self) -> None:
        """Hold an exclusive lock on the directory (``.lock``) until `close`; raises `IncompatibleResults`
        when another run holds it (two runs appending to one file would race)."""
        import fcntl

        self._lock = open(self.dir / ".lock", "a")  # noqa: SIM115 - closed in close()
        try:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock.close()
            self._lock = None
            raise IncompatibleResults(f"another run is writing to {self.dir}; wait for it or use another --out "
                                      "(nothing was changed)") from None

    def open(self, meta: dict[str, Any], lock: bool = True) -> tuple[list[dict[str, Any]], int]:
        """Lock (unless another `ResultsFile` of the directory holds the lock), check, drop a truncated
        last line (rewriting the file without it), open for appends."""
        if lock:
            self.lock()
        records, tail = self.check()
        if tail:
            raw = self.path.read_bytes()
            atomic_write(self.path, raw[: len(raw) - tail])
        if not self.meta_path.exists():
            atomic_write(self.meta_path, json.dumps({"format_version": FORMAT_VERSION, **meta}, indent=2) + "\n")
        self._f = open(self.path, "ab", buffering=0)  # noqa: SIM115 - closed in close()
        return records, tail

    def append(self, record: dict[str, Any]) -> None:
        line = (json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n").encode()
        view = memoryview(line)
        while view:  # one write() for the whole line; the loop only covers a short write
            view = view[self._f.write(view):]
        now = time.monotonic()
        if now - self._synced >= self.fsync_interval:
            os.fsync(self._f.fileno())
            self._synced = now

    def close(self) -> None:
        """Sync, close and unlock; the file is closed and the lock let go even when the sync fails (a full
        disk), and that `OSError` is raised after."""
        try:
            if self._f is not None:
                try:
                    os.fsync(self._f.fileno())
                finally:
                    self._f.close()
                    self._f = None
        finally:
            if self._lock is not None:
                self._lock.close()  # releases the flock
                self._lock = None

    def rewrite_sorted(self, order: dict[str, int]) -> None:
        """Rewrite the file with its records in task order (atomic); unknown keys go last."""
        if self._f is not None:
            os.fsync(self._f.fileno())
            self._f.close()
            self._f = None
        records, _ = read_episodes(self.path)
        records.sort(key=lambda r: (order.get(r["key"], len(order)), r["key"]))
        text = "".join(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n" for r in records)
        atomic_write(self.path, text)
