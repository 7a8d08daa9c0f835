"""Shared test setup: headless pygame/MuJoCo and the registry's ids as test parameters."""

import atexit
import os
import shutil
import sys
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("MUJOCO_GL", "egl")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# Web envs hand a closed env's idle Chromium to the next env of the thread for 3 s instead of
# killing it at close(): the suite builds hundreds of short-lived web envs (1-2 s per browser).
os.environ.setdefault("GYMV_WEB_LINGER", "3")

# The CLI tests start Python subprocesses, each importing GymV's 560 modules. Where PYTHONDONTWRITEBYTECODE
# is set, every one compiled them all again (1.4 s of a 3 s `gymv-bench --version`). Instead the run's processes share one bytecode cache, a temporary folder outside the tree
# (made by the first process, which the xdist workers and every subprocess inherit it from; removed at exit).
if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    try:
        _cache = tempfile.mkdtemp(prefix="gymv-tests-pycache-")
    except OSError:  # (no writable temporary folder: every process compiles, as before)
        pass
    else:
        atexit.register(shutil.rmtree, _cache, ignore_errors=True)
        del os.environ["PYTHONDONTWRITEBYTECODE"]
        os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = _cache
        sys.dont_write_bytecode = False
