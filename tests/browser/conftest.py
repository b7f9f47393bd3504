import threading
import time

import pytest

# After a test, the live server must be done with its pages before pytest-django empties the database: a
# request still being served (a referee phone's queue sent as its page closes) would otherwise write into
# the tables being emptied, on SQLite through the very connection the test thread uses.
QUIET_S = 0.3  # no request served for this long: the closed pages sent nothing more
SETTLE_S = 20.0  # the longest wait for the last request to end


def pytest_collection_modifyitems(items):
    for item in items:
        if "/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


def serving() -> bool:
    """A request of the live server is being served (its server starts a thread per connection)."""
    return any(t.name.endswith("(process_request_thread)") for t in threading.enumerate())


def settle() -> None:
    """Return once the live server has served nothing for QUIET_S (at most SETTLE_S)."""
    deadline = time.monotonic() + SETTLE_S
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        if serving():
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= QUIET_S:
            return
        time.sleep(0.02)


@pytest.fixture(autouse=True)
def close_pages(request):
    """Close every page a test opened on the session's browser: a page left open keeps polling the live
    server, whose queries on the shared test database would then be counted in a later test. Then wait
    for the live server to finish what the pages sent: this teardown runs before the database's."""
    yield
    if "browser" in request.fixturenames:
        browser = request.getfixturevalue("browser")
        for context in list(browser.contexts):
            context.close()
    if "live_server" in request.fixturenames:
        settle()
