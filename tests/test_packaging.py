"""A non-editable install carries the four packages and their data files."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_contains_packages_and_data(tmp_path):
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                          "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    wheel = next(tmp_path.glob("gymv-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for package in ("gymv_envs", "wrappers", "agents", "benchmarks"):
        assert f"{package}/__init__.py" in names
    assert "gymv_envs/core/assets/fonts/DejaVuSans.ttf" in names
    assert not any(n.startswith("tests/") for n in names)


def test_import_needs_no_optional_dependency():
    code = ("import sys, gymv_envs; heavy = {'mujoco', 'playwright', 'torch', 'stable_baselines3', 'ray'};"
            "print(sorted(heavy & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
