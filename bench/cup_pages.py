"""Prints the speed of the public cup pages (issue #28 point 6: 20 ms or less warm for a season of ten
128-pair events): the players, pairs and clubs rankings, a sorted and a later page of the players'
ranking and the season's JSON API, each warm (after a first request): its queries and the median of N
requests, beside ``/terveys/`` through the same test client, and whether the 20 ms target is met.

Run: .venv/bin/python bench/cup_pages.py [--fresh]

It sets Django up itself on a throwaway SQLite file, bench/out/cup_pages.sqlite3 (git-ignored; never the
development database), builds the seasons on the first run (about a minute on two cores: it prints
the median time of one played event) and reuses them afterwards; ``BENCH_DATABASE_URL`` selects another scratch
database instead (it is flushed when the seasons are missing or ``--fresh`` is given). Two seasons, each
of ten counted 128-pair events made by the project's simulation (``enter_random_pairs``,
``draw_groups``, ``play_weekend``: the steps of ``simulate_event``) in their own season and on their
own dates:

* 2024–2025: all ten played to published final places (no legs left: no reach column);
* 2025–2026: eight played, the last two drawn but not played: two legs left, so the pages show each
  row's best and worst reachable position (``scoring.cup_reach``, computed with the season's cup and
  cached with it under its cup key).
"""

from __future__ import annotations

import datetime as dt
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support import first_and_queries, setup_django, timed_median  # noqa: E402 (the project's root first)

PAIRS, EVENTS = 128, 10
SEASONS = {2024: EVENTS, 2025: EVENTS - 2}  # season start year: events played (the rest only drawn)
REQUESTS = 30
SHARED_REQUESTS = 10
TARGET_MS = 20.0


def one_event(season, number: int, play: bool) -> None:
    """A 128-pair cup event of ``season`` (its ``number``-th, every three weeks from September), entered,
    drawn and, if ``play``, played to published final places; counted for the cup with weight 1."""
    from django.db import transaction

    from cup.models import CupEvent
    from tournaments.actions import draw
    from tournaments.actions.simulation import enter_random_pairs, play_weekend
    from tournaments.models import Event, unique_event_slug

    seed = season.start.year * 100 + number
    rng = random.Random(seed)
    day = dt.date(season.start.year, 9, 6) + dt.timedelta(weeks=3 * number)
    with transaction.atomic():
        name = f"Tuppicupin {number + 1}. osakilpailu {season.start.year}"
        event = Event.objects.create(
            name=name,
            slug=unique_event_slug(f"cup-bench-{season.start.year}-{number + 1}"),
            season=season,
            starts_on=day,
            ends_on=day + dt.timedelta(days=1),
            venue="Simulaatio",
            kind=Event.Kind.CUP,
        )
        enter_random_pairs(event, PAIRS, rng)
        draw.draw_groups(event, None, seed=seed)
    if play:
        play_weekend(event, rng)
    CupEvent.objects.create(event=event, weight=1)


def built(year: int, played: int) -> bool:
    from cup.models import CupEvent

    counted = CupEvent.objects.filter(event__season__start=dt.date(year, 8, 1))
    return counted.count() == EVENTS and counted.filter(event__finished_at__isnull=False).count() == played


def build(fresh: bool) -> None:
    from django.core.cache import cache
    from django.core.management import call_command

    from lib import caching
    from registry.demo import ensure_registry
    from registry.models import Season

    call_command("migrate", verbosity=0, interactive=False)
    if not fresh and all(built(year, played) for year, played in SEASONS.items()):
        return
    call_command("flush", verbosity=0, interactive=False)
    ensure_registry()
    print(
        f"Building {len(SEASONS)} seasons of {EVENTS} counted {PAIRS}-pair events (once; later runs reuse them)…",
        flush=True,
    )
    started, times = time.perf_counter(), []
    for year, played in SEASONS.items():
        season = Season.objects.create(start=dt.date(year, 8, 1))
        for number in range(EVENTS):
            start = time.perf_counter()
            one_event(season, number, play=number < played)
            if number < played:
                times.append(time.perf_counter() - start)
        print(f"  season {year}–{year + 1} built: {played} played, {EVENTS - played} drawn", flush=True)
    print(
        f"  built in {time.perf_counter() - started:.0f} s; one {PAIRS}-pair event played to final places: "
        f"median {statistics.median(times):.1f} s",
        flush=True,
    )
    cache.clear()
    caching.clear_local()


def measure(client, url: str) -> dict:
    """``url``'s first request (ms), then warm: its queries, median ms, values computed while warm, size;
    and the median with this process's own copies forgotten before each request (``shared``: a new
    worker, or one whose in-process copies gave way to others; the shared cache still holds everything)."""
    from lib import caching

    first, queries, response = first_and_queries(client, url)
    computed = caching.stats["computed"]
    median = timed_median(client, url, REQUESTS)
    computed = caching.stats["computed"] - computed
    shared = timed_median(client, url, SHARED_REQUESTS, before=caching.clear_local)
    return {
        "first": first,
        "queries": queries,
        "median": median,
        "computed": computed,
        "shared": shared,
        "size": len(response.content),
    }


def pages(season_id: int) -> dict[str, str]:
    from django.urls import reverse

    players = reverse("cup:players", args=[season_id])
    return {
        "players": players,
        "pairs": reverse("cup:pairs", args=[season_id]),
        "clubs": reverse("cup:clubs", args=[season_id]),
        "players by points": f"{players}?jarjestys=-points",
        "players page 3": f"{players}?sivu=3",
        "JSON API": reverse("api_season_cup", args=[season_id]),
    }


def ms(fn) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return (time.perf_counter() - start) * 1000, out


def cup_cold(season):
    """The season's cup computed from the facts with empty caches (once per cup key), and the share of it
    that is the reach (best and worst reachable positions, ``scoring.cup_reach``) of players and pairs."""
    from django.core.cache import cache

    from cup import services
    from lib import caching
    from scoring import cup_reach

    cache.clear()
    caching.clear_local()
    whole, cup = ms(lambda: services.season_cup(season))
    facts = services.load_facts(services.cup_events(season))
    players, pairs = services.rank(facts, season.best_n, cup.table)
    left = services.legs_left(facts)
    reach = {"players": 0.0, "pairs": 0.0}
    if left:
        reach["players"] = ms(lambda: cup_reach.reach(players, left, season.best_n, cup.table, pairs=False))[
            0
        ]
        reach["pairs"] = ms(lambda: cup_reach.reach(pairs, left, season.best_n, cup.table, pairs=True))[0]
    return cup, whole, reach


def report(client, season, reference: float) -> None:
    cup, whole, reach = cup_cold(season)
    print(
        f"\nSeason {season} (id {season.pk}): {len(cup.columns)} counted events, {len(cup.pending)} legs left; "
        f"{len(cup.players)} players, {len(cup.pairs)} pairs, {len(cup.clubs)} clubs; "
        f"reach shown: {'yes' if cup.has_reach else 'no'}"
    )
    print(
        f"  the season's cup from the facts, empty caches (once per cup key): {whole:.0f} ms, of which reach "
        f"{reach['players']:.0f} ms players, {reach['pairs']:.0f} ms pairs (kept with the cup, not per request)"
    )
    for name, url in pages(season.pk).items():
        m = measure(client, url)
        verdict = "met" if m["median"] <= TARGET_MS else "NOT MET"
        print(
            f"  {name:17} {url:26} first {m['first']:5.0f} ms; warm {m['queries']} queries, "
            f"median {m['median']:5.2f} ms (≤ {TARGET_MS:g}: {verdict}), {m['median'] / reference:4.1f}× /terveys/; "
            f"shared {m['shared']:5.1f} ms; {m['size'] // 1024} KiB"
            + (f"; {m['computed']} values computed while warm" if m["computed"] else "")
        )


def main() -> None:
    setup_django("cup_pages.sqlite3")
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from registry.models import Season

    build("--fresh" in sys.argv)
    print(
        f"Database {connection.vendor} ({settings.DATABASES['default']['NAME']}); cache "
        f"{settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}; {REQUESTS} warm requests each"
    )
    client = Client(HTTP_HOST="localhost")
    health = measure(client, reverse("health"))
    ref_queries, reference = health["queries"], health["median"]
    print(
        f"reference /terveys/: {ref_queries} queries, median {reference:.2f} ms, shared {health['shared']:.2f} ms\n"
        '"first": the first request once the cup is computed (its renderings and digests not kept yet); "shared":\n'
        "the median with this process's own copies forgotten before each request (a new worker, or one whose\n"
        "copies gave way to a live event's), everything still in the shared cache"
    )
    for year in SEASONS:
        report(client, Season.objects.get(start=dt.date(year, 8, 1)), reference)


if __name__ == "__main__":
    main()
