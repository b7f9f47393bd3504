"""Unit tests of scoring.standings: the Python API the Django layer calls (RULES.md §4 "Group order")."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.standings import (
    CrossCell,
    MatchResult,
    Playoff,
    Standing,
    cross_table,
    rank_group,
)
from scoring.standings_cli import run_cli

SPLITS = {5: 0, 4: 1, 3: 2}


def m(winner, loser, points: int, winner_totals: int, loser_totals: int) -> MatchResult:
    """A finished match: ``points`` is the winner's match points (5, 4 or 3; the loser gets 5 - points)."""
    return MatchResult(
        a=winner,
        b=loser,
        winner=winner,
        match_points={winner: points, loser: SPLITS[points]},
        totals={winner: winner_totals, loser: loser_totals},
    )


def line(table, pair) -> Standing:
    return next(standing for standing in table if standing.pair == pair)


def order(table) -> list:
    return [standing.pair for standing in table]


# --------------------------------------------------------------------------------------------------
# Value types


def test_match_result_loser_and_read_only_mappings():
    points = {"A": 3, "B": 2}
    result = MatchResult("A", "B", "B", points, {"A": 10, "B": 20})
    assert result.loser == "A"
    points["A"] = 5  # the caller's dict changing later does not change the result
    assert result.match_points["A"] == 3
    with pytest.raises(TypeError):
        result.match_points["A"] = 4  # type: ignore[index]


def test_playoff_takes_lists_as_tuples():
    playoff = Playoff(["A", "B"], ["B", "A"])
    assert playoff.pairs == ("A", "B") and playoff.order == ("B", "A")


def test_standing_to_json_has_exactly_the_rules_keys():
    table = rank_group(["A", "B"], [m("A", "B", 3, 40, 30)])
    assert table[0].to_json() == {
        "pair": "A",
        "rank": 1,
        "match_points": 3,
        "wins": 1,
        "totals": 40,
        "decided_by": "match_points",
        "playoff_required": False,
    }


# --------------------------------------------------------------------------------------------------
# The steps


def test_empty_group_and_pairs_without_matches():
    assert rank_group([], []) == ()
    table = rank_group(["A", "B", "C"], [m("B", "A", 3, 40, 30)])
    # B 3, A 2, C 0 (no matches: 0, 0, 0 and still listed).
    assert order(table) == ["B", "A", "C"]
    assert (line(table, "C").match_points, line(table, "C").wins, line(table, "C").totals) == (0, 0, 0)
    assert [s.rank for s in table] == [1, 2, 3]


def test_two_level_pairs_head_to_head_beats_totals():
    results = [
        m("A", "B", 3, 30, 28),  # A 3, B 2
        m("B", "C", 5, 120, 0),  # B 5, C 0
        m("A", "C", 4, 70, 10),  # A 4, C 1
    ]
    # A 3 + 4 = 7, B 2 + 5 = 7, C 0 + 1 = 1. Totals A 30 + 70 = 100 < B 28 + 120 = 148, yet A beat B.
    table = rank_group(["B", "C", "A"], results)
    assert order(table) == ["A", "B", "C"]
    assert [s.decided_by for s in table] == ["head_to_head", "head_to_head", "match_points"]


def test_two_level_pairs_unplayed_mutual_match_go_to_totals():
    # A beat C 3-2 (A 40), B beat C 3-2 (B 44); A-B not played: A 3, B 3, C 4. C first (4).
    results = [m("A", "C", 3, 40, 38), m("B", "C", 3, 44, 30)]
    table = rank_group(["A", "B", "C"], results)
    # C: 2 + 2 = 4; A and B level on 3; totals B 44 > A 40.
    assert order(table) == ["C", "B", "A"]
    assert [s.decided_by for s in table] == ["match_points", "totals", "totals"]


def test_totals_split_then_level_pair_without_mutual_match_needs_playoff():
    # Four pairs, two rounds, cycle A>B>C>D>A all 3-2 (A-C, B-D unplayed): 5 each, mini table 5 each.
    # Totals A 60 + 10 = 70, B 20 + 30 = 50, C 20 + 50 = 70, D 10 + 30 = 40: A and C level, never met.
    results = [m("A", "B", 3, 60, 20), m("B", "C", 3, 30, 20), m("C", "D", 3, 50, 10), m("D", "A", 3, 30, 10)]
    table = rank_group(["D", "C", "B", "A"], results)
    assert [(s.pair, s.rank, s.decided_by, s.playoff_required) for s in table] == [
        ("A", 1, "unresolved", True),
        ("C", 1, "unresolved", True),
        ("B", 3, "totals", False),
        ("D", 4, "totals", False),
    ]


def test_three_level_totals_split_two_from_one_then_head_to_head():
    # Decision (step 4 recursion). Cycle, every match 3-2: 5 each; mini table 5 each.
    # Totals A 40 + 30 = 70, B 30 + 50 = 80, C 30 + 50 = 80: B and C level above A; B beat C.
    results = [m("A", "B", 3, 40, 30), m("B", "C", 3, 50, 30), m("C", "A", 3, 50, 30)]
    table = rank_group(["A", "B", "C"], results)
    assert [(s.pair, s.rank, s.decided_by) for s in table] == [
        ("B", 1, "head_to_head"),
        ("C", 2, "head_to_head"),
        ("A", 3, "totals"),
    ]


def test_unresolved_ties_are_never_broken_by_input_order_or_name():
    # The case-08 shape: cycle 3-2, each beat D 4-1, equal totals: A, B, C share rank 1.
    results = [
        m("A", "B", 3, 40, 36),
        m("B", "C", 3, 40, 36),
        m("C", "A", 3, 40, 36),
        m("A", "D", 4, 70, 10),
        m("B", "D", 4, 70, 20),
        m("C", "D", 4, 70, 30),
    ]
    for pairs in (["A", "B", "C", "D"], ["D", "C", "B", "A"]):
        table = rank_group(pairs, results)
        assert [s.rank for s in table] == [1, 1, 1, 4]
        assert [s.playoff_required for s in table] == [True, True, True, False]
        assert {s.decided_by for s in table[:3]} == {"unresolved"}


def test_integer_pair_ids_keep_numeric_display_order_in_a_shared_rank():
    # Unplayed pairs 2 and 10, both without matches, level on everything: shared rank 1.
    table = rank_group([10, 2], [])
    assert order(table) == [2, 10]
    assert [s.rank for s in table] == [1, 1]


def test_wins_setting_changes_only_step_one():
    # A beat B 5-0 (A 5, B 0), B beat C 3-2 (B 3, C 2), C beat A 3-2 (C 3, A 2):
    # match points A 7, C 5, B 3; wins 1 each.
    results = [m("A", "B", 5, 60, 20), m("B", "C", 3, 40, 30), m("C", "A", 3, 40, 30)]
    by_points = rank_group(["A", "B", "C"], results)
    assert order(by_points) == ["A", "C", "B"]
    assert {s.decided_by for s in by_points} == {"match_points"}
    # Wins: all level on 1; mini table by match points (the whole group) A 7, C 5, B 3.
    by_wins = rank_group(["A", "B", "C"], results, primary="wins")
    assert order(by_wins) == ["A", "C", "B"]
    assert {s.decided_by for s in by_wins} == {"mini_table"}


def test_wins_setting_decided_by_names_the_setting():
    table = rank_group(["A", "B"], [m("A", "B", 3, 40, 30)], primary="wins")
    assert [s.decided_by for s in table] == ["wins", "wins"]


def test_playoff_orders_the_level_set_in_any_listing_order():
    results = [m("A", "C", 3, 40, 38), m("B", "C", 3, 40, 30)]  # A 3/40, B 3/40, A-B unplayed
    table = rank_group(["A", "B", "C"], results, [Playoff(("B", "A"), ("B", "A"))])
    assert [(s.pair, s.rank, s.decided_by, s.playoff_required) for s in table] == [
        ("C", 1, "match_points", False),  # C 2 + 2 = 4
        ("B", 2, "playoff", False),
        ("A", 3, "playoff", False),
    ]


def test_stale_playoff_is_an_error_once_the_mutual_match_decides():
    # The play-off above was recorded; then A-B is played (A won): the play-off no longer applies.
    results = [m("A", "C", 3, 40, 38), m("B", "C", 3, 40, 30), m("A", "B", 3, 40, 30)]
    with pytest.raises(ScoringError) as info:
        rank_group(["A", "B", "C"], results, [Playoff(("A", "B"), ("B", "A"))])
    assert info.value.code == "playoff_not_needed"
    assert info.value.values["pairs"] == ["A", "B"]


# --------------------------------------------------------------------------------------------------
# Invalid input


@pytest.mark.parametrize(
    ("pairs", "results", "code"),
    [
        (["A", "A"], [], "duplicate_pair"),
        (["A", "B"], [m("A", "W", 3, 40, 30)], "unknown_pair"),
        (["A", "B"], [MatchResult("A", "A", "A", {"A": 3}, {"A": 3})], "self_match"),
        (["A", "B", "C"], [MatchResult("A", "B", "C", {"A": 3, "B": 2}, {"A": 1, "B": 0})], "bad_winner"),
        (["A", "B"], [MatchResult("A", "B", "A", {"A": 3}, {"A": 1, "B": 0})], "bad_match_points"),
        (["A", "B"], [MatchResult("A", "B", "A", {"A": 3, "B": 3}, {"A": 1, "B": 0})], "bad_match_points"),
        (["A", "B"], [MatchResult("A", "B", "A", {"A": 6, "B": -1}, {"A": 1, "B": 0})], "bad_match_points"),
        (["A", "B"], [MatchResult("A", "B", "A", {"A": True, "B": 2}, {"A": 1, "B": 0})], "bad_match_points"),
        (["A", "B"], [MatchResult("A", "B", "A", {"A": 3, "B": 2}, {"A": 1})], "bad_totals"),
        (["A", "B"], [MatchResult("A", "B", "A", {"A": 3, "B": 2}, {"A": 1, "B": -4})], "bad_totals"),
        (["A", "B"], [MatchResult("A", "B", "A", {"A": 3, "B": 2}, {"A": 1.5, "B": 0})], "bad_totals"),
        (["A", "B"], [m("A", "B", 3, 40, 30), m("B", "A", 4, 70, 10)], "duplicate_match"),
    ],
)
def test_invalid_matches(pairs, results, code):
    with pytest.raises(ScoringError) as info:
        rank_group(pairs, results)
    assert info.value.code == code
    assert info.value.deal is None


def test_errors_name_the_match_and_pair():
    with pytest.raises(ScoringError) as info:
        rank_group(["A", "B"], [m("A", "B", 3, 40, 30), m("B", "W", 3, 40, 30)])
    assert info.value.values == {"match": 2, "pair": "W"}
    assert "W" in info.value.message and "match 2" in info.value.message


@pytest.mark.parametrize(
    ("playoffs", "code"),
    [
        ([Playoff(("A",), ("A",))], "bad_playoff"),
        ([Playoff(("A", "A"), ("A", "A"))], "bad_playoff"),
        ([Playoff(("A", "X"), ("X", "A"))], "bad_playoff"),
        ([Playoff(("A", "B"), ("A",))], "bad_playoff"),
        ([Playoff("AB", "BA")], "bad_playoff"),
        ([Playoff(("A", "B"), ("A", "B")), Playoff(("B", "A"), ("B", "A"))], "duplicate_playoff"),
        ([Playoff(("A", "C"), ("A", "C"))], "playoff_not_needed"),
    ],
)
def test_invalid_playoffs(playoffs, code):
    # A and B level (3/40 each, never met), C 4: only {A, B} may have a play-off.
    results = [m("A", "C", 3, 40, 38), m("B", "C", 3, 40, 30)]
    with pytest.raises(ScoringError) as info:
        rank_group(["A", "B", "C"], results, playoffs)
    assert info.value.code == code


def test_bad_primary():
    with pytest.raises(ScoringError) as info:
        rank_group(["A"], [], primary="points")  # type: ignore[arg-type]
    assert info.value.code == "bad_primary"


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"pairs": ["A"]},
        {"pairs": ["A"], "matches": [], "playoff": []},
        {"pairs": "AB", "matches": []},
        {"pairs": [1, 2], "matches": []},
        {"pairs": ["A", "B"], "matches": {}},
        {
            "pairs": ["A", "B"],
            "matches": [{"a": "A", "b": "B", "winner": "A", "match_points": {"A": 3, "B": 2}}],
        },
        {"pairs": ["A", "B"], "matches": [], "playoffs": {}},
        {"pairs": ["A", "B"], "matches": [], "playoffs": [{"pairs": ["A", "B"]}]},
    ],
)
def test_run_cli_refuses_malformed_input(data):
    with pytest.raises(ScoringError) as info:
        run_cli(data)
    assert info.value.code == "bad_input"


# --------------------------------------------------------------------------------------------------
# Cross table


def test_cross_table_cells_from_both_sides_and_unplayed():
    results = [m("B", "A", 4, 70, 12)]
    cells = cross_table(["A", "B", "C"], results)
    assert set(cells) == {(x, y) for x in "ABC" for y in "ABC" if x != y}
    assert cells[("A", "B")] == CrossCell(match_points=1, totals=12, opponent_totals=70, won=False)
    assert cells[("B", "A")] == CrossCell(match_points=4, totals=70, opponent_totals=12, won=True)
    assert cells[("A", "C")] is None and cells[("C", "B")] is None


def test_cross_table_validates_like_rank_group():
    with pytest.raises(ScoringError) as info:
        cross_table(["A", "B"], [m("A", "B", 3, 1, 0), m("A", "B", 3, 1, 0)])
    assert info.value.code == "duplicate_match"


# --------------------------------------------------------------------------------------------------
# Speed
