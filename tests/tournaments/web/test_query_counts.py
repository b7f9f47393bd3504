"""Speed (issue #5, point 8): the public pages and the API run a fixed number of SQL queries whatever the
event's size. A 16-pair event and a 128-pair event (16 groups of 8, all 448 group matches played through
the engine by ``simulate_event``, which then plays Sunday too) must need exactly the same number of
queries for each page."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments.models import Event, Match, Pair
from tournaments.readmodel import heads

pytestmark = pytest.mark.slow  # make test-fast leaves it out


def simulated(pairs: int) -> Event:
    out = StringIO()
    call_command("simulate_event", "--pairs", str(pairs), "--seed", "1", stdout=out)
    return Event.objects.get(slug=out.getvalue().split()[-1])


def urls(event: Event) -> dict[str, str]:
    busiest = Pair.objects.filter(event=event).order_by("number").first()
    match = Match.objects.filter(event=event, status="finished").order_by("round", "table").first()
    return {
        "event": reverse("event", args=[event.slug]),
        "group": reverse("group", args=[event.slug, "A"]),
        "sunday group": reverse("group", args=[event.slug, "1"]),
        "api": reverse("api_event", args=[event.slug]),
        "api list": reverse("api_events"),
        "schedule": reverse("schedule", args=[event.slug]) + "?kierros=1",
        "pair": reverse("pair", args=[event.slug, busiest.number]),
        "match": reverse("match", args=[event.slug, match.pk]),
    }


SQL: dict[str, list[str]] = {}  # the statements of each measured page, to say which one differs


def count(client, url: str) -> int:
    """The queries of one request, the event's head read afresh each time (the shared cache keeps a
    head for a few seconds: whether it is still there must not depend on how long the page before took)."""
    for slug in Event.objects.values_list("slug", flat=True):
        heads.forget(slug)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    SQL[url] = [q["sql"][:120] for q in ctx.captured_queries]
    return len(ctx.captured_queries)


def test_query_counts_do_not_grow_with_the_event(client, db, monkeypatch, settings):
    # a head is remembered for a quarter of a second in the process and 3 s in the shared cache (which a
    # test's transaction bypasses): a loaded machine can take longer over a 128-pair snapshot, and the
    # request would then ask for the head again; the count must not depend on the machine's speed
    monkeypatch.setattr(heads, "SHARED_SECONDS", 3600)
    settings.TUPPI_HEAD_SECONDS = 3600
    small, large = simulated(16), simulated(128)
    # 128 pairs: 16 groups of 8, each a round robin of 8 × 7 / 2 = 28 matches, 16 × 28 = 448, all played
    assert large.groups.filter(stage="saturday").count() == 16
    assert Match.objects.filter(event=large, stage="saturday", status="finished").count() == 448
    assert Match.objects.filter(event=small, stage="saturday", status="finished").count() > 0
    small_urls, large_urls = urls(small), urls(large)
    counts = {page: (count(client, small_urls[page]), count(client, large_urls[page])) for page in small_urls}
    grew = {page: c for page, c in counts.items() if c[1] != c[0]}
    detail = {
        page: [q for q in SQL[large_urls[page]] if q not in SQL[small_urls[page]]] or SQL[large_urls[page]]
        for page in grew
    }
    assert not grew, f"queries (16 pairs, 128 pairs) differ: {grew}; statements: {detail}"
    # and the numbers stay small (a page is a handful of queries, not one per group or match)
    assert all(c[1] <= 20 for c in counts.values()), counts
