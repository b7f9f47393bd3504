"""An event's head: what one light query tells of an event (its id, slug, creation time, results version,
kind and season), enough to name its version and find its snapshot.

A poll asks for the head first. It comes from this process's memory for ``TUPPI_HEAD_SECONDS`` (a quarter
of a second by default: a poll then costs no query at all), else from the shared cache, where every
change puts the new head as it commits (``tournaments.actions.versions``), else from one light query.

The shared cache keeps a head for :data:`SHARED_SECONDS` at most, within the staleness target even when
the hook that replaces it never ran (a process killed between commit and hook, a row changed by hand).
An address that names no event is never written to the shared cache: anyone can ask for any address,
and the number of entries an anonymous client can create stays bounded by the real events.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import Http404

from lib import caching
from tournaments.models import Event
from tournaments.readmodel import snapshot as readmodel
from tournaments.readmodel import values

SHARED_SECONDS = 3


@dataclass(frozen=True)
class EventHead:
    """What one light query tells of an event: enough to name its version and find its snapshot."""

    pk: int
    slug: str
    created_at: dt.datetime
    results_version: int
    kind: str
    season_id: int

    fresh = True  # read just now: the read model need not read the version again

    @property
    def key(self) -> str:
        return f"{self.pk}.{self.created_at.timestamp():.6f}:{self.results_version}:{values.rules_key()}"

    def snapshot(self) -> values.EventSnapshot:
        return readmodel.snapshot(self)


def head(slug: str, *, kind: str | None = None) -> EventHead:
    """The event's head (see the module's docstring); 404 when no event has that address (or not of
    ``kind``)."""
    found = caching.recent(key(slug), settings.TUPPI_HEAD_SECONDS, lambda: _shared(slug))
    if found is None or (kind is not None and found.kind != kind):
        raise Http404
    return found


def source(slug: str, *, kind: str | None = None, make=None):
    """What the event's pages are built from: its snapshot, or ``make(head)`` (the team competition). An
    event deleted a moment ago, whose head this process still remembers, is not found either: 404."""
    found = head(slug, kind=kind)
    try:
        return found.snapshot() if make is None else make(found)
    except Event.DoesNotExist:
        forget(slug)
        raise Http404 from None


def _shared(slug: str) -> EventHead | None:
    if caching.in_transaction():
        return load(slug)
    found = cache.get(key(slug))
    if found is None:
        found = load(slug)
        if found is not None:  # an unknown address writes nothing
            cache.set(key(slug), found, SHARED_SECONDS)
    return found


def key(slug: str) -> str:
    return f"head:{slug}"


FIELDS = ("pk", "slug", "created_at", "results_version", "kind", "season_id")  # an EventHead's, in order


def load(slug: str) -> EventHead | None:
    found = list(Event.objects.filter(slug=slug).values_list(*FIELDS)[:1])
    return EventHead(*found[0]) if found else None


def forget(*slugs: str) -> None:
    """Drop the heads of ``slugs`` from the shared cache and this process's memory (a reader meanwhile
    reads the database): an event changed, renamed its address or was deleted."""
    if slugs:
        cache.delete_many([key(slug) for slug in slugs])
        for slug in slugs:
            caching.forget_recent(key(slug))


def put(*found: EventHead) -> None:
    """Put committed heads in the shared cache (after a change commits: ``tournaments.actions.versions``)."""
    if found:
        cache.set_many({key(h.slug): h for h in found}, SHARED_SECONDS)
