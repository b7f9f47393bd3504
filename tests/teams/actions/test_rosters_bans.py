"""A banned player (issue #29) in the team competition: refused as a team's player (a new pair, or an
entered pair that joins the team) and as a substitute, with the ban's end named; nothing saved."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from registry.models import Ban
from teams.actions import common, rosters
from teams.actions import substitutes as substitutes_actions
from teams.models import Team
from tests.teams.builders import add_team, club, drawn_event, players, team_event
from tournaments.actions import entries

pytestmark = pytest.mark.django_db


def ban(who, starts_on=dt.date(2026, 12, 1)):
    Ban.objects.create(
        player=who, starts_on=starts_on, ends_on=dt.date(2027, 12, 31), reason="Häiriköinti",
        decision="Hallituksen päätös 1.12.2026 §4", decided_on=starts_on,
    )
    return f"Pelaajalla {who.full_name} on pelikielto 31.12.2027 asti."


def new_pairs(home, n=3):
    found = players(2 * n, home)
    return [rosters.NewPair(found[2 * k], found[2 * k + 1]) for k in range(n)]


def test_a_team_with_a_banned_player_is_refused(make_event):
    event, home = team_event(make_event), club("Kasat ry")
    pairs = new_pairs(home)
    refusal = ban(pairs[1].player2)
    with pytest.raises(ValidationError) as refused:
        rosters.create_team(event, club=home, name="Kasat", leader_name="Johtaja", pairs=pairs)
    assert refused.value.code == "banned" and refused.value.messages == [refusal]
    assert not Team.objects.exists() and not event.pairs.exists()


def test_an_entered_pair_with_a_banned_player_cannot_join_a_team(make_event):
    event, home = team_event(make_event), club("Kasat ry")
    a, b = players(2, home)
    entered = entries.create_pair(event, a, b, home)  # entered before the ban
    refusal = ban(b)
    with pytest.raises(ValidationError) as refused:
        rosters.create_team(
            event, club=home, name="Kasat", leader_name="Johtaja", pairs=[entered, *new_pairs(home, 2)]
        )
    assert refused.value.messages == [refusal] and not Team.objects.exists()


def test_a_banned_substitute_is_refused_when_the_team_is_entered(make_event):
    event, home = team_event(make_event), club("Kasat ry")
    (sub,) = players(1)
    refusal = ban(sub)
    with pytest.raises(ValidationError) as refused:
        rosters.create_team(event, club=home, name="Kasat", leader_name="Johtaja", pairs=new_pairs(home), substitute=sub)
    assert refused.value.messages == [refusal] and not Team.objects.exists()


def test_a_banned_substitute_is_refused_after_the_draw(make_event, organiser):
    event, teams = drawn_event(make_event, organiser, 4)
    (sub,) = players(1)
    refusal = ban(sub)
    with pytest.raises(ValidationError) as refused:
        substitutes_actions.name_substitute(teams[0], sub, common.Actor(user=organiser))
    assert refused.value.code == "banned" and refused.value.messages == [refusal]
    assert Team.objects.get(pk=teams[0].pk).substitute is None


def test_a_team_entered_before_a_ban_can_still_be_edited_without_him_joining(make_event):
    """The refusal concerns who joins the team: a ban on a player already in it does not lock the team
    (the check-in list flags his pair)."""
    event = team_event(make_event)
    team = add_team(event, "Kasat")
    kept = [tp.pair for tp in team.team_pairs.order_by("number")]
    ban(kept[0].players[0])
    rosters.update_team(team, club=team.club, name="Kasat", leader_name="Uusi Johtaja", pairs=kept)
    assert Team.objects.get(pk=team.pk).leader_name == "Uusi Johtaja"
