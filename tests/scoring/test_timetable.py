"""The event day's timetable (scoring.timetable, issue #19): hand cases and the invariants, by hypothesis.

Times are naive here (the core only compares and adds them); the web tests use the site's time zone."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.timetable import PlannedMatch, PlannedRound, follow_clock, left_minutes, match_minutes, timetable

DAY = dt.datetime(2026, 12, 12, 11, 15)


def at(hh: int, mm: int) -> dt.datetime:
    return DAY.replace(hour=hh, minute=mm)


def rounds(*deals: tuple[int, ...], start=DAY) -> list[PlannedRound]:
    return [
        PlannedRound(n, tuple(PlannedMatch(d) for d in ds), start if n == 1 else None)
        for n, ds in enumerate(deals, start=1)
    ]


# --- hand cases --------------------------------------------------------------------------------------


def test_a_match_lasts_its_deals_and_the_breaks_it_plays_past():
    assert match_minutes(12, 5) == 65  # 12 deals and the break after deal 6
    assert match_minutes(16, 5) == 90  # 16 deals and both breaks
    assert match_minutes(6, 5) == 30  # nothing after deal 6: no break
    assert match_minutes(7, 4) == 33
    assert match_minutes(13, 4) == 62
    assert match_minutes(0, 5) == 0


def test_with_no_result_every_round_starts_at_its_planned_time():
    times = timetable(rounds((12, 12), (12, 16), (12,)), minutes_per_deal=5)
    assert [t.planned for t in times] == [at(11, 15), at(12, 20), at(13, 50)]  # 65, then 90 (the 16-deal match)
    assert [t.estimated for t in times] == [t.planned for t in times]
    assert [t.finished for t in times] == [False, False, False]
    assert times[0].first_of_day and not times[1].first_of_day


def test_a_round_starts_when_the_previous_rounds_last_match_finishes():
    plan = rounds((12, 12), (12, 12), (12, 12))
    # round 1 runs late: one match in at 12.40, the other at 12.55 (planned end 12.20)
    late = [
        PlannedRound(1, (PlannedMatch(12, at(12, 40)), PlannedMatch(12, at(12, 55))), DAY),
        *plan[1:],
    ]
    times = timetable(late, minutes_per_deal=5)
    assert times[0].finished and times[0].ends == at(12, 55)
    assert times[1].estimated == at(12, 55) and times[1].delay == dt.timedelta(minutes=35)
    assert times[2].estimated == at(14, 0)  # round 2's planned length after its estimated start
    assert times[2].planned == at(13, 25)


def test_an_unfinished_match_keeps_the_round_open_until_its_expected_finish():
    half = [PlannedRound(1, (PlannedMatch(12, at(12, 50)), PlannedMatch(12)), DAY), *rounds((12,), (12,))[1:]]
    times = timetable(half, minutes_per_deal=5)
    assert not times[0].finished
    assert times[1].estimated == at(12, 50)  # the late result; the other match expected at 12.20
    # a caller that passes the clock: the open match finishes no earlier than now
    times = timetable(half, minutes_per_deal=5, now=at(13, 5))
    assert times[1].estimated == at(13, 5)


def test_an_early_finish_never_pulls_a_round_before_its_planned_time():
    early = [PlannedRound(1, (PlannedMatch(12, at(11, 50)), PlannedMatch(12, at(12, 0))), DAY), *rounds((12,), (12,))[1:]]
    times = timetable(early, minutes_per_deal=5)
    assert times[1].estimated == times[1].planned == at(12, 20)


def test_a_new_day_starts_at_its_own_planned_time_unless_the_day_before_ran_over():
    sunday = dt.datetime(2026, 12, 13, 9, 0)
    days = [
        PlannedRound(("saturday", 1), (PlannedMatch(12),), DAY),
        PlannedRound(("sunday", 1), (PlannedMatch(16),), sunday),
        PlannedRound(("placement", 1), (PlannedMatch(16),)),
    ]
    times = timetable(days, minutes_per_deal=5)
    assert [t.estimated for t in times] == [DAY, sunday, sunday + dt.timedelta(minutes=90)]
    assert times[1].first_of_day and not times[2].first_of_day
    # one long day (a one-day event): "Sunday" waits for Saturday's last match
    same_day = [days[0], PlannedRound(("sunday", 1), (PlannedMatch(16),), at(11, 30)), days[2]]
    times = timetable(same_day, minutes_per_deal=5)
    assert times[1].planned == at(11, 30) and times[1].estimated == at(12, 20)


def test_a_round_without_matches_takes_no_time():
    times = timetable([PlannedRound(1, (), DAY), PlannedRound(2, (PlannedMatch(12),))], minutes_per_deal=5)
    assert times[0].finished and times[0].ends == DAY and times[1].estimated == DAY


def test_a_result_of_unknown_time_counts_as_finished_at_its_expected_finish():
    times = timetable(
        [PlannedRound(1, (PlannedMatch(12, finished=True),), DAY), PlannedRound(2, (PlannedMatch(12),))],
        minutes_per_deal=5,
    )
    assert times[0].finished and times[1].estimated == at(12, 20)


def test_the_minutes_per_deal_change_the_plan():
    assert timetable(rounds((12,), (12,)), minutes_per_deal=4)[1].planned == at(12, 8)  # 48 + 5


def test_bad_input_is_refused():
    with pytest.raises(ScoringError) as e:
        timetable([PlannedRound(1, (PlannedMatch(12),))], minutes_per_deal=5)
    assert e.value.code == "no_start"
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ScoringError):
            timetable(rounds((12,)), minutes_per_deal=bad)
    with pytest.raises(ScoringError):
        match_minutes(-1, 5)
    assert timetable([], minutes_per_deal=5) == ()


# --- invariants --------------------------------------------------------------------------------------

deals = st.sampled_from([1, 6, 7, 12, 13, 16, 20, 24])
offsets = st.integers(min_value=-120, max_value=600)  # a result's minutes from the round's planned start


@st.composite
def events(draw):
    """Rounds of one or two days (the second a week on, so that the plan of the first never runs into
    it); each match maybe finished at some minutes from the first day's start."""
    n_rounds = draw(st.integers(min_value=1, max_value=8))
    second_day = draw(st.integers(min_value=1, max_value=n_rounds)) if n_rounds > 1 and draw(st.booleans()) else None
    out = []
    for n in range(1, n_rounds + 1):
        matches = []
        for d in draw(st.lists(deals, min_size=0, max_size=5)):
            finished = draw(st.none() | offsets)
            matches.append(PlannedMatch(d, None if finished is None else DAY + dt.timedelta(minutes=finished)))
        start = DAY if n == 1 else (DAY + dt.timedelta(days=7) if n == second_day else None)
        out.append(PlannedRound(n, tuple(matches), start))
    return out


minutes = st.integers(min_value=1, max_value=10)


@settings(max_examples=300, deadline=None)
@given(events(), minutes)
@pytest.mark.slow
def test_estimates_never_precede_the_plan_and_never_go_backwards(plan, per_deal):
    times = timetable(plan, minutes_per_deal=per_deal)
    assert len(times) == len(plan)
    for t in times:
        assert t.estimated >= t.planned and t.ends >= t.estimated and t.delay >= dt.timedelta(0)
    for before, after in zip(times, times[1:], strict=False):
        assert after.estimated >= before.estimated
        assert after.estimated >= before.ends  # a round starts once the previous round's last match finishes
        if not after.first_of_day:
            assert after.planned >= before.planned


@settings(max_examples=300, deadline=None)
@given(events(), minutes)
def test_a_round_starts_after_every_result_of_the_round_before(plan, per_deal):
    times = timetable(plan, minutes_per_deal=per_deal)
    for r, t in zip(plan[:-1], times[1:], strict=True):
        for m in r.matches:
            if m.finished_at is not None:
                assert t.estimated >= m.finished_at


@settings(max_examples=300, deadline=None)
@given(events(), minutes)
@pytest.mark.slow
def test_without_results_the_estimate_is_the_plan(plan, per_deal):
    blank = [PlannedRound(r.key, tuple(PlannedMatch(m.deals) for m in r.matches), r.starts) for r in plan]
    times = timetable(blank, minutes_per_deal=per_deal)
    assert all(t.estimated == t.planned for t in times)
    assert [t.finished for t in times] == [not r.matches for r in blank]


@settings(max_examples=300, deadline=None)
@given(events(), minutes, st.data())
def test_a_later_result_never_makes_an_estimate_earlier(plan, per_deal, data):
    """Monotone: a result that came in later moves no round earlier, and nothing up to its own round."""
    spots = [(i, j) for i, r in enumerate(plan) for j, m in enumerate(r.matches) if m.finished_at is not None]
    if not spots:
        return
    i, j = data.draw(st.sampled_from(spots))
    old = plan[i].matches[j]
    later = old.finished_at + dt.timedelta(minutes=data.draw(st.integers(min_value=0, max_value=300)))
    changed = list(plan)
    matches = list(plan[i].matches)
    matches[j] = PlannedMatch(old.deals, later)
    changed[i] = PlannedRound(plan[i].key, tuple(matches), plan[i].starts)
    before, after = timetable(plan, minutes_per_deal=per_deal), timetable(changed, minutes_per_deal=per_deal)
    for k, (b, a) in enumerate(zip(before, after, strict=True)):
        assert a.estimated >= b.estimated and a.ends >= b.ends
        if k <= i:
            assert a.estimated == b.estimated  # a result moves only the rounds after its own
        assert a.planned == b.planned  # the plan never follows the results


@settings(max_examples=200, deadline=None)
@given(events(), minutes, st.integers(min_value=0, max_value=600))
def test_the_clock_only_ever_delays(plan, per_deal, later):
    without = timetable(plan, minutes_per_deal=per_deal)
    with_now = timetable(plan, minutes_per_deal=per_deal, now=DAY + dt.timedelta(minutes=later))
    for a, b in zip(without, with_now, strict=True):
        assert b.estimated >= a.estimated and b.planned == a.planned


@settings(max_examples=200, deadline=None)
@given(events(), minutes)
def test_results_exactly_on_time_leave_the_plan_unchanged(plan, per_deal):
    """Each match finishing exactly when planned: every estimate is its planned time."""
    shape = [PlannedRound(r.key, tuple(PlannedMatch(m.deals) for m in r.matches), r.starts) for r in plan]
    planned = timetable(shape, minutes_per_deal=per_deal)
    on_time = [
        PlannedRound(
            r.key,
            tuple(PlannedMatch(m.deals, t.planned + dt.timedelta(minutes=match_minutes(m.deals, per_deal))) for m in r.matches),
            r.starts,
        )
        for r, t in zip(shape, planned, strict=True)
    ]
    assert [t.estimated for t in timetable(on_time, minutes_per_deal=per_deal)] == [t.planned for t in planned]


# --- the clock (issue #25.5) ------------------------------------------------------------------------


def test_a_running_round_past_its_expected_finish_moves_the_next_to_now_plus_what_is_left():
    # round 1 planned 11.15–12.20; at 13.00 one match is in, the other has 9 of its 12 deals on the sheet
    late = [PlannedRound(1, (PlannedMatch(12, at(12, 10)), PlannedMatch(12, deals_played=9)), DAY),
            *rounds((12,), (12,), (12,))[1:]]
    times = timetable(late, minutes_per_deal=5, now=at(13, 0))
    assert times[0].started and not times[0].finished
    assert times[1].estimated == at(13, 15) and not times[1].started  # 3 deals left: 15 minutes
    assert times[2].estimated == at(14, 20)
    # with 6 of 12 on the sheet the break after deal 6 is still to come: 30 + 5 minutes
    late[0] = PlannedRound(1, (PlannedMatch(12, at(12, 10)), PlannedMatch(12, deals_played=6)), DAY)
    assert timetable(late, minutes_per_deal=5, now=at(13, 0))[1].estimated == at(13, 35)
    # a match with nothing on its sheet (played on paper) can finish any minute: the next round is "now"
    late[0] = PlannedRound(1, (PlannedMatch(12, at(12, 10)), PlannedMatch(12)), DAY)
    assert timetable(late, minutes_per_deal=5, now=at(13, 0))[1].estimated == at(13, 0)


def test_matches_on_time_leave_the_estimates_as_they_are():
    # at 11.35 five deals are on the sheet: 40 minutes left, 12.15, before the planned 12.20
    plan = [PlannedRound(1, (PlannedMatch(12, deals_played=5), PlannedMatch(12)), DAY), *rounds((12,), (12,))[1:]]
    assert [t.estimated for t in timetable(plan, minutes_per_deal=5, now=at(11, 35))] == [
        t.estimated for t in timetable(plan, minutes_per_deal=5)
    ]
    # a slow match (three deals in 50 minutes: 50 left) moves the next round to 12.55
    plan[0] = PlannedRound(1, (PlannedMatch(12, deals_played=3), PlannedMatch(12)), DAY)
    assert timetable(plan, minutes_per_deal=5, now=at(12, 5))[1].estimated == at(12, 55)


def test_a_round_has_started_once_its_start_has_come_and_the_round_before_is_done():
    plan = [PlannedRound(1, (PlannedMatch(12, at(12, 30)),), DAY), *rounds((12,), (12,), (12,))[1:]]
    times = timetable(plan, minutes_per_deal=5, now=at(11, 10))
    assert not any(t.started for t in times)  # before the play start
    times = timetable(plan, minutes_per_deal=5, now=at(12, 45))
    assert [t.started for t in times] == [False, True, False]  # round 1 is done, round 2 is on
    assert not any(t.started for t in timetable(plan, minutes_per_deal=5))  # no clock, no "started"


def test_what_a_match_has_left():
    assert left_minutes(12, 9, 5) == 15
    assert left_minutes(12, 6, 5) == 35 and left_minutes(12, 7, 5) == 25
    assert left_minutes(16, 12, 5) == 25 and left_minutes(16, 13, 5) == 15
    assert left_minutes(12, 0, 5) == 0 and left_minutes(12, 12, 5) == 0


@settings(max_examples=300, deadline=None)
@given(events(), minutes, st.integers(min_value=-60, max_value=900), st.data())
@pytest.mark.slow
def test_with_the_clock_no_estimate_of_a_round_to_come_is_in_the_past(plan, per_deal, later, data):
    """The issue's rule: a round not yet started never shows a start before ``now``; and moving a
    timetable made without the clock gives the same as making it with the clock."""
    played = [
        PlannedRound(r.key, tuple(
            PlannedMatch(m.deals, m.finished_at, deals_played=data.draw(st.integers(min_value=0, max_value=m.deals)))
            for m in r.matches), r.starts)
        for r in plan
    ]
    now = DAY + dt.timedelta(minutes=later)
    times = timetable(played, minutes_per_deal=per_deal, now=now)
    for t in times:
        if not t.finished and not t.started:
            assert t.estimated >= now
        if not t.finished:
            assert t.ends >= now
    assert follow_clock(timetable(played, minutes_per_deal=per_deal), now) == times
