"""The event day (issue #19): late forfeits, referees, the judges' council, entry fees."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from lib.formulas import reject_formula
from tournaments.actions import versions
from tournaments.actions.entries import _real
from tournaments.actions.results import Actor, EntryData, ResultRefused, add_entry
from tournaments.models import (
    Entry,
    Event,
    Match,
    Pair,
)
from tournaments.readmodel import build
from tournaments.readmodel import timetable as day_clock
from tournaments.validators import NAME_MAX_LENGTH, validate_council

# The general rules: a player more than 15 minutes late from the announced time has forfeited, with
# their pair. Kept with the forfeit as the change's reason (the history; the cup's club fine).
LATE_REASON = "myöhästyminen"


@transaction.atomic
def late_forfeit(match: Match, side: str, *, user) -> Match:
    """The organiser records that pair ``side`` ("A" or "B") of a match not yet started forfeits it for
    being late (RULES.md §3: the opponents win by tuppi, 5–0), once the match's 15-minute deadline has
    passed (``tournaments.readmodel.timetable``); the reason "myöhästyminen" goes with it. One step: a forfeit line
    through :func:`add_entry`, the organiser as its actor."""
    if side not in ("A", "B"):
        raise ResultRefused(_("Valitse pari A tai B."), code="bad_side")
    versions.lock(match.event_id)
    current = Match.objects.filter(pk=match.pk).first()
    if current is None:
        raise ResultRefused(_("Ottelua ei enää ole."), code="gone")
    if current.status != Match.Status.SCHEDULED:
        raise ResultRefused(
            _("Ottelu on jo alkanut tai pelattu: myöhästymisluovutusta ei voi kirjata."), code="started"
        )
    found = day_clock.deadline_of(build.build(current.event_id), current.pk)
    now = timezone.now()
    if found is None or now < found:
        raise ResultRefused(
            _("Myöhästymisen määräaika ei ole vielä kulunut: luovutuksen voi kirjata vasta 15 minuuttia "
              "kierroksen alkamisen jälkeen."),
            code="too_early",
        )
    return add_entry(
        current, EntryData(kind=Entry.Kind.FORFEIT, pair=side), version=current.version, actor=Actor(user=user),
        reason=LATE_REASON,
    )


@transaction.atomic
def set_referee(match: Match, name: str, *, user=None) -> Match:
    """Name the match's referee (tuomari); an empty name: the player in seat 4 keeps the scoresheet."""
    name = " ".join((name or "").split())
    if len(name) > NAME_MAX_LENGTH:
        raise ValidationError(
            _("Nimi on liian pitkä (enintään %(n)s merkkiä).") % {"n": NAME_MAX_LENGTH}, code="name_long"
        )
    reject_formula(name)
    versions.lock(match.event_id)  # the referee is in the snapshot (the JSON API, the printouts)
    # The sheet's own version stays: naming a referee changes no line (every page showing the referee
    # names it in its digest, tournaments/readmodel/live.py).
    Match.objects.filter(pk=match.pk).update(referee=name)
    match.referee = name
    return match


@transaction.atomic
def set_council(event: Event, names: list[str]) -> Event:
    """Record the event's judges' council: 3–5 names (or none, not named yet); anything else is refused."""
    names = [" ".join(str(n).split()) for n in names]
    validate_council(names)
    event = versions.lock(event.pk)
    event.judges = names
    event.save(update_fields=["judges"])
    return event


@transaction.atomic
def record_fee(pair: Pair, method: str, *, user=None) -> Pair:
    """The pair has paid its entry fee (the event's fee for a pair, recorded as it is now) by ``method``
    (cash, card or transfer); recorded again, the method is corrected and the time and amount kept."""
    if method not in Pair.FeeMethod.values:
        raise ValidationError(_("Valitse maksutapa: käteinen, kortti tai tilisiirto."), code="fee_method")
    event = versions.lock(pair.event_id)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    if pair.fee_paid_at is None:
        pair.fee_paid_at, pair.fee_amount = timezone.now(), event.fee_per_pair
    pair.fee_method, pair.fee_recorded_by = method, _real(user)
    pair.save(update_fields=["fee_paid_at", "fee_amount", "fee_method", "fee_recorded_by"])
    return pair


@transaction.atomic
def clear_fee(pair: Pair, *, user=None) -> Pair:
    """Take back a payment recorded by mistake: the pair has not paid."""
    versions.lock(pair.event_id)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    pair.fee_paid_at, pair.fee_amount, pair.fee_method, pair.fee_recorded_by = None, None, "", _real(user)
    pair.save(update_fields=["fee_paid_at", "fee_amount", "fee_method", "fee_recorded_by"])
    return pair
