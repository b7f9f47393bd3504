"""Shared fixtures: a Playwright setup for Debian's chromium at phone size (390×844) with an English-speaking
browser (so Finnish must come from the app), and small builders for the objects most tests need."""

from __future__ import annotations

import datetime as dt
import os
import threading
import weakref

import pytest
from django.db.backends.signals import connection_created

from tests.clock import Clock

# Playwright runs an event loop in the test thread; the ORM refuses that unless told it is safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]


# The longest test modules, longest first (seconds per test on a 2-core machine: coherence 80–190,
# crawl 80–125, every URL 55–105, two processes 50, paper plausibility 20–45).
LONGEST = ("test_coherence_slow", "test_crawl", "test_every_url", "test_two_processes", "test_paper_plausibility")


def pytest_collection_modifyitems(config, items):
    """The long tests first (the longest modules, then the other slow ones, then the browser tests), the
    rest in their usual order behind them. With ``-n 2 --dist load --maxschedchunk 1`` each worker holds
    two tests at most and takes the next one when it finishes one, so the long ones spread over both
    workers and the short ones fill in after, instead of one long test ending the run alone while the
    other worker waits. Every test still runs; none depends on the order."""

    def weight(item) -> tuple:
        module = item.path.stem
        if module in LONGEST:
            return (0, LONGEST.index(module))
        if item.get_closest_marker("slow"):
            return (1, 0)
        return (2 if item.get_closest_marker("browser") or "/browser/" in str(item.fspath) else 3, 0)

    items.sort(key=weight)
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        skipped = {item for item in items if pure_core(item)}
        if skipped:
            config.hook.pytest_deselected(items=list(skipped))
            items[:] = [item for item in items if item not in skipped]


def pure_core(item) -> bool:
    """A test of the rules core (``tests/scoring/``: no Django, no database) that asks for no database: it
    answers the same whatever ``DATABASE_URL`` says, so the PostgreSQL run leaves it to the SQLite run."""
    return "/tests/scoring/" in str(item.fspath) and "_django_db_helper" not in getattr(item, "fixturenames", ())


# Every database connection the test process opens, to close them all before the test databases are
# dropped. Django keeps a connection per thread and per context (asgiref's Local): once a browser test
# has started Playwright's event loop in the test thread, the tests after it work through another
# connection than the one pytest-django closes at the end, and PostgreSQL then refuses to drop a
# database "being accessed by other users".
_OPENED = weakref.WeakSet()


def _remember_connection(sender, connection, **kwargs):
    _OPENED.add(connection)


connection_created.connect(_remember_connection)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test databases, with every connection of this thread closed before they go."""
    yield
    with django_db_blocker.unblock():
        for connection in list(_OPENED):
            if connection.connection is not None and connection._thread_ident == threading.get_ident():
                connection.close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 390, "height": 844}, "locale": "en-US"}


@pytest.fixture(autouse=True)
def clock(request, monkeypatch):
    """Every test runs on a fixed date (``tests/clock.py``), whatever day the suite runs on; a test moves
    it with ``clock.set(...)`` or ``@pytest.mark.clock_at("2027-03-01 10:00")``."""
    from django.utils import timezone

    marker = request.node.get_closest_marker("clock_at")
    fixed = Clock(marker.args[0]) if marker else Clock()
    monkeypatch.setattr(timezone, "now", fixed.now)
    return fixed


@pytest.fixture(autouse=True)
def empty_caches():
    """Every test starts with empty caches: derived snapshots of another test's events never leak in."""
    from django.core.cache import cache

    from lib import caching

    cache.clear()
    caching.clear_local()
    yield
    caching.clear_local()


@pytest.fixture
def make_event(db):
    from registry.models import Season
    from tournaments.models import Event

    counter = {"n": 0}

    def make(**fields):
        counter["n"] += 1
        starts = fields.pop("starts_on", dt.date(2026, 12, 12))
        defaults = {
            "name": f"Testikisa {counter['n']}",
            "slug": f"testikisa-{counter['n']}",
            "season": Season.for_date(starts),
            "starts_on": starts,
            "ends_on": starts + dt.timedelta(days=1),
        }
        defaults.update(fields)
        return Event.objects.create(**defaults)

    return make


@pytest.fixture
def organiser(db, django_user_model):
    return django_user_model.objects.create_user("organiser", password="salasana-1")


@pytest.fixture
def outsider(db, django_user_model):
    """Logged in, but an organiser of some other event only."""
    return django_user_model.objects.create_user("outsider", password="salasana-2")


@pytest.fixture
def logged_in(client, organiser):
    """The test client, logged in as ``organiser``."""
    client.force_login(organiser)
    return client
