"""The hand-worked season of the cup tests (RULES.md §7–8), built through the real services.

Season 2025–2026, best N = 2, default points (25, 22, 20, 18, …). Four-pair one-stage events, each pair
beating every pair below it, so the k-th pair has place k and 4 − k match wins:

| event | date | weight | 1. | 2. | 3. | 4. |
|---|---|---|---|---|---|---|
| E1 osakilpailu | 13.9.2025 | 1 | AB 25 | GH 22 | EF 20 | CD 18 |
| E2 osakilpailu | 8.11.2025 | 1 | CD 25 | AB 22 | EF 20 | GH 18 |
| S kesäkisa | 13.6.2026 | ½ | IJ 12,5 | CD 11 | AB 10 | EF 9 |

Clubs: AB Kemi (K), CD and GH Oulu (O), EF and IJ Rovaniemi (R). Heino (GH) moves from O to K on
1.10.2025 (confirmed transfer) and GH plays E2 for K; Heino's season club stays O (his first cup event).
Jussila's season club row is removed (as for a pair entered through the admin): unknown.

Hand-worked player ranking (best 2 of each player's events):
- Aho, Blom: 25 + 22 = 47 (S 10 dropped); places 1.×1 2.×1; wins 3 + 2 = 5 → 1.–2.
- Cajander, Dahl: 25 + 18 = 43 (S 11 dropped, 11 < 18); places 1.×1 4.×1; wins 3 + 0 = 3 → 3.–4.
- Grön, Heino: 22 + 18 = 40; places 2.×1 4.×1; wins 2 + 0 = 2 → 5.–6.
- Eskola, Forsman: 20 + 20 = 40 (S 9 dropped); places 3.×2; wins 1 + 1 = 2 → 7.–8.
  (level on 40 with Grön and Heino, no first places either; Grön and Heino have a second place: ahead)
- Ilola, Jussila: 12,5 (the summer event is their only one: counted); 1.×1; 3 wins → 9.–10.
Pairs: AB 47 (1.), CD 43 (2.), GH 40 (3.), EF 40 (4.), IJ 12,5 (5.).
Clubs (season club, RULES.md §7): O = 43 + 43 + 40 + 40 = 166 (Heino's E2 points stay with O);
K = 47 + 47 = 94; R = 40 + 40 + 12,5 = 92,5; Jussila (12,5) unknown, listed apart.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from types import SimpleNamespace

import pytest

from registry.models import SeasonClub, Transfer
from tests.cup.builders import club, one_group_event, player
from tournaments.models import Event


@pytest.fixture
def hand_season(db):
    k, o, r = club("Kemin Kasa", "KK"), club("Oulun Tuppiseura", "OTS"), club("Rovaniemen Rami", "RR")
    names = {
        "Aho": ("Anna", k),
        "Blom": ("Bertta", k),
        "Cajander": ("Cecilia", o),
        "Dahl": ("Daniel", o),
        "Eskola": ("Eero", r),
        "Forsman": ("Frans", r),
        "Grön": ("Greta", o),
        "Heino": ("Heikki", o),
        "Ilola": ("Iida", r),
        "Jussila": ("Jussi", r),
    }
    p = {last: player(first, last, home) for last, (first, home) in names.items()}
    ab, cd, ef = (p["Aho"], p["Blom"], k), (p["Cajander"], p["Dahl"], o), (p["Eskola"], p["Forsman"], r)
    e1, e1_pairs = one_group_event(
        "Kemin osakilpailu", dt.date(2025, 9, 13), [ab, (p["Grön"], p["Heino"], o), ef, cd], weight=Decimal(1)
    )
    transfer = Transfer.objects.create(
        season=e1.season, player=p["Heino"], from_club=o, to_club=k, confirmed_on=dt.date(2025, 10, 1)
    )
    e2, e2_pairs = one_group_event(
        "Oulun osakilpailu", dt.date(2025, 11, 8), [cd, ab, ef, (p["Grön"], p["Heino"], k)], weight=Decimal(1)
    )
    s, s_pairs = one_group_event(
        "Kesäkisa",
        dt.date(2026, 6, 13),
        [(p["Ilola"], p["Jussila"], r), cd, ab, ef],
        kind=Event.Kind.SUMMER,
        weight=Decimal("0.5"),
    )
    SeasonClub.objects.filter(season=e1.season, player=p["Jussila"]).delete()
    season = e1.season
    season.best_n = 2
    season.save()
    return SimpleNamespace(
        season=season,
        players=p,
        clubs={"K": k, "O": o, "R": r},
        events=(e1, e2, s),
        pairs={"E1": e1_pairs, "E2": e2_pairs, "S": s_pairs},
        transfer=transfer,
    )
