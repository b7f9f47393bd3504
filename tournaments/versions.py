"""An event's results version: one number that changes, in the same transaction, with every fact that can
alter anything derived from the event (scoresheet lines, paper results, confirmations, play-offs,
withdrawals, the draw and its swaps, Sunday's seeding and matches, placements, publication, team
declarations and substitutes, event edits).

Every changing service starts with :func:`lock`: it bumps the version and locks the event row, always
before any other row, so that all writers of one event take their locks in one order (event, then match)
and never deadlock. The read model's snapshot, every cached fragment and every ETag are keyed on the
version, so what a page shows is never older than the facts it was made from.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.db.models.signals import post_save
from django.dispatch import receiver

from tournaments import live, readmodel
from tournaments.models import Event


def bump(event_id: int) -> None:
    """Increment the version (inside the caller's transaction: it commits or rolls back with the change).

    The event's head in the shared cache is dropped now (a reader meanwhile reads the committed version
    from the database), and when the change commits the new head is put there and the new snapshot
    computed, in this request: polls find both ready and never wait (``tournaments.live``)."""
    Event.objects.filter(pk=event_id).update(results_version=F("results_version") + 1)
    _forget_head(event_id)
    transaction.on_commit(lambda: after_commit(event_id))


@receiver(post_save, sender=Event)
def _event_saved(sender, instance, created, **kwargs) -> None:
    """``Event.save`` bumps the version itself (an edit, the draw, publication, the admin): the caches
    follow as they do for :func:`bump`."""
    if not created:
        _forget_head(instance.pk)
        transaction.on_commit(lambda: after_commit(instance.pk))


def _forget_head(event_id: int) -> None:
    for slug in Event.objects.filter(pk=event_id).values_list("slug", flat=True):
        cache.delete(live.head_key(slug))


def after_commit(event_id: int) -> None:
    """Put the committed head in the shared cache and compute the new snapshot once, for every process."""
    for slug in Event.objects.filter(pk=event_id).values_list("slug", flat=True):
        found = live.load_head(slug)
        cache.set(live.head_key(slug), found, 30)
        if found is not None and settings.TUPPI_PREBUILD:
            readmodel.snapshot(found)


def lock(event_id: int) -> Event:
    """Bump the version and return the event, locked for the rest of the transaction."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("versions.lock() must run inside a transaction")
    bump(event_id)  # the UPDATE takes the row lock first, on every database
    return Event.objects.select_for_update(of=("self",)).select_related("season", "organising_club").get(pk=event_id)


def current(event_id: int) -> int:
    return Event.objects.filter(pk=event_id).values_list("results_version", flat=True).get()
