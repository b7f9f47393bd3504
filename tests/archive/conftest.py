"""Shared builders of the archive's tests: a small registry (names with diacritics, member numbers) and
whole simulated events (``simulate_event``) drawn from it, so that the same players meet again and again."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command

from cup.models import CupEvent
from lib import caching
from registry.models import Club, Player, Season
from tournaments.models import Event

FIRST = ["Äijä", "Håkan", "Jörö", "Kalle", "Sävel", "Ville", "Eero", "Mikko", "Pekka", "Tiina"]


@pytest.fixture
def registry(db):
    """Two clubs and 40 players ("Kivelä", "Sjöberg", …), numbered 5000–5039: a simulated 16-pair event
    takes 32 of them, so most players play most events."""
    clubs = [Club.objects.create(name="Sodankylän Tuppi", short_name="STu"),
             Club.objects.create(name="Äkäslompolon Kerho", short_name="ÄK", town="Kolari")]
    return [
        Player.objects.create(
            first_name=FIRST[i % 10], last_name=f"{('Kivelä', 'Sjöberg', 'Mäkelä', 'Öhman')[i % 4]}{i}",
            member_number=str(5000 + i), club=clubs[i % 2],
        )
        for i in range(40)
    ]


def simulate(seed: int, pairs: int = 16, *, counted: bool = True, season_start: dt.date | None = None) -> Event:
    """A whole simulated cup event (final places published); ``counted``: counted for the cup;
    ``season_start``: moved to an earlier season (its first day), before anything reads it."""
    out = StringIO()
    call_command("simulate_event", "--pairs", str(pairs), "--seed", str(seed), stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    if season_start is not None:
        Event.objects.filter(pk=event.pk).update(
            season=Season.for_date(season_start), starts_on=season_start + dt.timedelta(days=seed),
            ends_on=season_start + dt.timedelta(days=seed),
        )
        cache.clear()
        caching.clear_local()
        event.refresh_from_db()
    if counted:
        CupEvent.objects.create(event=event, weight=Decimal(1))
    return event
