"""Run the test suite on the oldest releases pyproject.toml allows, to keep its lower bounds true.

    python scripts/lowest_deps.py --python python3.10 --venv /tmp/lowest            # make the venv, run every test
    python scripts/lowest_deps.py --python python3.10 --venv /tmp/lowest -- -x tests/test_world3d.py

Every ``name>=X`` of the base dependencies and of the extras named by ``--extras`` is pinned to
``name==X`` in a constraints file, the checkout is installed into a new venv with those extras,
and pytest runs there from the checkout (``-n 2 -p no:cacheprovider`` and whatever follows
``--``). The test extra's tools (pytest, ruff, ...) are not pinned: they check the code, users do
not import them. The sb3 extra is left out by default: torch for another Python than this
machine's own is a download of several GB.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXTRAS = "graphs,scipy,chess,multiagent,world3d,robotics,web,vqa"


def lower_bounds(pyproject: str, extras: list[str]) -> dict[str, str]:
    """``{name: X}`` for every ``name>=X`` in the base dependencies and the given extras' lines."""
    found: dict[str, str] = {}
    deps = re.search(r"^dependencies = \[(.*?)^\]", pyproject, re.S | re.M)
    lines = [deps.group(1)] if deps else []
    for extra in extras:
        line = re.search(rf"^{re.escape(extra)} = \[(.*)\]$", pyproject, re.M)
        if line is None:
            raise SystemExit(f"no extra {extra!r} in pyproject.toml")
        lines.append(line.group(1))
    for text in lines:
        for name, version in re.findall(r'"([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?>=([0-9][0-9.]*)', text):
            found[name.lower()] = version
    return found


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--python", default=sys.executable, help="the interpreter to make the venv with")
    p.add_argument("--venv", required=True, help="where to make the venv (reused if it exists)")
    p.add_argument("--extras", default=EXTRAS, help=f"comma-separated extras to install (default: {EXTRAS})")
    p.add_argument("pytest_args", nargs="*", help="after --: passed to pytest")
    args = p.parse_args(argv)
    extras = [e for e in args.extras.split(",") if e]
    pins = lower_bounds((ROOT / "pyproject.toml").read_text(), extras)
    venv = Path(args.venv)
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([args.python, "-m", "venv", str(venv)], check=True)
    constraints = venv / "lowest.txt"
    constraints.write_text("".join(f"{name}=={version}\n" for name, version in sorted(pins.items())))
    print("pinned:", ", ".join(f"{n}=={v}" for n, v in sorted(pins.items())), flush=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "-c", str(constraints),
                    f"{ROOT}[{','.join(['test', *extras])}]"], check=True)
    return subprocess.run([str(python), "-m", "pytest", "-n", "2", "-p", "no:cacheprovider", *args.pytest_args],
                          cwd=ROOT).returncode


if __name__ == "__main__":
    raise SystemExit(main())
