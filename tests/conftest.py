"""Shared test setup: headless pygame/MuJoCo and the registry's ids as test parameters."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("MUJOCO_GL", "egl")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# Web envs hand a closed env's idle Chromium to the next env of the thread for 3 s instead of
# killing it at close(): the suite builds hundreds of short-lived web envs (1-2 s per browser).
os.environ.setdefault("GYMV_WEB_LINGER", "3")
