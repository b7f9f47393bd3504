"""The event's read model: one snapshot of everything derived from an event's facts.

:func:`build` loads an event's facts in a fixed number of queries (fourteen, whatever the event's size) and
derives, once each, every match's outcome, the Saturday tables, the Sunday tables, the placement bracket
and the final places (RULES.md §3–5). :func:`snapshot` serves it from the caches keyed by the event's
results version (``tournaments.actions.versions``), so it is computed once per change of the facts and shared by
every worker process (``lib.caching``). Every public page, the JSON API, the PDFs, the
workbooks, the cup and the team competition read from it.

The snapshot holds plain values, no model instances: it pickles small, it carries no secret (no match
token, no user row), and nothing in it depends on the language a page is shown in (labels are
translated when a template shows them).
"""

from __future__ import annotations

import datetime as dt

from lib import caching
from tournaments.models import (
    Event,
)
from tournaments.readmodel.build import build, build_many
from tournaments.readmodel.values import EventSnapshot, key


def current(event) -> tuple[int, dt.datetime, int]:
    """(id, creation time, results version) of ``event`` as the database has them now: an ``EventHead``
    was read just now; any other object (an Event loaded earlier) costs one light query."""
    if getattr(event, "fresh", False):
        return event.pk, event.created_at, event.results_version
    created_at, version = Event.objects.filter(pk=event.pk).values_list("created_at", "results_version").get()
    return event.pk, created_at, version


def snapshot(event) -> EventSnapshot:
    """The event's snapshot at its current version, from the caches or built once.

    ``event`` is an Event or a ``tournaments.readmodel.live.EventHead``. Inside a transaction the snapshot is built
    afresh from what the transaction sees and kept nowhere."""
    if caching.in_transaction():
        return build(event.pk)
    pk, created_at, version = current(event)

    def compute() -> EventSnapshot:
        built = build(pk)
        if built.version != version:  # changed since the version was read: serve it, do not keep it
            object.__setattr__(built, "cacheable", False)
        return built

    previous = _latest.get(pk)
    if previous is not None and (previous.event.created_at != created_at or previous.version > version):
        previous = None
    found = caching.versioned(key(pk, created_at, version), compute, fallback=previous)
    if found.cacheable and (previous is None or found.version >= previous.version):
        _latest[pk] = found
    return found


# The newest snapshot this process has of each event: served, instead of waiting, while another process
# computes the snapshot of a version just made (a few tens of milliseconds later it is there).
_latest: dict[int, EventSnapshot] = {}
caching.on_clear(_latest.clear)


def snapshots(events) -> dict[int, EventSnapshot]:
    """The snapshots of several events (each with ``pk``, ``created_at``, ``results_version`` read just
    now): the cached ones from the caches, the others built together in one batch and cached."""
    events = list(events)
    if caching.in_transaction():
        return build_many([e.pk for e in events])
    keys = {e.pk: key(e.pk, e.created_at, e.results_version) for e in events}
    found = caching.get_many(list(keys.values()))
    out = {pk: found[k] for pk, k in keys.items() if k in found}
    missing = [e for e in events if e.pk not in out]
    if missing:
        built = build_many([e.pk for e in missing])
        for e in missing:
            snap = built[e.pk]
            if snap.version != e.results_version:
                object.__setattr__(snap, "cacheable", False)
            caching.put(keys[e.pk], snap)
            out[e.pk] = snap
    return out
