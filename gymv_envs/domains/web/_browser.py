"""Finding, launching and killing the Chromium that one web env owns.

Chromium is started by us (not by Playwright) so that we hold its process: it runs in its
own process group, dies with the process that owns it (``PR_SET_PDEATHSIG`` through
``setpriv``, or ``prctl`` as a fallback), and is killed by pid on ``close()`` or when the env
is garbage-collected. Playwright's sync API then attaches over CDP. The Playwright driver is
one per thread (the sync API is bound to the thread that started it) and per process (a
forked ``AsyncVectorEnv`` worker starts its own).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time

CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check",
    "--disable-extensions", "--disable-default-apps", "--hide-scrollbars", "--mute-audio",
    "--disable-smooth-scrolling", "--font-render-hinting=none", "--force-color-profile=srgb",
    "--disable-features=BackForwardCache,Translate,MediaRouter,OptimizationHints",
    "--disable-dev-shm-usage", "--renderer-process-limit=1", "--disable-breakpad", "--metrics-recording-only",
    "--password-store=basic", "--use-mock-keychain", "--remote-debugging-port=0",
    # No waiting for a 60 Hz vsync before a screenshot: -10 ms a step here; an idle browser
    # still uses no CPU (0.04 s over 10 s, measured).
    "--disable-frame-rate-limit", "--disable-gpu-vsync",
    # A tile invalidated by a late picture is rastered whole, not in part: otherwise the
    # anti-aliased corners around it differ by one level between two resets with one seed
    # (10 of 15 pairs differed on WebAdminHeldOutLayout; 0 of 15 with the flag).
    "--disable-partial-raster",
)
# Searched on PATH in this order. The headless shell (Chromium's old headless mode, Debian's
# chromium-headless-shell) opens a context and page in about half the time of the full browser.
SYSTEM_BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
NOT_FOUND = (
    "no Chromium found for the web domain. Either install Playwright's browser "
    "(`python -m playwright install chromium`) or install a system Chromium (Debian: "
    "`apt-get install chromium-headless-shell`, the fastest, or `apt-get install chromium`) and, "
    "if it is not on PATH, point GYMV_CHROMIUM at its executable"
)

_local = threading.local()


def driver():
    """This thread's Playwright driver (started on first use, restarted after a fork)."""
    pw = getattr(_local, "pw", None)
    if pw is None or _local.pid != os.getpid():
        from playwright.sync_api import sync_playwright

        _local.pw, _local.pid = sync_playwright().start(), os.getpid()
    return _local.pw


def find_chromium() -> str:
    """Playwright's own Chromium if installed, else ``$GYMV_CHROMIUM``, else one on PATH (`SYSTEM_BROWSERS`)."""
    with contextlib.suppress(Exception):
        path = driver().chromium.executable_path
        if path and os.path.isfile(path):
            return path
    named = os.environ.get("GYMV_CHROMIUM")
    if named:
        if os.path.isfile(named) and os.access(named, os.X_OK):
            return named
        raise RuntimeError(f"GYMV_CHROMIUM={named!r} is not an executable file; {NOT_FOUND}")
    for name in SYSTEM_BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    for name in ("chromium-headless-shell", "chromium"):
        if os.path.isfile(f"/usr/bin/{name}"):
            return f"/usr/bin/{name}"
    raise RuntimeError(NOT_FOUND)


def _real_binary(path: str) -> str:
    # Debian's /usr/bin/chromium and /usr/bin/chromium-headless-shell are shell wrappers around
    # the binaries in /usr/lib/chromium/; run those directly so that we hold the browser's pid.
    real = os.path.realpath(path)
    inner = f"/usr/lib/chromium/{os.path.basename(real)}"
    if os.path.dirname(real) == "/usr/bin" and os.path.isfile(inner):
        return inner
    return path


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    import ctypes

    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


PROFILE_PREFIX = "gymv-chromium-"  # then the owner's pid and a dash


def sweep_stale_profiles(tmp: str | None = None) -> list[str]:
    """Remove profile folders left by owners that died without cleaning up (SIGKILL, OOM).

    A folder is stale when the pid in its name is no longer alive; returns the removed paths.
    """
    tmp = tmp or tempfile.gettempdir()
    removed = []
    with contextlib.suppress(OSError):
        for name in os.listdir(tmp):
            owner = name[len(PROFILE_PREFIX):].split("-", 1)[0] if name.startswith(PROFILE_PREFIX) else ""
            if owner.isdigit() and not _pid_alive(int(owner)):
                shutil.rmtree(os.path.join(tmp, name), ignore_errors=True)
                removed.append(os.path.join(tmp, name))
    return removed


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class ChromiumProcess:
    """One headless Chromium with a temporary profile, reachable over CDP on loopback."""

    def __init__(self, timeout: float = 20.0, renderers: int = 1) -> None:
        exe = _real_binary(find_chromium())
        sweep_stale_profiles()
        self.profile = tempfile.mkdtemp(prefix=f"{PROFILE_PREFIX}{os.getpid()}-")
        log = open(os.path.join(self.profile, "chromium.log"), "wb")  # noqa: SIM115
        flags = [f.replace("--renderer-process-limit=1", f"--renderer-process-limit={renderers}") for f in CHROMIUM_FLAGS]
        cmd = [exe, *flags, f"--user-data-dir={self.profile}", "about:blank"]
        setpriv = shutil.which("setpriv")
        kwargs = {"preexec_fn": _die_with_parent} if setpriv is None else {}
        if setpriv:
            cmd = [setpriv, "--pdeathsig", "KILL", "--", *cmd]
        try:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                         start_new_session=True, **kwargs)
        finally:
            log.close()
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                tail = self.log_tail()
                self.kill()
                raise RuntimeError(f"Chromium ({exe}) exited at start with code {self.proc.returncode}: {tail}")
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(port_file) as fh:
                    lines = fh.read().split()
                if len(lines) >= 2:
                    self.ws_url = f"ws://127.0.0.1:{int(lines[0])}{lines[1]}"
                    break
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"Chromium ({exe}) did not open its DevTools port in {timeout:.0f}s")
            time.sleep(0.01)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def log_tail(self, n: int = 300) -> str:
        with contextlib.suppress(OSError):
            with open(os.path.join(self.profile, "chromium.log"), "rb") as fh:
                return fh.read().decode("utf-8", "replace")[-n:].strip()
        return ""

    def kill(self) -> None:
        """Kill the browser and everything in its process group; remove the profile."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            self.proc.kill()
        with contextlib.suppress(Exception):
            self.proc.wait(timeout=5)
        shutil.rmtree(self.profile, ignore_errors=True)


# ----------------------------------------------------------------- hand-over between envs
# By default close() kills the env's Chromium at once. With GYMV_WEB_LINGER=S (seconds), a
# closed (or garbage-collected) env instead hands its idle Chromium to the next env created in
# the same thread within S seconds, so test suites and loops that build many short-lived envs
# do not pay a browser start (1-2 s) each time. Only one idle browser is kept per thread; it
# holds no context and no page, and it is killed when S runs out (a timer), at interpreter
# exit, or with its owner process. The test suite sets it (tests/conftest.py).
LINGER = float(os.environ.get("GYMV_WEB_LINGER", "0"))
_idle: list = []  # [(thread id, pid, ChromiumProcess, browser, contexts to close, timer)]
# Re-entrant: a web env's finalizer hands its browser back under this lock, and the garbage collector
# can run that finalizer at any allocation, also one made while this thread holds the lock (a test run
# hung for ever with the finalizer waiting in `release` inside `acquire`).
_idle_lock = threading.RLock()


# ----------------------------------------------------------------- one browser, many envs
# ``WebEnv(shared_browser=True)`` (what `WebVectorEnv` uses) opens its context in a Chromium that
# every such env of the same thread shares; the browser is killed when the last of them closes.
# It runs several renderer processes, so pages of different envs render in parallel.
SHARED_RENDERERS = 8
_shared: dict = {}  # (thread id, pid) -> [ChromiumProcess, browser, users]


def acquire_shared() -> tuple[ChromiumProcess, object]:
    """This thread's shared Chromium (launched on first use), one more user counted."""
    me = (threading.get_ident(), os.getpid())
    with _idle_lock:
        entry = _shared.get(me)
        if entry is not None and entry[0].alive() and entry[1].is_connected():
            entry[2] += 1
            return entry[0], entry[1]
        _shared.pop(me, None)
    proc = ChromiumProcess(renderers=SHARED_RENDERERS)
    try:
        browser = driver().chromium.connect_over_cdp(proc.ws_url)
    except BaseException:
        proc.kill()
        raise
    with _idle_lock:
        _shared[me] = [proc, browser, 1]
    return proc, browser


def release_shared(proc: ChromiumProcess) -> None:
    """One user fewer of a shared Chromium; the last one kills it."""
    with _idle_lock:
        for key, entry in list(_shared.items()):
            if entry[0] is proc:
                entry[2] -= 1
                if entry[2] > 0:
                    return
                del _shared[key]
    proc.kill()


def acquire() -> tuple[ChromiumProcess, object]:
    """An idle Chromium of this thread if one is parked, else a freshly launched one."""
    me = (threading.get_ident(), os.getpid())
    with _idle_lock:
        mine = [e for e in _idle if (e[0], e[1]) == me]
        for e in mine:
            _idle.remove(e)
    for _, _, proc, browser, contexts, timer in mine:
        timer.cancel()
        if proc.alive() and browser.is_connected():
            for ctx in contexts:
                with contextlib.suppress(Exception):
                    ctx.close()
            return proc, browser
        proc.kill()
    proc = ChromiumProcess()
    try:
        return proc, driver().chromium.connect_over_cdp(proc.ws_url)
    except BaseException:
        proc.kill()
        raise


def release(proc: ChromiumProcess, browser: object, contexts: list, owner: int) -> None:
    """Park an env's Chromium for the next env of its thread ``owner``, or kill it (see LINGER). A browser is
    driven only from the thread that opened it, so a finalizer run in another thread kills it."""
    if (LINGER <= 0 or not proc.alive() or owner != threading.get_ident()
            or os.getpid() != getattr(_local, "pid", None)):
        proc.kill()
        return
    timer = threading.Timer(LINGER, _expire, args=(proc,))
    timer.daemon = True
    with _idle_lock:
        evicted = [e for e in _idle if e[0] == threading.get_ident()]
        for e in evicted:
            _idle.remove(e)
        _idle.append((threading.get_ident(), os.getpid(), proc, browser, list(contexts), timer))
    timer.start()
    for e in evicted:
        e[5].cancel()
        e[2].kill()


def _expire(proc: ChromiumProcess) -> None:
    with _idle_lock:
        for e in [e for e in _idle if e[2] is proc]:
            _idle.remove(e)
    proc.kill()


def _kill_idle() -> None:
    with _idle_lock:
        mine = [e for e in _idle if e[1] == os.getpid()]  # a forked child leaves its parent's alone
        for e in mine:
            _idle.remove(e)
        shared = [k for k in _shared if k[1] == os.getpid()]
        procs = [_shared.pop(k)[0] for k in shared]
    for e in mine:
        e[5].cancel()
        e[2].kill()
    for proc in procs:
        proc.kill()


atexit.register(_kill_idle)
