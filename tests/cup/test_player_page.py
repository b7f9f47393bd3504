"""A player's page ``/cup/<season>/pelaajat/<player>/``: rank, points, season club, each event with
place, partner, match wins and points (counted or not), their fixed pairs and transfers."""

from __future__ import annotations

from django.urls import reverse

from tests.cup.builders import player, table_rows


def test_player_page(client, hand_season):
    season, p = hand_season.season, hand_season.players
    html = client.get(reverse("cup:player", args=[season.pk, p["Aho"].pk])).content.decode()
    assert "Anna Aho" in html and "1.–2." in html and "47 pistettä" in html
    assert "Lasketaan 2/3 kisaa" in html and "Kauden kerho: Kemin Kasa" in html
    rows = table_rows(html, "player-events")
    assert rows[1:] == [
        ["Kemin osakilpailu 13.9.2025", "1.", "Bertta Blom KK", "3", "25"],
        ["Oulun osakilpailu 8.11.2025", "2.", "Bertta Blom KK", "2", "22"],
        ["Kesäkisa 13.6.2026 · paino ½", "3.", "Bertta Blom KK", "1", "(10) ei lasketa"],
    ]
    assert reverse("cup:player", args=[season.pk, p["Blom"].pk]) in html
    assert "1. Anna Aho / Bertta Blom" in html  # the fixed pair's rank


def test_player_with_transfer(client, hand_season):
    html = client.get(
        reverse("cup:player", args=[hand_season.season.pk, hand_season.players["Heino"].pk])
    ).content.decode()
    assert "Kauden kerho: Oulun Tuppiseura" in html
    assert "Seurasiirto Oulun Tuppiseura → Kemin Kasa, vahvistettu 1.10.2025." in html
    assert "Kauden pisteet menevät kerholle Oulun Tuppiseura." in html
    rows = table_rows(html, "player-events")
    assert [r[2] for r in rows[1:]] == ["Greta Grön OTS", "Greta Grön KK"]


def test_player_without_events(client, hand_season):
    stranger = player("Matti", "Meikäläinen")
    html = client.get(reverse("cup:player", args=[hand_season.season.pk, stranger.pk])).content.decode()
    assert "Pelaajalla ei ole cup-pisteitä tältä kaudelta." in html


def test_unknown_player_is_404(client, hand_season):
    assert client.get(reverse("cup:player", args=[hand_season.season.pk, 99999])).status_code == 404
