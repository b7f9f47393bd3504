"""Publishing the places, the final places and the marks they give clubs for next season."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from registry.models import Club
from teams import results
from teams.actions.common import _locked
from tournaments.actions import publication
from tournaments.actions import results as result_actions
from tournaments.models import Event


@transaction.atomic
def publish(event: Event, user, *, confirm: dict[int, int] | None = None) -> None:
    """Mark the competition finished once the final and the match for third place are decided and every
    pair match's result is confirmed (``confirm``: those confirmed in this step, match id → version seen);
    the leaders' and the matches' secret links then only show, and the published record is kept."""
    event = _locked(event)
    if event.finished_at is not None:
        raise ValidationError(_("Lopputulokset on jo julkaistu."), code="published")
    if not results.load(event).finished:
        raise ValidationError(_("Loppuottelu tai pronssiottelu on vielä pelaamatta."), code="incomplete")
    result_actions.confirm_for_publication(event, confirm or {}, user)
    event.finished_at = timezone.now()
    event.save(update_fields=["finished_at"])
    publication.record_publication(event, user if getattr(user, "is_authenticated", False) else None)


def final_places(event) -> list[tuple[int, int]] | None:
    """The team places for the published record, once the competition is decided (None before)."""
    comp = results.load(event)
    if not comp.finished:
        return None
    return [(place, team.pk) for place, team in comp.ranking()]


def season_marks(season) -> dict:
    """Next season's marks from a season's team competitions (RULES.md §6): ``host`` (the club of the
    winning team, or None) and ``cup_eligible`` (ids of clubs that took part with a team not marked
    "title only": taking part is required to host a cup event)."""
    host, eligible = None, set()
    for event in Event.objects.filter(season=season, kind=Event.Kind.SM_TEAM, drawn_at__isnull=False):
        comp = results.load(event)
        eligible |= {c.pk for c in comp.eligible_clubs}
        if comp.host is not None:
            host = comp.host.club.pk
    return {"host": None if host is None else Club.objects.get(pk=host), "cup_eligible": eligible}
