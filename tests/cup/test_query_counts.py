"""The cup pages, the API and the workbook run a fixed number of queries whatever the number of events:
a season of 2 events and one of 5 must need the same number of queries for every page."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from registry.models import Transfer
from tests.cup.builders import club, one_group_event, player
from tournaments.models import Event


def season_of(n_events: int, year: int):
    """``n_events`` four-pair events of one season, the same eight players each time, one transfer."""
    k, o = club("Kemin Kasa"), club("Oulun Tuppiseura")
    people = [player("P", f"{year}-{i}", k if i < 4 else o) for i in range(8)]
    pairs = [(people[2 * i], people[2 * i + 1], k if i < 2 else o) for i in range(4)]
    events = []
    for n in range(n_events):
        order = pairs[n % 4 :] + pairs[: n % 4]
        kind = Event.Kind.SUMMER if n == n_events - 1 else Event.Kind.CUP
        event, _ = one_group_event(
            f"Kisa {n}",
            dt.date(year, 9, 1) + dt.timedelta(weeks=4 * n),
            order,
            kind=kind,
            weight=Decimal("0.5") if kind == Event.Kind.SUMMER else Decimal(1),
        )
        events.append(event)
    Transfer.objects.create(
        season=events[0].season, player=people[0], from_club=k, to_club=o, confirmed_on=dt.date(year, 12, 1)
    )
    return events[0].season, people[0]


def count(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


def urls(season, someone) -> dict[str, str]:
    return {
        "players": reverse("cup:players", args=[season.pk]),
        "pairs": reverse("cup:pairs", args=[season.pk]),
        "clubs": reverse("cup:clubs", args=[season.pk]),
        "player": reverse("cup:player", args=[season.pk, someone.pk]),
        "api": reverse("api_season_cup", args=[season.pk]),
        "xlsx": reverse("cup:season_xlsx", args=[season.pk, f"{season.start.year}-{season.start.year + 1}"]),
    }


def test_queries_do_not_grow_with_events(client, db):
    small, large = urls(*season_of(2, 2024)), urls(*season_of(5, 2025))
    counts = {page: (count(client, small[page]), count(client, large[page])) for page in small}
    assert all(c[0] == c[1] for c in counts.values()), f"queries (2 events, 5 events) grew: {counts}"
    # the first page computes the cup (its events' snapshots in one batch of fourteen queries), the others
    # read it from the cache: a handful of queries each
    assert counts["players"][1] <= 25 and all(c[1] <= 8 for page, c in counts.items() if page != "players"), counts
