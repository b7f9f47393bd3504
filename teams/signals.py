"""The team competition's rows in the table of what each event shows (``tournaments.actions.dependents``): a
team, its pairs, the bracket's rounds and matches bump their event's results version whenever they are
saved or deleted (the admin, a command; the services bump it themselves), and a club or a player bumps
the team competitions that show it apart from its pairs: a club's teams, a team's substitute and a
declared substitute (or the player he sits in for)."""

from __future__ import annotations

from django.db.models import Q

from registry.models import Club, Player
from teams.models import Team, TeamMatch, TeamOrder, TeamPair, TeamRound
from tournaments.actions import dependents


def _club_competitions(club: Club) -> Q:
    return Q(pk__in=Team.objects.filter(club_id=club.pk).values("event_id"))


def _player_competitions(player: Player) -> Q:
    declared = TeamOrder.objects.filter(Q(substitute_id=player.pk) | Q(substitute_for_id=player.pk))
    return Q(pk__in=Team.objects.filter(substitute_id=player.pk).values("event_id")) | Q(
        pk__in=declared.values("team_match__event_id")
    )


dependents.watch(Club, _club_competitions, created=False)
dependents.watch(Player, _player_competitions, created=False)
dependents.watch(Team, lambda team: [team.event_id], owners=["event_id"])
dependents.watch(TeamPair, lambda team_pair: [team_pair.team.event_id], owners=["team_id"])
dependents.watch(TeamRound, lambda row: [row.event_id], owners=["event_id"])
dependents.watch(TeamMatch, lambda row: [row.event_id], owners=["event_id"])
