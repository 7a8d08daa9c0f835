"""The code base is ruff clean (the rules are in pyproject.toml)."""

import shutil
import subprocess
from pathlib import Path

import pytest


def test_ruff_clean():
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (it comes with the 'test' extra)")
    out = subprocess.run([ruff, "check", "."], cwd=Path(__file__).resolve().parent.parent,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout[-3000:]
