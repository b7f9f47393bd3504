"""What the Django benchmarks share: Django set up on a scratch database, and the head of a page's
measurement (its first request, its queries warm, the median of warm requests) through a test client."""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"


def setup_django(sqlite_name: str) -> None:
    """Django on a throwaway SQLite file, ``bench/out/<sqlite_name>`` (git-ignored; never the development
    database), or on ``BENCH_DATABASE_URL`` if that is set; the test settings unless others are given."""
    sys.path.insert(0, str(ROOT))
    OUT.mkdir(parents=True, exist_ok=True)
    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{OUT / sqlite_name}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tuppiliitto.settings_test")
    import django

    django.setup()


def first_and_queries(client, url: str):
    """(first request ms, warm queries, the first response) of ``url``: the second request's queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    start = time.perf_counter()
    response = client.get(url)
    first = (time.perf_counter() - start) * 1000
    assert response.status_code == 200, (url, response.status_code)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    # read now: it is a view of the connection's log, which requests reset
    queries = len(ctx.captured_queries)
    return first, queries, response


def timed_median(client, url: str, requests: int, before=None) -> float:
    """The median ms of ``requests`` requests of ``url`` (``before()`` called, untimed, before each)."""
    times = []
    for _ in range(requests):
        if before is not None:
            before()
        start = time.perf_counter()
        client.get(url)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def measure(client, url: str, requests: int) -> tuple[float, int, float]:
    """(first request ms, warm queries, warm median ms over ``requests`` requests) of ``url``."""
    first, queries, _response = first_and_queries(client, url)
    return first, queries, timed_median(client, url, requests)
