"""One deal: RULES.md §1 (points) and §2's early-stop rule, with the seeds' worked examples."""

from __future__ import annotations

import pytest

from scoring.deal import ByPair, Deal, Game, Pair, pair_of_seat, score_deal
from scoring.errors import ScoringError

A, B = Pair.A, Pair.B


def rami(caller: Pair, a: int, b: int, **kw) -> Deal:
    return Deal(Game.RAMI, ByPair(a, b), caller, **kw)


def nolo(a: int, b: int, **kw) -> Deal:
    return Deal(Game.NOLO, ByPair(a, b), **kw)


def error(deal: Deal, up: Pair | None = None, rise: int = 0, entry: int = 7) -> ScoringError:
    with pytest.raises(ScoringError) as info:
        score_deal(deal, up, rise, entry=entry)
    return info.value


# --- RULES.md §1 table, every row, every T ----------------------------------------------------------


@pytest.mark.parametrize(
    ("made", "points"),
    # rami made: 4 × (T − 6): 7→4, 8→8, 9→12, 10→16, 11→20, 12→24, 13→28
    [(7, 4), (8, 8), (9, 12), (10, 16), (11, 20), (12, 24), (13, 28)],
)
def test_rami_made_scores_4_per_trick_over_six_to_the_callers(made, points):
    r = score_deal(rami(B, 13 - made, made))
    assert (r.winner, r.points, r.robbed, r.deciding_tricks) == (B, points, False, made)


@pytest.mark.parametrize(
    ("robbers", "points"),
    # rami robbed (ryöstö): 8 × (T − 6): 7→8, 8→16, 9→24, 10→32, 11→40, 12→48, 13→56
    [(7, 8), (8, 16), (9, 24), (10, 32), (11, 40), (12, 48), (13, 56)],
)
def test_rami_robbed_scores_8_per_trick_over_six_to_the_defenders(robbers, points):
    r = score_deal(rami(A, 13 - robbers, robbers))
    assert (r.winner, r.points, r.robbed) == (B, points, True)


@pytest.mark.parametrize(
    ("loser", "points"),
    # nolo: 4 × (T − 6) to the pair with fewer tricks, T = the loser's count: 7→4 … 13→28
    [(7, 4), (8, 8), (9, 12), (10, 16), (11, 20), (12, 24), (13, 28)],
)
def test_nolo_scores_to_the_pair_with_fewer_tricks(loser, points):
    r = score_deal(nolo(loser, 13 - loser))
    assert (r.winner, r.points, r.robbed) == (B, points, False)
    r = score_deal(nolo(13 - loser, loser))
    assert (r.winner, r.points) == (A, points)


def test_nalsytuppi_caller_without_a_trick_gives_the_robbers_56():
    # RULES.md §1 and 004: "Jos ramannut pari saa nolla kasaa, ryöstäjä saa ... 56 pistettä: nälsytuppi"
    r = score_deal(rami(A, 0, 13))
    assert (r.winner, r.points, r.nalsytuppi) == (B, 56, True)  # 8 × (13 − 6) = 56


def test_callers_taking_all_13_is_28_and_not_a_nalsytuppi():
    r = score_deal(rami(A, 13, 0))
    assert (r.winner, r.points, r.nalsytuppi) == (A, 28, False)  # 4 × (13 − 6) = 28


# --- the seeds' worked examples ----------------------------------------------------------------------


def test_seed_001_rami_caller_takes_nine():
    # 001: "Ramin huutajan pari saa 9 tikkiä: 9 − 6 = 3 tikkiä yli, eli 12 pistettä."
    assert score_deal(rami(A, 9, 4)).points == 12


def test_seed_001_robbery_five_against_eight():
    # 001: "huutajan pari saa vain 5 tikkiä. Puolustajat saivat 8: 8 − 6 = 2 … ryöstö 16 pistettä."
    r = score_deal(rami(A, 5, 8))
    assert (r.winner, r.points) == (B, 16)


def test_seed_001_nolo_four_tricks():
    # 001: "Nolossa toinen pari saa 4 tikkiä: 7 − 4 = 3, eli 12 pistettä." (the other took 9: 4 × 3)
    r = score_deal(nolo(4, 9))
    assert (r.winner, r.points) == (A, 12)


@pytest.mark.parametrize(("kasat", "points"), [(7, 4), (8, 8), (13, 28)])
def test_seed_004_seventh_trick_is_4_eighth_8_thirteenth_28(kasat, points):
    # 004: "seitsemäs kasa on 4 pistettä, kahdeksas 8 ja niin edelleen, kolmastoista 28."
    assert score_deal(rami(B, 13 - kasat, kasat)).points == points


def test_seed_004_pair_a_calls_and_takes_nine():
    # 004: "Pari A ramaa ja saa 9 kasaa: 4 × 3 = 12 pistettä"
    assert score_deal(rami(A, 9, 4)).points == 12


def test_seed_004_nolo_b_four_a_nine_won_by_b():
    # 004: "Seuraavassa nolossa pari B saa 4 kasaa ja A 9. B voittaa" (4 × (9 − 6) = 12)
    r = score_deal(nolo(9, 4))
    assert (r.winner, r.points) == (B, 12)


@pytest.mark.parametrize(("winner_tricks", "points"), [(6, 4), (5, 8), (0, 28)])
def test_seed_000_rule_6_2_nolo_won_with_at_most_six(winner_tricks, points):
    # 000 6.2: nolo won with at most six tricks: 6 → 4, 5 → 8, …, a clean game (0) → 28.
    assert score_deal(nolo(winner_tricks, 13 - winner_tricks)).points == points


def test_seed_002_nolo_four_per_trick_missing_from_seven():
    # 002 (Czech): in nolo the side with fewer tricks gets 4 for each trick missing from 7:
    # 2 tricks → 4 × (7 − 2) = 20, and the other side's 11 give 4 × (11 − 6) = 20 too.
    assert score_deal(nolo(11, 2)).points == 20


def test_seed_000_rule_6_4_robbery_doubles():
    # 000 6.4: robbing the opponents' rami doubles: 10 tricks made = 16, 10 tricks robbed = 32.
    assert score_deal(rami(A, 10, 3)).points * 2 == score_deal(rami(B, 10, 3)).points == 32


# --- the early-stop rule (RULES.md §2) ---------------------------------------------------------------


def test_short_deal_that_makes_the_up_pair_fall_is_allowed():
    # A up; B's rami reaches seven tricks while A holds 2: 9 tricks recorded, A falls.
    r = score_deal(rami(B, 2, 7), up=A, rise=20)
    assert (r.winner, r.points, r.short) == (B, 4, True)


def test_short_nolo_in_which_the_up_pair_takes_seven_is_a_fall():
    # A up and plays nolo badly: A reaches 7 tricks with B at 3. B wins, A falls.
    r = score_deal(nolo(7, 3), up=A, rise=8)
    assert (r.winner, r.short) == (B, True)


def test_short_deal_reaching_tuppi_is_allowed():
    # A up with 44, A's rami at 8 tricks: 44 + 4 × 2 = 52 ≥ 52.
    r = score_deal(rami(A, 8, 2), up=A, rise=44)
    assert (r.points, r.short) == (8, True)


def test_short_deal_one_trick_short_of_tuppi_is_refused():
    # A up with 44, A's rami at 7 tricks: 44 + 4 = 48 < 52, and no fall: play goes on.
    e = error(rami(A, 7, 3), up=A, rise=44)
    assert e.code == "short_deal_not_allowed"
    assert e.deal == 7
    assert e.values["total"] == 10
    assert "10 tricks is only allowed when it makes the up pair fall or ends in tuppi" in e.message


def test_short_deal_at_the_table_is_refused():
    e = error(nolo(3, 7))
    assert e.code == "short_deal_not_allowed"


def test_short_deal_won_by_the_up_pair_without_tuppi_is_refused():
    e = error(nolo(3, 7), up=A, rise=20)  # A wins for 4: 24, not a fall, not a tuppi
    assert e.code == "short_deal_not_allowed"


def test_short_deal_without_seven_is_refused_whatever_the_state():
    e = error(rami(A, 6, 4), up=B, rise=48)
    assert e.code == "short_deal_no_seven"
    assert (e.values["A"], e.values["B"]) == (6, 4)


def test_short_robbery_reaching_tuppi_is_not_a_nalsytuppi():
    # Decision (ours): B up with 48 robs A's rami and stops at 7–0: 48 + 8 × 1 = 56, tuppi, 8 points.
    r = score_deal(rami(A, 0, 7), up=B, rise=48)
    assert (r.points, r.nalsytuppi, r.short) == (8, False, True)


def test_full_deal_that_makes_the_up_pair_fall_needs_no_early_stop():
    r = score_deal(rami(B, 3, 10), up=A, rise=20)
    assert (r.winner, r.points, r.short) == (B, 16, False)


# --- invalid deals -----------------------------------------------------------------------------------


def test_trick_counts_adding_up_to_14_are_refused():
    e = error(rami(A, 8, 6))
    assert e.code == "tricks_over_13"
    assert "add up to 14" in e.message
    assert (e.deal, e.values["total"], e.values["A"], e.values["B"]) == (7, 14, 8, 6)


def test_negative_trick_count_is_refused():
    e = error(rami(A, 14, -1))
    assert (e.code, e.values["pair"], e.values["tricks"]) == ("tricks_negative", "B", -1)


@pytest.mark.parametrize("bad", [7.0, "7", True, None])
def test_non_integer_trick_count_is_refused(bad):
    e = error(rami(A, bad, 6))
    assert (e.code, e.values["pair"]) == ("tricks_not_integer", "A")


def test_rami_without_caller_is_refused():
    assert error(Deal(Game.RAMI, ByPair(9, 4))).code == "caller_missing"


def test_nolo_with_a_caller_is_refused():
    assert error(Deal(Game.NOLO, ByPair(9, 4), A)).code == "caller_for_nolo"


def test_unknown_game_is_refused():
    assert error(Deal("sooli", ByPair(9, 4))).code == "game_unknown"  # sooli is never played (§1)


def test_invalid_caller_is_refused():
    assert error(Deal(Game.RAMI, ByPair(9, 4), "C")).code == "pair_invalid"


def test_plain_strings_are_accepted_for_game_and_caller():
    assert score_deal(Deal("rami", ByPair(4, 9), "B")).winner is B


def test_penalised_flag_changes_no_points():
    # RULES.md §3: "the remaining tricks go to the opponents": only the counts change.
    assert score_deal(rami(A, 9, 4, penalised=True)) == score_deal(rami(A, 9, 4))
    assert error(rami(A, 9, 4, penalised="yes")).code == "penalised_invalid"


@pytest.mark.parametrize(("seat", "pair"), [(1, A), (3, A), (2, B), (4, B)])
def test_pair_of_seat(seat, pair):
    assert pair_of_seat(seat) is pair


@pytest.mark.parametrize("seat", [0, 5, "1", True])
def test_pair_of_invalid_seat_is_refused(seat):
    with pytest.raises(ScoringError) as info:
        pair_of_seat(seat)
    assert info.value.code == "seat_invalid"
