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
    assert rows[0] == ["Sija", "Pelaaja", "Pist.", "1", "2", "3½", "Sijat", "V"]
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
    assert len(re.findall(r'<td class="num counted"', html)) == 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + 1 + 1
    assert len(re.findall(r'<td class="num uncounted"', html)) == 6  # the summer event of AB, CD and EF
    # links: each player's page, each event, the other rankings and the workbook
    aho = hand_season.players["Aho"]
    assert reverse("cup:player", args=[season.pk, aho.pk]) in html
    assert hand_season.events[0].get_absolute_url() in html
    for name in ("cup:pairs", "cup:clubs"):
        assert reverse(name, args=[season.pk]) in html
    assert reverse("cup:season_xlsx", args=[season.pk, "2025-2026"]) in html
    assert "Kultakin pelaajalta lasketaan 2 parasta kisaa." in html
    assert '<div class="table-wrap cup-wrap">' in html


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
