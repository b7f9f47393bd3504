import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if "/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def close_pages(request):
    """Close every page a test opened on the session's browser: a page left open keeps polling the live
    server, whose queries on the shared test database would then be counted in a later test."""
    yield
    if "browser" in request.fixturenames:
        browser = request.getfixturevalue("browser")
        for context in list(browser.contexts):
            context.close()
