"""Prints the archive's speed (issue #28 point 7) for a history of 10 seasons of 10 events each, warm: a
player's page (queries and time), the head-to-head of two such players and the records page, each beside
``/terveys/`` through the same test client, and whether issue #28's targets are met.

Run: .venv/bin/python bench/archive_speed.py [--fresh]

It sets Django up itself on a throwaway SQLite file, bench/out/archive_speed.sqlite3 (git-ignored; never
the development database), builds the history on the first run (about three minutes) and reuses it
afterwards; ``BENCH_DATABASE_URL`` selects another scratch database instead (it is flushed when the
history is missing or ``--fresh`` is given). The history: a registry of exactly 32 players, so that every
one of them plays every 16-pair event (``simulate_event``, played through the rules engine to published
final places), each event moved into its season and date and counted for the cup; the last event of each
season is the SM pair tournament.
"""

from __future__ import annotations

import sys
import time
from io import StringIO
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support import measure, setup_django  # noqa: E402 (the project's root first on the path)

SEASONS, EVENTS, PAIRS = 10, 10, 16
FIRST_SEASON = 2016
REQUESTS = 30
TARGETS = {"player page": (15, 20.0), "head-to-head": (None, 50.0), "records page": (None, None)}


def registry() -> None:
    from registry.models import Club, Player

    clubs = [
        Club.objects.create(name="Oulun Tuppi", short_name="OT"),
        Club.objects.create(name="Kemin Kerho", short_name="KK"),
    ]
    for i in range(2 * PAIRS):
        Player.objects.create(
            first_name=f"Pelaaja{i}", last_name=f"Mäkelä{i}", member_number=str(9000 + i), club=clubs[i % 2]
        )


def one_event(seed: int, year: int, number: int) -> None:
    """One simulated event, moved to its season (``year``) and date, counted for the cup."""
    import datetime as dt
    from decimal import Decimal

    from django.core.management import call_command

    from cup.models import CupEvent
    from registry.models import Season
    from tournaments.models import Event

    out = StringIO()
    call_command("simulate_event", "--pairs", str(PAIRS), "--seed", str(seed), stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    day = dt.date(year, 9, 1) + dt.timedelta(weeks=4 * number)
    kind = Event.Kind.SM_PAIRS if number == EVENTS - 1 else Event.Kind.CUP
    Event.objects.filter(pk=event.pk).update(
        season=Season.for_date(dt.date(year, 8, 1)),
        starts_on=day,
        ends_on=day + dt.timedelta(days=1),
        kind=kind,
    )
    CupEvent.objects.create(event=event, weight=Decimal(1))


def build_history(fresh: bool) -> None:
    from django.core.cache import cache
    from django.core.management import call_command

    from lib import caching
    from tournaments.models import Event

    call_command("migrate", verbosity=0, interactive=False)
    if not fresh and Event.objects.filter(finished_at__isnull=False).count() == SEASONS * EVENTS:
        return
    call_command("flush", verbosity=0, interactive=False)
    print(
        f"Building {SEASONS} seasons of {EVENTS} events of {PAIRS} pairs (once; later runs reuse it)…",
        flush=True,
    )
    started = time.perf_counter()
    registry()
    for s in range(SEASONS):
        for n in range(EVENTS):
            one_event(s * EVENTS + n + 1, FIRST_SEASON + s, n)
        print(f"  season {FIRST_SEASON + s}–{FIRST_SEASON + s + 1} built", flush=True)
    print(f"  built in {time.perf_counter() - started:.0f} s", flush=True)
    cache.clear()
    caching.clear_local()


def verdict(value: float, target) -> str:
    if target is None:
        return ""
    return f" (target ≤ {target:g}: {'met' if value <= target else 'NOT MET'})"


def main() -> None:
    setup_django("archive_speed.sqlite3")
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from tournaments.models import PairMember

    build_history("--fresh" in sys.argv)
    one, two = (PairMember.objects.order_by("player_id").values_list("player_id", flat=True).distinct())[:2]
    events = PairMember.objects.filter(player_id=one).count()
    print(
        f"Database {connection.vendor} ({settings.DATABASES['default']['NAME']}); player {one}: {events} events "
        f"in {SEASONS} seasons; {REQUESTS} warm requests each"
    )
    client = Client(HTTP_HOST="localhost")
    _first, ref_queries, reference = measure(client, reverse("health"), REQUESTS)
    print(f"{'reference /terveys/':22} {ref_queries:3} queries, median {reference:6.2f} ms")
    pages = {
        "player page": reverse("archive:player", args=[one]),
        "head-to-head": reverse("archive:versus", args=[one, two]),
        "records page": reverse("archive:records"),
    }
    for name, url in pages.items():
        first, queries, median = measure(client, url, REQUESTS)
        max_queries, max_ms = TARGETS[name]
        print(
            f"{name:22} {url:28} cold {first:7.1f} ms; warm {queries:3} queries{verdict(queries, max_queries)}, "
            f"median {median:6.2f} ms{verdict(median, max_ms)}, {median / reference:5.1f}× /terveys/"
        )


if __name__ == "__main__":
    main()
