"""The cup in the JSON API: ``GET /api/seasons/`` and ``GET /api/seasons/<id>/cup/`` with the three
rankings (values from the hand-worked season of conftest.py); only GET; 404 for an unknown season."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.urls import reverse

from cup.models import CupEvent
from tournaments.models import Event


@pytest.mark.slow
def test_seasons_list(client, hand_season):
    data = client.get(reverse("api_seasons")).json()
    assert data == {
        "seasons": [
            {
                "id": hand_season.season.pk,
                "name": "2025–2026",
                "start": "2025-08-01",
                "end": "2026-07-31",
                "best_n": 2,
                "cup_url": f"http://testserver/api/seasons/{hand_season.season.pk}/cup/",
            }
        ]
    }


def test_season_cup_shape_and_values(client, hand_season):
    response = client.get(reverse("api_season_cup", args=[hand_season.season.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    data = response.json()
    assert list(data) == ["season", "events", "players", "pairs", "clubs", "unknown_club"]
    assert data["season"]["points_table"] == [25, 22, 20, 18, 16, 14, 12, 10, 9, 7, 6, 5, 4, 3, 2, 1]
    e1, e2, s = (e.slug for e in hand_season.events)
    assert [(e["slug"], e["weight"], e["kind"], e["placed"]) for e in data["events"]] == [
        (e1, 1, "cup", True),
        (e2, 1, "cup", True),
        (s, 0.5, "summer", True),
    ]
    p = hand_season.players
    aho = next(r for r in data["players"] if r["player"] == p["Aho"].pk)
    assert aho == {
        "rank": 1,
        "rank_label": "1.–2.",
        "player": p["Aho"].pk,
        "name": "Anna Aho",
        "club": "Kemin Kasa",
        "points": 47,
        "counted": [e1, e2],
        "places": {"1": 1, "2": 1},
        "match_wins": 5,
        "events": [
            {"event": e1, "place": 1, "points": 25, "counted": True, "match_wins": 3},
            {"event": e2, "place": 2, "points": 22, "counted": True, "match_wins": 2},
            {"event": s, "place": 3, "points": 10, "counted": False, "match_wins": 1},
        ],
        "best": None,  # no legs left: every counted event is finished
        "worst": None,
        "worst_exact": None,
    }
    assert [(r["rank"], r["points"]) for r in data["players"]] == [
        (1, 47),
        (1, 47),
        (3, 43),
        (3, 43),
        (5, 40),
        (5, 40),
        (7, 40),
        (7, 40),
        (9, 12.5),
        (9, 12.5),
    ]
    assert '"points": 12.5' in json.dumps(data["players"][-1])  # a float only where the half is
    assert [(r["rank_label"], sorted(r["names"]), r["points"]) for r in data["pairs"]][2:4] == [
        ("3.", ["Greta Grön", "Heikki Heino"], 40),
        ("4.", ["Eero Eskola", "Frans Forsman"], 40),
    ]
    assert data["pairs"][2]["clubs"] == ["Oulun Tuppiseura", "Kemin Kasa"]
    assert [(c["rank"], c["club"], c["points"], len(c["players"])) for c in data["clubs"]] == [
        (1, "Oulun Tuppiseura", 166, 4),
        (2, "Kemin Kasa", 94, 2),
        (3, "Rovaniemen Rami", 92.5, 3),
    ]
    assert data["unknown_club"] == [{"player": p["Jussila"].pk, "name": "Jussi Jussila", "points": 12.5}]


def test_only_get_and_404(client, hand_season):
    url = reverse("api_season_cup", args=[hand_season.season.pk])
    assert client.post(url).status_code == 405
    assert client.get(reverse("api_season_cup", args=[999])).status_code == 404


def test_best_and_worst_reachable_positions_while_a_leg_is_left(client, hand_season):
    # Issue #28.5: one more full cup event, not finished, is a leg left.
    leg = Event.objects.create(
        name="Sodankylän SM",
        slug="sm-2026",
        season=hand_season.season,
        starts_on=dt.date(2026, 7, 4),
        ends_on=dt.date(2026, 7, 5),
        kind=Event.Kind.CUP,
        format=Event.Format.ONE_STAGE,
        group_count=1,
    )
    CupEvent.objects.create(event=leg, weight=Decimal(1))
    data = client.get(reverse("api_season_cup", args=[hand_season.season.pk])).json()
    p = hand_season.players
    row = {r["player"]: r for r in data["players"]}
    aho, ilola = row[p["Aho"].pk], row[p["Ilola"].pk]
    # Aho (47: a 1st and a 2nd counted, best 2) wins the leg: 50, nobody else gains. Skipping it: only a
    # win lifts Blom (47), Cajander or Dahl (43) past Aho (a 2nd only levels them), and a leg has one
    # first place, two players: two of them pass, so the worst is 3rd.
    assert (aho["best"], aho["worst"], aho["worst_exact"]) == (1, 3, True)
    assert ilola["best"] > 1 and ilola["worst"] >= ilola["best"]
    assert all(r["best"] is not None and r["worst"] is not None for r in data["pairs"])
