"""Shared test setup: headless pygame/MuJoCo and the registry's ids as test parameters."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("MUJOCO_GL", "egl")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
