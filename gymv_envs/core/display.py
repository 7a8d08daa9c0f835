"""Whether a window can open here, checked before anything waits on one: ``render_mode="human"`` and
keyboard play (`gymv.agents.human`) both call `check_display`."""

from __future__ import annotations

import os
import sys


class NoDisplayError(RuntimeError):
    """A window was asked for, and this machine has no display to open one on."""


def check_display(what: str, hint: str) -> None:
    """Raise `NoDisplayError` at once where pygame could open no window.

    An ``SDL_VIDEODRIVER`` the user set is trusted (``dummy`` opens no window on purpose; the tests use it).
    Otherwise, on Linux, a window needs an X or Wayland display: without ``DISPLAY`` or ``WAYLAND_DISPLAY``
    SDL falls back to a driver that shows nothing, and a loop paced for a viewer waits for a viewer who
    sees nothing. ``what`` names what needs the window; ``hint`` says what to do instead.
    """
    if os.environ.get("SDL_VIDEODRIVER"):
        return
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise NoDisplayError(
            f"{what} needs a display, and none is set here (no DISPLAY or WAYLAND_DISPLAY: a headless machine "
            f"or an SSH session without X forwarding). Run it on a desktop, over `ssh -X`, or under a virtual "
            f"display with `xvfb-run`; {hint}")
