"""Issue #14, point 2: corrections carry through. A changed Saturday, Sunday or placement result updates
every later match that has no result yet (pairs re-placed); where a later match already has a result the
correction is refused, naming the matches to clear first, and nothing changes. The final places (and so
the cup) follow, since they are derived from the results."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import call_command

from tournaments.actions import results as result_actions
from tournaments.actions import sunday
from tournaments.actions.simulation import play_matches
from tournaments.models import Event, Match, Pair
from tournaments.readmodel import build

ORGANISER = result_actions.Actor(user=None)


def simulated(until: str, seed: int = 21) -> Event:
    out = StringIO()
    call_command("simulate_event", "--pairs", "16", "--seed", str(seed), "--until", until, stdout=out)
    return Event.objects.get(slug=out.getvalue().split()[-1])


def flip(match: Match, reason: str = "") -> None:
    """Give the match to the other pair: its lines cleared, a paper result 40–20 for the loser."""
    match = Match.objects.get(pk=match.pk)
    loser_is_a = build.build(match.event_id).match(match.pk).outcome.winner == match.pair_b_id
    while match.entries.exists():
        match = result_actions.delete_last_entry(match, version=None, actor=ORGANISER, reason=reason)
    a, b = (40, 20) if loser_is_a else (20, 40)
    result_actions.save_paper(match, result_actions.PaperData(a, b, match.deals_planned), version=None, actor=ORGANISER,
                        reason=reason)


def placement(event, tier: int, round_: str, slot: int = 1) -> Match:
    return Match.objects.get(event=event, stage="placement", tier=tier, placement_round=round_, slot=slot)


@pytest.fixture
def semis_played(db):
    event = simulated("sunday")
    sunday.create_placements(event)
    play_matches(event.matches.filter(stage="placement"), random.Random(3))
    sunday.create_placements(event)  # the finals and third-place matches, with no result yet
    return event


def test_a_corrected_semifinal_moves_the_finals_pairs(semis_played):
    event = semis_played
    semi = placement(event, 1, "semi", 1)
    old = build.build(event.pk).match(semi.pk).outcome.winner
    final, third = placement(event, 1, "final"), placement(event, 1, "third")
    assert old in (final.pair_a_id, final.pair_b_id)
    flip(semi)
    new = build.build(event.pk).match(semi.pk).outcome.winner
    assert new != old
    final, third = placement(event, 1, "final"), placement(event, 1, "third")
    assert new in (final.pair_a_id, final.pair_b_id) and old not in (final.pair_a_id, final.pair_b_id)
    assert old in (third.pair_a_id, third.pair_b_id) and new not in (third.pair_a_id, third.pair_b_id)


def test_a_correction_is_refused_where_a_later_match_has_a_result(semis_played):
    event = semis_played
    final = placement(event, 2, "final")
    play_matches(Match.objects.filter(pk=final.pk), random.Random(4))
    semi = placement(event, 2, "semi", 2)
    lines = semi.entries.count()
    pairs = (final.pair_a_id, final.pair_b_id)
    with pytest.raises(result_actions.ResultRefused, match="loppuottelu") as refused:
        flip(semi)
    assert "Poista ensin niiden tulokset" in " ".join(refused.value.messages)
    assert Match.objects.get(pk=semi.pk).entries.count() == lines  # the whole correction was undone
    final.refresh_from_db()
    assert (final.pair_a_id, final.pair_b_id) == pairs


def test_an_unfinished_semifinal_takes_its_unplayed_final_away(semis_played):
    event = semis_played
    semi = placement(event, 3, "semi", 1)
    result_actions.delete_last_entry(semi, version=None, actor=ORGANISER)  # the semifinal is open again
    assert not Match.objects.filter(event=event, stage="placement", tier=3, placement_round="final").exists()
    assert Match.objects.filter(event=event, stage="placement", tier=4, placement_round="final").exists()


def test_a_corrected_sunday_group_re_places_the_semifinals(db):
    event = simulated("sunday", seed=22)
    sunday.create_placements(event)
    before = {(m.tier, m.slot): (m.pair_a_id, m.pair_b_id) for m in event.matches.filter(stage="placement")}
    table = build.build(event.pk).stage_tables("sunday")[0]
    first, second = table.rows[0].pair.pk, table.rows[1].pair.pk
    mutual = next(m for m in table.matches if {m.pair_a_id, m.pair_b_id} == {first, second})
    flip(Match.objects.get(pk=mutual.pk))
    after = {(m.tier, m.slot): (m.pair_a_id, m.pair_b_id) for m in event.matches.filter(stage="placement")}
    assert after != before and set(after) == set(before)  # the same semifinals, other pairs in some
    order = [r.pair.pk for r in build.build(event.pk).stage_tables("sunday")[0].rows]
    # RULES.md §5: tier t's first semifinal is Sunday group 1's t-th pair against group 2's
    assert [after[(tier, 1)][0] for tier in (1, 2, 3, 4)] == order


def test_the_sunday_groups_follow_a_saturday_correction_until_sunday_starts(db):
    event = simulated("groups", seed=23)
    sunday.advance(event, None)
    seeding = sunday.current_seeding(event)
    group = build.build(event.pk).stage_tables("saturday")[0]  # a group of 2: its match decides
    (match,) = group.matches
    flip(Match.objects.get(pk=match.pk))
    assert sunday.current_seeding(event) != seeding  # the winner and the second swapped places
    play_matches(event.matches.filter(stage="sunday", round=1), random.Random(5))
    before = sunday.current_seeding(event)
    with pytest.raises(result_actions.ResultRefused, match="sunnuntain otteluissa on jo tuloksia"):
        flip(Match.objects.get(pk=match.pk))
    assert sunday.current_seeding(event) == before


def test_final_places_follow_a_correction_of_a_final(semis_played):
    event = semis_played
    for _step in range(2):
        play_matches(event.matches.filter(stage="placement"), random.Random(6))
        sunday.create_placements(event)
    places = build.build(event.pk).final_places
    final = placement(event, 1, "final")
    flip(final)
    again = build.build(event.pk).final_places
    assert again[:2] == ((1, places[1][1]), (2, places[0][1]))  # champion and runner-up swapped


def test_sunday_groups_play_same_club_pairs_first(db):
    """RULES.md §5: each Sunday group plays a round robin "ordered as in §4": pairs of the same club play
    their mutual match first (in round 1 where they can)."""
    event = simulated("groups", seed=24)
    sunday.advance(event, None)
    seeding = sunday.current_seeding(event)
    first, last = seeding[0][0], seeding[0][3]  # slots 1 and 4: the circle method pairs them in round 3
    Pair.objects.filter(pk=last).update(club_id=Pair.objects.get(pk=first).club_id)
    swapped = [[seeding[0][0], seeding[0][2], seeding[0][1], seeding[0][3]], *seeding[1:]]
    sunday.correct_seeding(event, swapped, None)  # stores the Sunday groups and their schedule again
    mutual = Match.objects.get(event=event, stage="sunday", pair_a__in=[first, last], pair_b__in=[first, last])
    assert mutual.round == 1
