"""The demo season: a few events around today's date, for ``setup_demo`` and the README's run command."""

from __future__ import annotations

import datetime as dt

from django.utils.text import slugify

from tournaments.models import Club, Event, Season


def create_demo_events(organiser, *, today: dt.date) -> list[Event]:
    clubs = {club.town: club for club in Club.objects.all()}
    plans = [
        ("Rovaniemen Syystuppi", -21, 2, "Rovaniemi", "Lapin Tuppikeskus", Event.Kind.CUP),
        ("Sodankylän Joulutuppi", 0, 2, "Sodankylä", "Seurantalo Kitisenranta", Event.Kind.CUP),
        ("Oulun Talvituppi", 35, 2, "Oulu", "Kastellin kerhotila", Event.Kind.CUP),
        ("Kemin Kevättuppi", 98, 2, "Kemi", "Kemin pursiseuran maja", Event.Kind.CUP),
    ]
    events = []
    for name, offset, days, town, venue, kind in plans:
        starts = today + dt.timedelta(days=offset)
        event = Event.objects.create(
            name=f"{name} {starts.year}",
            slug=slugify(f"{name} {starts.year}"),
            season=Season.for_date(starts),
            starts_on=starts,
            ends_on=starts + dt.timedelta(days=days - 1),
            venue=venue,
            organising_club=clubs.get(town),
            kind=kind,
        )
        event.organisers.add(organiser)
        events.append(event)
    return events
