"""The fixed-pair ranking page ``/cup/<season>/parit/``."""

from __future__ import annotations

from django.urls import reverse

from tests.cup.builders import table_rows


def test_pair_ranking_page(client, hand_season):
    season = hand_season.season
    html = client.get(reverse("cup:pairs", args=[season.pk])).content.decode()
    rows = table_rows(html, "pairs")
    # each event column is headed with its short name and date (issue #25.9), the whole name in its title
    assert rows[0] == ["Sija", "Pari", "Pist.", "Kemin 13.9.", "Oulun 8.11.", "Kesäkisa 13.6. ½", "Sijat", "V"]
    assert '<abbr title="Kemin osakilpailu, 13.9.2025">Kemin</abbr>' in html
    # conftest.py: AB 47, CD 43, GH 40 ahead of EF 40 (a second place), IJ 12,5
    assert [(r[0], r[2]) for r in rows[1:]] == [
        ("1.", "47"),
        ("2.", "43"),
        ("3.", "40"),
        ("4.", "40"),
        ("5.", "12,5"),
    ]
    assert rows[1][1] == "Anna Aho / Bertta Blom KK"
    assert rows[3][1] == "Greta Grön / Heikki Heino OTS, KK"  # the clubs the pair played for
    assert rows[2][3:6] == ["18", "25", "(11) ei lasketa"]
    assert reverse("cup:player", args=[season.pk, hand_season.players["Grön"].pk]) in html
