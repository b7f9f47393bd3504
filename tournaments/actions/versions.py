"""An event's results version: one number that changes, in the same transaction, with every fact that can
alter anything derived from the event (scoresheet lines, paper results, confirmations, play-offs,
withdrawals, the draw and its swaps, Sunday's seeding and matches, placements, publication, team
declarations and substitutes, event edits, and the names the event shows: its clubs', players', pairs'
and teams', whoever changes them, ``tournaments.actions.dependents``).

Every changing service starts with :func:`lock`: it bumps the version and locks the event row, always
before any other row, so that all writers of one event take their locks in one order (event, then match)
and never deadlock. The read model's snapshot, every cached fragment and every ETag are keyed on the
version, so what a page shows is never older than the facts it was made from.

A change that many events show (a club renamed) bumps them all with :func:`bump_events`: two statements
whatever their number. A transaction bumps an event once: a later bump of the same event in the same
transaction (a service's save that a receiver of ``tournaments.actions.dependents`` hears after the service's own
:func:`lock`) costs nothing, since no snapshot of the transaction's facts is made before it commits. A
bump inside a savepoint that is rolled back is forgotten with it (the commit hooks that record the bumps
are Django's own, which a rollback drops), so the change made after it bumps again.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import F, Q

from lib import caching, hooks
from tournaments.models import Event


def bump(event_id: int) -> None:
    """Increment the version (inside the caller's transaction: it commits or rolls back with the change).

    The event's head in the shared cache is dropped now (a reader meanwhile reads the committed version
    from the database), and when the change commits the new head is put there and the new snapshot
    computed, in this request (``tournaments.readmodel.following``): polls find both ready and never wait."""
    bump_events([event_id], every=True)


def bump_events(events: Iterable[int] | Q, *, every: bool = False) -> list[int]:
    """Increment the version of every event in ``events`` (their ids, or a ``Q`` on ``Event`` naming them)
    that this transaction has not bumped yet: one SELECT, which locks them in id order inside a
    transaction, and one UPDATE, however many they are. Returns the ids bumped.

    After commit their heads are published and the new snapshots computed: of every one with ``every``,
    else of the live ones only (a club renamed bumps years of finished events, whose snapshots are built
    when first asked for)."""
    done = bumped_here()
    if isinstance(events, Q):
        where = Q(pk__in=Event.objects.filter(events).values("pk"))
    else:
        ids = [pk for pk in dict.fromkeys(events) if pk not in done]
        if not ids:
            return []
        where = Q(pk__in=ids)
    rows = Event.objects.filter(where).order_by("pk")
    if transaction.get_connection().in_atomic_block:
        rows = rows.select_for_update()
    found = [(pk, slug) for pk, slug in rows.values_list("pk", "slug") if pk not in done]
    if not found:
        return []
    ids = [pk for pk, _slug in found]
    Event.objects.filter(pk__in=ids).update(results_version=F("results_version") + 1)
    announce(ids, forget=[slug for _pk, slug in found], every=every)
    return ids


def announce(event_ids: Iterable[int], *, forget: Iterable[str] = (), every: bool = True) -> None:
    """The caches follow versions bumped in this transaction (by :func:`bump_events`, or by ``Event.save``
    itself), through ``lib.hooks.events_changed``, which the read side follows: the heads of the addresses
    ``forget`` are dropped now and again after commit (an address changed or gone stops working at once),
    and then the committed heads of ``event_ids`` are published and their snapshots computed."""
    ids, slugs = tuple(event_ids), tuple(forget)
    hooks.announce_events((), forget=slugs, committed=False)

    def refresh() -> None:
        hooks.announce_events(ids, forget=slugs, every=every, committed=True)

    # What bumped_here() reads: only an application's own transaction counts (a test case's wrapping
    # transaction never commits, and each of its statements would commit on its own in production).
    refresh.bumped = frozenset(ids) if caching.in_transaction() else frozenset()
    transaction.on_commit(refresh)


def bumped_here() -> frozenset[int]:
    """The events whose version this transaction has bumped already, in no savepoint released or rolled
    back since (a bump in a released one may be counted twice: harmless; in a rolled back one never)."""
    if not caching.in_transaction():
        return frozenset()
    connection = transaction.get_connection()
    active = set(connection.savepoint_ids)
    return frozenset(
        pk
        for sids, hook, _robust in connection.run_on_commit
        if sids <= active
        for pk in getattr(hook, "bumped", ())
    )


def lock(event_id: int) -> Event:
    """Bump the version and return the event, locked for the rest of the transaction."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("versions.lock() must run inside a transaction")
    bump(event_id)  # SELECT … FOR UPDATE, then the UPDATE: the row lock comes first, on every database
    return Event.objects.select_for_update(of=("self",)).select_related("season", "organising_club").get(pk=event_id)


def current(event_id: int) -> int:
    return Event.objects.filter(pk=event_id).values_list("results_version", flat=True).get()
