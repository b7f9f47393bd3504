"""The Saturday group schedule (RULES.md §4): round robin, same-club matches first, deals, tables."""

from __future__ import annotations

import functools
import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.draw import draw_groups, group_count, group_names
from scoring.errors import ScoringError
from scoring.schedule import (
    Round,
    ScheduledMatch,
    assign_tables,
    event_schedule,
    planned_deals,
    round_robin,
    same_club_rounds,
)

# --- independent reference implementations -----------------------------------------------------------


def check_round_robin(rounds: tuple[Round, ...], ids) -> None:
    """Every pair meets every other exactly once, plays at most once a round, rests exactly once if odd."""
    ids = list(ids)
    n = len(ids)
    odd = n % 2 == 1
    assert [r.number for r in rounds] == list(range(1, (n if odd else n - 1) + 1))
    met: Counter = Counter()
    rests: Counter = Counter()
    for rnd in rounds:
        playing = [p for match in rnd.matches for p in match]
        assert len(playing) == len(set(playing)), f"a pair plays twice in round {rnd.number}"
        if odd:
            assert rnd.resting is not None and rnd.resting not in playing
            rests[rnd.resting] += 1
            assert set(playing) | {rnd.resting} == set(ids)
        else:
            assert rnd.resting is None
            assert set(playing) == set(ids)
        for a, b in rnd.matches:
            assert a != b
            met[frozenset((a, b))] += 1
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(ids, 2)}
    assert set(met.values()) == {1}
    if odd:
        assert rests == Counter({p: 1 for p in ids})


def same(clubs, a, b) -> bool:
    return clubs.get(a) is not None and clubs.get(a) == clubs.get(b)


def maximum_matching(ids, clubs) -> int:
    """Brute force: the largest number of disjoint same-club matches (memoised over the set of used pairs)."""
    ids = list(ids)

    @functools.cache
    def best(used: int) -> int:
        free = [i for i in range(len(ids)) if not used >> i & 1]
        if not free:
            return 0
        v, rest = free[0], free[1:]
        result = best(used | 1 << v)  # v unmatched
        for w in rest:
            if same(clubs, ids[v], ids[w]):
                result = max(result, 1 + best(used | 1 << v | 1 << w))
        return result

    return best(0)


def textbook_circle(seats):
    """The circle method as in the textbooks: seat 0 stays, the others rotate one step a round."""
    seats = list(seats)
    rounds = []
    for _ in range(len(seats) - 1):
        rounds.append([(seats[i], seats[-1 - i]) for i in range(len(seats) // 2)])
        seats = [seats[0], seats[-1]] + seats[1:-1]
    return rounds


def seatings(labels):
    """Every distinct arrangement of a multiset of labels (pairs of one club are interchangeable here)."""
    counts = Counter(labels)
    arrangement: list = []

    def extend():
        if len(arrangement) == len(labels):
            yield tuple(arrangement)
            return
        for label in list(counts):
            if counts[label]:
                counts[label] -= 1
                arrangement.append(label)
                yield from extend()
                arrangement.pop()
                counts[label] += 1

    return extend()


def best_same_club_rounds(ids, clubs) -> tuple[int, ...]:
    """Brute force over every seating of the textbook circle: the lexicographically smallest ascending
    tuple of the rounds of same-club matches, playing the rounds with most same-club matches first.

    Only the club of each seat matters for this, so seats hold club labels (None: no club, or the rest).
    """
    labels = [clubs.get(p) for p in ids] + ([None] if len(ids) % 2 else [])
    best = None
    for seating in seatings(labels):
        counts = sorted(
            (sum(1 for a, b in rnd if a is not None and a == b) for rnd in textbook_circle(seating)),
            reverse=True,
        )
        result = tuple(number for number, count in enumerate(counts, start=1) for _ in range(count))
        if best is None or result < best:
            best = result
    return best


def test_textbook_circle_is_a_round_robin():
    # The reference itself must be right before it judges anything.
    rounds = textbook_circle(range(6))
    check_round_robin(tuple(Round(i + 1, tuple(r)) for i, r in enumerate(rounds)), range(6))


# --- round robin: validity -----------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 17))
def test_round_robin_without_clubs(n):
    ids = list(range(101, 101 + n))
    check_round_robin(round_robin(ids), ids)


def test_round_robin_with_string_ids_and_odd_count():
    ids = ["kaisa", "aapo", "pekka", "liisa", "otto"]
    rounds = round_robin(ids, {})
    check_round_robin(rounds, ids)
    assert len(rounds) == 5 and all(len(r.matches) == 2 for r in rounds)
    # Each match lists its pairs in id order.
    assert all(a < b for r in rounds for a, b in r.matches)


def test_round_robin_ignores_input_order_and_is_deterministic():
    ids = list(range(1, 10))
    clubs = {1: "X", 5: "X", 9: "X", 2: "Y", 3: "Y", 8: None}
    first = round_robin(ids, clubs)
    assert round_robin(reversed(ids), clubs) == first
    assert round_robin(ids, dict(reversed(clubs.items()))) == first
    # Clubs of pairs outside the group change nothing.
    assert round_robin(ids, {**clubs, 77: "X", 78: "Y"}) == first


@pytest.mark.parametrize(
    ("ids", "code"),
    [
        ([1], "group_too_small"),
        ([], "group_too_small"),
        ([1, 2, 1], "duplicate_pair"),
        ([1, 2.0], "pair_id_type"),
    ],
)
def test_round_robin_refusals(ids, code):
    with pytest.raises(ScoringError) as info:
        round_robin(ids)
    assert info.value.code == code


# --- round robin: same-club pairs first ----------------------------------------------------------------


def test_two_clubs_of_two_meet_in_round_1():
    # 4 pairs, clubs {1, 2} and {3, 4}: both mutual matches fit round 1 (they share no pair).
    clubs = {1: "Oulu", 2: "Oulu", 3: "Kemi", 4: "Kemi"}
    rounds = round_robin([1, 2, 3, 4], clubs)
    check_round_robin(rounds, [1, 2, 3, 4])
    assert set(rounds[0].matches) == {(1, 2), (3, 4)}
    assert same_club_rounds(rounds, clubs) == (1, 1)


def test_three_of_one_club_in_a_group_of_six():
    # 3 pairs of one club: a match takes two of them, so at most one of their 3 mutual matches per round;
    # the best is one each in rounds 1, 2 and 3.
    clubs = {1: "X", 2: "X", 3: "X"}
    rounds = round_robin(range(1, 7), clubs)
    check_round_robin(rounds, range(1, 7))
    assert same_club_rounds(rounds, clubs) == (1, 2, 3)


def test_two_clubs_of_three_in_a_group_of_six():
    # Each club of 3 has at most one match a round, so at most 2 same-club matches a round and the 6 need
    # at least 3 rounds: (1, 1, 2, 2, 3, 3) is the bound, and the circle reaches it.
    clubs = {1: "X", 2: "X", 3: "X", 4: "Y", 5: "Y", 6: "Y"}
    rounds = round_robin(range(1, 7), clubs)
    check_round_robin(rounds, range(1, 7))
    assert same_club_rounds(rounds, clubs) == (1, 1, 2, 2, 3, 3)
    assert best_same_club_rounds(range(1, 7), clubs) == (1, 1, 2, 2, 3, 3)


def test_four_of_one_club_in_a_group_of_eight():
    # 4 pairs w, x, y, z of one club: 6 mutual matches, at most 2 a round (round 1: wx, yz). Could a
    # second round hold two (wy, xz)? In the circle with 8 seats (7 rounds) seats s, t meet in round r
    # with s + t = 2r (mod 7), the fixed seat meets s in round s. All four on the circle: w+x = y+z and
    # w+y = x+z give 2x = 2y, so x = y; w on the fixed seat: y+z = 2x and x+z = 2y give 3x = 3y, so
    # x = y again (mod 7). So only round 1 holds two, and the other four go to rounds 2, 3, 4, 5.
    clubs = {1: "X", 2: "X", 3: "X", 4: "X"}
    rounds = round_robin(range(1, 9), clubs)
    check_round_robin(rounds, range(1, 9))
    assert same_club_rounds(rounds, clubs) == (1, 1, 2, 3, 4, 5)


def test_four_of_one_club_in_a_group_of_ten():
    # As above, at most 2 of the 6 a round, so (1, 1, 2, 2, 3, 3) at best. With 10 seats (9 rounds)
    # 3x = 3y no longer forces x = y (mod 9): the fixed seat with seats 0, 3, 6 meets them in rounds
    # 0, 3, 6, and 0+3 = 2*6, 0+6 = 2*3, 3+6 = 2*0 (mod 9) put the other three in rounds 6, 3, 0.
    clubs = {1: "X", 2: "X", 3: "X", 4: "X"}
    rounds = round_robin(range(1, 11), clubs)
    check_round_robin(rounds, range(1, 11))
    assert same_club_rounds(rounds, clubs) == (1, 1, 2, 2, 3, 3)


def test_clubs_of_three_three_and_two_in_a_group_of_eight():
    # 7 same-club matches; a club of 3 has at most one a round. Round 1 takes one of each club (3);
    # the remaining 2 + 2 of the clubs of three need two more rounds: (1, 1, 1, 2, 2, 3, 3) at best.
    clubs = {1: "X", 2: "X", 3: "X", 4: "Y", 5: "Y", 6: "Y", 7: "Z", 8: "Z"}
    rounds = round_robin(range(1, 9), clubs)
    check_round_robin(rounds, range(1, 9))
    assert same_club_rounds(rounds, clubs) == (1, 1, 1, 2, 2, 3, 3)


def test_odd_group_same_club_pairs_meet_in_round_1():
    # 7 pairs: 3 matches a round and one rest; clubs {1, 2}, {3, 4}, {5, 6} fill round 1 and 7 rests.
    clubs = {1: "A", 2: "A", 3: "B", 4: "B", 5: "C", 6: "C"}
    rounds = round_robin(range(1, 8), clubs)
    check_round_robin(rounds, range(1, 8))
    assert set(rounds[0].matches) == {(1, 2), (3, 4), (5, 6)}
    assert rounds[0].resting == 7


def test_club_values_need_not_be_orderable():
    # Clubs of different types (a database id next to a name) cannot be sorted; they need not be.
    clubs = {1: 17, 2: 17, 3: "Tornio", 4: "Tornio", 5: None}
    rounds = round_robin(range(1, 6), clubs)
    check_round_robin(rounds, range(1, 6))
    assert set(rounds[0].matches) == {(1, 2), (3, 4)}


@pytest.mark.parametrize(
    ("n", "clubs"),
    [
        (7, {1: "X", 2: "X", 3: "X", 4: "Y", 5: "Y", 6: "Z", 7: "Z"}),  # 3 + 2 + 2
        (7, {1: "X", 2: "X", 3: "X", 4: "X", 5: "X", 6: "Y", 7: "Y"}),  # 5 + 2
        (8, {1: "X", 2: "X", 3: "X", 5: "Y", 6: "Y", 7: "Y"}),  # 3 + 3
        (8, {1: "X", 2: "X", 3: "X", 4: "Y", 5: "Y", 6: "Y", 7: "Z", 8: "Z"}),  # 3 + 3 + 2
        (8, {1: "X", 2: "X", 3: "X", 4: "X", 5: "X", 7: "Y", 8: "Y"}),  # 5 + 2
    ],
)
def test_seven_and_eight_pairs_against_brute_force(n, clubs):
    ids = list(range(1, n + 1))
    rounds = round_robin(ids, clubs)
    check_round_robin(rounds, ids)
    assert same_club_rounds(rounds, clubs) == best_same_club_rounds(ids, clubs)


clubs_strategy = st.sampled_from([None, "A", "B", "C", "D", "E"])


@settings(max_examples=80, deadline=None)
@given(club_list=st.lists(clubs_strategy, min_size=2, max_size=14), offset=st.integers(0, 1000))
def test_schedule_property(club_list, offset):
    ids = [offset + i for i in range(len(club_list))]
    clubs = dict(zip(ids, club_list, strict=True))
    rounds = round_robin(ids, clubs)
    check_round_robin(rounds, ids)
    # Round 1 holds as many same-club matches as any set of disjoint same-club matches can have.
    first = sum(1 for a, b in rounds[0].matches if same(clubs, a, b))
    assert first == maximum_matching(ids, clubs)
    # No later round holds more same-club matches than an earlier one (else swapping them is earlier).
    counts = [sum(1 for a, b in r.matches if same(clubs, a, b)) for r in rounds]
    assert counts == sorted(counts, reverse=True)


@settings(max_examples=60, deadline=None)
@given(club_list=st.lists(st.sampled_from([None, "A", "B", "C"]), min_size=2, max_size=8))
def test_schedule_is_optimal_for_small_groups(club_list):
    # Up to 8 pairs: compare with every possible seating of the textbook circle.
    ids = list(range(1, len(club_list) + 1))
    clubs = dict(zip(ids, club_list, strict=True))
    assert same_club_rounds(round_robin(ids, clubs), clubs) == best_same_club_rounds(ids, clubs)


def test_same_club_rounds():
    clubs = {1: "X", 2: "X", 3: "Y", 4: None}
    rounds = (Round(1, ((1, 3), (2, 4))), Round(2, ((1, 2), (3, 4))), Round(3, ((1, 4), (2, 3))))
    assert same_club_rounds(rounds, clubs) == (2,)


# --- planned deals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "deals"),
    # RULES §4: 2-4 pairs 16 deals (2-pair groups as 3-pair ones), more than 4 pairs 12.
    [(2, 16), (3, 16), (4, 16), (5, 12), (8, 12), (14, 12)],
)
def test_planned_deals_defaults(size, deals):
    assert planned_deals(size) == deals
    assert planned_deals(size, cup_event=False) == deals


def test_planned_deals_organisers_choice():
    assert planned_deals(8, chosen=16) == 16
    assert planned_deals(4, chosen=20) == 20
    assert planned_deals(4, chosen=12) == 12  # the cup minimum is 12, not the default
    assert planned_deals(6, cup_event=False, chosen=8) == 8  # outside the cup no minimum but 1


@pytest.mark.parametrize(
    ("size", "kwargs", "code"),
    [
        (8, {"chosen": 11}, "too_few_deals"),
        (3, {"chosen": 8}, "too_few_deals"),
        (8, {"cup_event": False, "chosen": 0}, "too_few_deals"),
        (1, {}, "group_too_small"),
        (8, {"chosen": 12.0}, "not_an_integer"),
    ],
)
def test_planned_deals_refusals(size, kwargs, code):
    with pytest.raises(ScoringError) as info:
        planned_deals(size, **kwargs)
    assert info.value.code == code


def test_too_few_deals_says_the_minimum():
    with pytest.raises(ScoringError) as info:
        planned_deals(8, chosen=10)
    assert info.value.values == {"chosen": 10, "minimum": 12}


# --- tables and the whole event ------------------------------------------------------------------------


def test_tables_are_numbered_across_groups_in_group_order():
    # A and C have 4 pairs (3 rounds of 2 matches), B has 5 (5 rounds of 2 matches, one rests).
    groups = {"C": [9, 10, 11, 12], "A": [1, 2, 3, 4], "B": [5, 6, 7, 8, 13]}
    schedule = event_schedule(groups, {})
    assert all(isinstance(m, ScheduledMatch) for m in schedule)
    by_round: dict[int, list[tuple[int, str]]] = {}
    for m in schedule:
        by_round.setdefault(m.round, []).append((m.table, m.group))
    # Rounds 1-3: A on tables 1-2, B on 3-4, C on 5-6; rounds 4-5: only B, on tables 1-2.
    for r in (1, 2, 3):
        assert sorted(by_round[r]) == [(1, "A"), (2, "A"), (3, "B"), (4, "B"), (5, "C"), (6, "C")]
    for r in (4, 5):
        assert sorted(by_round[r]) == [(1, "B"), (2, "B")]
    assert len(schedule) == 6 + 10 + 6  # C(4,2) + C(5,2) + C(4,2)
    assert [(m.round, m.table) for m in schedule] == sorted((m.round, m.table) for m in schedule)


def test_tables_follow_group_order_beyond_z():
    names = group_names(27)  # … Z, AA
    rounds = (Round(1, (("x", "y"),)),)
    tables = assign_tables({name: rounds for name in reversed(names)})
    assert [m.group for m in tables] == list(names)
    assert [m.table for m in tables] == list(range(1, 28))


def test_event_schedule_matches_the_groups_round_robins():
    groups = {"A": [1, 2, 3, 4, 5], "B": [6, 7, 8, 9]}
    clubs = {1: "X", 2: "X", 6: "Y", 9: "Y"}
    schedule = event_schedule(groups, clubs)
    for name, ids in groups.items():
        mine = [m for m in schedule if m.group == name]
        expected = {(r.number, a, b) for r in round_robin(ids, clubs) for a, b in r.matches}
        assert {(m.round, m.a, m.b) for m in mine} == expected
    assert {(m.a, m.b) for m in schedule if m.round == 1} >= {(1, 2), (6, 9)}


def test_a_pair_in_two_groups_is_refused():
    with pytest.raises(ScoringError) as info:
        event_schedule({"A": [1, 2, 3], "B": [3, 4, 5]})
    assert info.value.code == "pair_in_two_groups"
    assert info.value.values["pair"] == 3


@settings(max_examples=20, deadline=None)
@given(
    n=st.integers(16, 80),
    seed=st.integers(0, 2**63 - 1),
    club_of=st.lists(st.integers(0, 12), min_size=80, max_size=80),
)
def test_event_schedule_property(n, seed, club_of):
    ids = list(range(1, n + 1))
    clubs = {p: club_of[p - 1] for p in ids}
    groups = dict(zip(group_names(group_count(n)), draw_groups(ids, seed, group_count(n)), strict=True))
    schedule = event_schedule(groups, clubs)
    # A table never has two matches in one round; a pair never plays twice in a round.
    assert len({(m.round, m.table) for m in schedule}) == len(schedule)
    for r in {m.round for m in schedule}:
        tables = sorted(m.table for m in schedule if m.round == r)
        assert tables == list(range(1, len(tables) + 1))
        playing = [p for m in schedule if m.round == r for p in (m.a, m.b)]
        assert len(playing) == len(set(playing))
    # Every pair meets every other pair of its group exactly once, and no one outside it.
    for name, members in groups.items():
        pairs = Counter(frozenset((m.a, m.b)) for m in schedule if m.group == name)
        assert set(pairs) == {frozenset(c) for c in itertools.combinations(members, 2)}
        assert set(pairs.values()) == {1}
    assert len(schedule) == sum(len(g) * (len(g) - 1) // 2 for g in groups.values())

