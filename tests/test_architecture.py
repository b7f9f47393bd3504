"""The structure the issue "One room per concern" (#15) set up, held by reading the source: the apps
depend one way (``scoring`` ← ``tournaments`` ← ``cup``, ``teams``), no module outside ``views`` imports a
view module, no import hides inside a function (but an app's ``ready``), and every view fits on a screen."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("scoring", "tournaments", "cup", "teams", "tuppiliitto")
# What each app may import of the project's own packages.
ALLOWED = {
    "scoring": {"scoring"},
    "tournaments": {"scoring", "tournaments", "tuppiliitto"},
    "cup": {"scoring", "tournaments", "cup", "tuppiliitto"},
    "teams": {"scoring", "tournaments", "teams", "tuppiliitto"},
    "tuppiliitto": {"tuppiliitto", "tournaments", "cup", "teams", "scoring"},  # the project: URLs, settings
}
VIEW_LINES = 40


def sources(app: str):
    for path in sorted((ROOT / app).rglob("*.py")):
        if "migrations" not in path.parts:
            yield path, ast.parse(path.read_text(encoding="utf-8"))


def imported(tree) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out += [(node.lineno, node.module)]
            out += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return out


@pytest.mark.parametrize("app", APPS)
def test_the_apps_depend_one_way(app):
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path, tree in sources(app)
        for line, name in imported(tree)
        if name.split(".")[0] in APPS and name.split(".")[0] not in ALLOWED[app]
    ]
    assert wrong == []


def test_the_rules_core_needs_no_django():
    wrong = [f"{p.relative_to(ROOT)}:{line} {name}" for p, tree in sources("scoring")
             for line, name in imported(tree) if name.split(".")[0] == "django"]
    assert wrong == []


@pytest.mark.parametrize("app", APPS)
def test_no_module_imports_a_view_module(app):
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path, tree in sources(app)
        if "views" not in path.parts and not path.name.startswith("urls")
        for line, name in imported(tree)
        if ".views" in f".{name}" and name.split(".")[0] in APPS
    ]
    assert wrong == []


@pytest.mark.parametrize("app", APPS)
def test_no_import_inside_a_function(app):
    """An import inside a function is how a cycle gets dodged; only an app's ``ready`` needs one."""
    wrong = []
    for path, tree in sources(app):
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if path.name == "apps.py" and fn.name == "ready":
                continue
            wrong += [f"{path.relative_to(ROOT)}:{n.lineno} in {fn.name}" for n in ast.walk(fn)
                      if isinstance(n, ast.Import | ast.ImportFrom)]
    assert wrong == []


@pytest.mark.parametrize("app", ["tournaments", "cup", "teams"])
def test_every_view_fits_on_a_screen(app):
    long = [
        f"{path.relative_to(ROOT)}: {fn.name} {fn.end_lineno - fn.lineno + 1} lines"
        for path, tree in sources(app)
        if "views" in path.parts
        for fn in tree.body
        if isinstance(fn, ast.FunctionDef) and fn.end_lineno - fn.lineno + 1 > VIEW_LINES
    ]
    assert long == []
