"""The fixed pairs' outcome built leg by leg (scoring.cup_reach_legs): what it returns is always an outcome
that can happen, and it finds the ones the pooled model's other lower bounds miss."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cup_reach_legs import by_legs

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
