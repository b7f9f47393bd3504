"""Sunday seeding, placement matches and final places (RULES.md §5; §4 small events)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.sunday import (
    PlacementMatch,
    advancing,
    final_places,
    one_stage_places,
    placement_finals,
    placement_places,
    placement_semis,
    sunday_groups,
    validate_seeding,
)


def saturday(n_groups: int, size: int = 4) -> dict[str, list[str]]:
    """Saturday group orders where pair "C2" is second in group C, and so on."""
    return {name: [f"{name}{pos}" for pos in range(1, size + 1)] for name in "ABCDEFGHIJKLMNOP"[:n_groups]}


def codes(excinfo: pytest.ExceptionInfo[ScoringError]) -> str:
    return excinfo.value.code


# --- seeding chart -----------------------------------------------------------------------------------


def test_chart_for_8_groups_is_the_rules_table_in_its_order():
    # RULES.md §5 / 000_*.txt: 1. A1 B1 G2 H2, 2. C1 D1 F2 E2, 3. E1 F1 D2 C2, 4. G1 H1 B2 A2.
    assert sunday_groups(saturday(8), 8) == (
        ("A1", "B1", "G2", "H2"),
        ("C1", "D1", "F2", "E2"),
        ("E1", "F1", "D2", "C2"),
        ("G1", "H1", "B2", "A2"),
    )


def test_chart_for_16_groups_is_the_decision_table_in_its_order():
    # RULES.md §5 Decision: 1 = A1 B1 O1 P1, 2 = C1 D1 N1 M1, 3 = E1 F1 L1 K1, 4 = G1 H1 J1 I1.
    assert sunday_groups(saturday(16, size=5), 16) == (
        ("A1", "B1", "O1", "P1"),
        ("C1", "D1", "N1", "M1"),
        ("E1", "F1", "L1", "K1"),
        ("G1", "H1", "J1", "I1"),
    )


@pytest.mark.parametrize("n_groups", [8, 16])
def test_every_qualifier_is_seeded_exactly_once(n_groups):
    standings = saturday(n_groups, size=5)
    per_group = 2 if n_groups == 8 else 1  # RULES.md §4
    qualifiers = {order[i] for order in standings.values() for i in range(per_group)}
    seeded = [pair for group in sunday_groups(standings, n_groups) for pair in group]
    assert len(qualifiers) == 16
    assert sorted(seeded) == sorted(qualifiers)


def test_chart_uses_the_order_given_not_the_names():
    standings = saturday(8)
    standings["A"] = ["zeta", "alpha", "mu"]  # zeta won group A, alpha was second
    groups = sunday_groups(standings, 8)
    assert groups[0][0] == "zeta"  # A1 opens Sunday group 1
    assert groups[3][3] == "alpha"  # A2 closes Sunday group 4


def test_two_pair_groups_send_both_pairs():
    # 16 pairs in 8 groups of 2: every pair goes on.
    groups = sunday_groups(saturday(8, size=2), 8)
    assert sorted(p for g in groups for p in g) == sorted(f"{n}{i}" for n in "ABCDEFGH" for i in (1, 2))


def test_advancing():
    assert advancing(8) == 2
    assert advancing(16) == 1
    with pytest.raises(ScoringError) as exc:
        advancing(12)
    assert codes(exc) == "group_count"


@pytest.mark.parametrize(
    "standings, n_groups, code",
    [
        (saturday(8), 12, "group_count"),  # only 8 or 16
        (saturday(7), 8, "group_count"),  # one group short
        (saturday(9), 8, "group_count"),  # one group too many
        ({**{k: v for k, v in saturday(8).items() if k != "H"}, "Z": ["Z1", "Z2"]}, 8, "group_missing"),
        ({**saturday(8), "C": ["C1"]}, 8, "group_too_small"),  # 8 groups: two go on
        ({**saturday(16), "P": []}, 16, "group_too_small"),  # 16 groups: one goes on
        ({**saturday(8), "D": ["D1", "A1"]}, 8, "pair_duplicate"),
    ],
)
def test_seeding_chart_errors(standings, n_groups, code):
    with pytest.raises(ScoringError) as exc:
        sunday_groups(standings, n_groups)
    assert codes(exc) == code


def test_missing_group_names_it():
    standings = {k: v for k, v in saturday(8).items() if k != "E"}
    standings["Q"] = ["Q1", "Q2"]
    with pytest.raises(ScoringError) as exc:
        sunday_groups(standings, 8)
    assert exc.value.values["group"] == "E"


def test_one_pair_groups_are_enough_with_16_groups():
    groups = sunday_groups(saturday(16, size=1), 16)
    assert groups[1] == ("C1", "D1", "N1", "M1")


# --- organiser's correction --------------------------------------------------------------------------

CHART = sunday_groups(saturday(8), 8)
QUALIFIERS = [p for g in CHART for p in g]


def test_valid_correction_is_returned_as_tuples():
    swapped = [list(g) for g in CHART]
    swapped[0][2], swapped[1][2] = swapped[1][2], swapped[0][2]  # swap G2 and F2
    assert validate_seeding(swapped, QUALIFIERS) == (
        ("A1", "B1", "F2", "H2"),
        ("C1", "D1", "G2", "E2"),
        ("E1", "F1", "D2", "C2"),
        ("G1", "H1", "B2", "A2"),
    )


@pytest.mark.parametrize(
    "groups, code",
    [
        (CHART[:3], "seeding_group_count"),
        (CHART + (("x", "y", "z", "w"),), "seeding_group_count"),
        ((CHART[0] + ("C1",), CHART[1][1:], CHART[2], CHART[3]), "seeding_group_size"),
        ((CHART[0][:3] + ("C1",), CHART[1], CHART[2], CHART[3]), "seeding_pair_twice"),  # H2 -> C1
        ((CHART[0][:3] + ("A3",), CHART[1], CHART[2], CHART[3]), "seeding_pair_unknown"),  # A3 was out
        ((CHART[0], CHART[1], CHART[2], CHART[3][:3]), "seeding_group_size"),
    ],
)
def test_seeding_correction_errors(groups, code):
    with pytest.raises(ScoringError) as exc:
        validate_seeding(groups, QUALIFIERS)
    assert codes(exc) == code


def test_seeding_left_out_pair():
    # The groups are fine among themselves, but a qualifier (X9) is in none of them.
    with pytest.raises(ScoringError) as exc:
        validate_seeding(CHART, [*QUALIFIERS, "X9"])
    assert codes(exc) == "seeding_pair_missing"
    assert exc.value.values["pair"] == "X9"


def test_seeding_pair_twice_names_both_groups():
    groups = (CHART[0], CHART[1][:3] + ("A1",), CHART[2], CHART[3])
    with pytest.raises(ScoringError) as exc:
        validate_seeding(groups, QUALIFIERS)
    assert exc.value.values == {"pair": "A1", "groups": [1, 2]}


# --- placement matches -------------------------------------------------------------------------------

# Sunday group g's final order: "g{g}r{r}" is the pair ranked r in Sunday group g.
SUNDAY = tuple(tuple(f"g{g}r{r}" for r in range(1, 5)) for g in range(1, 5))


def test_semis_pair_group_1_with_2_and_3_with_4_in_each_tier():
    semis = placement_semis(SUNDAY)
    assert semis == [
        PlacementMatch(t, "semi", s, f"g{2 * s - 1}r{t}", f"g{2 * s}r{t}")
        for t in range(1, 5)
        for s in (1, 2)
    ]
    assert semis[0] == PlacementMatch(1, "semi", 1, "g1r1", "g2r1")  # the two group winners
    assert semis[7] == PlacementMatch(4, "semi", 2, "g3r4", "g4r4")  # the fourths of groups 3 and 4


def test_full_sunday_gives_places_1_to_16():
    semis = placement_semis(SUNDAY)
    # In every tier team a wins semi 1 and team b wins semi 2.
    decided = [m.with_winner(m.a if m.slot == 1 else m.b) for m in semis]
    finals = placement_finals(decided)
    assert len(finals) == 8
    for t in range(1, 5):
        assert PlacementMatch(t, "final", 1, f"g1r{t}", f"g4r{t}") in finals
        assert PlacementMatch(t, "third", 1, f"g2r{t}", f"g3r{t}") in finals
    # Finals: b wins (group 4's pair); third-place matches: a wins (group 2's pair).
    played = [m.with_winner(m.b if m.round == "final" else m.a) for m in finals]
    places = placement_places(decided + played)
    for t in range(1, 5):
        base = 4 * (t - 1)  # tier 1 -> 1..4, tier 2 -> 5..8, tier 3 -> 9..12, tier 4 -> 13..16
        assert places[f"g4r{t}"] == base + 1
        assert places[f"g1r{t}"] == base + 2
        assert places[f"g2r{t}"] == base + 3
        assert places[f"g3r{t}"] == base + 4
    assert sorted(places.values()) == list(range(1, 17))


def test_finals_wait_for_both_semis_of_their_tier():
    semis = placement_semis(SUNDAY)
    only_one = [m.with_winner(m.a) if (m.tier, m.slot) == (2, 1) else m for m in semis]
    assert placement_finals(only_one) == ()
    both_tier_3 = [m.with_winner(m.b) if m.tier == 3 else m for m in semis]
    assert placement_finals(both_tier_3) == (
        PlacementMatch(3, "final", 1, "g2r3", "g4r3"),
        PlacementMatch(3, "third", 1, "g1r3", "g3r3"),
    )


def test_places_grow_as_matches_are_decided():
    final = PlacementMatch(2, "final", 1, "x", "y", winner="y")
    third = PlacementMatch(2, "third", 1, "u", "v")
    assert placement_places([final, third]) == {"y": 5, "x": 6}


def test_placement_match_checks_its_winner_and_fields():
    with pytest.raises(ScoringError) as exc:
        PlacementMatch(1, "semi", 1, "x", "y").with_winner("z")
    assert codes(exc) == "winner_not_in_match"
    for args, code in [
        ((5, "semi", 1, "x", "y"), "placement_tier"),
        ((1, "quarter", 1, "x", "y"), "placement_round"),
        ((1, "final", 2, "x", "y"), "placement_slot"),
        ((1, "semi", 3, "x", "y"), "placement_slot"),
        ((1, "semi", 1, "x", "x"), "placement_same_pair"),
    ]:
        with pytest.raises(ScoringError) as exc:
            PlacementMatch(*args)
        assert codes(exc) == code


def test_duplicate_placement_match_is_refused():
    m = PlacementMatch(1, "semi", 1, "x", "y", winner="x")
    with pytest.raises(ScoringError) as exc:
        placement_finals([m, PlacementMatch(1, "semi", 1, "u", "v")])
    assert codes(exc) == "placement_duplicate"


def test_placement_semis_refuses_a_short_group():
    with pytest.raises(ScoringError) as exc:
        placement_semis((SUNDAY[0], SUNDAY[1], SUNDAY[2], SUNDAY[3][:3]))
    assert codes(exc) == "seeding_group_size"


# --- final places ------------------------------------------------------------------------------------

TOP16 = {f"t{i}": i for i in range(1, 17)}


def test_places_after_16_by_position_then_match_points_then_totals():
    rows = [
        ("t1", 1, 15, 300),  # a Sunday pair: skipped
        ("s", 4, 12, 200),  # fourth in its group: after every third, whatever its points
        ("q", 3, 8, 90),
        ("p", 3, 10, 80),  # third with most match points -> 17
        ("u", 3, 8, 70),  # fewer totals than q and r
        ("r", 3, 8, 90),  # level with q on everything -> they share 18
    ]
    places = final_places(TOP16, rows)
    assert places[:16] == [(i, f"t{i}") for i in range(1, 17)]
    # p 17; q and r share 18; u is behind three pairs -> 20; s behind four -> 21.
    assert places[16:] == [(17, "p"), (18, "q"), (18, "r"), (20, "u"), (21, "s")]


def test_unresolved_playoff_shares_the_group_position():
    # Two pairs tied at rank 3 in their group with the play-off not played: both have position 3, so
    # they rank with the other thirds, before the fourths.
    rows = [("a", 3, 6, 50), ("b", 3, 6, 50), ("c", 4, 9, 99), ("d", 3, 7, 10)]
    assert final_places(TOP16, rows)[16:] == [(17, "d"), (18, "a"), (18, "b"), (20, "c")]


def test_final_places_needs_places_1_to_16_once():
    bad = {**TOP16, "t16": 15}
    with pytest.raises(ScoringError) as exc:
        final_places(bad, [])
    assert codes(exc) == "top16_places"


@pytest.mark.parametrize(
    "rows, code",
    [
        ([("a", 0, 1, 1)], "row_value"),
        ([("a", 3, -1, 1)], "row_value"),
        ([("a", 3, 1, 1.5)], "row_value"),
        ([("a", 3, 1)], "row_shape"),
        ([("a", 3, 1, 1), ("a", 4, 0, 0)], "pair_duplicate"),
    ],
)
def test_final_places_row_errors(rows, code):
    with pytest.raises(ScoringError) as exc:
        final_places(TOP16, rows)
    assert codes(exc) == code


row_strategy = st.tuples(st.integers(2, 6), st.integers(0, 10), st.integers(0, 60))


@settings(max_examples=150, deadline=None)
@given(st.lists(row_strategy, max_size=40))
def test_final_places_have_no_gap_and_shared_places_after_16(raw):
    rows = [(f"x{i}", *r) for i, r in enumerate(raw)]
    places = final_places(TOP16, rows)
    assert [p for p, _ in places[:16]] == list(range(1, 17))
    assert sorted(pair for _, pair in places) == sorted([*TOP16, *(r[0] for r in rows)])
    by_pair = {pair: place for place, pair in places}
    key = {r[0]: (r[1], -r[2], -r[3]) for r in rows}
    for pair, k in key.items():
        ahead = sum(1 for other in key.values() if other < k)
        # Competition ranking after the 16: 17 + the pairs strictly better.
        assert by_pair[pair] == 17 + ahead


# --- one-stage events --------------------------------------------------------------------------------


def test_one_group_keeps_the_group_order_with_shared_ranks():
    group = [("a", 1, 10, 100), ("b", 2, 8, 50), ("c", 2, 8, 50), ("d", 4, 0, 0)]
    assert one_stage_places([group]) == [(1, "a"), (2, "b"), (2, "c"), (4, "d")]


def test_one_group_order_is_the_position_even_against_totals():
    # Position 1 won the mutual match; it stays first though its totals are lower.
    group = [("a", 1, 6, 20), ("b", 2, 6, 90)]
    assert one_stage_places([group]) == [(1, "a"), (2, "b")]


def test_several_groups_rank_by_position_then_points_then_totals():
    g1 = [("a1", 1, 9, 80), ("a2", 2, 5, 40), ("a3", 3, 1, 10)]
    g2 = [("b1", 1, 9, 95), ("b2", 2, 5, 40), ("b3", 3, 4, 30)]
    # Winners: b1 (totals 95 > 80) 1, a1 2. Seconds: level on 5 mp and 40 -> share 3.
    # Thirds: b3 (4 mp) 5, a3 6.
    assert one_stage_places([g1, g2]) == [(1, "b1"), (2, "a1"), (3, "a2"), (3, "b2"), (5, "b3"), (6, "a3")]


@pytest.mark.parametrize(
    "groups, code",
    [
        ([], "no_groups"),
        ([[("a", 1, 1, 1)], []], "group_empty"),
        ([[("a", 1, 1, 1), ("b", 3, 0, 0)]], "group_positions"),  # 1, 3: no second
        ([[("a", 2, 1, 1)]], "group_positions"),
        ([[("a", 1, 1, 1)], [("a", 1, 1, 1)]], "pair_duplicate"),
    ],
)
def test_one_stage_errors(groups, code):
    with pytest.raises(ScoringError) as exc:
        one_stage_places(groups)
    assert codes(exc) == code
