"""tournaments/readmodel/outlook.py and weekend.py: the group outlook from the rules core's best and worst positions
(exact, cached per group), its bounds for a group too large to search, the labels of places and tiers."""

from __future__ import annotations

import time

from tests.support.results_helpers import one_group_event, tie_group, won
from tournaments.models import Playoff
from tournaments.readmodel import build, outlook, weekend


def test_rank_labels_share_places():
    assert weekend.rank_labels([1, 2, 2, 4, 5, 5, 5, 5, 9]) == [
        "1.", "2.–3.", "2.–3.", "4.", "5.–8.", "5.–8.", "5.–8.", "5.–8.", "9."
    ]


def test_tier_places():
    assert outlook.tier_places(1, 1) == "1.–4." and outlook.tier_places(2, 2) == "5.–8."
    assert outlook.tier_places(1, 2) == "1.–8." and outlook.tier_places(3, 4) == "9.–16."
    assert weekend.tier_range(2, "final") == "5.–6." and weekend.tier_range(2, "third") == "7.–8."


def test_a_finished_group_is_decided_and_a_tie_stays_open(make_event, organiser):
    event, group, (p1, p2, p3, p4, p5) = tie_group(make_event, organiser)
    snap = build.build(event.pk)
    found = outlook.group_outlook(snap, snap.table(group.pk))
    assert found.finished and found.exact
    # P1–P3 level at the top without their play-off: each can end 1st to 3rd; P4, P5 are fixed
    assert [(found.of(p.pk).best, found.of(p.pk).worst) for p in (p1, p2, p3, p4, p5)] == [
        (1, 3), (1, 3), (1, 3), (4, 4), (5, 5)
    ]
    assert found.holder(4) == p4.pk and found.holder(1) is None


def test_a_playoff_that_no_longer_fits_gives_no_error(make_event, organiser):
    event, group, pairs = tie_group(make_event, organiser)
    Playoff.objects.create(group=group, order=[pairs[3].pk, pairs[4].pk])  # no such tie (a stale record)
    snap = build.build(event.pk)
    found = outlook.group_outlook(snap, snap.table(group.pk))
    assert found.exact and found.of(pairs[0].pk).worst == 3


def test_bounds_for_a_group_too_large_to_search(make_event, organiser, monkeypatch):
    """Beyond the sizes searched exactly, the positions come from match points alone: never narrower than the
    exact ones (a pair shown through or out is), computed at once."""
    event, group, pairs = one_group_event(make_event, organiser, 6)
    won(pairs[0], pairs[1], 40, 20)
    won(pairs[0], pairs[2], 60, 8)
    won(pairs[3], pairs[4], 40, 20, tuppi=True)
    snap = build.build(event.pk)
    table = snap.table(group.pk)
    exact = outlook.compute(table)
    monkeypatch.setattr(outlook, "EXACT_PAIRS", 3)
    monkeypatch.setattr(outlook, "EXACT_OPEN", 3)
    bounds = outlook.compute(table)
    assert exact.exact and not bounds.exact
    for pair in pairs:
        e, b = exact.of(pair.pk), bounds.of(pair.pk)
        assert b.best <= e.best <= e.worst <= b.worst, pair


def test_a_large_one_stage_group_answers_at_once(make_event, organiser):
    event, group, pairs = one_group_event(make_event, organiser, 14)
    for x, y in zip(pairs[::2], pairs[1::2], strict=True):
        won(x, y, 40, 20)
    snap = build.build(event.pk)
    started = time.perf_counter()
    found = outlook.compute(snap.table(group.pk))
    assert time.perf_counter() - started < 1.0 and not found.exact
    assert all(1 <= o.best <= o.worst <= 14 for o in found.rows.values())
