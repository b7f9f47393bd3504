"""The demo season: a few events around today's date, for ``setup_demo`` and the README's run command.

Two finished events played to their final places (results confirmed, places published), a live one
drawn with its first rounds played, and two upcoming ones (one with entries waiting for its draw). The
cup and teams apps add theirs through ``tournaments.extensions.register_demo``.
"""

from __future__ import annotations

import datetime as dt
import random

from django.utils.text import slugify

from registry.models import Club, Season
from tournaments.actions import draw as draw_actions
from tournaments.actions.simulation import enter_random_pairs, play_matches, play_weekend
from tournaments.models import Event


def create_demo_events(organiser, *, today: dt.date) -> list[Event]:
    rng = random.Random(2026)
    clubs = {club.town: club for club in Club.objects.all()}
    plans = [
        ("Tornion Syystuppi", -42, "Tornio", "Rajakartanon sali", 24),
        ("Rovaniemen Syystuppi", -21, "Rovaniemi", "Lapin Tuppikeskus", 24),
        ("Sodankylän Joulutuppi", 0, "Sodankylä", "Seurantalo Kitisenranta", 40),
        ("Oulun Talvituppi", 35, "Oulu", "Kastellin kerhotila", 12),
        ("Kemin Kevättuppi", 98, "Kemi", "Kemin pursiseuran maja", 0),
    ]
    events = []
    for name, offset, town, venue, pairs in plans:
        starts = today + dt.timedelta(days=offset)
        event = Event.objects.create(
            name=f"{name} {starts.year}",
            slug=slugify(f"{name} {starts.year}"),
            season=Season.for_date(starts),
            starts_on=starts,
            ends_on=starts + dt.timedelta(days=1),
            venue=venue,
            organising_club=clubs.get(town),
            kind=Event.Kind.CUP,
        )
        event.organisers.add(organiser)
        events.append(event)
        if pairs:
            enter_random_pairs(event, pairs, rng, check_in=offset <= 0)
        if offset < 0:  # finished: the whole weekend played and the final places published
            draw_actions.draw_groups(event, organiser, seed=rng.randrange(2**31))
            play_weekend(event, rng)
        elif offset == 0:  # live: drawn, rounds 1 and 2 played, round 3 half played
            draw_actions.draw_groups(event, organiser, seed=rng.randrange(2**31))
            play_matches(event.matches.filter(round__lte=2), rng)
            third = list(event.matches.filter(round=3).order_by("table"))
            play_matches(third[: len(third) // 2], rng)
    return events
