"""The bracket: drawn once from a recorded seed (``scoring.knockout``), the days of the rounds, and moving
on by itself when a result changes (``result_changed``)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import draw as draw_core
from scoring import knockout
from teams import results
from teams.actions.common import TEAM, _locked
from teams.models import Team, TeamMatch, TeamOrder, TeamRound
from tournaments.actions import results as result_actions
from tournaments.actions import versions
from tournaments.models import Event
from tournaments.signals import result_changed


def default_day(event: Event, number: int, rounds: int):
    """RULES.md §6 as the project plays it (see ``TeamRound``): the semifinals and the last round on the
    event's last day, earlier rounds on its first."""
    return event.ends_on if number >= rounds - 1 else event.starts_on


@transaction.atomic
def draw(event: Event, user, *, seed: int | None = None) -> knockout.Bracket:
    """Draw the bracket once, from a recorded seed (RULES.md §6): the seed, time and who are the event's
    draw fields; the rounds get their default days and round 1's team matches (byes included) are
    created. Refused once drawn."""
    event = _locked(event)
    if event.drawn_at is not None:
        raise ValidationError(_("Kaavio on jo arvottu: arvonta tehdään vain kerran."), code="drawn")
    team_ids = list(Team.objects.filter(event=event).values_list("pk", flat=True))
    if len(team_ids) < 2:
        raise ValidationError(_("Kaavioon tarvitaan vähintään kaksi joukkuetta."), code="too_few")
    short = Team.objects.filter(event=event).exclude(pk__in=_complete_team_ids(event))
    if short.exists():
        names = ", ".join(t.name for t in short)
        raise ValidationError(
            _("Joukkueelta puuttuu pareja: %(names)s.") % {"names": names}, code="incomplete"
        )
    seed = draw_core.new_seed() if seed is None else seed
    bracket = knockout.draw_bracket([str(t) for t in team_ids], seed)
    event.draw_seed, event.drawn_at = seed, timezone.now()
    event.drawn_by = user if user is not None and getattr(user, "is_authenticated", False) else None
    event.save(update_fields=["draw_seed", "drawn_at", "drawn_by"])
    TeamRound.objects.bulk_create(
        TeamRound(event=event, number=n, day=default_day(event, n, bracket.rounds))
        for n in range(1, bracket.rounds + 1)
    )
    return sync_bracket(event)


def _complete_team_ids(event: Event) -> list[int]:
    return list(
        Team.objects.filter(event=event)
        .annotate(n=Count("team_pairs"))
        .filter(n=3)
        .values_list("pk", flat=True)
    )


@transaction.atomic
def set_round_day(event: Event, number: int, day) -> None:
    """Move a round to another day of the event, until one of its team matches has started."""
    event = _locked(event)
    found = TeamRound.objects.filter(event=event, number=number).first()
    if found is None:
        raise ValidationError(_("Kierrosta ei ole."), code="no_round")
    if not event.starts_on <= day <= event.ends_on:
        raise ValidationError(_("Päivän on oltava kisan päivä."), code="day_out_of_event")
    if TeamMatch.objects.filter(event=event, round=number, started_at__isnull=False).exists():
        raise ValidationError(_("Kierros on jo alkanut: päivää ei voi enää muuttaa."), code="started")
    found.day = day
    found.save(update_fields=["day"])


def sync_bracket(event: Event) -> knockout.Bracket:
    """Make the stored team matches what the bracket says: create every team match whose teams are now
    known (the next round's as soon as both winners are, the match for third place from the semifinal
    losers), and mend or remove one left behind by a corrected result while it has not started. A
    correction that would change a started team match is refused (the caller's transaction is undone)."""
    event = versions.lock(event.pk)
    comp = results.build(event)
    by_key = {(r.round, r.slot): r for r in comp.rows}
    bracket, known = results.replay(sorted(comp.teams), event.draw_seed, by_key, lambda r: r.winner_id)
    wanted = set()
    for m in known:
        key = (m.round, m.slot)
        wanted.add(key)
        a, b = int(m.a), (int(m.b) if m.b is not None else None)
        row = by_key.get(key)
        if row is None:
            TeamMatch.objects.create(
                event=event, round=m.round, slot=m.slot, third_place=m.third_place, team_a_id=a, team_b_id=b
            )
        elif (row.team_a_id, row.team_b_id) != (a, b):
            _refuse_if_started(row)
            TeamOrder.objects.filter(team_match_id=row.pk).delete()
            TeamMatch.objects.filter(pk=row.pk).update(team_a_id=a, team_b_id=b)
    for key, row in by_key.items():
        if key not in wanted:
            _refuse_if_started(row)
            TeamMatch.objects.filter(pk=row.pk).delete()
    return bracket


def _refuse_if_started(row: results.TeamMatchView) -> None:
    if row.started_at is not None:
        raise result_actions.ResultRefused(
            _(
                "Muutos vaihtaisi joukkueottelun voittajan, mutta seuraava joukkueottelu (kierros %(round)s) on jo "
                "alkanut. Peru ensin sen aloitus (järjestäjän sivulla), tai korjaa tulos niin, että voittaja pysyy."
            )
            % {"round": row.round},
            code="team_match_started",
        )


@receiver(result_changed)
def _bracket_moves_on(sender, match=None, group=None, **kwargs) -> None:
    """After every change to a pair match's result, the bracket catches up (RULES.md §6)."""
    if match is not None and match.stage == TEAM:
        sync_bracket(match.event)
