"""``teams.simulation.simulate_team_competition``: a whole competition from the demo registry (loaded on an
empty database), played to the final and the match for third place, reproducible from the seed."""

from __future__ import annotations

from registry.models import Club
from teams import results
from teams.models import Team, TeamMatch
from teams.simulation import simulate_team_competition
from tournaments.models import Event, Match


def test_ten_teams_played_to_the_end(db):
    assert not Club.objects.exists()
    event = simulate_team_competition(10, 1)
    assert Club.objects.exists()  # the demo registry was loaded
    assert event.kind == Event.Kind.SM_TEAM and event.finished_at is not None and event.draw_seed == 1
    comp = results.load(event)
    assert comp.finished and len(comp.teams) == 10
    assert [p for p, _t in comp.ranking()] == [1, 2, 3, 4, 5, 5, 5, 5, 9, 9]
    assert TeamMatch.objects.filter(event=event, third_place=True).count() == 1
    assert not Match.objects.filter(event=event).exclude(status="finished").exists()
    # every team a club's, spread over the clubs; each pair in one team
    assert Team.objects.filter(event=event).values("club").distinct().count() == 10
    assert Match.objects.filter(event=event, stage="team").count() == 3 * (10 - 1 + 1)


def test_two_simulations_side_by_side(db):
    first = simulate_team_competition(2, 4)
    second = simulate_team_competition(3, 4)
    assert first.slug != second.slug
    assert results.load(first).finished and results.load(second).finished
    assert TeamMatch.objects.filter(event=second, third_place=True).count() == 0  # 3 teams: no third place
