"""The team competition's part of the demo season (``setup_demo``): an SM team competition of eight club
teams, played to its final two weeks ago (``teams.simulation``)."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from registry.models import Season
from teams.simulation import simulate_team_competition
from tournaments import extensions
from tournaments.models import unique_event_slug

TEAMS = 8
SEED = 2026


def team_competition(organiser, today) -> list[str]:
    event = simulate_team_competition(TEAMS, SEED)
    starts = today - dt.timedelta(days=14)
    with transaction.atomic():
        event.name = f"SM-joukkuekisa {starts.year}"
        event.slug = unique_event_slug(f"sm-joukkuekisa-{starts.year}")
        event.starts_on, event.ends_on = starts, starts + dt.timedelta(days=1)
        event.season = Season.for_date(starts)
        event.venue = "Oulun Tuppitalo"
        event.save(update_fields=["name", "slug", "starts_on", "ends_on", "season", "venue"])
        if organiser is not None:
            event.organisers.add(organiser)
    return [f"Created the demo team competition {event.name} ({event.slug}): {TEAMS} teams, played to its final."]


extensions.register_demo("teams", team_competition, order=20)
