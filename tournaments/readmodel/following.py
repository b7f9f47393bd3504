"""The read side follows the write side's announcements (``lib.hooks.events_changed``): the heads of
addresses that changed are dropped at once; after commit the committed heads are put in the shared cache
and the new snapshots computed once, for every process (of every bumped event, or of the live ones)."""

from __future__ import annotations

from django.conf import settings

from tournaments.models import Event, event_status
from tournaments.readmodel import heads, snapshot


def follow(sender=None, *, event_ids=(), forget=(), every=True, committed=False, **kwargs) -> None:
    heads.forget(*forget)
    if committed and event_ids:
        publish(list(event_ids), every=every)


def publish(ids: list[int], *, every: bool) -> None:
    rows = list(
        Event.objects.filter(pk__in=ids).values_list(*heads.FIELDS, "starts_on", "ends_on", "drawn_at", "finished_at")
    )
    found = [heads.EventHead(*row[: len(heads.FIELDS)]) for row in rows]
    heads.put(*found)
    if not settings.TUPPI_PREBUILD:
        return
    chosen = [h for h, row in zip(found, rows, strict=True) if every or event_status(*row[len(heads.FIELDS):]) == "live"]
    if len(chosen) == 1:
        snapshot.snapshot(chosen[0])
    elif chosen:
        snapshot.snapshots(chosen)  # built together: fourteen queries, however many
