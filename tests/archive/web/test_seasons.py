"""The seasons' pages (issue #28): every season with its cup winners, SM champions and events."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from registry.models import Season
from tests.cup.builders import club, one_group_event, player
from tournaments.models import Event


def text(response) -> str:
    assert response.status_code == 200
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).replace(" ,", ",")


def test_every_season_with_its_cup_winners_champions_and_events(client, db):
    home = club("Sodankylän Tuppi", "STu")
    a, b, c, d = (player(n, "Kivelä", home) for n in ("Aino", "Eino", "Into", "Uuno"))
    one_group_event("Kevätkisa", dt.date(2026, 3, 7), [(a, b, home), (c, d, home)], weight=Decimal(1))
    one_group_event("SM Sodankylä", dt.date(2026, 6, 6), [(c, d, home), (a, b, home)], kind=Event.Kind.SM_PAIRS,
                    weight=Decimal(1))
    one_group_event("Joulukisa", dt.date(2026, 12, 5), [(c, d, home), (a, b, home)])
    page = text(client.get("/kaudet/"))
    # A row a season, the latest first: season, events, cup winners, SM champions.
    assert " 2026–2027 Joulukisa " in page
    assert (" 2025–2026 Kevätkisa, SM Sodankylä Aino Kivelä, Eino Kivelä, Into Kivelä, Uuno Kivelä Into Kivelä / Uuno Kivelä "
            in page)
    assert page.index("2026–2027 Joulukisa") < page.index("2025–2026 Kevätkisa")
    oldest_first = text(client.get("/kaudet/", {"jarjestys": "season"}))  # sorted by the season column
    assert oldest_first.index("2025–2026 Kevätkisa") < oldest_first.index("2026–2027 Joulukisa")
    fewest_first = text(client.get("/kaudet/", {"jarjestys": "events"}))  # by the number of events
    assert fewest_first.index("2026–2027 Joulukisa") < fewest_first.index("2025–2026 Kevätkisa")
    past = Season.objects.get(start=dt.date(2025, 8, 1))
    season = text(client.get(f"/kaudet/{past.pk}/"))
    assert "Kevätkisa" in season and "SM Sodankylä" in season and "Joulukisa" not in season
    assert "Voittajat: Aino Kivelä / Eino Kivelä" in season


def test_unknown_seasons_are_not_found(client, db):
    for url in ("/kaudet/99999999/", "/kaudet/999999999999999999999999/"):
        assert client.get(url).status_code == 404
    assert "Kausia ei ole vielä." in text(client.get("/kaudet/"))
