"""The structure the issue "One room per concern" (#15) set up, held by reading the source: the apps
depend one way (``scoring``, ``registry`` ← ``tournaments`` ← ``cup``, ``teams``; the registry since
#26), no module outside ``views`` imports a view module, no import hides inside a function (but an app's
``ready``), and every view fits on a screen."""

from __future__ import annotations

import ast
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("scoring", "registry", "tournaments", "cup", "teams", "federation", "archive", "tuppiliitto", "lib")
# What each app may import of the project's own packages. ``lib`` is the project's library: it knows no app;
# ``tuppiliitto`` (settings, URLs, WSGI) sits on top: no app imports it.
# ``registry`` (clubs, players, seasons) is read by every app and reads none of them.
ALLOWED = {
    "scoring": {"scoring"},
    "registry": {"registry", "lib"},
    "tournaments": {"scoring", "registry", "tournaments", "lib"},
    "cup": {"scoring", "registry", "tournaments", "cup", "lib"},
    "teams": {"scoring", "registry", "tournaments", "teams", "lib"},
    # one federation, many venues: the registry and events moved between installations
    "federation": {"scoring", "registry", "tournaments", "federation", "lib"},
    # Issue #28: the archive reads across events and seasons (the events' snapshots, the seasons' cups, the
    # team competitions); no app imports it, and it reads only their read sides (``test_the_archive_only_reads``).
    "archive": {"registry", "tournaments", "cup", "teams", "archive", "lib"},
    "tuppiliitto": {"tuppiliitto", "registry", "tournaments", "cup", "teams", "federation", "archive", "scoring", "lib"},  # the project: URLs, settings
    "lib": {"lib"},
}
VIEW_LINES = 40
# Issue #26: long files cut at their seams: every app is held to these limits.
APPS_WITH_SIZE_LIMITS = ("scoring", "registry", "lib", "tuppiliitto", "tournaments", "cup", "teams", "federation", "archive")
# The benchmarks are no app, but the same limits hold for them (bench/live_load.py became a package).
FOLDERS_WITH_SIZE_LIMITS = (*APPS_WITH_SIZE_LIMITS, "bench")
MODULE_LINES = 600
FUNCTION_LINES = 80


def parse(path: Path) -> ast.Module:
    """The module's syntax tree. CPython 3.11.7's parser can refuse any source with "SystemError: AST
    constructor recursion depth mismatch" once something earlier in the same process (a library running
    a test before this one) has left its recursion bookkeeping askew; the tree then comes from a fresh
    interpreter (syntax trees pickle)."""
    try:
        return ast.parse(path.read_text(encoding="utf-8"))
    except SystemError:
        done = subprocess.run(
            [sys.executable, "-c", "import ast, pickle, sys; sys.stdout.buffer.write(pickle.dumps("
             "ast.parse(open(sys.argv[1], encoding='utf-8').read())))", str(path)],
            capture_output=True, check=True,
        )
        return pickle.loads(done.stdout)


def sources(app: str):
    for path in sorted((ROOT / app).rglob("*.py")):
        if "migrations" not in path.parts:
            yield path, parse(path)


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


# Libraries a function may import when first needed: not a cycle dodged, a cost deferred. HiGHS (``highspy``,
# numpy with it) takes about 0.4 s to import and only the seasons the cup's reach cannot decide otherwise
# need it (``scoring/cup_reach_lp.py``, which hands it its columns as numpy arrays); at the top it would
# slow every process that loads the cup.
LAZY_LIBRARIES = {"highspy", "numpy"}


def _lazy(node) -> bool:
    names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
    return all(name.split(".")[0] in LAZY_LIBRARIES for name in names)


@pytest.mark.parametrize("app", APPS)
def test_no_import_inside_a_function(app):
    """An import inside a function is how a cycle gets dodged; only an app's ``ready`` needs one, and a
    function may import one of ``LAZY_LIBRARIES``."""
    wrong = []
    for path, tree in sources(app):
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if path.name == "apps.py" and fn.name == "ready":
                continue
            wrong += [f"{path.relative_to(ROOT)}:{n.lineno} in {fn.name}" for n in ast.walk(fn)
                      if isinstance(n, ast.Import | ast.ImportFrom) and not _lazy(n)]
    assert wrong == []


@pytest.mark.parametrize("app", ["tournaments", "cup", "teams", "archive"])
def test_every_view_fits_on_a_screen(app):
    long = [
        f"{path.relative_to(ROOT)}: {fn.name} {fn.end_lineno - fn.lineno + 1} lines"
        for path, tree in sources(app)
        if "views" in path.parts
        for fn in tree.body
        if isinstance(fn, ast.FunctionDef) and fn.end_lineno - fn.lineno + 1 > VIEW_LINES
    ]
    assert long == []


@pytest.mark.parametrize("app", FOLDERS_WITH_SIZE_LIMITS)
def test_no_module_over_600_lines(app):
    long = [
        f"{path.relative_to(ROOT)}: {lines} lines"
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts
        and (lines := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    ]
    assert long == []


@pytest.mark.parametrize("app", FOLDERS_WITH_SIZE_LIMITS)
def test_no_function_over_80_lines(app):
    """Counted from the ``def`` line to the last line of the body (decorators not counted)."""
    long = [
        f"{path.relative_to(ROOT)}:{fn.lineno} {fn.name} {fn.end_lineno - fn.lineno + 1} lines"
        for path, tree in sources(app)
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and fn.end_lineno - fn.lineno + 1 > FUNCTION_LINES
    ]
    assert long == []


# Issue #26: ``tournaments`` in layers. The web layer reads through the read side and writes through the
# write side; the write side may read; the read side never writes and never knows the web; the outputs
# (PDFs) read; the event's facts (``models``) know no layer.
LAYERS = ("actions", "readmodel", "web", "output")
FORBIDDEN = {
    "web": set(),
    "actions": {"web", "output"},
    "readmodel": {"actions", "web", "output"},
    "output": {"actions", "web"},
    "models": set(LAYERS),
}


# The same layers hold in the apps built in them (``federation`` since #27), across apps too: a read side
# imports no app's write side.
LAYERED_APPS = ("tournaments", "federation")


def layer(app: str, path: Path) -> str | None:
    parts = path.relative_to(ROOT / app).parts
    if parts[0] in LAYERS:
        return parts[0]
    return "models" if parts[0] in ("models", "models.py") else None


@pytest.mark.parametrize("app", LAYERED_APPS)
def test_every_layer_is_a_package(app):
    present = [name for name in LAYERS if (ROOT / app / name).exists()]
    assert present and all((ROOT / app / name / "__init__.py").exists() for name in present)


@pytest.mark.parametrize("app", LAYERED_APPS)
@pytest.mark.parametrize("room", list(FORBIDDEN))
def test_the_layers_depend_one_way(app, room):
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path, tree in sources(app)
        if layer(app, path) == room
        for line, name in imported(tree)
        if name.split(".")[0] in LAYERED_APPS and len(name.split(".")) > 1 and name.split(".")[1] in FORBIDDEN[room]
    ]
    assert wrong == []


# Issue #28: the archive only reads. It has two layers, ``readmodel`` (what its pages show) and ``web`` (the
# views), and nothing else: no models, no write side. Its read side never knows its web layer, and
# neither layer imports any app's write side (``<app>.actions``, ``cup.signals``, ``cup.fines``) or
# web layer (``tournaments.web``, ``cup.views``, ``teams.views``).
ARCHIVE_LAYERS = {"readmodel", "web"}
FOREIGN_WRITERS = ("tournaments.actions", "teams.actions", "cup.signals", "cup.fines", "tournaments.web",
                   "cup.views", "teams.views", "cup.admin", "registry.admin", "teams.entry", "teams.forms",
                   "teams.simulation", "teams.signals")


def test_the_archive_has_only_a_read_side_and_pages():
    packages = {p.name for p in (ROOT / "archive").iterdir() if p.is_dir() and p.name != "__pycache__"}
    modules = {p.name for p in (ROOT / "archive").glob("*.py")}
    assert packages == ARCHIVE_LAYERS
    assert modules <= {"__init__.py", "apps.py"}


def test_the_archive_only_reads():
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path, tree in sources("archive")
        for line, name in imported(tree)
        if any(name == w or name.startswith(f"{w}.") for w in FOREIGN_WRITERS)
        or ("readmodel" in path.parts and name.startswith("archive.web"))
    ]
    assert wrong == []


# The write side reads the read side's values and folding, never its caches: it announces a change through
# ``lib.hooks.events_changed``, which the read side follows (``tournaments.readmodel.following``).
READ_SIDE_CACHES = ("heads", "snapshot", "following", "live")


def test_the_write_side_announces_changes_instead_of_touching_the_read_sides_caches():
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for app in ("tournaments", "teams", "cup")
        for path, tree in sources(app)
        if "actions" in path.relative_to(ROOT).parts or path.name == "signals.py"
        for line, name in imported(tree)
        if name.startswith("tournaments.readmodel.") and name.split(".")[2] in READ_SIDE_CACHES
    ]
    assert wrong == []


# Issue #26: the tests mirror the code. A test module sits in ``tests/<app>/`` beside the app's own modules, or
# in ``tests/<app>/<layer>/`` for a layer (a package of the app: ``tournaments/actions``, ``teams/actions``);
# the web layer is ``web`` in every app (``teams`` keeps its views in ``teams/views``). Apart from those:
# ``tests/browser/`` (Playwright), ``tests/coherence/`` (the differential suite over several apps) and the
# suite's own tests at the top. ``tests/support/`` holds shared helpers, no tests. The issue a test came from
# goes in its docstring, never in its file name.
TESTS = ROOT / "tests"
TEST_FOLDERS = ("browser", "coherence")
TOP_LEVEL_TESTS = {"test_architecture.py", "test_clock.py"}
WEB_LAYER = {"teams": "views"}


def layers_of(app: str) -> set[str]:
    folders = {p.name for p in (ROOT / app).iterdir() if (p / "__init__.py").exists() and p.name != "migrations"}
    return {"web" if name == WEB_LAYER.get(app) else name for name in folders}


def suite_modules():
    return sorted(path.relative_to(TESTS) for path in TESTS.rglob("test_*.py"))


def test_every_test_module_lives_where_its_code_does():
    wrong = []
    for path in suite_modules():
        folders = path.parts[:-1]
        if not folders:
            ok = path.name in TOP_LEVEL_TESTS
        elif folders[0] in TEST_FOLDERS:
            ok = True
        elif folders[0] in APPS:
            ok = len(folders) == 1 or (len(folders) == 2 and folders[1] in layers_of(folders[0]))
        else:
            ok = False
        if not ok:
            wrong.append(f"tests/{path}")
    assert wrong == []


def test_every_test_folder_is_a_package():
    """The same file name in two folders (``test_api.py``) needs packages to be told apart."""
    missing = sorted({f"tests/{path.parent}" for path in suite_modules() if not (TESTS / path.parent / "__init__.py").exists()})
    assert missing == []


def test_no_test_file_is_named_after_an_issue():
    named = [f"tests/{path}" for path in suite_modules() if re.search(r"issue|\d", path.name)]
    assert named == []


def test_every_browser_test_is_under_tests_browser():
    """Where ``make test-fast`` and a reader look for them (``tests/browser/conftest.py`` marks them ``browser``)."""
    elsewhere = [
        f"tests/{path}"
        for path in suite_modules()
        if path.parts[0] != "browser"
        and re.search(r"mark\.browser\b|^\s*(from|import) playwright", (TESTS / path).read_text(encoding="utf-8"), re.M)
    ]
    assert elsewhere == []
