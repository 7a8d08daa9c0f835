"""The package layout (DESIGN.md section 1): a domain imports core and rules, never another domain;
rules/ is pure code (no domain, no drawing, no env classes); core imports no domain or rules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "gymv_envs"
DOMAINS = PACKAGE / "domains"
RULES = PACKAGE / "rules"
CORE = PACKAGE / "core"
DRAWING = ("PIL", "pygame", "matplotlib", "gymv_envs.core.canvas", "gymv_envs.core.board")
ENV_CLASSES = ("gymnasium", "gymv_envs.core.env")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, module: str | None = None) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``path`` (the module ``module``, by default
    the one its place in the package names), relative imports resolved; for ``from package import
    name`` both the package and ``package.name`` are listed (the name may be a submodule)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = (module or _module_name(path)).split(".")
    if path.name != "__init__.py":
        here = here[:-1]  # the package the module lives in
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here[: len(here) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            out.append((node.lineno, base))
            out += [(node.lineno, f"{base}.{alias.name}") for alias in node.names if alias.name != "*"]
    return out


def _under(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.py"))


def test_the_walk_sees_every_domain_and_relative_imports(tmp_path):
    assert {p.name for p in DOMAINS.iterdir() if p.is_dir() and (p / "__init__.py").exists()} >= {"games", "logic", "puzzles"}
    probe = tmp_path / "probe.py"
    probe.write_text("from ..logic import _grid\nfrom . import _board\nimport gymv_envs.domains.web._site\n", encoding="utf-8")
    mods = [m for _, m in imported_modules(probe, "gymv_envs.domains.games.probe")]
    assert "gymv_envs.domains.web._site" in mods and "gymv_envs.domains.logic._grid" in mods and "gymv_envs.domains.games._board" in mods


@pytest.mark.parametrize("path", _files(DOMAINS), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_domains_never_import_another_domain(path):
    rel = path.relative_to(DOMAINS).parts
    if len(rel) < 2:
        return  # gymv_envs/domains/__init__.py
    own = f"gymv_envs.domains.{rel[0]}"
    bad = [f"line {line}: {mod}" for line, mod in imported_modules(path)
           if _under(mod, ("gymv_envs.domains",)) and mod != "gymv_envs.domains" and not _under(mod, (own,))]
    assert not bad, f"{path.relative_to(PACKAGE.parent)} imports another domain ({'; '.join(bad)}): move the shared code to gymv_envs/rules or gymv_envs/core"


@pytest.mark.parametrize("path", _files(RULES), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_rules_are_pure(path):
    bad = [f"line {line}: {mod}" for line, mod in imported_modules(path)
           if _under(mod, ("gymv_envs.domains", *DRAWING, *ENV_CLASSES))]
    assert not bad, f"{path.relative_to(PACKAGE.parent)} imports a domain, drawing or env code ({'; '.join(bad)}); rules/ holds pure rules"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    envs = [n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and any("Env" in ast.unparse(b) for b in n.bases)]
    assert not envs, f"{path.relative_to(PACKAGE.parent)} defines env classes {envs}; env classes live in the domains"


@pytest.mark.parametrize("path", _files(CORE), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_imports_no_domain_and_no_rules(path):
    bad = [f"line {line}: {mod}" for line, mod in imported_modules(path) if _under(mod, ("gymv_envs.domains", "gymv_envs.rules"))]
    assert not bad, f"{path.relative_to(PACKAGE.parent)} imports {'; '.join(bad)}; core sits below rules and the domains"


TASK_FILE_LINES = 250  # CONVENTIONS.md rule 1: one task, one file, under about 250 lines


def test_task_files_stay_short():
    """A task file (a public module of a domain) holds one task in about 250 lines at most; its solver, rules or
    drawing helpers go to a private sibling (`_name.py`) or rules/ when it grows past that."""
    tasks = [p for p in _files(DOMAINS) if not p.name.startswith("_")]
    assert len(tasks) > 100
    long = {str(p.relative_to(PACKAGE)): n for p in tasks if (n := len(p.read_text(encoding="utf-8").splitlines())) > TASK_FILE_LINES}
    assert not long, f"task files over {TASK_FILE_LINES} lines (move a solver or the drawing to a private sibling): {long}"
