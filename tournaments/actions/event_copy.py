"""The next leg: a copy of an event's settings under a new name and date (issue #27, "Kopioi kisa")."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from registry.models import Season
from tournaments.models import Event
from tournaments.models.event import unique_event_slug

# What the new event does not take from the old one: its identity, its dates and what happened at it.
NOT_COPIED = frozenset({
    "id", "name", "slug", "season", "starts_on", "ends_on", "draw_seed", "drawn_at", "drawn_by",
    "finished_at", "created_at", "results_version",
})


@transaction.atomic
def copy_event(source: Event, *, name: str, starts_on: dt.date, user) -> Event:
    """A new event with ``source``'s settings, clock times, fee, venue, organising club, judges' council
    and organisers (and ``user``), starting on ``starts_on`` and lasting as many days as ``source``; no
    pairs, groups, matches or results."""
    fields = {
        f.name: getattr(source, f.name)
        for f in Event._meta.concrete_fields
        if f.name not in NOT_COPIED and not f.primary_key
    }
    event = Event.objects.create(
        **fields,
        name=name,
        slug=unique_event_slug(name),
        season=Season.for_date(starts_on),
        starts_on=starts_on,
        ends_on=starts_on + (source.ends_on - source.starts_on),
    )
    event.organisers.set([*source.organisers.all(), user])
    return event
