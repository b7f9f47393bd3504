"""Substitutes (RULES.md §6): who may be named, across the competition's days."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from registry.bans import check_not_banned
from registry.models import Player
from teams import results
from teams.actions.common import Actor, _day, _locked, _refuse_if_published
from teams.models import Team, TeamOrder
from tournaments.models import PairMember


def check_substitute(team: Team, player: Player, day, comp: results.Competition | None = None) -> None:
    """Refuse a substitute (*varamies*) the rules forbid (RULES.md §6), for a match on ``day``:

    - not a player banned on the event's dates (issue #29);
    - a person plays for one team: not a player of any pair of the event, nor the substitute of another
      team still in the competition;
    - a player who has already played for another team (a substitute who played in one of its started
      matches) cannot become this team's substitute;
    - **Decision (Saturday and Sunday):** for a match on a later day than the event's first, not someone
      knocked out on an earlier day: the substitute of a team whose last match was on an earlier day.
    """
    event = team.event
    check_not_banned([player], event.starts_on, event.ends_on)
    comp = comp or results.load(event)
    member = PairMember.objects.filter(event=event, player=player).select_related("pair").first()
    if member is not None:
        other = Team.objects.filter(team_pairs__pair=member.pair).first()
        if other is None or other.pk == team.pk:
            raise ValidationError(
                _("%(name)s pelaa jo parissa tässä kisassa: varamies ei voi olla joukkueen pelaaja.")
                % {"name": player.full_name},
                code="in_pair",
            )
        raise ValidationError(
            _("%(name)s pelaa jo joukkueessa %(team)s: pelaaja pelaa vain yhdessä joukkueessa.")
            % {"name": player.full_name, "team": other.name},
            code="other_team",
        )
    played = (
        TeamOrder.objects.filter(
            team_match__event=event,
            substitute=player,
            substitute_for__isnull=False,
            team_match__started_at__isnull=False,
        )
        .exclude(team=team)
        .select_related("team")
        .first()
    )
    if played is not None:
        raise ValidationError(
            _("%(name)s on jo pelannut joukkueessa %(team)s: hän ei voi olla toisen joukkueen varamies.")
            % {"name": player.full_name, "team": played.team.name},
            code="played",
        )
    others = set(
        Team.objects.filter(event=event, substitute=player).exclude(pk=team.pk).values_list("pk", flat=True)
    ) | set(
        TeamOrder.objects.filter(
            team_match__event=event, substitute=player, team_match__started_at__isnull=False
        )
        .exclude(team=team)
        .values_list("team_id", flat=True)
    )
    for other_id in sorted(others):
        other = comp.teams[other_id]
        out_on = comp.eliminated_on(other)
        if day is not None and out_on is not None and day > event.starts_on and out_on < day:
            raise ValidationError(
                _(
                    "%(name)s putosi jo joukkueen %(team)s mukana %(day)s: hän ei voi olla varamies "
                    "myöhempänä päivänä."
                )
                % {"name": player.full_name, "team": other.name, "day": _day(out_on)},
                code="eliminated_earlier",
            )
        if other.substitute_id == player.pk and not comp.out(other):
            raise ValidationError(
                _("%(name)s on jo joukkueen %(team)s varamies: pelaaja pelaa vain yhdessä joukkueessa.")
                % {"name": player.full_name, "team": other.name},
                code="other_substitute",
            )


@transaction.atomic
def name_substitute(team: Team, player: Player | None, actor: Actor) -> Team:
    """Name (or clear, with None) the team's substitute, before its next match starts (RULES.md §6)."""
    event = _locked(team.event)
    _refuse_if_published(event)
    team = Team.objects.select_related("event").get(pk=team.pk)
    comp = results.load(event)
    current = comp.current_row(comp.teams[team.pk])
    if comp.drawn and comp.out(comp.teams[team.pk]):
        raise ValidationError(_("Joukkue on jo pelannut viimeisen ottelunsa."), code="out")
    if current is not None and current.started_at is not None:
        raise ValidationError(
            _("Ottelu on jo alkanut: varamiehen voi nimetä vasta ennen joukkueen seuraavaa ottelua."),
            code="started",
        )
    if current is not None:
        order = current.declared.get(team.pk)
        if order is not None and order.substitute_for_id is not None:
            raise ValidationError(
                _(
                    "Ilmoitetussa järjestyksessä varamies pelaa: varamiestä ei voi enää vaihtaa tähän otteluun."
                ),
                code="declared",
            )
    if player is not None:
        number = comp.next_round(comp.teams[team.pk]) if comp.drawn else None
        day = comp.day(number) if number else event.starts_on
        check_substitute(team, player, day, comp)
    team.substitute = player
    team.save(update_fields=["substitute"])
    if current is not None and current.started_at is None:
        TeamOrder.objects.filter(team_match_id=current.pk, team=team).update(substitute=player)
    return team
