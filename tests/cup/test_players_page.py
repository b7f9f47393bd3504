"""The player ranking page ``/cup/<season>/``: ranks with shared places as "1.–2.", points, each event's
points with the uncounted ones in brackets (and said so for screen readers), halves as 12,5."""

from __future__ import annotations

import re

from django.urls import reverse

from tests.cup.builders import table_rows


def test_player_ranking_page(client, hand_season):
    season = hand_season.season
    response = client.get(reverse("cup:players", args=[season.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    rows = table_rows(html, "players")
    # each event column is headed with its short name and date (issue #25.9), the whole name in its title
    assert rows[0] == [
        "Sija",
        "Pelaaja",
        "Pist.",
        "Kemin 13.9.",
        "Oulun 8.11.",
        "Kesäkisa 13.6. ½",
        "Sijat",
        "V",
    ]
    assert '<abbr title="Kemin osakilpailu, 13.9.2025">Kemin</abbr>' in html
    body = {" ".join(r[1].split()[:2]): r for r in rows[1:]}  # "Anna Aho KK" -> "Anna Aho"
    # Hand-worked in conftest.py: best 2; the summer event's 10 is not counted for Aho.
    assert body["Anna Aho"] == [
        "1.–2.",
        "Anna Aho KK",
        "47",
        "25",
        "22",
        "(10) ei lasketa",
        "1.×1 · 2.×1",
        "5",
    ]
    assert body["Heikki Heino"] == ["5.–6.", "Heikki Heino OTS", "40", "22", "18", "–", "2.×1 · 4.×1", "2"]
    assert body["Eero Eskola"][0] == "7.–8."
    assert body["Iida Ilola"][2:6] == ["12,5", "–", "–", "12,5"]  # halves kept, Finnish decimal comma
    assert body["Jussi Jussila"][1] == "Jussi Jussila kerho tuntematon"
    assert [r[0] for r in rows[1:]] == [
        "1.–2.",
        "1.–2.",
        "3.–4.",
        "3.–4.",
        "5.–6.",
        "5.–6.",
        "7.–8.",
        "7.–8.",
        "9.–10.",
        "9.–10.",
    ]
    # counted and uncounted cells differ by class and by brackets, not by colour alone
    # (the table's cells list their classes in django-tables2's order: "counted num", "num uncounted")
    assert len(re.findall(r'<td class="[^"]*\bcounted\b', html)) == 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + 1 + 1
    assert len(re.findall(r'<td class="[^"]*\buncounted\b', html)) == 6  # the summer event of AB, CD and EF
    # links: each player's page, each event, the other rankings and the workbook
    aho = hand_season.players["Aho"]
    assert reverse("cup:player", args=[season.pk, aho.pk]) in html
    assert hand_season.events[0].get_absolute_url() in html
    for name in ("cup:pairs", "cup:clubs"):
        assert reverse(name, args=[season.pk]) in html
    assert reverse("cup:season_xlsx", args=[season.pk, "2025-2026"]) in html
    assert "Kultakin pelaajalta lasketaan 2 parasta kisaa." in html
    assert '<div class="table-wrap cup-wrap scroll-shadow" tabindex="0" role="region"' in html


def test_unknown_season_is_404(client, db):
    assert client.get(reverse("cup:players", args=[999])).status_code == 404


def test_season_without_events(client, make_event):
    event = make_event()
    html = client.get(reverse("cup:players", args=[event.season.pk])).content.decode()
    assert "Cup-pisteitä ei ole vielä jaettu." in html
    assert "Kaudelle ei ole vielä valittu cup-kisoja." in html


def test_in_english(client, hand_season):
    client.cookies["django_language"] = "en"
    html = client.get(reverse("cup:players", args=[hand_season.season.pk])).content.decode()
    assert "12.5" in html  # the English decimal point; the ranks stay "1.–2."
    assert "1.–2." in html


def test_best_and_worst_possible_position_while_a_leg_is_left(client, hand_season):
    # Issue #28.5: an unfinished cup event is a leg left; the page adds the column (see test_api.py).
    import datetime as dt
    from decimal import Decimal

    from cup.models import CupEvent
    from tournaments.models import Event

    season = hand_season.season
    leg = Event.objects.create(
        name="Sodankylän SM",
        slug="sm-2026",
        season=season,
        starts_on=dt.date(2026, 7, 4),
        ends_on=dt.date(2026, 7, 5),
        kind=Event.Kind.CUP,
        format=Event.Format.ONE_STAGE,
        group_count=1,
    )
    CupEvent.objects.create(event=leg, weight=Decimal(1))
    rows = table_rows(client.get(reverse("cup:players", args=[season.pk])).content.decode(), "players")
    assert rows[0][-1] == "Paras / huonoin mahdollinen sija"
    body = {" ".join(r[1].split()[:2]): r for r in rows[1:]}
    assert body["Anna Aho"][-1] == "1.–3."
    page = client.get(reverse("cup:player", args=[season.pk, hand_season.players["Aho"].pk])).content.decode()
    assert "Paras / huonoin mahdollinen sija: 1.–3." in page
