"""`tune_allocator`: keep freed frame memory in the process, so a fresh frame costs no page faults.

Every observation GymV returns is a fresh array (observations never share memory with the env),
so each reset and step allocates frames of 0.2-2.4 MB. glibc serves those with ``mmap`` or from
the top of the heap, and by default it hands that memory straight back to the kernel when the
frame is freed (its dynamic thresholds stay near the frame size, and a few frames freed together
pass them), so the next frame is page-faulted in again, one 4 KiB page at a time. On the 2-core
VM this project is measured on a page fault costs about 1.5 us, and a single-turn level at
512x512 spent most of its time there (GradientDirection: 1,830 us per reset+step, 250 us with
the thresholds raised, in a plain ``gym.make``/reset/step loop). The benchmark runner had set
these thresholds for itself before (between episodes its records break up the heap: 44-88
thousand page faults per 360 episodes of the overhead benchmark, 7-19% more CPU time); now every
process that imports GymV gets them.

`tune_allocator` sets glibc's mmap threshold to 32 MiB and its trim threshold to 64 MiB: the values
glibc's own dynamic adjustment reaches after it has seen a 32 MiB block freed
(``DEFAULT_MMAP_THRESHOLD_MAX`` and twice it). Allocations under 32 MiB then come from the heap,
and up to 64 MiB of freed heap per arena stays mapped for reuse instead of being returned.
``import gymv_envs`` calls it once. It does nothing off glibc (macOS, Windows, musl), when
``GYMV_MALLOC_TUNING=0``, or when the user set any of glibc's own ``MALLOC_MMAP_THRESHOLD_``,
``MALLOC_TRIM_THRESHOLD_``, ``MALLOC_TOP_PAD_`` or ``MALLOC_MMAP_MAX_`` variables (theirs win).
"""

from __future__ import annotations

import ctypes
import os
import platform

MMAP_THRESHOLD = 32 << 20   # glibc's DEFAULT_MMAP_THRESHOLD_MAX on 64-bit
TRIM_THRESHOLD = 64 << 20   # glibc keeps trim = 2 x mmap threshold in its dynamic mode
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt parameter numbers (malloc.h)
USER_VARIABLES = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_")
SWITCH = "GYMV_MALLOC_TUNING"

_state: dict[str, str] = {}


def tune_allocator() -> str:
    """Raise glibc's mmap and trim thresholds once per process; returns what was done, as a word.

    ``"tuned"`` (done now or earlier), ``"off"`` (``GYMV_MALLOC_TUNING=0``), ``"user"`` (the user
    set glibc's own variables), ``"unsupported"`` (not glibc, or ``mallopt`` refused).
    """
    if "result" in _state:
        return _state["result"]
    if os.environ.get(SWITCH, "1").strip().lower() in ("0", "false", "no", "off"):
        result = "off"
    elif any(v in os.environ for v in USER_VARIABLES):
        result = "user"
    elif platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        result = "unsupported"
    else:
        try:
            mallopt = ctypes.CDLL(None).mallopt
            mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
            ok = mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1 and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1
        except (AttributeError, OSError):
            ok = False
        result = "tuned" if ok else "unsupported"
    _state["result"] = result
    return result


def allocator_state() -> str:
    """What `tune_allocator` did in this process (``"untouched"`` before it ran)."""
    return _state.get("result", "untouched")
