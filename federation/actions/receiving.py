"""An event file received by the federation's site (``POST /api/events/import/`` from ``push_event``, or
uploaded on the organiser pages): imported through ``tournaments.actions.eventfile`` and the sender made
one of its organisers, in one transaction. The same file again changes nothing; a changed file of an
event published here whose chain of published records extends the site's is applied as a correction with
the reason its new record gives (made by the sender, through the organiser's correction service); any
other file of an existing event with other facts is refused, never a silent overwrite."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from tournaments.actions.eventfile import EventFileError, Imported, import_event
from tournaments.models import Event


class NotAllowed(Exception):
    """The sender may not create events here, or does not organise the event the file names."""


def may_send(user, data: dict) -> bool:
    """A new event needs the permission to create events; an existing one, one of its organisers."""
    existing = Event.objects.filter(slug=data["event"]["slug"]).first()
    if existing is not None:
        return existing.can_organise(user)
    return user.has_perm("tournaments.add_event")


@transaction.atomic
def receive(data: dict, user, *, exported_now: Callable[[Event], dict]) -> Imported:
    """Import ``data`` (an event file already loaded and checked) sent by ``user``."""
    if not may_send(user, data):
        raise NotAllowed(data["event"]["slug"])
    done = import_event(data, exported_now=exported_now, user=user)
    done.event.organisers.add(user)
    return done


__all__ = ["EventFileError", "NotAllowed", "may_send", "receive"]
