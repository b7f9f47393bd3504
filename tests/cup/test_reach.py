"""The cup's reach from the caches and its background refinement (``cup/reach.py``, issue #28.5): where the
request-time computation leaves a fixed pair's worst a bound, a thread decides it with the integer
programme, and the cup's API and pages then show the exact rows under a new cup key; one refinement a key at
a time; none when the shared cache does not answer; a failed one leaves the bounds."""

from __future__ import annotations

import datetime as dt
import logging
import random
import threading
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.urls import reverse

import lib.cache
from cup import reach, services
from cup.models import CupEvent
from lib import caching
from lib.env import cache_from_env
from registry.models import Season
from scoring import cup_reach
from scoring.cup import CupEvent as CoreEvent
from scoring.cup import PairPlacing, rank_pairs
from tests.cup.builders import club, one_group_event, player
from tournaments.models import Event


def _without_search_budget(monkeypatch):
    """The request-time reach with no budget for the fixed pairs' search leg by leg (the refinement's
    integer programme keeps it: it is outside the budget), so that a small season has rows left a bound."""
    real = cup_reach.reach

    def reach_(*args, **kwargs):
        return real(*args, **{**kwargs, "pair_search_budget": 0})

    monkeypatch.setattr(reach, "cup_reach", SimpleNamespace(reach=reach_, history=cup_reach.history))


@pytest.fixture
def open_season(db):
    """16 players, two finished events of 8 pairs (places drawn with a fixed seed), three legs left; no
    best N: the pooled model applies."""
    rnd = random.Random(1)
    home = club("Sallan Sakki", "SS")
    people = [player(f"P{i}", f"Pelaaja{i}", home) for i in range(16)]
    for n, day in enumerate((dt.date(2025, 9, 13), dt.date(2025, 10, 11))):
        field = rnd.sample(people, 16)
        order = [(field[2 * i], field[2 * i + 1], home) for i in range(8)]
        one_group_event(f"Osakilpailu {n + 1}", day, order, weight=Decimal(1))
    season = Season.for_date(dt.date(2025, 9, 13))
    for n, day in enumerate((dt.date(2026, 1, 10), dt.date(2026, 2, 14), dt.date(2026, 3, 14))):
        leg = Event.objects.create(
            name=f"Tuleva {n + 1}", slug=f"tuleva-{n + 1}", season=season, starts_on=day, ends_on=day,
            kind=Event.Kind.CUP, format=Event.Format.ONE_STAGE, group_count=1,
        )  # fmt: skip
        CupEvent.objects.create(event=leg, weight=Decimal(1))
    return season


def _pairs(client, season):
    response = client.get(reverse("api_season_cup", args=[season.pk]))
    assert response.status_code == 200
    return {
        frozenset(r["players"]): (r["best"], r["worst"], r["worst_exact"]) for r in response.json()["pairs"]
    }, response


def _join_refinements():
    for thread in threading.enumerate():
        if thread.name == "cup-reach-refine":
            thread.join(timeout=120)
            assert not thread.is_alive()


def _expected(season):
    """The pairs' reach by the pure core with its full budget (every row exact on this season)."""
    facts = services.load_facts(services.cup_events(season))
    _, standings = services.rank(facts, season.best_n, services.cup_settings(season))
    got = cup_reach.reach(standings, services.legs_left(facts), season.best_n, services.cup_settings(season),
                          pairs=True)  # fmt: skip
    assert all(r.worst_exact for r in got)
    return {frozenset(int(p) for p in r.entrant): (r.best, r.worst, True) for r in got}


@pytest.mark.slow
def test_a_refined_reach_replaces_the_bounds_on_the_cup_pages(client, open_season, settings, monkeypatch):
    settings.TUPPI_CUP_REACH_EXACT_NODES = 500
    _without_search_budget(monkeypatch)
    before, first = _pairs(client, open_season)
    assert sum(not exact for _, _, exact in before.values()) >= 3  # rows left a bound at request time
    _join_refinements()
    after, second = _pairs(client, open_season)
    assert after == _expected(open_season)  # every row exact, as the full search has them
    assert first["ETag"] != second["ETag"]  # a new cup key: a phone holding the bounds gets the new rows
    for entrant, (best, worst, exact) in before.items():  # a bound is never better than the exact worst
        assert best == after[entrant][0] and worst >= after[entrant][1]
        assert exact is False or worst == after[entrant][1]
    page = client.get(reverse("cup:pairs", args=[open_season.pk])).content.decode()
    assert "*" not in page.split("<table", 1)[1].split("</table>", 1)[0]  # no row marked a bound
    _, third = _pairs(client, open_season)
    assert third["ETag"] == second["ETag"] and not [
        t for t in threading.enumerate() if t.name == "cup-reach-refine"
    ]  # kept: nothing is refined twice


def test_the_reach_key_names_what_the_reach_reads_and_nothing_else():
    def standings(wins, place=1):
        events = [CoreEvent("e1", 1, (PairPlacing(("a", "b"), place, wins), PairPlacing(("c", "d"), 2, 0)))]
        return rank_pairs(events)

    key = reach.reach_key(standings(3), [1, 1], None, (25, 22, 20), pairs=True)
    assert reach.reach_key(standings(0), [1, 1], None, (25, 22, 20), pairs=True) == key  # match wins
    assert reach.reach_key(standings(3, place=3), [1, 1], None, (25, 22, 20), pairs=True) != key
    assert reach.reach_key(standings(3), [1], None, (25, 22, 20), pairs=True) != key  # a leg played
    assert reach.reach_key(standings(3), [1, Decimal("0.5")], None, (25, 22, 20), pairs=True) != key
    assert reach.reach_key(standings(3), [1, 1], 2, (25, 22, 20), pairs=True) != key
    assert reach.reach_key(standings(3), [1, 1], None, (25, 22, 19), pairs=True) != key
    assert reach.reach_key(standings(3), [1, 1], None, (25, 22, 20), pairs=False) != key


def test_one_refinement_a_key_at_a_time(db, monkeypatch):
    started, release = threading.Event(), threading.Event()

    def slow(*args):
        started.set()
        release.wait(10)

    monkeypatch.setattr(reach, "refine", slow)
    first = reach.refine_later(1, "cup-reach:k", (), True, 10)
    assert first is not None and started.wait(10)
    assert reach.refine_later(1, "cup-reach:k", (), True, 10) is None  # this process, or another server
    reach._refining.discard("cup-reach:k")  # as if another process asked: the shared lock still holds it
    assert reach.refine_later(1, "cup-reach:k", (), True, 10) is None
    release.set()
    first.join(10)


def test_a_failed_refinement_leaves_the_bounds_and_says_so(db, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("solver gone")

    monkeypatch.setattr(reach, "cup_reach", SimpleNamespace(reach=broken, history=cup_reach.history))
    gens = caching.counters([reach.gen_key(7)])
    with caplog.at_level(logging.ERROR, logger="cup.reach"):
        reach.refine(7, "cup-reach:broken", (), True, 10)
    assert "could not be refined" in caplog.text
    assert caching.counters([reach.gen_key(7)]) == gens  # the cup key stays: its bounds are what there is
    assert caching.get_many(["cup-reach:broken:exact"]) == {}
    assert reach.refine_later(7, "cup-reach:broken", (), True, 10) is not None  # the lock was let go
    _join_refinements()


def test_no_refinement_when_the_shared_cache_does_not_answer(open_season, settings, monkeypatch, client):
    settings.TUPPI_CUP_REACH_EXACT_NODES = 500
    _without_search_budget(monkeypatch)
    monkeypatch.setenv("CACHE_URL", "redis://127.0.0.1:1/0")  # nothing listens on port 1
    monkeypatch.setattr(lib.cache, "BREAK_SECONDS", 0.0)
    lib.cache.forget_outages()
    settings.CACHES = {"default": cache_from_env(settings.BASE_DIR, settings.DATABASES)}
    caching.clear_local()
    before, _ = _pairs(client, open_season)
    assert not all(exact for _, _, exact in before.values())  # the bounds, and the page answers
    assert not [t for t in threading.enumerate() if t.name == "cup-reach-refine"]
    lib.cache.forget_outages()


def test_a_refinement_the_cache_does_not_keep_moves_no_cup_key_and_waits_its_hour(db, monkeypatch, caplog):
    # the refined rows were computed, but the cache dropped them: a new cup key would only compute the same
    # bounds again and start the same refinement at once, so the counter stays and the lock holds
    monkeypatch.setattr(reach.cup_reach, "reach", lambda *args, **kwargs: [])
    monkeypatch.setattr(caching, "put", lambda *args, **kwargs: None)
    gens = caching.counters([reach.gen_key(8)])
    thread = reach.refine_later(8, "cup-reach:dropped", (), True, 10)
    thread.join(10)
    assert "could not be kept" in caplog.text
    assert caching.counters([reach.gen_key(8)]) == gens
    assert reach.refine_later(8, "cup-reach:dropped", (), True, 10) is None  # held for its hour
