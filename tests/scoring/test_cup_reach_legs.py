"""The fixed pairs' outcome leg by leg (scoring.cup_reach_legs, scoring.cup_reach_legs_lp): what the
construction, the search and the relaxation return is always an outcome that can happen, the search finds
one exactly when brute force does, and they find the ones the pooled model's other lower bounds miss."""

from collections import Counter
from itertools import combinations_with_replacement, product

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cup_reach_legs import by_legs, by_search, is_outcome, placed
from scoring.cup_reach_legs_lp import DIVES, by_relaxation, upper_bound

PAIRS = [frozenset(p) for p in ("ab", "ac", "ad", "bc", "bd", "cd", "ef", "ae")]


def _assert_an_outcome(entrants, values, legs, cap, target, taken):
    """Each taken entrant's places beat its need, in different legs; a place of a leg holds at most
    ``cap`` entrants; a player plays at most one pair a leg; at most ``target`` entrants."""
    assert len(taken) <= target
    per_slot, playing = Counter(), set()
    for k, slots in taken.items():
        need, players = entrants[k]
        assert sum(values[p] for _, p in slots) > need
        assert len({g for g, _ in slots}) == len(slots)
        for g, p in slots:
            assert 0 <= g < legs and 0 <= p < len(values)
            per_slot[(g, p)] += 1
            assert per_slot[(g, p)] <= cap
            for q in players:
                assert (q, g) not in playing
                playing.add((q, g))


@st.composite
def problems(draw):
    legs = draw(st.integers(1, 3))
    values = sorted(draw(st.lists(st.integers(1, 12), min_size=1, max_size=4, unique=True)), reverse=True)
    pairs = draw(st.lists(st.sampled_from(PAIRS), min_size=1, max_size=6, unique=True))
    newcomers = draw(st.integers(0, 2))
    entrants = sorted(
        [(draw(st.integers(0, 16)), pair) for pair in pairs]
        + [(draw(st.integers(0, 16)), frozenset())] * newcomers,
        key=lambda e: e[0],
    )
    return entrants, values, legs, draw(st.integers(1, 2)), draw(st.integers(1, len(entrants)))


@settings(max_examples=400, deadline=None)
@given(problems())
def test_what_it_builds_is_an_outcome_that_can_happen(problem):
    entrants, values, legs, cap, target = problem
    _assert_an_outcome(entrants, values, legs, cap, target, by_legs(entrants, values, legs, cap, target))


def test_pairs_sharing_a_player_pass_in_different_legs():
    # a plays in (a, b) and (a, c): two legs, one each, both on the one place that is enough
    entrants = [(4, frozenset("ab")), (4, frozenset("ac"))]
    taken = by_legs(entrants, [5, 1], 2, 1, 2)
    _assert_an_outcome(entrants, [5, 1], 2, 1, 2, taken)
    assert sorted(g for slots in taken.values() for g, _ in slots) == [0, 1]


def test_a_pair_holding_a_place_alone_moves_to_let_another_in():
    # each needs more than 3: a first place (5) alone or a second and a third (3 + 1) in two legs. (c, d)
    # and (a, d) share d, so they need both legs' first places; (e, f), taking one first, must move to a
    # second and a third for all three to pass
    entrants = [(3, frozenset("cd")), (3, frozenset("ef")), (3, frozenset("ad"))]
    taken = by_legs(entrants, [5, 3, 1], 2, 1, 3)
    _assert_an_outcome(entrants, [5, 3, 1], 2, 1, 3, taken)
    assert len(taken) == 3
    assert sorted(p for _, p in taken[1]) == [1, 2]  # (e, f): a second and a third


def test_it_never_passes_more_than_can_play():
    # d plays in three pairs, each passing only with a place of its own leg: two legs, two pass
    entrants = [(0, frozenset("bd")), (1, frozenset("cd")), (1, frozenset("ad"))]
    taken = by_legs(entrants, [3, 2, 1], 2, 1, 3)
    _assert_an_outcome(entrants, [3, 2, 1], 2, 1, 3, taken)
    assert len(taken) == 2


def _minimal_by_definition(values, legs):
    """Minimal patterns for integer gains (``values[p - 1]`` the gain of place p, non-increasing): the
    place multisets of at most ``legs`` items whose gain beats the need, where worsening any item by a
    place (the last place dropped) does not."""
    width = len(values)

    def gain(pattern):
        return sum(values[p - 1] for p in pattern)

    def minimal(need):
        out = []
        for size in range(1, legs + 1):
            for pattern in combinations_with_replacement(range(1, width + 1), size):
                if gain(pattern) <= need:
                    continue
                worse = [
                    pattern[:i] + ((p + 1,) if p < width else ()) + pattern[i + 1 :]
                    for i, p in enumerate(pattern)
                ]
                if all(gain(w) <= need for w in worse):
                    out.append(pattern)
        return out

    return minimal


def _brute_serves(entrants, values, legs, cap, want) -> bool:
    """Can ``want`` of the entrants pass at once? Every place (or none) of every leg for each entrant."""
    width = len(values)
    used = Counter()
    playing = set()

    def go(k, passed):
        if passed >= want:
            return True
        if k == len(entrants) or passed + len(entrants) - k < want:
            return False
        need, players = entrants[k]
        for vector in product(range(width + 1), repeat=legs):  # 0: does not play the leg
            slots = [(g, p) for g, p in enumerate(vector) if p]
            if not slots or sum(values[p - 1] for _, p in slots) <= need:
                continue
            if any(used[s] >= cap for s in slots) or any(
                (q, g) in playing for g, _ in slots for q in players
            ):
                continue
            for s in slots:
                used[s] += 1
            playing.update((q, g) for g, _ in slots for q in players)
            ok = go(k + 1, passed + 1)
            for s in slots:
                used[s] -= 1
            playing.difference_update((q, g) for g, _ in slots for q in players)
            if ok:
                return True
        return go(k + 1, passed)

    return go(0, 0)


@settings(max_examples=300, deadline=None)
@given(problems(), st.data())
def test_the_search_finds_an_outcome_exactly_when_one_exists(problem, data):
    # against every place of every leg for each entrant: found iff brute force finds one, and what it
    # finds is an outcome that can happen with ``want`` entrants passing
    entrants, values, legs, cap, _ = problem
    entrants = entrants[: 4 if legs < 3 else 3]  # brute force: (places + 1) ** legs per entrant
    want = data.draw(st.integers(1, len(entrants)))
    minimal = _minimal_by_definition(values, legs)
    taken, nodes = by_search(entrants, minimal, legs, cap, len(values), 10**6, want)
    assert nodes <= 10**6
    assert (taken is not None) == _brute_serves(entrants, values, legs, cap, want)
    if taken is not None:
        assert len(taken) == want
        assert is_outcome(taken, entrants, legs, cap, len(values), want)
        _assert_an_outcome(entrants, values, legs, cap, want, placed(taken, legs, cap))


@settings(max_examples=200, deadline=None)
@given(problems(), st.data())
def test_the_relaxation_builds_only_outcomes_that_can_happen(problem, data):
    entrants, values, legs, cap, _ = problem
    want = data.draw(st.integers(1, len(entrants)))
    minimal = _minimal_by_definition(values, legs)
    taken, _, solves = by_relaxation(entrants, minimal, legs, cap, len(values), want)
    assert solves <= DIVES
    if taken is not None:
        assert len(taken) >= want
        assert is_outcome(taken, entrants, legs, cap, len(values), want)
        _assert_an_outcome(entrants, values, legs, cap, len(taken), placed(taken, legs, cap))
        if len(entrants) <= (4 if legs < 3 else 3):
            assert _brute_serves(entrants, values, legs, cap, want)


def test_the_search_serves_a_field_the_construction_leg_by_leg_cannot():
    # three legs of two places (7, 5): (d, e) needs more than 5 (a first, or two seconds), (c, e) more
    # than 7 (two places), (a, d) more than 13 (two firsts, or three places). Only one way lets all three
    # pass: (a, d) on the first places of two legs, (d, e) on the third leg's first, (c, e) on the
    # seconds of the two legs (a, d) plays; the construction leg by leg lets two pass
    values = [7, 5]
    entrants = [(5, frozenset("de")), (7, frozenset("ce")), (13, frozenset("ad"))]
    assert len(by_legs(entrants, values, 3, 1, 3)) == 2
    minimal = _minimal_by_definition(values, 3)
    taken, _ = by_search(entrants, minimal, 3, 1, 2, 1000)
    assert taken is not None and len(taken) == 3
    _assert_an_outcome(entrants, values, 3, 1, 3, placed(taken, 3, 1))
    assert sorted(p for _, p in taken[2]) == [1, 1] and taken[0][0][1] == 1
    relaxed, _, _ = by_relaxation(entrants, minimal, 3, 1, 2, 3)
    assert relaxed is not None and len(relaxed) == 3
    _assert_an_outcome(entrants, values, 3, 1, 3, placed(relaxed, 3, 1))


def test_an_outcome_check_refuses_what_cannot_happen():
    entrants = [(0, frozenset("ab")), (0, frozenset("ac"))]
    assert is_outcome({0: ((0, 1),), 1: ((1, 1),)}, entrants, 2, 1, 2, 2)
    assert not is_outcome({0: ((0, 1),), 1: ((0, 2),)}, entrants, 2, 1, 2, 2)  # a twice in leg 0
    assert not is_outcome({0: ((0, 1),), 1: ((1, 1),)}, entrants, 2, 1, 2, 3)  # fewer than wanted
    two = [(0, frozenset("ab")), (0, frozenset("cd"))]
    assert not is_outcome({0: ((0, 1),), 1: ((0, 1),)}, two, 2, 1, 2, 2)  # one first place, two asks
    assert is_outcome({0: ((0, 1),), 1: ((0, 2),)}, two, 2, 1, 2, 2)
    assert not is_outcome({0: ((0, 1), (0, 2))}, two, 2, 1, 2, 1)  # two items in one leg


def _brute_most(entrants, values, legs, cap) -> int:
    most = 0  # if w cannot pass at once, more cannot either
    while most < len(entrants) and _brute_serves(entrants, values, legs, cap, most + 1):
        most += 1
    return most


@settings(max_examples=150, deadline=None)
@given(problems())
def test_the_bound_leg_by_leg_is_never_below_what_can_pass(problem):
    # proved in integers from the solver's prices: never below brute force's most
    entrants, values, legs, cap, _ = problem
    entrants = entrants[: 4 if legs < 3 else 3]
    minimal = _minimal_by_definition(values, legs)
    bound = upper_bound(entrants, minimal, legs, cap, len(values))
    most = _brute_most(entrants, values, legs, cap)
    assert bound is not None and most <= bound <= len(entrants)


def test_the_bound_leg_by_leg_counts_a_player_once_a_leg():
    # one leg of three places: every pair passes with any place, but a plays in all three pairs, so one
    # passes (the pooled model, which forgets the players, counts three)
    values = [3, 2, 1]
    entrants = [(0, frozenset("ab")), (0, frozenset("ac")), (0, frozenset("ad"))]
    assert upper_bound(entrants, _minimal_by_definition(values, 1), 1, 1, 3) == 1
    assert upper_bound(entrants[:1] + [(0, frozenset("cd"))], _minimal_by_definition(values, 1), 1, 1, 3) == 2
