"""The players' pages (issue #28): the search, a player's history, the head-to-head; anonymous, read
only, no server error for junk."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.archive.conftest import simulate
from tests.cup.builders import club, one_group_event, player
from tournaments.models import Event, PairMember
from tournaments.readmodel.snapshot import snapshot


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def sm(db):
    home = club("Sodankylän Tuppi", "STu")
    a, b = player("Äijä", "Kivelä", home), player("Håkan", "Sjöberg", home)
    a.member_number, b.member_number = "7001", "7002"
    a.save(), b.save()
    c, d = player("Into", "Mäkelä", home), player("Uuno", "Öhman", home)
    event, pairs = one_group_event("SM-parikisa 2026", dt.date(2026, 6, 6), [(a, b, home), (c, d, home)],
                                   kind=Event.Kind.SM_PAIRS, weight=Decimal(1))
    return {"a": a, "b": b, "c": c, "d": d, "event": event, "pairs": pairs}


def test_search_finds_a_player_by_name_without_diacritics(client, sm):
    found = text(client.get("/pelaajat/", {"q": "kivela"}))
    assert "Äijä Kivelä" in found and "Sjöberg" not in found
    assert "Håkan Sjöberg" in text(client.get("/pelaajat/", {"q": "hakan sjoberg"}))


def test_search_finds_a_player_by_member_number(client, sm):
    response = client.get("/pelaajat/", {"q": "7002"})
    assert response.status_code == 200
    assert f'href="/pelaajat/{sm["b"].pk}/"' in response.content.decode()
    assert "Äijä Kivelä" not in text(response)


def test_search_without_a_match_says_so(client, sm):
    assert "Haulla ei löytynyt ketään." in text(client.get("/pelaajat/", {"q": "zzzz"}))


def test_the_list_without_a_search_shows_every_player_with_events(client, sm):
    page = text(client.get("/pelaajat/"))
    for name in ("Äijä Kivelä", "Håkan Sjöberg", "Into Mäkelä", "Uuno Öhman"):
        assert name in page


def test_the_player_page_shows_the_event_place_partner_title_and_cup(client, sm):
    page = client.get(f"/pelaajat/{sm['a'].pk}/")
    assert page.status_code == 200
    shown = text(page)
    assert "SM-parikisa 2026" in shown and "Håkan Sjöberg" in shown
    assert "SM-kulta, parikisa" in shown
    assert "Kausi 2025–2026" in shown
    assert "1.–2. 25 pistettä" in shown  # the season's cup: the pair's two players share first place
    runner_up = text(client.get(f"/pelaajat/{sm['c'].pk}/"))
    assert "SM-kulta" not in runner_up and " 2. " in runner_up


def test_the_head_to_head_page(client, sm):
    response = client.get(f"/pelaajat/{sm['a'].pk}/vs/{sm['c'].pk}/")
    assert response.status_code == 200
    shown = text(response)
    assert "Äijä Kivelä vastaan Into Mäkelä" in shown
    assert "1–0 voitot–tappiot" in shown and "3–2 ottelupisteet" in shown and "40–20 nousupisteet" in shown
    other_way = text(client.get(f"/pelaajat/{sm['c'].pk}/vs/{sm['a'].pk}/"))
    assert "0–1 voitot–tappiot" in other_way and "20–40 nousupisteet" in other_way
    partners = text(client.get(f"/pelaajat/{sm['a'].pk}/vs/{sm['b'].pk}/"))
    assert "Pelaajat eivät ole kohdanneet toisiaan." in partners


def test_the_pair_page_links_to_both_players(client, sm):
    pair = sm["pairs"][0]
    page = client.get(f"/kisat/{sm['event'].slug}/parit/{pair.number}/").content.decode()
    assert f'href="/pelaajat/{sm["a"].pk}/"' in page and f'href="/pelaajat/{sm["b"].pk}/"' in page


@pytest.mark.parametrize("url", [
    "/pelaajat/99999999/", "/pelaajat/0/", "/pelaajat/99999999999999999999999999/",
    "/pelaajat/99999999/vs/1/", "/pelaajat/1/vs/99999999/",
])
def test_unknown_players_are_not_found(client, sm, url):
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("query", [
    "?q=%00", "?q=%FF%FE", "?q=" + "x" * 5000, "?q=<script>", "?q='%20OR%201=1--", "?sivu=abc", "?sivu=-1",
    "?sivu=99999999999999999999", "?q=%25", "?q=_",
])
def test_junk_input_is_no_server_error(client, sm, query):
    assert client.get(f"/pelaajat/{query}").status_code in (200, 400)


def test_the_pages_only_read(client, sm):
    assert client.post("/pelaajat/").status_code == 405
    assert client.post(f"/pelaajat/{sm['a'].pk}/").status_code in (403, 405)


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.slow
def test_a_player_page_runs_as_many_queries_for_one_event_as_for_many(client, registry):
    """Issue #28: a player with one event and one with four over two seasons: the same query count
    (warm), and a bounded one when nothing is cached."""
    for seed in (1, 2, 3):
        simulate(seed)
    simulate(4, season_start=dt.date(2025, 8, 1))
    counts = Counter(PairMember.objects.values_list("player_id", flat=True))
    many = max(counts, key=counts.get)
    assert counts[many] == 4
    home = registry[0].club
    newcomer = player("Uusi", "Pelaaja", home)
    one_group_event("Yksi kisa", dt.date(2026, 10, 3), [(newcomer, player("Toinen", "Uusi"), home),
                                                        (player("Kolmas", "Uusi"), player("Neljäs", "Uusi"), home)])
    assert queries(client, f"/pelaajat/{many}/") <= 40  # nothing cached: the snapshots in one batch, the cups once
    assert queries(client, f"/pelaajat/{newcomer.pk}/") <= 40
    assert queries(client, f"/pelaajat/{many}/") == queries(client, f"/pelaajat/{newcomer.pk}/") <= 3


@pytest.mark.slow
def test_the_player_page_shows_each_events_final_place_and_partner(client, registry):
    events = [simulate(5, 20), simulate(6)]
    person = registry[0]
    checked = 0
    page = text(client.get(f"/pelaajat/{person.pk}/"))
    for event in events:
        m = PairMember.objects.filter(event=event, player=person).first()
        if m is None:
            continue
        snap = snapshot(event)
        place = dict((p, pl) for pl, p in snap.final_places)[m.pair_id]
        partner = PairMember.objects.exclude(player=person).get(pair=m.pair).player
        row = rf"{re.escape(event.name)} [\d.]+ · cupin osakilpailu {place}\.(–\d+\.)? {re.escape(partner.full_name)} "
        assert re.search(row, page)
        checked += 1
    assert checked


@pytest.mark.slow
def test_the_kept_player_page_follows_a_renamed_event_and_a_new_results_version(client, registry):
    """The rendered body is kept by what it shows: a renamed event or a new results version makes it anew."""
    from django.db import transaction

    from lib import caching
    from tournaments.actions import versions

    event = simulate(7)
    person = PairMember.objects.filter(event=event).first().player
    url = f"/pelaajat/{person.pk}/"
    assert event.name in text(client.get(url))
    Event.objects.filter(pk=event.pk).update(name="Uudelleen nimetty kisa")
    assert "Uudelleen nimetty kisa" in text(client.get(url))
    before = caching.stats["computed"]
    client.get(url)
    assert caching.stats["computed"] == before  # served as kept
    with transaction.atomic():
        versions.bump(event.pk)
    client.get(url)
    assert caching.stats["computed"] > before
