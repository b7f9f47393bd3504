"""Prints the median time of the public event page, a group page and the JSON API for a 128-pair event
(16 groups of 8, all 448 group matches played through the rules engine by ``simulate_event``).

Run: DJANGO_SETTINGS_MODULE=tuppiliitto.settings_test .venv/bin/python bench/results_pages.py

It sets Django up itself on a throwaway SQLite file, bench/out/results_pages.sqlite3 (git-ignored), builds
the event on the first run and reuses it (found by its slug) afterwards. ``BENCH_DATABASE_URL`` selects
another database instead (for example a scratch PostgreSQL database); ``--fresh`` rebuilds the event.
The query counts themselves are asserted by tests/tournaments/web/test_query_counts.py; this script only times.
"""

from __future__ import annotations

import statistics
import sys
import time
from io import StringIO
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support import setup_django  # noqa: E402 (the project's root first on the path)

REQUESTS = 20
PAIRS, SEED = 128, 1
SLUG = f"simulaatio-{PAIRS}-paria-{SEED}"  # what simulate_event names it (slugified)


def event_128(fresh: bool):
    from django.core.management import call_command

    from tournaments.models import Event, Match

    call_command("migrate", verbosity=0, interactive=False)
    event = Event.objects.filter(slug=SLUG).first()
    if event is not None and (fresh or Match.objects.filter(event=event, status="finished").count() < 448):
        event.delete()
        event = None
    if event is None:
        print(f"Building the {PAIRS}-pair event (once; later runs reuse it)…", flush=True)
        out = StringIO()
        call_command(
            "simulate_event", "--pairs", str(PAIRS), "--seed", str(SEED), "--until", "groups", stdout=out
        )
        event = Event.objects.get(slug=out.getvalue().split()[-1])
    return event


def median_ms(client, url: str) -> tuple[float, float]:
    response = client.get(url)  # warm up (templates, caches) outside the timing
    assert response.status_code == 200, (url, response.status_code)
    times = []
    for _ in range(REQUESTS):
        start = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200
    return statistics.median(times) * 1000, max(times) * 1000


def main() -> None:
    setup_django("results_pages.sqlite3")
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from tournaments.models import Match

    event = event_128("--fresh" in sys.argv)
    played = Match.objects.filter(event=event, stage="saturday", status="finished").count()
    groups = event.groups.filter(stage="saturday").count()
    print(
        f"{event.name}: {groups} groups, {played} group matches played; database {connection.vendor}"
        f" ({settings.DATABASES['default']['NAME']})"
    )
    client = Client(HTTP_HOST="localhost")
    pages = {
        "event page": reverse("event", args=[event.slug]),
        "group page (A)": reverse("group", args=[event.slug, "A"]),
        "JSON API": reverse("api_event", args=[event.slug]),
    }
    for name, url in pages.items():
        median, worst = median_ms(client, url)
        print(f"{name:16} {url:45} median {median:7.1f} ms, worst {worst:7.1f} ms over {REQUESTS} requests")


if __name__ == "__main__":
    main()
