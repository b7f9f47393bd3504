"""The club ranking page ``/cup/<season>/kerhot/``: season clubs (RULES.md §7), transfers in the notes,
players with an unknown season club listed in the notes, never dropped."""

from __future__ import annotations

from django.urls import reverse

from registry.models import SeasonClub
from tests.cup.builders import table_rows


def test_club_ranking_page(client, hand_season):
    season = hand_season.season
    html = client.get(reverse("cup:clubs", args=[season.pk])).content.decode()
    rows = table_rows(html, "clubs")
    assert rows[0] == ["Sija", "Kerho", "Pist.", "Pelaajia", "Sijat", "V"]
    # conftest.py: O 166 (Heino's points stay with his first club), K 94, R 92,5
    assert rows[1:] == [
        ["1.", "Oulun Tuppiseura", "166", "4", "1.×2 · 2.×2 · 4.×4", "10"],
        ["2.", "Kemin Kasa", "94", "2", "1.×2 · 2.×2", "10"],
        ["3.", "Rovaniemen Rami", "92,5", "3", "1.×1 · 3.×4", "7"],
    ]
    notes = html.split('id="notes"', 1)[1]
    assert "Jussi Jussila" in notes.split("Seurasiirrot")[0]  # unknown season club, with his 12,5
    assert "12,5" in notes.split("Seurasiirrot")[0]
    assert "Heikki Heino: Oulun Tuppiseura → Kemin Kasa, vahvistettu 1.10.2025." in notes
    assert "Kauden pisteet: Oulun Tuppiseura." in notes


def test_no_unknown_clubs_said_so(client, hand_season):
    SeasonClub.objects.create(
        season=hand_season.season, player=hand_season.players["Jussila"], club=hand_season.clubs["R"]
    )
    html = client.get(reverse("cup:clubs", args=[hand_season.season.pk])).content.decode()
    assert "Kaikkien pelaajien kauden kerho on tiedossa." in html
    # Rovaniemi 92,5 + Jussila's 12,5 = 105 passes Kemi's 94
    assert [r[1:3] for r in table_rows(html, "clubs")[1:]] == [
        ["Oulun Tuppiseura", "166"],
        ["Rovaniemen Rami", "105"],
        ["Kemin Kasa", "94"],
    ]
