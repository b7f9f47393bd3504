"""Announcements between layers that must not import each other.

``events_changed``: the write side (``tournaments.actions.versions``) announces that events' versions were
bumped or their addresses changed; the read side (``tournaments.readmodel.following``) subscribes and keeps
its caches in step. The write side never imports the read side's caches to do so.

Sent twice per change, with ``event_ids`` (the events bumped), ``forget`` (addresses that may no longer
name the event they named) and ``every`` (build every bumped event's snapshot, or only the live ones):
once with ``committed=False`` inside the writing transaction (drop what the change makes wrong at once),
and once with ``committed=True`` after it commits (publish the committed facts)."""

from __future__ import annotations

from django.dispatch import Signal

events_changed = Signal()


def announce_events(event_ids, *, forget=(), every: bool = True, committed: bool) -> None:
    events_changed.send(sender=None, event_ids=tuple(event_ids), forget=tuple(forget), every=every,
                        committed=committed)
