"""`gymv_envs.core.allocator`: fresh frames reuse freed memory instead of faulting pages in again."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

glibc = pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                           reason="the tuning applies to glibc's malloc only")

PROBE = """
import resource, numpy as np, gymv_envs
from gymv_envs.core.allocator import allocator_state

def faults():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(50):
        frames = [np.full((512, 512, 3), 7, np.uint8) for _ in range(4)]  # a level's frames, freed together
        del frames
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

faults()
print(allocator_state(), faults())
"""


def _probe(**env: str) -> tuple[str, int]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_") and k != "GYMV_MALLOC_TUNING"}
    out = subprocess.run([sys.executable, "-c", PROBE], env={**clean, **env}, capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    return out[0], int(out[1])


@glibc
def test_import_tunes_malloc_so_fresh_frames_fault_no_pages():
    state, faults = _probe()
    assert state == "tuned"
    assert faults < 200  # 200 frames of 192 pages each: without the tuning about 38,000 faults
    state, faults = _probe(GYMV_MALLOC_TUNING="0")
    assert state == "off" and faults > 1_000


@glibc
def test_users_own_malloc_variables_win():
    state, _ = _probe(MALLOC_TOP_PAD_="0")
    assert state == "user"


def test_tune_allocator_is_idempotent_and_reports_its_state():
    from gymv_envs.core.allocator import allocator_state, tune_allocator

    first = allocator_state()
    assert first in ("tuned", "off", "user", "unsupported")  # import gymv_envs already ran it
    assert tune_allocator() == first
