"""The match: RULES.md §2 (rise, table, tuppi), §3 (planned deals, played-out rise, deciding deal, match
points, penalties, forfeit) and the JSON of §9, with the seeds' worked examples."""

from __future__ import annotations

import pytest

import scoring.match as match
from scoring.deal import ByPair, Deal, Game, Pair
from scoring.errors import ScoringError
from scoring.match import (
    EndedBy,
    Forfeit,
    Overwhelming,
    PointsPenalty,
    Rise,
    RiseEnd,
    TuppiPenalty,
    apply,
    fold,
    is_overwhelming,
    lines,
    match_points,
    overwhelming_threshold,
    start,
)
from scoring.match_cli import entry_from_json, entry_to_json, parse_match, run_cli
from scoring.plausibility import paper_result

A, B = Pair.A, Pair.B


def R(caller: Pair, a: int, b: int, penalised: bool = False) -> Deal:
    return Deal(Game.RAMI, ByPair(a, b), caller, penalised)


def N(a: int, b: int) -> Deal:
    return Deal(Game.NOLO, ByPair(a, b))


def raises(entries, n=16, **kw) -> ScoringError:
    with pytest.raises(ScoringError) as info:
        fold(entries, n, **kw)
    return info.value


# --- RULES.md §2: the rise and the table ----------------------------------------------------------------


def test_from_the_table_the_deal_winner_goes_up_with_its_points():
    s = fold([R(A, 9, 4)], 16)  # 4 × 3 = 12
    assert (s.up, s.rise, s.totals, s.finished) == (A, 12, ByPair(12, 0), False)
    assert s.rises == (Rise(A, 12, RiseEnd.OPEN),)


def test_up_pair_winning_again_adds_to_its_rise():
    s = fold([R(A, 9, 4), N(5, 8)], 16)  # 12, then A wins nolo with 5: 4 × (8 − 6) = 8 → 20
    assert (s.up, s.rise, s.totals) == (A, 20, ByPair(20, 0))


def test_up_pair_losing_falls_and_the_winner_scores_nothing():
    s = fold([R(A, 9, 4), R(B, 3, 10)], 16)  # A up 12; B makes 10 (16) but only brings A down
    assert (s.up, s.rise, s.totals) == (None, 0, ByPair(12, 0))
    assert s.rises == (Rise(A, 12, RiseEnd.FALL),)


def test_seed_001_we_are_up_20_and_the_opponents_win_a_nolo_for_8():
    # 001: "Me olemme ylhäällä 20 pisteellä. … vastustajat voittavat nolon, josta tulisi 8 pistettä. Me
    # tulemme alas, ja tilanne on 0–0. Vastustajat eivät saa niitä 8 pistettä. Nousuun he pääsevät vasta,
    # jos voittavat myös seuraavan jaon."  We = A: rami 8 (8) + rami 9 (12) = 20; nolo A 8, B 5: B, 8.
    entries = [R(A, 8, 5), R(A, 9, 4), N(8, 5)]
    s = fold(entries, 16)
    assert (s.up, s.rise, s.totals) == (None, 0, ByPair(20, 0))
    # … and B starts a rise only by winning the next deal too: nolo A 7, B 6 → B up with 4.
    s = apply(s, N(7, 6))
    assert (s.up, s.rise, s.totals) == (B, 4, ByPair(20, 4))


def test_seed_004_a_up_12_then_b_wins_the_nolo_table():
    # 004: "Pari A ramaa ja saa 9 kasaa: 4 × 3 = 12 … A on ylhäällä 12:ssa. Seuraavassa nolossa pari B saa
    # 4 kasaa ja A 9. B voittaa, ja tulee pöytäpeli: 0–0. Seuraavasta voitosta alkaa uusi nousu."
    s = fold([R(A, 9, 4)], 16)
    assert (s.up, s.rise) == (A, 12)
    s = apply(s, N(9, 4))
    assert (s.up, s.rise) == (None, 0)
    s = apply(s, R(B, 5, 8))  # the next win starts a new rise: B 8 tricks, 8
    assert (s.up, s.rise) == (B, 8)


def test_rise_reaching_exactly_52_is_tuppi_and_ends_the_match_at_once():
    # 28 (rami 13) + 24 (rami 12) = 52
    s = fold([R(A, 13, 0), R(A, 12, 1)], 16)
    assert (s.finished, s.winner, s.tuppi, s.ended_by) == (True, A, True, EndedBy.TUPPI)
    assert s.match_points == ByPair(5, 0)
    assert (s.up, s.rise, s.totals, s.deals_played) == (A, 52, ByPair(52, 0), 2)
    assert s.rises == (Rise(A, 52, RiseEnd.TUPPI),)


def test_rise_of_48_is_not_tuppi():
    s = fold([R(A, 13, 0), R(A, 11, 2)], 16)  # 28 + 20 = 48 < 52
    assert (s.finished, s.up, s.rise) == (False, A, 48)


def test_seed_004_nalsytuppi_ends_the_match_in_one_deal_from_the_table():
    # 004: "ryöstäjä saa yhdellä jaolla 56 pistettä: se on nälsytuppi." RULES §2: only it does so.
    s = fold([R(A, 0, 13)], 16)
    assert (s.finished, s.winner, s.tuppi, s.totals, s.deals_played) == (True, B, True, ByPair(0, 56), 1)
    assert s.match_points == ByPair(0, 5)


def test_best_ordinary_deal_from_the_table_is_not_tuppi():
    # robbery 12: 8 × 6 = 48 < 52; rami made 13: 28 < 52
    assert not fold([R(A, 1, 12)], 16).finished
    assert not fold([R(A, 13, 0)], 16).finished


def test_tuppi_reached_by_the_loser_of_the_previous_rises():
    # B rose 12 and fell; A then rises 28 + 28 = 56: A wins by tuppi, B's 12 stays in its total.
    s = fold([R(B, 4, 9), R(A, 13, 0), R(A, 13, 0), R(A, 13, 0)], 16)
    assert (s.winner, s.tuppi, s.totals, s.deals_played) == (A, True, ByPair(56, 12), 4)
    assert s.rises == (Rise(B, 12, RiseEnd.FALL), Rise(A, 56, RiseEnd.TUPPI))


# --- RULES.md §3: the planned deals, the rise played to its end, rise totals ----------------------------


def test_match_ends_after_n_deals_when_the_last_deal_leaves_the_table():
    # N = 2: A up 12, B makes A fall: A 12, B 0 at the table → A wins on points.
    s = fold([R(A, 9, 4), R(B, 4, 9)], 2)
    assert (s.finished, s.winner, s.tuppi, s.ended_by) == (True, A, False, EndedBy.POINTS)
    # N = 2 < 12: the threshold is 4 × 2 = 8, and A's 12 > 8: overwhelming, 4–1.
    assert s.match_points == ByPair(4, 1)


def test_rise_running_after_n_deals_is_played_to_its_end():
    # N = 2: A 12, A +8 = 20 after two deals: A is up, play goes on ("kesken oleva nousu pelataan loppuun").
    s = fold([R(A, 9, 4), R(A, 8, 5)], 2)
    assert (s.finished, s.up, s.rise, s.deals_played) == (False, A, 20, 2)
    s = apply(s, N(6, 7))  # deal 3: A wins the nolo for 4 → 24, still going
    assert (s.finished, s.rise) == (False, 24)
    s = apply(s, R(B, 3, 10))  # deal 4: A falls at 24 → table, the match ends
    assert (s.finished, s.winner, s.totals, s.deals_played) == (True, A, ByPair(24, 0), 4)
    assert s.rises == (Rise(A, 24, RiseEnd.FALL),)


def test_rise_played_on_after_n_deals_can_reach_tuppi():
    # N = 1: A 28 after deal 1, A 28 + 28 = 56 at deal 2: tuppi.
    s = fold([R(A, 13, 0), R(A, 13, 0)], 1)
    assert (s.finished, s.tuppi, s.deals_played, s.match_points) == (True, True, 2, ByPair(5, 0))


def test_rise_totals_are_sums_of_all_rises_not_the_largest_rise():
    # 000 "Yhteen lasketut nousupisteet ratkaisevat voiton" (and 004, 002) against 001's "largest rise".
    # N = 6: A 20 (rami 11) falls; B 12 falls; B 12 falls. A's largest rise 20 > 12, but B 24 > A 20.
    entries = [R(A, 11, 2), R(B, 4, 9), R(B, 4, 9), R(A, 9, 4), R(B, 4, 9), R(A, 9, 4)]
    s = fold(entries, 6)
    assert (s.finished, s.winner, s.totals) == (True, B, ByPair(20, 24))
    assert [r.points for r in s.rises] == [20, 12, 12]
    assert s.match_points == ByPair(2, 3)  # threshold 4 × 6 = 24; 24 is not > 24: points win 3–2


def test_totals_include_the_open_rise():
    s = fold([R(A, 11, 2), R(B, 4, 9), R(B, 4, 9)], 16)  # A 20 fell, B up 12
    assert (s.totals, s.up, s.rise) == (ByPair(20, 12), B, 12)


# --- RULES.md §3: the deciding deal ---------------------------------------------------------------------

# N = 4: A rises 12 and falls, B rises 12 and falls: 12–12 at the table after deal 4.
LEVEL_AFTER_4 = [R(A, 9, 4), R(B, 4, 9), R(B, 4, 9), R(A, 9, 4)]  # A 12 fell, B 12 fell: 12–12


def test_level_totals_after_n_deals_wait_for_a_deciding_deal():
    s = fold(LEVEL_AFTER_4, 4)
    assert (s.finished, s.awaiting_deciding_deal, s.totals, s.up) == (False, True, ByPair(12, 12), None)
    assert s.match_points is None


def test_deciding_deal_winner_wins_and_its_points_are_added():
    # Decision (RULES.md §3): the deciding deal's points go to the winner's total: B 12 + 8 = 20.
    s = fold([*LEVEL_AFTER_4, R(B, 5, 8)], 4)
    assert (s.finished, s.winner, s.tuppi, s.deciding_deal) == (True, B, False, True)
    assert (s.totals, s.ended_by, s.deals_played) == (ByPair(12, 20), EndedBy.DECIDING_DEAL, 5)
    # the rise it starts is not played on
    assert s.rises[-1] == Rise(B, 8, RiseEnd.END)
    # N = 4: threshold 4 × 4 = 16 and B's 20 > 16: overwhelming 4–1
    assert s.match_points == ByPair(1, 4)
    with pytest.raises(ScoringError) as info:
        apply(s, R(B, 5, 8))
    assert info.value.code == "after_end"


def test_deciding_deal_as_a_nalsytuppi_is_a_tuppi():
    # Decision (ours): 56 ≥ 52, the rise reaches tuppi: 5–0, deciding_deal still true.
    s = fold([*LEVEL_AFTER_4, R(B, 13, 0)], 4)  # B calls, takes none: A robs all 13
    assert (s.winner, s.tuppi, s.deciding_deal, s.match_points) == (A, True, True, ByPair(5, 0))
    assert (s.totals, s.ended_by) == (ByPair(68, 12), EndedBy.TUPPI)  # 12 + 56


def test_deciding_deal_cannot_stop_early():
    # At the table a short deal neither makes anyone fall nor reaches 52 (RULES.md §2).
    e = raises([*LEVEL_AFTER_4, R(A, 7, 2)], 4)
    assert (e.code, e.deal) == ("short_deal_not_allowed", 5)


def test_points_penalty_in_the_deciding_position_decides_like_a_deal():
    # Decision (ours): the penalty is "applied as a deal won": A 12 + 28 = 40 wins, rise not played on.
    s = fold([*LEVEL_AFTER_4, PointsPenalty(A)], 4)
    assert (s.winner, s.totals, s.deciding_deal, s.deals_played) == (A, ByPair(40, 12), True, 4)


# --- match points and the overwhelming rule (RULES.md §3) -----------------------------------------------


@pytest.mark.parametrize(
    ("n", "threshold"),
    [(12, 48), (16, 64), (20, 76), (24, 84)]  # the table
    + [(13, 48), (15, 48), (17, 64), (19, 64), (21, 76), (23, 76), (30, 84)]  # largest listed N below
    + [(11, 44), (8, 32), (1, 4)],  # N < 12: 4 × N
)
def test_overwhelming_thresholds(n, threshold):
    assert overwhelming_threshold(n) == threshold


def test_overwhelming_is_the_winners_total_greater_than_the_threshold():
    # "yli 64 pistettä": 64 is not overwhelming at N = 16, 68 is; the loser's total plays no part.
    assert not is_overwhelming(64, 0, 16)
    assert is_overwhelming(68, 60, 16)


def test_overwhelming_margin_rule_compares_the_difference():
    assert not is_overwhelming(100, 40, 16, Overwhelming.MARGIN)  # 60 ≤ 64
    assert is_overwhelming(100, 32, 16, "margin")  # 68 > 64


def test_match_points():
    assert match_points(A, ByPair(10, 99), 16, tuppi=True) == ByPair(5, 0)
    assert match_points(B, ByPair(10, 68), 16, tuppi=False) == ByPair(1, 4)
    assert match_points(B, ByPair(10, 64), 16, tuppi=False) == ByPair(2, 3)


def test_fold_takes_the_rule_explicitly():
    # N = 3, threshold 4 × 3 = 12. B 8 falls (deal 2), A 16 (rami 10) after deal 3 is played on and
    # falls at deal 4: A 16, B 8. Default: A's 16 > 12, 4–1. Margin: 16 − 8 = 8 ≤ 12, 3–2.
    entries = [R(B, 5, 8), R(A, 9, 4), R(A, 10, 3), R(B, 4, 9)]
    assert fold(entries, 3).totals == ByPair(16, 8)
    assert fold(entries, 3).match_points == ByPair(4, 1)
    assert fold(entries, 3, overwhelming="margin").match_points == ByPair(3, 2)
    assert fold(entries, 3, overwhelming=Overwhelming.MARGIN).match_points == ByPair(3, 2)
    assert not hasattr(match, "OVERWHELMING")  # no module setting that anything could change at run time


def test_unknown_overwhelming_rule_is_refused():
    with pytest.raises(ScoringError) as info:
        start(16, overwhelming="loser_total")
    assert info.value.code == "overwhelming_invalid"


# --- penalties and forfeit (RULES.md §3) ----------------------------------------------------------------


def test_points_penalty_from_the_table_puts_the_pair_up_with_28():
    s = fold([PointsPenalty(B)], 16)
    assert (s.up, s.rise, s.totals, s.deals_played) == (B, 28, ByPair(0, 28), 0)


def test_points_penalty_adds_to_the_rise_of_the_pair_up():
    s = fold([R(B, 4, 9), PointsPenalty(B)], 16)  # 12 + 28 = 40
    assert (s.up, s.rise, s.totals) == (B, 40, ByPair(0, 40))


def test_points_penalty_against_the_pair_up_gives_the_table():
    # rule 2.2: "tai jos virheentekijä on nousulla niin pöytäpeli"
    s = fold([R(A, 9, 4), PointsPenalty(B)], 16)
    assert (s.up, s.rise, s.totals) == (None, 0, ByPair(12, 0))
    assert s.rises == (Rise(A, 12, RiseEnd.FALL),)


def test_points_penalty_can_reach_tuppi():
    s = fold([R(A, 13, 0), PointsPenalty(A)], 16)  # 28 + 28 = 56
    assert (s.finished, s.tuppi, s.winner, s.ended_at_deal, s.ended_at_entry) == (True, True, A, None, 2)


def test_penalties_use_no_deal_number():
    ls = lines([R(A, 9, 4), PointsPenalty(B), R(B, 4, 9)], 16)
    assert [ln.deal for ln in ls] == [1, None, 2]
    assert [ln.number for ln in ls] == [1, 2, 3]


def test_penalty_does_not_count_towards_the_planned_deals():
    # N = 2: deal 1, a penalty that makes A fall, then only deal 2 ends the match.
    s = fold([R(A, 9, 4), PointsPenalty(B)], 2)
    assert not s.finished
    s = apply(s, R(B, 4, 9))  # B 12 up after deal 2 → played on
    assert not s.finished
    s = apply(s, R(A, 9, 4))  # B falls: A 12, B 12 → deciding deal
    assert s.awaiting_deciding_deal


@pytest.mark.parametrize("points", [0, -28, 27, 30, "28", True, None])
def test_invalid_penalty_points_are_refused(points):
    e = raises([R(A, 9, 4), PointsPenalty(B, points)])
    assert (e.code, e.deal) == ("penalty_points_invalid", 2)


def test_penalised_deal_keeps_the_mark_and_scores_as_recorded():
    ls = lines([R(A, 9, 4, penalised=True)], 16)
    assert ls[0].entry.penalised and ls[0].points == 12


def test_tuppi_penalty_ends_the_match_5_0_with_totals_as_they_stood():
    s = fold([R(A, 9, 4), R(B, 4, 9), R(B, 5, 8), TuppiPenalty(A)], 16)  # A 12 fell, B up 8
    assert (s.finished, s.winner, s.tuppi, s.ended_by) == (True, A, True, EndedBy.TUPPI_PENALTY)
    assert (s.match_points, s.totals, s.deals_played) == (ByPair(5, 0), ByPair(12, 8), 3)
    assert s.rises[-1] == Rise(B, 8, RiseEnd.END)
    assert (s.up, s.rise) == (B, 8)  # as the line stood


def test_forfeit_before_play_is_a_5_0_tuppi_at_0_0():
    s = fold([Forfeit(B)], 16)
    assert (s.finished, s.winner, s.tuppi, s.totals, s.match_points) == (
        True,
        A,
        True,
        ByPair(0, 0),
        ByPair(5, 0),
    )
    assert (s.deals_played, s.rises, s.ended_by) == (0, (), EndedBy.FORFEIT)


def test_forfeit_mid_match_keeps_the_totals():
    s = fold([R(A, 11, 2), Forfeit(A)], 16)  # A up 20 forfeits: B wins 5–0, totals 20–0
    assert (s.winner, s.match_points, s.totals) == (B, ByPair(0, 5), ByPair(20, 0))
    assert s.rises == (Rise(A, 20, RiseEnd.END),)


def test_forfeit_while_waiting_for_the_deciding_deal():
    s = fold([*LEVEL_AFTER_4, Forfeit(A)], 4)
    assert (s.winner, s.tuppi, s.deciding_deal) == (B, True, False)


@pytest.mark.parametrize("ender", [Forfeit(A), TuppiPenalty(B)])
def test_nothing_may_follow_a_forfeit_or_tuppi_penalty(ender):
    e = raises([R(A, 9, 4), ender, R(A, 9, 4)])
    assert (e.code, e.deal, e.values["ended_at_entry"], e.values["ended_at_deal"]) == (
        "after_end",
        3,
        2,
        None,
    )


def test_nothing_may_follow_the_end_and_the_error_says_which_deal_ended_it():
    # N = 2: A 12, B makes A fall on deal 2: the match ends there; a penalty cannot follow.
    e = raises([R(A, 9, 4), R(B, 4, 9), PointsPenalty(A)], 2)
    assert (e.code, e.deal, e.values["ended_at_deal"]) == ("after_end", 3, 2)
    assert "the match ended at deal 2" in e.message


@pytest.mark.parametrize("entry", [PointsPenalty("C"), TuppiPenalty(None), Forfeit("a")])
def test_invalid_pair_in_a_penalty_or_forfeit_is_refused(entry):
    e = raises([R(A, 9, 4), entry])
    assert (e.code, e.deal) == ("pair_invalid", 2)


def test_invalid_entry_type_is_refused():
    e = raises([R(A, 9, 4), "rami"])
    assert (e.code, e.deal) == ("entry_kind_unknown", 2)


def test_entry_number_counts_penalties():
    e = raises([PointsPenalty(A), R(A, 9, 5)])
    assert (e.code, e.deal) == ("tricks_over_13", 2)


# --- lines: what the paper scoresheet shows --------------------------------------------------------------


def test_lines_show_each_entry_like_a_paper_scoresheet():
    entries = [R(A, 9, 4), N(5, 8), R(B, 3, 10), PointsPenalty(B), R(B, 0, 13)]
    ls = lines(entries, 16)
    got = [(ln.deal, ln.points, ln.winner, ln.scored, ln.up, ln.rise, ln.totals, ln.ended) for ln in ls]
    assert got == [
        (1, 12, A, 12, A, 12, ByPair(12, 0), None),  # rami A 9: 12
        (2, 8, A, 8, A, 20, ByPair(20, 0), None),  # nolo A 5, B 8: A wins 4 × 2 = 8
        (3, 16, B, 0, None, 0, ByPair(20, 0), RiseEnd.FALL),  # B makes 10 (16) but A falls
        (None, 28, B, 28, B, 28, ByPair(20, 28), None),  # penalty from the table
        (4, 28, B, 28, B, 56, ByPair(20, 56), RiseEnd.TUPPI),  # rami B 13: 28 → 56
    ]
    assert [ln.finished for ln in ls] == [False] * 4 + [True]
    assert fold(entries, 16).totals == ls[-1].totals


def test_lines_of_a_short_fall_deal():
    ls = lines([R(A, 9, 4), R(B, 1, 7)], 16)  # B reaches 7 with A on 1: A falls
    assert (ls[1].result.short, ls[1].points, ls[1].scored, ls[1].ended) == (True, 4, 0, RiseEnd.FALL)


# --- the paper-scoresheet helper -----------------------------------------------------------------------


def test_paper_points_win_and_overwhelming():
    r = paper_result(68, 40, 16, 17)  # 68 > 64
    assert (r.winner, r.match_points, r.tuppi, r.overwhelming) == (A, ByPair(4, 1), False, True)
    r = paper_result(40, 64, 16, 16)  # 64 is not > 64
    assert (r.winner, r.match_points, r.overwhelming) == (B, ByPair(2, 3), False)
    assert paper_result(100, 40, 16, 16, overwhelming="margin").match_points == ByPair(3, 2)


def test_paper_tuppi():
    r = paper_result(12, 56, 16, 7, tuppi="B")
    assert (r.winner, r.match_points, r.tuppi) == (B, ByPair(0, 5), True)
    assert paper_result(0, 0, 16, 0, tuppi=A).match_points == ByPair(5, 0)  # forfeit before play


def test_paper_deciding_deal():
    r = paper_result(20, 12, 4, 5, deciding_winner="A")
    assert (r.winner, r.match_points) == (A, ByPair(4, 1))  # 20 > 4 × 4 = 16


def test_paper_deciding_penalty_at_deal_n():
    # 32–32 at the table after deal 16 of 16, then a points penalty of 4 to A: the engine lets a penalty
    # decide (RULES.md §3, "applied as a deal won") and it has no deal number: 16 deals and a deciding winner
    four = [R(A, 8, 5), R(B, 5, 8), R(B, 5, 8), R(A, 8, 5)]  # A 8 fell, B 8 fell: 8–8
    state = fold([*four * 4, PointsPenalty(A, 4)], 16)
    assert (state.totals, state.deals_played, state.deciding_deal) == (ByPair(36, 32), 16, True)
    r = paper_result(36, 32, 16, 16, deciding_winner="A")
    assert (r.winner, r.match_points) == (A, state.match_points)


@pytest.mark.parametrize(
    ("args", "kw", "code"),
    [
        ((40, 40, 16, 16), {}, "paper_tie_needs_deciding_deal"),
        ((40, 36, 16, 15), {}, "paper_too_few_deals"),
        ((40, 44, 16, 17), {"deciding_winner": "A"}, "paper_deciding_deal_impossible"),
        # a deciding deal before the 16 planned deals are played (issue #16; 44–40 after 16 deals is a
        # 4-point penalty deciding the match, see test_paper_deciding_penalty_at_deal_n)
        ((44, 40, 16, 15), {"deciding_winner": "A"}, "paper_deciding_deal_too_early"),
        ((60, 40, 16, 9), {"tuppi": "A", "deciding_winner": "B"}, "paper_conflict"),
        ((41, 40, 16, 16), {}, "paper_total_invalid"),
        ((-4, 40, 16, 16), {}, "paper_total_invalid"),
        ((44, 40, 0, 16), {}, "deals_planned_invalid"),
        ((44, 40, 16, -1), {}, "paper_deals_played_invalid"),
        ((44, 40, 16, 16), {"tuppi": "C"}, "pair_invalid"),
    ],
)
def test_paper_impossible_input_is_refused(args, kw, code):
    with pytest.raises(ScoringError) as info:
        paper_result(*args, **kw)
    assert info.value.code == code


# --- JSON (RULES.md §9) ---------------------------------------------------------------------------------

EXAMPLE = {
    "deals_planned": 16,
    "deals": [
        {"game": "rami", "caller": "A", "tricks": {"A": 9, "B": 4}},
        {"game": "nolo", "tricks": {"A": 4, "B": 9}},
        {"penalty": "points", "to": "B", "points": 28},
        {"penalty": "tuppi", "to": "A"},
        {"forfeit": "B"},
    ],
}


def test_rules_section_9_example_without_the_forfeit():
    # A rami 9: 12; nolo A 4, B 9: A wins 4 × 3 = 12 → 24; penalty to B: A falls at 24; tuppi penalty to A.
    data = {**EXAMPLE, "deals": EXAMPLE["deals"][:4]}
    assert run_cli(data) == {
        "finished": True,
        "winner": "A",
        "tuppi": True,
        "totals": {"A": 24, "B": 0},
        "match_points": {"A": 5, "B": 0},
        "up": None,
        "rise": 0,
        "deals_played": 2,
        "deciding_deal": False,
        "rises": [{"pair": "A", "points": 24, "ended": "fall"}],
    }


def test_rules_section_9_example_as_given_is_an_error_at_the_forfeit():
    # "in a real match nothing may follow a tuppi penalty or a forfeit"
    with pytest.raises(ScoringError) as info:
        run_cli(EXAMPLE)
    assert (info.value.code, info.value.deal) == ("after_end", 5)
    assert info.value.to_json()["deal"] == 5


def test_unfinished_match_json():
    out = run_cli(
        {"deals_planned": 16, "deals": [{"game": "rami", "caller": "B", "tricks": {"A": 4, "B": 9}}]}
    )
    assert out["finished"] is False and out["match_points"] is None and out["winner"] is None
    assert (out["up"], out["rise"], out["rises"]) == ("B", 12, [{"pair": "B", "points": 12, "ended": "open"}])


def test_empty_match_json():
    assert run_cli({"deals_planned": 12, "deals": []}) == {
        "finished": False,
        "winner": None,
        "tuppi": False,
        "totals": {"A": 0, "B": 0},
        "match_points": None,
        "up": None,
        "rise": 0,
        "deals_played": 0,
        "deciding_deal": False,
        "rises": [],
    }


def test_nolo_with_null_caller_is_accepted():
    out = run_cli(
        {"deals_planned": 16, "deals": [{"game": "nolo", "caller": None, "tricks": {"A": 4, "B": 9}}]}
    )
    assert (out["up"], out["rise"]) == ("A", 12)


def test_overwhelming_key_in_json():
    # as above: A 16, B 8 with N = 3 (threshold 12)
    deals = [entry_to_json(e) for e in [R(B, 5, 8), R(A, 9, 4), R(A, 10, 3), R(B, 4, 9)]]
    assert run_cli({"deals_planned": 3, "deals": deals})["match_points"] == {"A": 4, "B": 1}
    assert run_cli({"deals_planned": 3, "deals": deals, "overwhelming": "margin"})["match_points"] == {
        "A": 3,
        "B": 2,
    }


@pytest.mark.parametrize(
    ("data", "code", "deal"),
    [
        ([], "match_not_object", None),
        ({"deals": []}, "deals_planned_invalid", None),
        ({"deals_planned": 0, "deals": []}, "deals_planned_invalid", None),
        ({"deals_planned": "16", "deals": []}, "deals_planned_invalid", None),
        ({"deals_planned": 16.0, "deals": []}, "deals_planned_invalid", None),
        ({"deals_planned": True, "deals": []}, "deals_planned_invalid", None),
        ({"deals_planned": 16}, "deals_invalid", None),
        ({"deals_planned": 16, "deals": {}}, "deals_invalid", None),
        ({"deals_planned": 16, "deals": [], "note": "x"}, "unknown_key", None),
        ({"deals_planned": 16, "deals": [], "overwhelming": "x"}, "overwhelming_invalid", None),
        ({"deals_planned": 16, "deals": [7]}, "entry_not_object", 1),
        ({"deals_planned": 16, "deals": [{}]}, "entry_kind_unknown", 1),
        ({"deals_planned": 16, "deals": [{"game": "rami", "forfeit": "A"}]}, "entry_kind_unknown", 1),
        ({"deals_planned": 16, "deals": [{"game": "sooli", "tricks": {"A": 9, "B": 4}}]}, "game_unknown", 1),
        ({"deals_planned": 16, "deals": [{"game": "rami", "tricks": {"A": 9, "B": 4}}]}, "caller_missing", 1),
        (
            {"deals_planned": 16, "deals": [{"game": "rami", "caller": "C", "tricks": {"A": 9, "B": 4}}]},
            "pair_invalid",
            1,
        ),
        (
            {"deals_planned": 16, "deals": [{"game": "nolo", "caller": "A", "tricks": {"A": 9, "B": 4}}]},
            "caller_for_nolo",
            1,
        ),
        ({"deals_planned": 16, "deals": [{"game": "nolo", "tricks": {"A": 9}}]}, "tricks_invalid", 1),
        ({"deals_planned": 16, "deals": [{"game": "nolo", "tricks": [9, 4]}]}, "tricks_invalid", 1),
        (
            {"deals_planned": 16, "deals": [{"game": "nolo", "tricks": {"A": 9.5, "B": 3}}]},
            "tricks_not_integer",
            1,
        ),
        (
            {"deals_planned": 16, "deals": [{"game": "nolo", "tricks": {"A": "9", "B": 4}}]},
            "tricks_not_integer",
            1,
        ),
        (
            {"deals_planned": 16, "deals": [{"game": "nolo", "tricks": {"A": 9, "B": 4}, "penalized": True}]},
            "unknown_key",
            1,
        ),
        (
            {"deals_planned": 16, "deals": [{"game": "nolo", "tricks": {"A": 9, "B": 4}, "penalised": 1}]},
            "penalised_invalid",
            1,
        ),
        ({"deals_planned": 16, "deals": [{"penalty": "speech", "to": "A"}]}, "penalty_unknown", 1),
        ({"deals_planned": 16, "deals": [{"penalty": "points", "to": "a"}]}, "pair_invalid", 1),
        (
            {"deals_planned": 16, "deals": [{"penalty": "points", "to": "A", "points": 27}]},
            "penalty_points_invalid",
            1,
        ),
        ({"deals_planned": 16, "deals": [{"penalty": "tuppi", "to": "A", "points": 28}]}, "unknown_key", 1),
        ({"deals_planned": 16, "deals": [{"forfeit": None}]}, "pair_invalid", 1),
    ],
)
def test_invalid_json_input_is_refused_with_code_and_entry(data, code, deal):
    with pytest.raises(ScoringError) as info:
        run_cli(data)
    assert (info.value.code, info.value.deal) == (code, deal)


def test_first_invalid_entry_is_reported():
    # entry 2 is invalid (14 tricks), entry 3 too (unknown game): entry 2 is reported.
    deals = [
        {"game": "rami", "caller": "A", "tricks": {"A": 9, "B": 4}},
        {"game": "rami", "caller": "A", "tricks": {"A": 9, "B": 5}},
        {"game": "sooli"},
    ]
    with pytest.raises(ScoringError) as info:
        run_cli({"deals_planned": 16, "deals": deals})
    assert (info.value.code, info.value.deal) == ("tricks_over_13", 2)


def test_entry_after_the_end_is_reported_as_such_whatever_it_holds():
    deals = [{"game": "rami", "caller": "A", "tricks": {"A": 0, "B": 13}}, {"game": "sooli"}]
    with pytest.raises(ScoringError) as info:
        run_cli({"deals_planned": 16, "deals": deals})
    assert (info.value.code, info.value.deal) == ("after_end", 2)
    assert "the match ended at deal 1" in info.value.message


def test_entry_json_round_trip():
    entries = (R(A, 9, 4, penalised=True), N(4, 9), PointsPenalty(B, 28), TuppiPenalty(A), Forfeit(B))
    assert tuple(entry_from_json(entry_to_json(e), i) for i, e in enumerate(entries, 1)) == entries
    parsed = parse_match(EXAMPLE)  # shape only: the forfeit after the tuppi penalty is the fold's business
    assert parsed.deals_planned == 16
    assert parsed.entries == (R(A, 9, 4), N(4, 9), PointsPenalty(B, 28), TuppiPenalty(A), Forfeit(B))
