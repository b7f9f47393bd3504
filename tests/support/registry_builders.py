"""A small registry with one of everything a registry document holds (``federation``'s tests)."""

from __future__ import annotations

import datetime as dt

from registry.models import Ban, Club, Player, Season, SeasonClub, Transfer


def small_registry() -> dict:
    """Three clubs, four numbered players and one without a number, a season with a season club, a transfer,
    a ban in force and one that ended; returns the rows by name."""
    season = Season.objects.create(start=dt.date(2026, 8, 1), best_n=6)
    levi = Club.objects.create(name="Levin Tuppiseura", short_name="LTS", town="Kittilä")
    soda = Club.objects.create(name="Sodankylän Tuppikerho", short_name="SoTK", town="Sodankylä")
    ivalo = Club.objects.create(name="Ivalon Tuppi", short_name="", town="")
    aino = Player.objects.create(first_name="Aino", last_name="Ärväs", member_number="1001", club=levi)
    eero = Player.objects.create(first_name="Eero", last_name="Öhman", member_number="1002", club=soda)
    kalle = Player.objects.create(first_name="Kalle", last_name="Koski", member_number="1003", club=soda)
    liisa = Player.objects.create(first_name="Liisa", last_name="Lampi", member_number="1004", club=None)
    Player.objects.create(first_name="Uusi", last_name="Pelaaja", club=ivalo)  # no number: not in the document
    SeasonClub.objects.create(season=season, player=aino, club=levi)
    Transfer.objects.create(season=season, player=eero, from_club=soda, to_club=ivalo, confirmed_on=dt.date(2026, 10, 3))
    Ban.objects.create(player=kalle, starts_on=dt.date(2026, 11, 1), ends_on=dt.date(2027, 4, 30), reason="Häirintä",
                       decision="Hallituksen päätös 20.10.2026 §3", decided_on=dt.date(2026, 10, 20))
    Ban.objects.create(player=liisa, starts_on=dt.date(2025, 1, 1), ends_on=dt.date(2025, 6, 30), reason="Vanha",
                       decision="Hallituksen päätös 1.12.2024 §2", decided_on=dt.date(2024, 12, 1))
    return {"season": season, "levi": levi, "soda": soda, "ivalo": ivalo, "aino": aino, "eero": eero,
            "kalle": kalle, "liisa": liisa}


def empty_registry() -> None:
    """This installation's registry emptied, as on a new laptop."""
    Ban.objects.all().delete()
    Transfer.objects.all().delete()
    SeasonClub.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    Season.objects.all().delete()
