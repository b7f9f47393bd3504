"""The records (issue #28 point 3): each checked against a brute-force count over the events' matches and
the pairs' members as the database has them; the page's links answer; an empty archive shows no record;
a warm page costs the same few queries however many events there are."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter, defaultdict

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from archive.readmodel import records as read
from cup import services as cup
from lib import caching
from registry.models import Season
from tests.archive.conftest import simulate
from tournaments.models import Event, PairMember
from tournaments.readmodel.snapshot import snapshot

LAST_SEASON = dt.date(2025, 8, 1)


@pytest.fixture
def history(registry):
    """Three finished events over two seasons; the last one made the SM pair tournament."""
    events = [simulate(1, 16, season_start=LAST_SEASON), simulate(2, 16, season_start=LAST_SEASON), simulate(3, 16)]
    Event.objects.filter(pk=events[2].pk).update(kind=Event.Kind.SM_PAIRS)
    cache.clear()
    caching.clear_local()
    return list(Event.objects.filter(pk__in=[e.pk for e in events]).order_by("starts_on", "pk"))


def members() -> dict[int, list[int]]:
    """Pair id → its players' ids, from the database."""
    out = defaultdict(list)
    for pair_id, player_id in PairMember.objects.values_list("pair_id", "player_id"):
        out[pair_id].append(player_id)
    return out


def leaders(counts: dict) -> tuple[int, set]:
    best = max(counts.values())
    return best, {k for k, v in counts.items() if v == best}


def held(entries, key=lambda e: e.players[0].pk) -> tuple[int, set]:
    best = entries[0].value
    return best, {key(e) for e in entries if e.value == best}


@pytest.mark.slow
def test_records_match_a_brute_force_count_over_the_matches(history):
    pairs_of = members()
    found = read.records()
    # titles: the SM pair tournament's pairs placed first
    sm = history[2]
    titles = Counter(p for place, pair in snapshot(sm).final_places if place == 1 for p in pairs_of[pair])
    assert held(found.titles) == leaders(titles)
    assert all(e.events[0].pk == sm.pk for e in found.titles)
    # cup wins: rank 1 in each season's player ranking, seasons with every counted event placed
    wins = Counter(r.player.pk for s in Season.objects.all() for r in cup.season_cup(s).players
                   if r.rank == 1 and not cup.season_cup(s).pending)
    assert held(found.cup_wins) == leaders(wins)
    # tuppi wins in a season, the highest rise total, the longest unbeaten run
    tuppis, rises, runs, current = Counter(), {}, Counter(), Counter()
    for event in history:
        for m in snapshot(event).matches:
            o = m.outcome
            if not o.finished:
                continue
            rises[(m.pk, m.pair_a.pk)], rises[(m.pk, m.pair_b.pk)] = o.totals
            if o.tuppi and not o.penalty and not o.forfeit:
                tuppis.update((p, event.season_id) for p in pairs_of[o.winner])
            for pair in (m.pair_a.pk, m.pair_b.pk):
                for p in pairs_of[pair]:
                    current[p] = current[p] + 1 if o.winner == pair else 0
                    runs[p] = max(runs[p], current[p])
    assert held(found.season_tuppis, lambda e: (e.players[0].pk, e.seasons[0].pk)) == leaders(tuppis)
    best_rise, at = leaders(rises)
    assert held(found.rise_totals, lambda e: (e.match, *sorted(p.pk for p in e.players))) == (
        best_rise, {(match, *sorted(pairs_of[pair])) for match, pair in at})
    assert held(found.unbeaten) == leaders(runs)


@pytest.mark.slow
def test_every_link_of_the_page_answers(client, history):
    page = client.get(reverse("archive:records"))
    assert page.status_code == 200
    links = set(re.findall(r'href="(/(?:kisat|pelaajat|kaudet)/[^"]*)"', page.content.decode()))
    assert any("/ottelut/" in link for link in links) and any(link.startswith("/pelaajat/") for link in links)
    for link in links:
        assert client.get(link).status_code == 200, link


def test_an_empty_archive_shows_no_record(client, db):
    page = client.get(reverse("archive:records"))
    assert page.status_code == 200
    assert read.records().empty
    assert "Ei vielä ennätyksiä" in page.content.decode()


def warm_queries(client) -> int:
    client.get(reverse("archive:records"))
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(reverse("archive:records")).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.slow
def test_a_warm_page_costs_the_same_few_queries_whatever_the_number_of_events(client, registry):
    simulate(1, 16)
    few = warm_queries(client)
    before = caching.stats["computed"]
    assert warm_queries(client) == few and caching.stats["computed"] == before  # served, not computed
    simulate(2, 16, season_start=LAST_SEASON)
    simulate(3, 16, season_start=LAST_SEASON)
    assert warm_queries(client) == few <= 3
