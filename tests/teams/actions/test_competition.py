"""The team competition's services (RULES.md §6): teams and the reinforcement rule, the bracket for 2 to
20 teams through the database, declarations, starting matches, the bracket moving on by itself when pair
results are saved through ``tournaments.actions``, corrections, places and next season's marks."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.core.exceptions import ValidationError

from scoring import knockout
from teams import results
from teams.actions import bracket as bracket_actions
from teams.actions import common, orders, rosters
from teams.actions import places as places_actions
from teams.actions import substitutes as substitutes_actions
from teams.models import PairMatchLink, Team, TeamMatch, TeamOrder, TeamRound
from tests.teams.builders import (
    add_team,
    add_teams,
    club,
    declare,
    drawn_event,
    pair_matches,
    play,
    players,
    row,
    start,
    team_event,
    win,
)
from tournaments.actions import results as result_actions
from tournaments.actions.simulation import play_matches
from tournaments.models import Match

# --- teams and the reinforcement rule ---------------------------------------------------------------------


def test_team_with_three_new_pairs(make_event, organiser):
    event = team_event(make_event, organiser)
    team = add_team(event, "Kemin Kasat")
    assert [tp.number for tp in team.team_pairs.all()] == [1, 2, 3]
    assert all(
        tp.pair.event_id == event.pk and tp.pair.club_id == team.club_id for tp in team.team_pairs.all()
    )
    assert team.reinforcements == 0 and not team.title_only


@pytest.mark.parametrize(("outside", "title_only"), [(0, False), (1, False), (2, True), (3, True)])
def test_more_than_one_outside_pair_plays_for_the_title_only(make_event, outside, title_only):
    event = team_event(make_event)
    team = add_team(event, "Joukkue", outside=outside)
    assert team.reinforcements == outside
    assert team.title_only is title_only
    comp = results.load(event)
    assert [c.pk for c in comp.eligible_clubs] == ([] if title_only else [team.club_id])


def test_a_pair_with_one_home_player_represents_the_team_club(make_event):
    """Decision: the team's club when either player represents it; else the first player's club."""
    event = team_event(make_event)
    home, other = club("Koti"), club("Muu")
    (h1,), (o1, o2) = players(1, home), players(2, other)
    assert rosters.default_pair_club(home, o1, h1, event.season) == home
    assert rosters.default_pair_club(home, o1, o2, event.season) == other


def test_team_refusals(make_event):
    event = team_event(make_event)
    add_team(event, "Kasat")
    p = players(6)
    pairs = [rosters.NewPair(p[0], p[1]), rosters.NewPair(p[2], p[3]), rosters.NewPair(p[4], p[5])]
    with pytest.raises(ValidationError, match="jo joukkue nimeltä"):
        rosters.create_team(event, club=club("X"), name="kasat", leader_name="J", pairs=pairs)
    with pytest.raises(ValidationError, match="kolme paria"):
        rosters.create_team(event, club=club("X"), name="Uusi", leader_name="J", pairs=pairs[:2])
    twice = [rosters.NewPair(p[0], p[1]), rosters.NewPair(p[1], p[2]), rosters.NewPair(p[4], p[5])]
    with pytest.raises(ValidationError, match="kahteen pariin"):
        rosters.create_team(event, club=club("X"), name="Uusi", leader_name="J", pairs=twice)
    taken = Team.objects.get(name="Kasat").team_pairs.first().pair
    with pytest.raises(ValidationError, match="on jo joukkueessa Kasat"):
        rosters.create_team(event, club=club("X"), name="Uusi", leader_name="J", pairs=[taken, *pairs[1:]])
    # a player already in a pair of the event (tournaments refuses it, and nothing is half-saved)
    member = taken.members.first().player
    with pytest.raises(ValidationError, match="jo toisessa parissa"):
        rosters.create_team(
            event,
            club=club("X"),
            name="Uusi",
            leader_name="J",
            pairs=[rosters.NewPair(member, p[0]), *pairs[1:]],
        )
    assert Team.objects.filter(event=event).count() == 1


def test_teams_fixed_once_drawn(make_event, organiser):
    event, teams = drawn_event(make_event, organiser, 3)
    with pytest.raises(ValidationError, match="jo arvottu"):
        add_team(event, "Myöhässä")
    with pytest.raises(ValidationError, match="jo arvottu"):
        rosters.delete_team(teams[0])
    with pytest.raises(ValidationError, match="vain kerran"):
        bracket_actions.draw(event, organiser, seed=1)


def test_draw_needs_two_teams(make_event, organiser):
    event = team_event(make_event, organiser)
    add_team(event, "Yksin")
    with pytest.raises(ValidationError, match="vähintään kaksi"):
        bracket_actions.draw(event, organiser)


def test_draw_is_refused_for_another_kind_of_event(make_event, organiser):
    event = make_event()
    with pytest.raises(ValidationError, match="ei ole joukkuekisa"):
        bracket_actions.draw(event, organiser)


# --- the bracket for 2 to 20 teams ------------------------------------------------------------------------


def play_out(event, rng: random.Random) -> None:
    """Declare, start and play every team match as soon as it exists, to the end (random pair results)."""
    for _step in range(64):
        pending = [r for r in results.load(event).rows if not r.bye and r.winner_id is None]
        if not pending:
            return
        for r in pending:
            start(r)
        play_matches(Match.objects.filter(event=event, stage="team", status="scheduled"), rng)
        bracket_actions.sync_bracket(event)
    raise AssertionError("the bracket did not finish")


# From 9 teams on each case takes seconds: those are slow (make test-fast keeps 2 to 8).
@pytest.mark.parametrize("n", [n if n < 9 else pytest.param(n, marks=pytest.mark.slow) for n in range(2, 21)])
def test_bracket_for_n_teams(make_event, organiser, n):
    event, teams = drawn_event(make_event, organiser, n, seed=1000 + n)
    size = knockout.bracket_size(n)
    rounds = size.bit_length() - 1
    assert event.draw_seed == 1000 + n and event.drawn_at is not None
    assert list(TeamRound.objects.filter(event=event).values_list("number", flat=True)) == list(
        range(1, rounds + 1)
    )
    # round 1: every slot stored, the byes exactly where scoring.knockout puts them, each team once
    first = list(TeamMatch.objects.filter(event=event, round=1).order_by("slot"))
    assert [r.slot for r in first] == list(range(1, size // 2 + 1))
    assert tuple(r.slot for r in first if r.bye) == knockout.bye_slots(n)
    drawn = [t for r in first for t in (r.team_a_id, r.team_b_id) if t is not None]
    assert sorted(drawn) == sorted(t.pk for t in teams)
    expected = knockout.draw_bracket([str(t.pk) for t in teams], 1000 + n)
    assert [(str(r.team_a_id), str(r.team_b_id) if r.team_b_id else None) for r in first] == [
        (m.a, m.b) for m in expected.round_matches(1)
    ]
    # byes spread: two bye teams meet in round 2 only where the count makes it unavoidable
    byes = size - n
    flags = [r.bye for r in first]
    meetings = sum(1 for i in range(0, len(flags) - 1, 2) if flags[i] and flags[i + 1])
    assert meetings == max(0, byes - size // 4)
    # a round-2 match of two bye teams exists at once, before anything is played
    for i in range(0, len(flags) - 1, 2):
        if flags[i] and flags[i + 1]:
            assert TeamMatch.objects.filter(event=event, round=2, slot=i // 2 + 1).exists()

    play_out(event, random.Random(n))
    comp = results.load(event)
    assert comp.finished
    third = TeamMatch.objects.filter(event=event, third_place=True)
    assert third.exists() is (n >= 4)
    places = sorted(p for p, _t in comp.ranking())
    assert len(places) == n
    assert places[: min(n, 4)] == list(range(1, min(n, 4) + 1))
    if n >= 4:
        semi_losers = {r.loser_id for r in comp.rows if r.round == rounds - 1 and not r.bye}
        t = third.get()
        assert {t.team_a_id, t.team_b_id} == semi_losers
        assert (t.round, t.slot) == (rounds, 2)
    # shared places by the round reached: place k is 1 + the teams strictly ahead
    for place in places:
        assert place == 1 + sum(1 for p in places if p < place)
    assert comp.host == comp.ranking()[0][1]


def test_default_days_and_moving_a_round(make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 8)  # rounds 1–3; Saturday 12.12., Sunday 13.12.
    days = dict(TeamRound.objects.filter(event=event).values_list("number", "day"))
    assert days == {1: dt.date(2026, 12, 12), 2: dt.date(2026, 12, 13), 3: dt.date(2026, 12, 13)}
    bracket_actions.set_round_day(event, 2, dt.date(2026, 12, 12))
    assert TeamRound.objects.get(event=event, number=2).day == dt.date(2026, 12, 12)
    with pytest.raises(ValidationError, match="kisan päivä"):
        bracket_actions.set_round_day(event, 2, dt.date(2026, 12, 20))
    start(row(event, 1, 1))
    with pytest.raises(ValidationError, match="jo alkanut"):
        bracket_actions.set_round_day(event, 1, dt.date(2026, 12, 13))


# --- declarations and starting ------------------------------------------------------------------------------


@pytest.fixture
def two(make_event, organiser):
    """Two teams: the bracket is the final only."""
    event, (t1, t2) = drawn_event(make_event, organiser, 2)
    return event, row(event, 1, 1)


def test_declaring_and_the_lock(two):
    event, final = two
    a, b = final.team_a, final.team_b
    declare(final, a, (3, 1, 2))
    declare(final, a, (2, 3, 1))  # may change while b has not declared
    order = TeamOrder.objects.get(team_match=final, team=a)
    numbers = {tp.pair_id: tp.number for tp in a.team_pairs.all()}
    assert [numbers[p] for p in order.pair_ids] == [2, 3, 1]
    assert not orders.orders_locked(final)
    declare(final, b)
    assert orders.orders_locked(final)
    with pytest.raises(ValidationError, match="lukittu"):
        declare(final, a)
    with pytest.raises(ValidationError, match="lukittu"):
        declare(final, b, (3, 2, 1))


def test_declaration_refusals(two, make_event):
    event, final = two
    a, b = final.team_a, final.team_b
    b_pairs = [tp.pair_id for tp in b.team_pairs.all()]
    with pytest.raises(ValidationError, match="kolmesta parista"):
        orders.declare_order(final, a, b_pairs, common.Actor(via_link=True))
    a_pairs = [tp.pair_id for tp in a.team_pairs.all()]
    with pytest.raises(ValidationError, match="kolmesta parista"):
        orders.declare_order(final, a, [a_pairs[0], a_pairs[0], a_pairs[1]], common.Actor(via_link=True))
    stranger = add_team(team_event(make_event), "Muualta")
    with pytest.raises(ValidationError, match="ei pelaa tätä ottelua"):
        declare(final, stranger)


def test_start_needs_both_orders_and_creates_pair_k_against_pair_k(two):
    event, final = two
    a, b = final.team_a, final.team_b
    declare(final, a, (3, 1, 2))
    with pytest.raises(ValidationError, match="ilmoitettava järjestyksensä"):
        orders.start_team_match(final, None)
    declare(final, b, (2, 1, 3))
    orders.start_team_match(final, None)
    final.refresh_from_db()
    assert final.started_at is not None
    a_num = {tp.number: tp.pair_id for tp in a.team_pairs.all()}
    b_num = {tp.number: tp.pair_id for tp in b.team_pairs.all()}
    matches = pair_matches(final)
    assert [(m.pair_a_id, m.pair_b_id) for m in matches] == [
        (a_num[3], b_num[2]),
        (a_num[1], b_num[1]),
        (a_num[2], b_num[3]),
    ]
    assert [(m.stage, m.round, m.table, m.deals_planned) for m in matches] == [
        ("team", 1, 1, 16),
        ("team", 1, 2, 16),
        ("team", 1, 3, 16),
    ]
    with pytest.raises(ValidationError, match="jo alkanut"):
        declare(final, a)
    with pytest.raises(ValidationError, match="jo alkanut"):
        orders.start_team_match(final, None)


def test_start_round_starts_the_declared_and_waits_for_the_rest(make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 8)
    r1, r2, r3 = row(event, 1, 1), row(event, 1, 2), row(event, 1, 3)
    for r in (r1, r2):
        declare(r, r.team_a)
        declare(r, r.team_b)
    declare(r3, r3.team_a)
    started, waiting = orders.start_round(event, 1, organiser)
    assert {r.pk for r in started} == {r1.pk, r2.pk}
    assert len(waiting) == 2
    assert Match.objects.filter(event=event, stage="team").count() == 6
    # tables are unique in the round: slot s uses 3s − 2 … 3s
    assert sorted(Match.objects.filter(event=event).values_list("table", flat=True)) == [1, 2, 3, 4, 5, 6]
    declare(r3, r3.team_b)
    started, waiting = orders.start_round(event, 1, organiser)
    assert [r.pk for r in started] == [r3.pk] and len(waiting) == 1
    assert sorted(
        Match.objects.filter(event=event, round=1, table__gt=6).values_list("table", flat=True)
    ) == [7, 8, 9]


def test_cancel_start_until_a_result(two):
    event, final = two
    start(final)
    orders.cancel_start(final)
    final.refresh_from_db()
    assert final.started_at is None and not Match.objects.filter(event=event).exists()
    assert TeamOrder.objects.filter(team_match=final).count() == 2  # still declared, still locked
    start(final)
    win(pair_matches(final)[0], "A")
    with pytest.raises(ValidationError, match="jo kirjattu tuloksia"):
        orders.cancel_start(final)


# --- the bracket moves on by itself ----------------------------------------------------------------------


def test_advancement_by_itself_through_add_entry(make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 4)  # semis (1, 1) and (1, 2), then final and third
    s1, s2 = row(event, 1, 1), row(event, 1, 2)
    start(s1)
    first, second, third = pair_matches(s1)
    win(first, "A")
    assert not TeamMatch.objects.filter(event=event, round=2).exists()
    win(second, "B")
    assert not TeamMatch.objects.filter(event=event, round=2).exists()
    win(third, "A")  # 2–1 to team a: decided
    assert results.load(event).row(1, 1).winner_id == s1.team_a_id
    assert not TeamMatch.objects.filter(event=event, round=2).exists()  # the other semifinal is unplayed
    play(s2, s2.team_b, score=(2, 0))  # two pair wins are enough
    final, bronze = row(event, 2, 1), row(event, 2, 2)
    assert (final.team_a_id, final.team_b_id) == (s1.team_a_id, s2.team_b_id)
    assert (bronze.team_a_id, bronze.team_b_id, bronze.third_place) == (s1.team_b_id, s2.team_a_id, True)
    play(final, final.team_b)
    play(bronze, bronze.team_a, score=(2, 0))
    comp = results.load(event)
    assert comp.finished
    assert {t.pk: p for p, t in comp.ranking()} == {
        s2.team_b_id: 1,
        s1.team_a_id: 2,
        s1.team_b_id: 3,
        s2.team_a_id: 4,
    }
    assert comp.host.pk == s2.team_b_id
    with pytest.raises(ValidationError, match="Vahvista ensin kaikki tulokset"):
        places_actions.publish(event, organiser)  # every pair match's result is confirmed first (issue #16)
    left = {m.pk: m.version for m in result_actions.unconfirmed(event)}
    places_actions.publish(event, organiser, confirm=left)  # … in the same step
    event.refresh_from_db()
    assert event.finished_at is not None and not result_actions.unconfirmed(event).exists()


def test_publish_refused_until_final_and_third_place(make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 4)
    play(row(event, 1, 1), row(event, 1, 1).team_a)
    play(row(event, 1, 2), row(event, 1, 2).team_a)
    play(row(event, 2, 1), row(event, 2, 1).team_a)
    with pytest.raises(ValidationError, match="pelaamatta"):
        places_actions.publish(event, organiser)


def test_a_corrected_result_mends_the_next_match_until_it_starts(make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 4)
    s1, s2 = row(event, 1, 1), row(event, 1, 2)
    play(s1, s1.team_a, score=(2, 1))
    play(s2, s2.team_a, score=(2, 1))
    final = row(event, 2, 1)
    declare(final, final.team_a)
    # correct the deciding pair match of the first semifinal: undo its last line, team a no longer won
    deciding = pair_matches(s1)[2]
    result_actions.delete_last_entry(deciding, version=None, actor=result_actions.Actor(user=None))
    assert not TeamMatch.objects.filter(event=event, round=2).exists()  # final and third place wait
    win(Match.objects.get(pk=deciding.pk), "B")  # now team b wins the semifinal 2–1
    final = row(event, 2, 1)
    assert final.team_a_id == s1.team_b_id
    assert not TeamOrder.objects.filter(team_match=final).exists()  # declared against another team
    assert row(event, 2, 2).team_a_id == s1.team_a_id


def test_a_correction_that_would_change_a_started_match_is_refused(make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 4)
    s1, s2 = row(event, 1, 1), row(event, 1, 2)
    play(s1, s1.team_a, score=(2, 1))
    play(s2, s2.team_a, score=(2, 1))
    start(row(event, 2, 1))
    deciding = pair_matches(s1)[2]
    with pytest.raises(result_actions.ResultRefused, match="on jo alkanut"):
        result_actions.delete_last_entry(
            deciding, version=None, actor=result_actions.Actor(user=None)
        )
    deciding.refresh_from_db()
    assert deciding.status == "finished" and deciding.entries.count() == 1  # nothing changed
    # a correction that keeps the winner is fine
    entry = result_actions.EntryData(kind="deal", game="rami", caller_seat=2, tricks_a=13, tricks_b=0)
    first = pair_matches(s1)[0]
    result_actions.replace_entry(
        first, 1, entry, version=None, actor=result_actions.Actor(user=None)
    )


# --- substitutes -------------------------------------------------------------------------------------------


@pytest.fixture
def eight(make_event, organiser):
    """Eight teams: round 1 on Saturday 12.12., the semifinals and the final on Sunday 13.12."""
    return drawn_event(make_event, organiser, 8)


def test_naming_a_substitute(eight):
    event, teams = eight
    (free,) = players(1)
    substitutes_actions.name_substitute(teams[0], free, common.Actor(via_link=True))
    assert Team.objects.get(pk=teams[0].pk).substitute == free
    substitutes_actions.name_substitute(teams[0], None, common.Actor(via_link=True))
    assert Team.objects.get(pk=teams[0].pk).substitute is None


def test_substitute_refused_when_playing_in_a_team(eight):
    event, teams = eight
    own = teams[0].team_pairs.first().pair.members.first().player
    other = teams[1].team_pairs.first().pair.members.first().player
    with pytest.raises(ValidationError, match="pelaa jo parissa"):
        substitutes_actions.name_substitute(teams[0], own, common.Actor())
    with pytest.raises(ValidationError, match="pelaa jo joukkueessa"):
        substitutes_actions.name_substitute(teams[0], other, common.Actor())


def test_substitute_refused_when_another_teams_substitute(eight):
    event, teams = eight
    (free,) = players(1)
    substitutes_actions.name_substitute(teams[0], free, common.Actor())
    with pytest.raises(ValidationError, match="on jo joukkueen"):
        substitutes_actions.name_substitute(teams[1], free, common.Actor())


def test_substitute_refused_when_already_played_for_another_team(eight):
    event, _teams = eight
    r = row(event, 1, 1)
    x, y = r.team_a, r.team_b
    (sub,) = players(1)
    substitutes_actions.name_substitute(x, sub, common.Actor())
    out = x.team_pairs.first().pair.members.first().player
    declare(r, x, substitute_for=out)
    declare(r, y)
    orders.start_team_match(r, None)
    play(r, y)  # x is out on Saturday, after its substitute played
    other = row(event, 1, 2).team_a
    with pytest.raises(ValidationError, match="jo pelannut joukkueessa"):
        substitutes_actions.name_substitute(other, sub, common.Actor())


def test_sunday_substitute_refused_when_knocked_out_on_saturday(eight):
    event, _teams = eight
    r1 = row(event, 1, 1)
    x, winner = r1.team_a, r1.team_b
    (sub,) = players(1)
    substitutes_actions.name_substitute(x, sub, common.Actor())  # named, never played
    play(r1, winner)  # x is out on Saturday 12.12.
    # a team whose next match is on Saturday may take him (he never played for x) ...
    saturday_team = row(event, 1, 3).team_a
    substitutes_actions.name_substitute(saturday_team, sub, common.Actor())
    substitutes_actions.name_substitute(saturday_team, None, common.Actor())
    # ... but not for a match on Sunday (the winner's semifinal, 13.12.)
    with pytest.raises(ValidationError, match="putosi jo joukkueen"):
        substitutes_actions.name_substitute(winner, sub, common.Actor())
    # moving round 2 to Saturday makes it a Saturday substitution again
    bracket_actions.set_round_day(event, 2, dt.date(2026, 12, 12))
    substitutes_actions.name_substitute(winner, sub, common.Actor())


def test_substitute_refused_once_the_match_started(eight):
    event, _teams = eight
    r = row(event, 1, 1)
    start(r)
    (sub,) = players(1)
    with pytest.raises(ValidationError, match="jo alkanut"):
        substitutes_actions.name_substitute(r.team_a, sub, common.Actor())


def test_substitute_cannot_be_changed_when_declared_to_play(eight):
    event, _teams = eight
    r = row(event, 1, 1)
    (s1, s2) = players(2)
    substitutes_actions.name_substitute(r.team_a, s1, common.Actor())
    declare(
        r,
        Team.objects.get(pk=r.team_a_id),
        substitute_for=r.team_a.team_pairs.first().pair.members.first().player,
    )
    with pytest.raises(ValidationError, match="varamies pelaa"):
        substitutes_actions.name_substitute(r.team_a, s2, common.Actor())


def test_substitute_must_replace_a_player_of_the_team(eight):
    event, teams = eight
    r = row(event, 1, 1)
    stranger = r.team_b.team_pairs.first().pair.members.first().player
    with pytest.raises(ValidationError, match="ei ole varamiestä"):
        declare(r, r.team_a, substitute_for=stranger)
    (s1,) = players(1)
    substitutes_actions.name_substitute(r.team_a, s1, common.Actor())
    with pytest.raises(ValidationError, match="joukkueen pelaajan tilalla"):
        declare(r, Team.objects.get(pk=r.team_a_id), substitute_for=stranger)


# --- next season ---------------------------------------------------------------------------------------------


def test_season_marks(make_event, organiser):
    event = team_event(make_event, organiser)
    kemi = club("Kemi")
    winner = add_team(event, "Kemi I", home=kemi)
    add_team(event, "Kemi II", home=kemi, outside=2)  # title only, but Kemi took part with another team
    oulu = add_team(event, "Oulu", home=club("Oulu"), outside=2)  # title only: Oulu not eligible
    add_team(event, "Tornio", home=club("Tornio"), outside=1)
    bracket_actions.draw(event, organiser, seed=5)
    for _ in range(3):
        for r in results.load(event).rows:
            if not r.bye and r.winner_id is None:
                play(r, winner if winner.pk in (r.team_a_id, r.team_b_id) else r.team_a)
    marks = places_actions.season_marks(event.season)
    assert marks["host"] == kemi
    assert marks["cup_eligible"] == {kemi.pk, club("Tornio").pk}
    assert oulu.club_id not in marks["cup_eligible"]


def test_pair_match_links_are_the_team_stage(two):
    event, final = two
    start(final)
    assert PairMatchLink.objects.filter(team_match=final).count() == 3
    assert set(Match.objects.filter(event=event).values_list("stage", flat=True)) == {"team"}


def test_many_teams_from_one_club(make_event, organiser):
    event = team_event(make_event, organiser)
    add_teams(event, 3)
    assert Team.objects.filter(event=event).count() == 3
