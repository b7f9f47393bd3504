"""A player's history across seasons and the head-to-head (issue #28), checked against the events' own
final places, the pairs' members and a brute count over every match."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from archive.readmodel import players as read
from cup import services as cup
from registry.models import Player, Season
from teams import results as team_results
from tests.archive.conftest import simulate
from tests.cup.builders import club, one_group_event, player
from tournaments.models import Event, Match, PairMember
from tournaments.readmodel.snapshot import snapshot

LAST_SEASON = dt.date(2025, 8, 1)


def expected_label(snap, pair_id):
    places = dict((p, place) for place, p in snap.final_places)
    place = places[pair_id]
    shared = sum(1 for other in places.values() if other == place)
    return f"{place}." if shared == 1 else f"{place}.–{place + shared - 1}."


@pytest.mark.slow
def test_history_lists_every_event_with_the_events_own_places_and_partners(registry):
    """Every event of every season, the place as the event's final places give it ("17.–18." when
    shared), the partner and club of the pair, and per season the cup position of the season's cup."""
    events = [simulate(1, 20, season_start=LAST_SEASON), simulate(2, 20), simulate(3, 20)]
    for person in registry:
        found = read.history(person)
        rows = {p.event.pk: (line.season, p) for line in found.seasons for p in line.played}
        members = PairMember.objects.filter(player=person).select_related("pair__club", "event")
        assert set(rows) == {m.event_id for m in members}
        for m in members:
            season, played = rows[m.event_id]
            assert season.pk == m.event.season_id
            snap = snapshot(m.event)
            assert played.place_label == expected_label(snap, m.pair_id)
            partner = PairMember.objects.exclude(player=person).get(pair=m.pair).player
            assert played.partner.pk == partner.pk
            assert played.pair.club.pk == m.pair.club_id
        for line in found.seasons:
            row = cup.season_cup(line.season).player_row(person.pk)
            assert line.cup_rank == (row.rank_label if row else "")
            assert line.cup_points == (row.points if row else None)
    assert [line.season.start for line in read.history(registry[0]).seasons] == sorted(
        {Season.objects.get(pk=e.season_id).start for e in events
         if PairMember.objects.filter(event=e, player=registry[0]).exists()}, reverse=True)


def test_a_shared_place_is_shown_as_a_range(registry):
    """20 pairs: four are out on Saturday and rank 17 and on; level ones share a place."""
    event = simulate(5, 20)  # this seed leaves two pairs level at 17.
    snap = snapshot(event)
    sizes = Counter(place for place, _pair in snap.final_places)
    shared = [pair for place, pair in snap.final_places if sizes[place] > 1]
    assert shared
    for pair_id in shared:
        person = PairMember.objects.filter(pair_id=pair_id).first().player
        (played,) = read.history(person).seasons[0].played
        assert "–" in played.place_label and played.place_label == expected_label(snap, pair_id)


def test_sm_gold_in_pairs_is_a_title_and_cup_points_are_those_of_the_season(db):
    home = club("Sodankylän Tuppi")
    a, b, c, d = (player(n, "Kivelä", home) for n in ("Aino", "Eino", "Into", "Uuno"))
    one_group_event("SM-parikisa", dt.date(2026, 6, 6), [(a, b, home), (c, d, home)],
                    kind=Event.Kind.SM_PAIRS, weight=Decimal(1))
    found = read.history(a)
    assert [t.event.name for t in found.titles] == ["SM-parikisa"]
    assert read.history(c).titles == []
    (line,) = found.seasons
    assert line.season.start == dt.date(2025, 8, 1)
    assert line.cup_rank == "1.–2." and line.cup_points == Decimal(25)  # the pair's two players share it
    assert line.played[0].cup_points == Decimal(25) and line.played[0].counted


def all_matches():
    """Every counted match from the database with the players of each side and its outcome, looked up
    match by match in its event's snapshot."""
    sides = {}
    for m in PairMember.objects.all():
        sides.setdefault(m.pair_id, set()).add(m.player_id)
    return [
        (m, sides[m.pair_a_id], sides[m.pair_b_id], snapshot(m.event).match(m.pk).outcome)
        for m in Match.objects.select_related("event").exclude(status=Match.Status.ANNULLED)
    ]


def brute_head_to_head(matches, x: Player, y: Player):
    won = lost = meetings = 0
    points, rise = [0, 0], [0, 0]
    for m, a, b, outcome in matches:
        if not ((x.pk in a and y.pk in b) or (x.pk in b and y.pk in a)):
            continue
        meetings += 1
        mine = 0 if x.pk in a else 1
        my_pair = m.pair_a_id if mine == 0 else m.pair_b_id
        if outcome.finished and outcome.winner:
            won += outcome.winner == my_pair
            lost += outcome.winner != my_pair
            points[0] += outcome.match_points[mine]
            points[1] += outcome.match_points[1 - mine]
            rise[0] += outcome.totals[mine]
            rise[1] += outcome.totals[1 - mine]
    return meetings, won, lost, tuple(points), tuple(rise)


@pytest.mark.slow
def test_head_to_head_equals_a_brute_count_over_the_matches(registry):
    for seed in (5, 6, 7):
        simulate(seed, 16)
    checked = 0
    matches = all_matches()
    for x in registry[:8]:
        for y in registry:
            if x.pk == y.pk:
                continue
            h2h = read.head_to_head(x, y)
            meetings, won, lost, points, rise = brute_head_to_head(matches, x, y)
            assert (len(h2h.meetings), h2h.won, h2h.lost, h2h.match_points, h2h.rise) == (
                meetings, won, lost, points, rise)
            checked += meetings
    assert checked > 10
    with CaptureQueriesContext(connection) as ctx:  # warm: the pairs of both in one query, snapshots cached
        read.head_to_head(registry[0], registry[1])
    assert len(ctx.captured_queries) == 1


def test_partners_never_meet(registry):
    simulate(8, 16)
    member = PairMember.objects.first()
    partner = PairMember.objects.exclude(pk=member.pk).get(pair=member.pair)
    assert read.head_to_head(member.player, partner.player).meetings == ()


def count_queries(person) -> int:
    with CaptureQueriesContext(connection) as ctx:
        read.history(person)
    return len(ctx.captured_queries)


@pytest.mark.slow
def test_a_players_history_costs_the_same_queries_for_one_event_or_many(registry):
    """Issue #28: the snapshots come in one batch (or from the caches), the cups' keys in one query: a
    player with many events over two seasons costs what a player with one event costs."""
    for seed in (9, 10, 11):
        simulate(seed, 16)
    simulate(12, 16, season_start=LAST_SEASON)
    counts = Counter(PairMember.objects.values_list("player_id", flat=True))
    many = Player.objects.get(pk=max(counts, key=counts.get))
    newcomer = player("Uusi", "Pelaaja", registry[0].club)
    one_group_event("Yksi kisa", dt.date(2026, 10, 3), [(newcomer, player("Toinen", "Uusi"), registry[0].club),
                                                        (player("Kolmas", "Uusi"), player("Neljäs", "Uusi"), registry[0].club)])
    assert counts[many.pk] >= 3
    cold_one, cold_many = count_queries(newcomer), count_queries(many)
    warm_one, warm_many = count_queries(newcomer), count_queries(many)
    assert warm_one == warm_many <= 3
    assert cold_many <= 40 and cold_one <= 40


@pytest.mark.slow
def test_the_team_competition_gives_the_teams_place_and_its_gold_is_a_title(db):
    """SM team competition: the player's team and its place from the bracket (``teams.results``), and
    the final won is an SM gold in teams."""
    out = StringIO()
    call_command("simulate_teams", "--teams", "4", "--seed", "2", stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    comp = team_results.load(event)
    for team in comp.teams.values():
        place = comp.places[team.pk]
        person = Player.objects.get(pk=team.pairs[0].players[0].pk)
        (played,) = read.history(person).seasons[0].played
        assert (played.team, played.place, played.place_label) == (team.name, place, f"{place}.")
        assert read.history(person).titles == ([played] if place == 1 else [])
        assert (played.title == "teams") == (place == 1)
