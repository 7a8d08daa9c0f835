"""Every README example runs, the catalogue is current, and CI runs the README's test command."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gymv_envs.core.registry import EXTRA_MODULES
from tests.chat_server import ChatServer

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
PY_BLOCKS = re.findall(r"```python\n(.*?)```", README, re.DOTALL)
BASH_BLOCKS = re.findall(r"```bash\n(.*?)```", README, re.DOTALL)


@pytest.mark.parametrize("index", range(len(PY_BLOCKS)))
def test_python_block_runs(index, monkeypatch):
    code = PY_BLOCKS[index]
    replies = iter(["<think>The star is right of me.</think>\nAction: right", "I go down.\nAction: down",
                    "Answer: left", "garbage reply", '{"action": "up"}'] * 10)
    with ChatServer(lambda request: next(replies)) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        try:
            exec(compile(code, f"README.md python block {index}", "exec"), {"__name__": "__readme__"})
        except ModuleNotFoundError as exc:  # a block that needs an extra this install lacks (sb3, ...)
            extra = next((e for e, m in EXTRA_MODULES.items() if (exc.name or "").split(".")[0] == m != "json"), None)
            if extra is None:
                raise
            pytest.skip(f"README python block {index} needs the '{extra}' extra ({exc.name} is not installed)")
        if "def ask_model" in code:
            assert len(server.requests) >= 1
            content = server.requests[0]["messages"][0]["content"]
            assert content[1]["image_url"]["url"].startswith("data:image/png;base64,")


def test_readme_has_the_two_commands():
    commands = [line.strip() for block in BASH_BLOCKS for line in block.splitlines() if line.strip()]
    assert any("gymv-bench run" in c for c in commands)
    test_command = next(c for c in commands if "pytest" in c)
    assert test_command in (ROOT / ".ci" / "run").read_text().splitlines(), ".ci/run must run the README's test command"


# What a fresh machine has after the README's `pip install .`: the core dependencies and none of
# the extras. CI installs every extra for the other tests, so the main command is run here with
# the extras' modules hidden (as `pip install .` leaves them), which is also what keeps it to a
# few minutes: browser, 3D and robotics ids would take it far past the suite's time budget.
HIDE_EXTRAS = """
import importlib.abc, importlib.util, sys
HIDDEN = {hidden!r}
_find_spec = importlib.util.find_spec
def find_spec(name, package=None):
    return None if name.split(".")[0] in HIDDEN else _find_spec(name, package)
importlib.util.find_spec = find_spec
class _Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, _Hide())
"""


def test_main_command_runs(tmp_path):
    """The README's main command, as a fresh `pip install .` runs it (the install step is CI's)."""
    from gymv_envs.core.registry import EXTRA_MODULES

    main = next(line.strip() for b in BASH_BLOCKS for line in b.splitlines() if "gymv-bench run" in line)
    install, run = main.split("&&")[0].split(), main.split("&&")[-1].split()
    assert install == ["pip", "install", "."] and run[:2] == ["gymv-bench", "run"]
    script = shutil.which("gymv-bench") or str(Path(sys.executable).with_name("gymv-bench"))
    assert Path(script).exists(), "the gymv-bench console script is not installed (pip install . installs it)"
    hidden = sorted({m.split(".")[0] for m in EXTRA_MODULES.values()} - {"json"} | {"networkx"})
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(HIDE_EXTRAS.format(hidden=hidden))
    out = subprocess.run([script, *run[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=1800,
                         env={**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])})
    assert out.returncode == 0, out.stderr[-2000:]
    assert "mean@3" in out.stdout
    skipped = out.stdout + out.stderr
    assert "pip install 'gymv[" in skipped and "web" in skipped, skipped[-2000:]


def test_catalogue_is_current():
    out = subprocess.run([sys.executable, "-m", "gymv_envs.catalogue", "--check"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr


def test_catalogue_refuses_what_it_cannot_use(tmp_path, capsys):
    """A README it cannot read or without the markers, and a gallery name PIL cannot write, are named before
    any work (they used to end in tracebacks, the gallery's after every id was drawn)."""
    from gymv_envs import catalogue

    plain = tmp_path / "plain.md"
    plain.write_text("# no table here\n")
    for argv, message in ((["--readme", str(tmp_path / "missing.md"), "--check"], "cannot read --readme"),
                          (["--readme", str(tmp_path), "--check"], "cannot read --readme"),
                          (["--readme", str(plain), "--check"], "has no catalogue section"),
                          (["--readme", str(plain), "--gallery", ""], "has no catalogue section"),
                          (["--readme", str(ROOT / "README.md"), "--gallery", str(tmp_path / "g.txt")], "invalid --gallery")):
        with pytest.raises(SystemExit) as exc:
            catalogue.main(argv)
        assert exc.value.code == 2 and message in capsys.readouterr().err
    assert plain.read_text() == "# no table here\n" and not (tmp_path / "g.txt").exists()
