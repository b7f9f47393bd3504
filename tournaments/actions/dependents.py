"""Which events show a fact, so that a change of it, however it is made, reaches every page that shows it.

Every public page, the API, the PDFs and the workbooks of an event are served from its snapshot, cached
under its results version (``tournaments.actions.versions``). The services bump it themselves (``versions.lock``);
a row saved any other way (the Django admin, a management command, an organiser page that saves a model)
bumps it through the receivers connected here. Saving or deleting a watched row bumps every event that
shows it, in two statements however many they are (``versions.bump_events``):

- a club: the events with a pair of the club and those it organises;
- a player: the events where the player is in a pair or sat in as a substitute;
- a pair or a pair's player: the pair's event (and the one it left, when moved);
- the user who made a draw: the events they drew (a login, which saves only its time, bumps nothing);
- an event: itself (``Event.save``); an address it leaves and a deleted event's address stop answering
  as the change commits (their heads are forgotten).

Other apps add their own rows with :func:`watch` from their ``ready()``: the team competition its teams
and the competitions a club's team or a substitute shows on (``teams.signals``). The cup bumps its
seasons' cup versions itself (``cup.signals``), with :func:`track` and :func:`loaded` for a row moved to
another season.

Inside a transaction the versions are bumped before the row is written (``pre_save``, ``pre_delete``), so
that the events' rows are locked before any other, as every service locks them; outside one (a command's
plain ``save()``) right after it (``post_save``), so that no snapshot of the old facts is ever made under
the new version. ``QuerySet.update()``, ``bulk_create()``, ``bulk_update()`` and raw SQL send no signals:
code that changes shown facts that way bumps the versions itself (``versions.bump_events``).
"""

from __future__ import annotations

import copy
import functools
import operator
from collections import defaultdict
from collections.abc import Callable, Iterable

from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q
from django.db.models.signals import post_init, post_save, pre_delete, pre_save

from lib import caching, hooks
from registry.models import Club, Player
from tournaments.actions import versions
from tournaments.models import Event, MatchSubstitute, Pair, PairMember

# The events showing a row: their ids, or a Q on Event; None when none does.
Shown = Callable[[models.Model], Iterable[int] | Q | None]

_shown: dict[type, list[tuple[Shown, bool]]] = defaultdict(list)
_ignored: dict[type, frozenset[str]] = {}
_tracked: dict[type, tuple[str, ...]] = {}
LOADED = "_versions_loaded"  # an instance's tracked values as loaded (or last saved)
PENDING = "_versions_pending"  # what a save outside a transaction bumps once the row is written


def watch(model: type, shown: Shown, *, created: bool = True, owners: Iterable[str] = (),
          ignore: Iterable[str] = ()) -> None:
    """Bump the events that ``shown(row)`` names whenever a row of ``model`` is saved or deleted.

    ``created``: whether a new row is shown anywhere (a new club is not; a new pair is, on its event).
    ``owners``: the fields (attnames) naming what the row belongs to (its event, its team): their loaded
    values name the events it was shown on before the save (a pair moved to another event leaves the
    first one too). ``ignore``: a save of only these
    fields bumps nothing. Several apps may watch one model: every one's events are bumped together."""
    _shown[model].append((shown, created))
    if ignore:
        _ignored[model] = frozenset(ignore)
    if owners:
        track(model, *owners)
    uid = model._meta.label
    pre_save.connect(_before_save, sender=model, dispatch_uid=f"versions-pre-save-{uid}")
    post_save.connect(_after_save, sender=model, dispatch_uid=f"versions-post-save-{uid}")
    pre_delete.connect(_before_delete, sender=model, dispatch_uid=f"versions-pre-delete-{uid}")


def track(model: type, *attnames: str) -> None:
    """Remember the loaded values of ``attnames`` of every row of ``model`` (:func:`loaded`)."""
    _tracked[model] = tuple(dict.fromkeys((*_tracked.get(model, ()), *attnames)))
    post_init.connect(_remember, sender=model, dispatch_uid=f"versions-init-{model._meta.label}")


def loaded(instance: models.Model, attname: str):
    """The value ``attname`` had when ``instance`` was loaded or last saved (its current one if unknown)."""
    return instance.__dict__.get(LOADED, {}).get(attname, instance.__dict__.get(attname))


def _remember(sender, instance, **kwargs) -> None:
    # Only what is loaded already: reading a deferred field here would cost a query per row.
    instance.__dict__[LOADED] = {a: instance.__dict__[a] for a in _tracked[sender] if a in instance.__dict__}


def _before(instance: models.Model) -> models.Model | None:
    """A copy of ``instance`` as it was loaded, when a tracked field has changed since (else None)."""
    changed = {a: v for a, v in instance.__dict__.get(LOADED, {}).items() if instance.__dict__.get(a) != v}
    if not changed:
        return None
    old = copy.copy(instance)
    for attname, value in changed.items():
        setattr(old, attname, value)  # a foreign key's descriptor drops the related row cached for the new one
    return old


def shown_by(model: type, instance: models.Model) -> Q | list[int] | None:
    """The events showing ``instance`` (and, if it moved, those that showed it): ids, or one Q."""
    adding = instance._state.adding
    ids: set[int] = set()
    queries: list[Q] = []
    versions_of = [instance] if adding else [instance, _before(instance)]
    for obj in (o for o in versions_of if o is not None):
        for shown, on_create in _shown[model]:
            if adding and not on_create:
                continue
            found = shown(obj)
            if isinstance(found, Q):
                queries.append(found)
            elif found is not None:
                ids.update(pk for pk in found if pk is not None)
    if queries:
        return functools.reduce(operator.or_, queries + ([Q(pk__in=ids)] if ids else []))
    return sorted(ids) or None


def _before_save(sender, instance, raw=False, update_fields=None, **kwargs) -> None:
    if raw or (update_fields is not None and set(update_fields) <= _ignored.get(sender, frozenset())):
        return
    events = shown_by(sender, instance)
    if events is None:
        return
    if caching.in_transaction():
        versions.bump_events(events)  # before the row: the events' rows are locked first
    else:
        instance.__dict__[PENDING] = events


def _after_save(sender, instance, raw=False, **kwargs) -> None:
    events = instance.__dict__.pop(PENDING, None)
    if events is not None:
        versions.bump_events(events)  # no transaction: once the row is written
    if sender in _tracked:
        _remember(sender, instance)


def _before_delete(sender, instance, **kwargs) -> None:
    events = shown_by(sender, instance)  # a deletion runs in a transaction of its own (Django's Collector)
    if events is not None:
        versions.bump_events(events)


# --- what the tournaments' pages show ------------------------------------------------------------------


def _club_events(club: Club) -> Q:
    return Q(pk__in=Pair.objects.filter(club_id=club.pk).values("event_id")) | Q(organising_club_id=club.pk)


def _player_events(player: Player) -> Q:
    return Q(pk__in=PairMember.objects.filter(player_id=player.pk).values("event_id")) | Q(
        pk__in=MatchSubstitute.objects.filter(substitute_id=player.pk).values("match__event_id")
    )


def _drawn_by(user) -> Q:
    return Q(drawn_by_id=user.pk)


watch(Club, _club_events, created=False)
watch(Player, _player_events, created=False)
watch(Pair, lambda pair: [pair.event_id], owners=["event_id"])
watch(PairMember, lambda member: [member.event_id], owners=["event_id"])
watch(get_user_model(), _drawn_by, created=False, ignore=["last_login"])


# --- the event itself: Event.save bumps its own version ----------------------------------------------

track(Event, "slug")


def _event_saved(sender, instance, created, raw=False, **kwargs) -> None:
    """A new event: an address asked for before it existed answers at once. A changed one (an edit, the
    draw, publication, the admin; ``Event.save`` bumped its version): the caches follow, and an address
    it left stops answering."""
    slugs = dict.fromkeys([loaded(instance, "slug"), instance.slug])
    if created or raw:
        hooks.announce_events((), forget=[instance.slug], committed=False)
    else:
        versions.announce([instance.pk], forget=[s for s in slugs if s])
    _remember(sender, instance)


def _event_deleted(sender, instance, **kwargs) -> None:
    """A deleted event's address stops answering as the deletion commits."""
    slugs = dict.fromkeys([loaded(instance, "slug"), instance.slug])
    versions.announce([instance.pk], forget=[s for s in slugs if s], every=False)


post_save.connect(_event_saved, sender=Event, dispatch_uid="versions-event-saved")
pre_delete.connect(_event_deleted, sender=Event, dispatch_uid="versions-event-deleted")
