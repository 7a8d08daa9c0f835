"""The wheel: GymV-named top-level modules only, data files inside, extras that match the code."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from gymv_envs.core.registry import EXTRA_MODULES

ROOT = Path(__file__).resolve().parent.parent
GYMV_TOP_LEVEL = {"gymv", "gymv_envs"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out_dir = tmp_path_factory.mktemp("wheel")
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                          "-w", str(out_dir), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return next(out_dir.glob("gymv-*.whl"))


def test_wheel_installs_only_gymv_named_modules(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/", 1)[0] for n in names if not n.split("/", 1)[0].endswith(".dist-info")}
    assert top == GYMV_TOP_LEVEL, f"top-level names besides GymV's: {sorted(top - GYMV_TOP_LEVEL)}"
    for package in ("gymv_envs", "gymv/agents", "gymv/wrappers", "gymv/benchmarks"):
        assert f"{package}/__init__.py" in names
    assert "gymv/__init__.py" not in names, "gymv is a namespace package"
    for data in ("gymv_envs/core/assets/fonts/DejaVuSans.ttf", "gymv/agents/prompts/system.txt",
                 "gymv/agents/prices.json"):
        assert data in names
    assert not any(n.startswith("tests/") for n in names)
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "gymv-bench = gymv.benchmarks.cli:main" in meta


def test_pyproject_uses_no_deprecated_setuptools_form():
    """setuptools reads pyproject.toml without a deprecation warning: the table form of ``license``
    warned from setuptools 77 on and is refused from 2027-02-18, when a fresh ``pip install .`` (which
    builds with the newest setuptools) would fail."""
    code = ("import warnings; warnings.simplefilter('error')\n"
            "from setuptools.dist import Distribution\n"
            "from setuptools.config.pyprojecttoml import apply_configuration\n"
            "apply_configuration(Distribution(), 'pyproject.toml')")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-1500:]


def test_extras_table_matches_pyproject(wheel):
    """One table of extras in the code (`EXTRA_MODULES`), the same names as pyproject's extras."""
    names = zipfile.ZipFile(wheel).namelist()
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("dist-info/METADATA"))).decode()
    extras = {line.split(":", 1)[1].strip() for line in meta.splitlines() if line.startswith("Provides-Extra:")}
    assert extras - {"test", "all"} == set(EXTRA_MODULES)
    everything = next(line for line in meta.splitlines() if line.startswith("Requires-Dist: gymv[") and "all" in line)
    assert all(name in everything for name in EXTRA_MODULES)


def test_import_needs_no_optional_dependency():
    code = ("import sys, gymv_envs; heavy = {'mujoco', 'playwright', 'torch', 'stable_baselines3', 'ray'};"
            "print(sorted(heavy & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


SIDE_BY_SIDE = textwrap.dedent("""
    import os
    import agents
    from agents import Agent  # the OpenAI Agents SDK's own top-level package
    assert not os.path.exists(os.path.join(os.path.dirname(agents.__file__), "sb3.py")), agents.__file__
    sdk_agent = Agent(name="helper", instructions="Answer briefly.")
    assert sdk_agent.name == "helper"

    import gymnasium as gym
    import gymv_envs
    from gymv.agents import make_agent
    from gymv.benchmarks.rollout import rollout
    from gymv.wrappers import for_sb3, for_vlm
    import gymv.agents
    assert "site-packages" in gymv.agents.__file__ and os.sep + "gymv" + os.sep in gymv.agents.__file__

    env = gym.make("GymV/TicTacToe-v1", obs_size=(64, 64))
    record = rollout(env, make_agent("oracle", env), seed=0)
    assert record["success"] and record["score"] == 100.0, record
    rl = for_sb3("GymV/Sokoban-v1", obs_size=(48, 48), frame_stack=2)
    obs, _ = rl.reset(seed=0)
    assert obs.shape == (48, 48, 6)
    vlm = for_vlm("GymV/GridNav-v1", obs_size=(64, 64))
    vlm.reset(seed=0)
    _, _, _, _, info = vlm.step("Action: up")
    assert info["parsed"]
    print("both work")
""")


def test_openai_agents_sdk_installs_next_to_gymv(wheel, tmp_path):
    """``pip install openai-agents`` and GymV in one environment: each keeps its own ``agents``."""
    import site

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # GymV's dependencies from the environment running the tests, after the new venv's own packages: a venv made
    # from inside a venv with --system-site-packages would see the base interpreter's packages, not these
    own = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    Path(own, "outer.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    for args in (["openai-agents"], ["--no-deps", str(wheel)]):
        out = subprocess.run([str(python), "-m", "pip", "install", "-q", *args], capture_output=True, text=True,
                             timeout=600, env=env)
        assert out.returncode == 0, out.stderr[-3000:]
    run_dir = tmp_path / "elsewhere"  # not the checkout: its folders must not shadow what is installed
    run_dir.mkdir()
    clean = {k: v for k, v in env.items() if k != "PYTHONPATH"}
    out = subprocess.run([str(python), "-c", SIDE_BY_SIDE], cwd=run_dir, capture_output=True, text=True,
                         timeout=300, env={**clean, "SDL_VIDEODRIVER": "dummy"})
    assert out.returncode == 0, out.stderr[-3000:]
    assert "both work" in out.stdout


def test_every_command_a_usage_names_is_a_gymv_bench_command(capsys):
    """A module whose usage line says ``gymv-bench NAME`` is reachable as that command (judge-audit was not)."""
    import re

    from gymv.benchmarks.cli import COMMANDS, main

    root = Path(__file__).resolve().parents[1] / "benchmarks"
    named = {m for f in root.rglob("*.py") for m in re.findall(r'prog="gymv-bench ([a-z-]+)"', f.read_text())}
    assert named and named == set(COMMANDS)
    for name in sorted(named):
        with pytest.raises(SystemExit) as exc:
            main([name, "--help"])
        assert exc.value.code == 0 and f"usage: gymv-bench {name}" in capsys.readouterr().out


README_NAMES = {"numpy": "numpy", "gymnasium": "Gymnasium", "pillow": "Pillow", "pygame": "pygame", "mujoco": "MuJoCo",
                "playwright": "Playwright", "networkx": "networkx", "scipy": "SciPy", "chess": "python-chess",
                "pettingzoo": "PettingZoo", "pyarrow": "pyarrow"}


def test_lower_bounds_are_the_ones_the_readme_names():
    """scripts/lowest_deps.py reads every lower bound it pins, and the README names each of them as it stands."""
    from tests.helpers import load_script

    mod = load_script("lowest_deps")
    pins = mod.lower_bounds((ROOT / "pyproject.toml").read_text(), mod.EXTRAS.split(","))
    assert set(pins) == set(README_NAMES), pins   # every base dependency and checked extra has a bound
    readme = " ".join((ROOT / "README.md").read_text().split())
    missing = [f"{README_NAMES[n]} {v}" for n, v in pins.items() if f"{README_NAMES[n]} {v}" not in readme]
    assert not missing, f"the README's list of lower bounds lacks {missing}"
