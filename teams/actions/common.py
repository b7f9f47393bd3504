"""What every change of the team competition does first: the event locked (its results version bumped),
refused once published; who acts."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils import formats
from django.utils.translation import gettext as _

from tournaments.actions import results as result_actions
from tournaments.actions import versions
from tournaments.models import Event, Stage

TEAM = Stage.TEAM
Actor = result_actions.Actor  # who acts: an organiser, or a team leader through the team's link


def _locked(event: Event) -> Event:
    """The event locked for the transaction, its results version bumped (``tournaments.actions.versions``):
    every change of the team competition can change what its pages show."""
    event = versions.lock(event.pk)
    if event.kind != Event.Kind.SM_TEAM:
        raise ValidationError(_("Kisa ei ole joukkuekisa."), code="not_team_event")
    return event


def _refuse_if_published(event: Event) -> None:
    if event.finished_at is not None:
        raise ValidationError(_("Kisan tulokset on julkaistu: mitään ei voi enää muuttaa."), code="published")


def _day(day) -> str:
    return formats.date_format(day, "SHORT_DATE_FORMAT") if day else ""
