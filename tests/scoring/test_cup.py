"""The season cup's Python API (RULES.md §7–8): points, best N, player, fixed-pair and club rankings.

Expected values are worked out by hand from the points table 25, 22, 20, 18, 16, 14, 12, 10, 9, 7, 6, 5,
4, 3, 2, 1 (places 1..16), halved for the summer event.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from scoring.cup import (
    DEFAULT_POINTS,
    CupEvent,
    EventResult,
    PairPlacing,
    Placing,
    place_points,
    rank_clubs,
    rank_pairs,
    rank_players,
    standing_to_json,
)
from scoring.errors import ScoringError


def ev(eid, placings, weight=1):
    return CupEvent(id=eid, weight=weight, placings=tuple(placings))


def pp(a, b, place, wins):
    return PairPlacing(players=(a, b), place=place, match_wins=wins)


def p(player, place, wins):
    return Placing(player=player, place=place, match_wins=wins)


def summary(rows):
    return [(r.entrant, r.rank, r.points, r.counted) for r in rows]


# A season of pair placings, shared by the pair, player and club tests.
PAIR_SEASON = (
    ev("e1", [pp("a", "b", 1, 6), pp("c", "d", 2, 5)]),
    ev("e2", [pp("b", "a", 2, 5), pp("c", "e", 1, 6)]),  # (b, a) is the same pair as (a, b)
    ev("summer", [pp("c", "d", 1, 6), pp("a", "e", 3, 4)], weight=0.5),
)


def test_points_table_default_is_the_federation_table():
    assert DEFAULT_POINTS == (25, 22, 20, 18, 16, 14, 12, 10, 9, 7, 6, 5, 4, 3, 2, 1)


@pytest.mark.parametrize(
    ("place", "weight", "expected"),
    [
        (1, 1, Decimal(25)),
        (16, 1, Decimal(1)),
        (17, 1, Decimal(0)),  # beyond the table: 0
        (1, 0.5, Decimal("12.5")),  # 25 / 2, not rounded
        (10, 0.5, Decimal("3.5")),  # 7 / 2
        (3, Decimal("0.5"), Decimal(10)),  # 20 / 2
        (3, Fraction(1, 2), Decimal(10)),
        (3, 1.0, Decimal(20)),
    ],
)
def test_place_points(place, weight, expected):
    assert place_points(place, weight) == expected


def test_whole_points_are_integral_decimals():
    # 20 / 2 = 10 is shown as "10", not "10.0"; 25 / 2 stays "12.5".
    assert str(place_points(3, 0.5)) == "10"
    assert str(place_points(1, 0.5)) == "12.5"


def test_custom_points_table():
    assert place_points(2, table=(10, 5)) == 5
    assert place_points(3, table=(10, 5)) == 0
    rows = rank_players([ev("e1", [p("x", 2, 1), p("y", 3, 4), p("z", 3, 2)])], table=(10, 5))
    # x 5 points; y and z 0 points, no place counts (3 is beyond the table), y more match wins.
    assert summary(rows) == [("x", 1, 5, ("e1",)), ("y", 2, 0, ("e1",)), ("z", 3, 0, ("e1",))]
    assert rows[0].place_counts == (0, 1)
    assert rows[1].place_counts == (0, 0)


def test_players_from_pair_placings():
    rows = rank_players(PAIR_SEASON)
    # a: 25 + 22 + 20/2 = 57; b: 25 + 22 = 47; c: 22 + 25 + 25/2 = 59.5; d: 22 + 12.5 = 34.5; e: 25 + 10 = 35
    assert summary(rows) == [
        ("c", 1, Decimal("59.5"), ("e1", "e2", "summer")),
        ("a", 2, 57, ("e1", "e2", "summer")),
        ("b", 3, 47, ("e1", "e2")),
        ("e", 4, 35, ("e2", "summer")),
        ("d", 5, Decimal("34.5"), ("e1", "summer")),
    ]
    a = rows[1]
    assert a.places == {1: 1, 2: 1, 3: 1}
    assert a.match_wins == 6 + 5 + 4
    assert len(a.place_counts) == 16


def test_per_event_results_show_counted_and_uncounted_points():
    # best_n 2 -- ella: 25 (e1), 12.5 (summer), 9 (e2 9th) -> e2 is not counted.
    season = [
        ev("e1", [p("ella", 1, 6)]),
        ev("summer", [p("ella", 1, 6)], weight=0.5),
        ev("e2", [p("ella", 9, 2)]),
    ]
    (row,) = rank_players(season, best_n=2)
    assert row.points == Decimal("37.5")
    assert row.events == (
        EventResult("e1", Decimal(1), 1, 6, Decimal(25), True),
        EventResult("summer", Decimal("0.5"), 1, 6, Decimal("12.5"), True),
        EventResult("e2", Decimal(1), 9, 2, Decimal(9), False),
    )


def test_best_n_larger_than_events_counts_all():
    rows = rank_players([ev("e1", [p("x", 5, 2)]), ev("e2", [p("x", 17, 1)])], best_n=5)
    assert rows[0].counted == ("e1", "e2")
    assert rows[0].points == 16
    assert rows[0].match_wins == 3


def test_pairs_ranking():
    rows = rank_pairs(PAIR_SEASON)
    # (a,b) 25 + 22 = 47; (c,d) 22 + 12.5 = 34.5; (c,e) 25; (a,e) 20/2 = 10
    assert summary(rows) == [
        (("a", "b"), 1, 47, ("e1", "e2")),
        (("c", "d"), 2, Decimal("34.5"), ("e1", "summer")),
        (("c", "e"), 3, 25, ("e2",)),
        (("a", "e"), 4, 10, ("summer",)),
    ]
    assert rows[1].places == {1: 1, 2: 1}
    assert rows[1].match_wins == 5 + 6


def test_pairs_ranking_best_n_and_shared_rank():
    rows = rank_pairs(PAIR_SEASON, best_n=1)
    # (a,b) counts e1 25 (1st, 6 wins), (c,e) e2 25 (1st, 6 wins): level in everything, shared rank 1.
    # (c,d): 22 (e1) beats 12.5 (summer). (a,e): 10.
    assert summary(rows) == [
        (("a", "b"), 1, 25, ("e1",)),
        (("c", "e"), 1, 25, ("e2",)),
        (("c", "d"), 3, 22, ("e1",)),
        (("a", "e"), 4, 10, ("summer",)),
    ]


def test_pairs_ranking_needs_pair_placings():
    with pytest.raises(ScoringError) as info:
        rank_pairs([ev("e1", [p("x", 1, 6)])])
    assert info.value.code == "pair_placing_required"


def test_clubs_sum_counted_points_and_report_unknown_club():
    players = rank_players(PAIR_SEASON)
    result = rank_clubs(players, {"a": "Oulu", "b": "Oulu", "c": "Kemi", "d": None})  # e missing
    # Oulu: a 57 + b 47 = 104; Kemi: c 59.5.
    assert [(c.club, c.rank, c.points, c.players) for c in result.clubs] == [
        ("Oulu", 1, 104, ("a", "b")),
        ("Kemi", 2, Decimal("59.5"), ("c",)),
    ]
    # a: 1st, 2nd, 3rd; b: 1st, 2nd -> 2 firsts, 2 seconds, 1 third; wins 15 + 11.
    assert result.clubs[0].places == {1: 2, 2: 2, 3: 1}
    assert result.clubs[0].match_wins == 26
    # d (None) and e (missing) are reported, in ranking order: e 35 above d 34.5.
    assert [r.entrant for r in result.unknown_club] == ["e", "d"]


def test_clubs_level_points_broken_by_places_then_shared():
    season = [ev("e1", [p("p", 1, 6), p("q", 2, 5), p("r", 14, 2)]), ev("e2", [p("s", 1, 6)])]
    clubs = rank_clubs(rank_players(season), {"p": "X", "q": "Y", "r": "Y", "s": "Z"}).clubs
    # X: 25 (one 1st, 6 wins); Y: 22 + 3 = 25 (no 1st, 7 wins); Z: 25 (one 1st, 6 wins).
    # X and Z level in everything: shared rank 1; Y below on first places despite more match wins.
    assert [(c.club, c.rank, c.points) for c in clubs] == [("X", 1, 25), ("Z", 1, 25), ("Y", 3, 25)]


def test_clubs_refuse_bad_rows():
    players = rank_players(PAIR_SEASON)
    with pytest.raises(ScoringError) as info:
        rank_clubs(players + players[:1], {})
    assert info.value.code == "player_duplicate"
    with pytest.raises(ScoringError) as info:
        rank_clubs(rank_pairs(PAIR_SEASON), {})
    assert info.value.code == "club_rows_invalid"
    with pytest.raises(ScoringError) as info:
        rank_clubs(players, {"a": 7})
    assert info.value.code == "club_invalid"


def test_standing_to_json():
    rows = rank_players([ev("s", [p("x", 1, 6), p("y", 2, 5)], weight=0.5)])
    assert standing_to_json(rows[0]) == {
        "player": "x",
        "rank": 1,
        "points": 12.5,
        "counted": ["s"],
        "places": {"1": 1},
        "match_wins": 6,
    }
    # 22 / 2 = 11: an int in JSON.
    assert type(standing_to_json(rows[1])["points"]) is int


@pytest.mark.parametrize(
    ("events", "best_n", "code"),
    [
        ([ev("e1", [p("x", 1, 6)]), ev("e1", [p("y", 1, 6)])], None, "event_id_duplicate"),
        ([ev("e1", [p("x", 1, 6)], weight=2)], None, "event_weight_invalid"),
        ([ev("e1", [p("x", 1, 6)], weight=0.25)], None, "event_weight_invalid"),
        ([ev("e1", [p("x", 1, 6)], weight=True)], None, "event_weight_invalid"),
        ([ev("e1", [p("x", 1, 6)], weight="1")], None, "event_weight_invalid"),
        ([ev("e1", [p("x", 1, 6)])], 0, "best_n_invalid"),
        ([ev("e1", [p("x", 1, 6)])], -3, "best_n_invalid"),
        ([ev("e1", [p("x", 1, 6)])], 2.0, "best_n_invalid"),
        ([ev("e1", [p("x", 1, 6)])], True, "best_n_invalid"),
        ([ev("e1", [p("x", 0, 6)])], None, "place_invalid"),
        ([ev("e1", [p("x", 2.5, 6)])], None, "place_invalid"),
        ([ev("e1", [p("x", "1", 6)])], None, "place_invalid"),
        ([ev("e1", [p("x", 1, 6), p("x", 2, 5)])], None, "player_duplicate"),
        ([ev("e1", [pp("x", "y", 1, 6), pp("z", "x", 2, 5)])], None, "player_duplicate"),
        ([ev("e1", [p("x", 1, -1)])], None, "match_wins_invalid"),
        ([ev("e1", [p("x", 1, 1.5)])], None, "match_wins_invalid"),
        ([ev("", [p("x", 1, 6)])], None, "event_id_invalid"),
        ([ev("e1", [p("", 1, 6)])], None, "player_invalid"),
        ([ev("e1", [p(7, 1, 6)])], None, "player_invalid"),
        ([ev("e1", [pp("x", "x", 1, 6)])], None, "pair_invalid"),
        ([ev("e1", [PairPlacing(players=("x",), place=1, match_wins=6)])], None, "pair_invalid"),
    ],
)
def test_invalid_input(events, best_n, code):
    with pytest.raises(ScoringError) as info:
        rank_players(events, best_n=best_n)
    assert info.value.code == code
    assert info.value.deal is None


def test_error_names_the_event_and_player():
    with pytest.raises(ScoringError) as info:
        rank_players([ev("oulu", [p("x", 1, 6), p("x", 2, 5)])])
    assert info.value.values == {"event": "oulu", "player": "x"}
    assert "'x'" in info.value.message and "'oulu'" in info.value.message


@pytest.mark.parametrize("table", [(), (25, -1), (25, 2.5), ("25",)])
def test_invalid_points_table(table):
    with pytest.raises(ScoringError) as info:
        rank_players([ev("e1", [p("x", 1, 6)])], table=table)
    assert info.value.code == "points_table_invalid"


def test_empty_season_and_empty_event():
    assert rank_players([]) == ()
    assert rank_players([ev("e1", [])]) == ()
