"""The code base is ruff clean (the rules are in pyproject.toml) and sets no array's shape in place."""

import ast
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


def test_no_array_shape_or_strides_set_in_place():
    """numpy 2.5 deprecates setting an array's ``.shape`` or ``.strides`` (use ``reshape`` or
    ``np.lib.stride_tricks``); our tests turn that warning into an error, but CI may run an older numpy
    that stays silent, so the assignment itself is refused here. ``self.shape = ...`` is an object's own
    attribute, not an array's, and is allowed."""
    root = Path(__file__).resolve().parent.parent
    bad = []
    for folder in ("gymv_envs", "wrappers", "agents", "benchmarks", "scripts"):
        for path in sorted((root / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):  # every assignment target, tuple targets included, is an ast.Store
                if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and node.attr in ("shape", "strides")
                        and not (isinstance(node.value, ast.Name) and node.value.id == "self")):
                    bad.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)} = ...")
    assert not bad, "arrays reshaped in place (numpy 2.5 deprecates it; use reshape):\n" + "\n".join(bad)
