"""The clubs' pages (issue #28): the list with its search, a club's players, cup ranking by season and
events organised."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest

from registry.models import Season, SeasonClub
from tests.cup.builders import club, one_group_event, player
from tournaments.models import Event


def text(response) -> str:
    assert response.status_code == 200
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def two_seasons(db):
    north, south = club("Äkäslompolon Kerho", "ÄK"), club("Sodankylän Tuppi", "STu")
    a, b, c, d = (player(n, "Kivelä", home) for n, home in (("Aino", north), ("Eino", north), ("Into", south), ("Uuno", south)))
    old, _ = one_group_event("Kevätkisa", dt.date(2026, 3, 7), [(a, b, north), (c, d, south)], weight=Decimal(1))
    new, _ = one_group_event("Joulukisa", dt.date(2026, 12, 5), [(c, d, south), (a, b, north)], weight=Decimal(1))
    Event.objects.filter(pk=new.pk).update(organising_club=north)
    for p, home in ((a, north), (b, north), (c, south), (d, south)):
        for event in (old, new):
            SeasonClub.objects.get_or_create(season_id=event.season_id, player=p, defaults={"club": home})
    return {"north": north, "south": south, "a": a, "c": c, "old": old, "new": new}


def test_the_club_list_finds_a_club_without_diacritics(client, two_seasons):
    everyone = text(client.get("/kerhot/"))
    assert "Äkäslompolon Kerho" in everyone and "Sodankylän Tuppi" in everyone
    found = text(client.get("/kerhot/", {"q": "akaslompolo"}))
    assert "Äkäslompolon Kerho" in found and "Sodankylän Tuppi" not in found
    assert "Haulla ei löytynyt ketään." in text(client.get("/kerhot/", {"q": "zzz"}))


def test_the_club_page_shows_its_cup_in_every_season_its_players_and_events(client, two_seasons):
    page = text(client.get(f"/kerhot/{two_seasons['north'].pk}/"))
    # Spring 2026 (season 2025–2026): the north won; this season the south did.
    assert re.search(r"2026–2027 2\. 44 2 ", page) and re.search(r"2025–2026 1\. 50 2 ", page)
    assert "Pelaajat kaudella 2026–2027" in page and "Aino Kivelä" in page and "Into Kivelä" not in page
    assert "Joulukisa" in page  # organised


def test_unknown_clubs_are_not_found(client, db):
    for url in ("/kerhot/99999999/", "/kerhot/0/", "/kerhot/999999999999999999999999/"):
        assert client.get(url).status_code == 404
    for query in ("?q=%25", "?sivu=x", "?q=" + "ä" * 3000):
        assert client.get(f"/kerhot/{query}").status_code == 200


def test_a_past_seasons_pages_keep_answering(client, two_seasons):
    past = Season.objects.get(start=dt.date(2025, 8, 1))
    for url in (f"/cup/{past.pk}/", f"/cup/{past.pk}/parit/", f"/cup/{past.pk}/kerhot/",
                f"/cup/{past.pk}/pelaajat/{two_seasons['a'].pk}/", f"/kaudet/{past.pk}/",
                f"/kisat/{two_seasons['old'].slug}/", f"/kisat/{two_seasons['old'].slug}/lopputulokset/"):
        assert client.get(url).status_code == 200, url
